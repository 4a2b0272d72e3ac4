-- l3build configuration of the staunton LaTeX package: `l3build check` runs the test
-- files of testfiles/ with pdfLaTeX, XeLaTeX and LuaLaTeX; `l3build doc` typesets
-- staunton-doc.tex; `l3build ctan` makes the CTAN archive.
module = "staunton"
sourcefiles = { "staunton.sty", "staunton-chessboard.tex" }
installfiles = sourcefiles
typesetfiles = { "staunton-doc.tex" }
textfiles = { "README.md" }
checkengines = { "pdftex", "xetex", "luatex" }
-- The tests run in two-run mode (no shell escape): the requests and the messages are
-- what they check, not Staunton's drawing. testfiles/support holds a prepared folder.
checkopts = "-interaction=nonstopmode -no-shell-escape"
supportdir = "testfiles/support"
checkruns = 1
stdengine = "pdftex"
-- The manual draws its diagrams with Staunton during the run: `staunton` on the PATH.
typesetexe = "pdflatex"
typesetopts = "-interaction=nonstopmode -halt-on-error -shell-escape"
typesetruns = 2
-- What the CTAN archive holds beside the package: the latexmk rule.
docfiles = { "latexmkrc", "staunton-example.pgn" }

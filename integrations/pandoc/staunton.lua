--[[
staunton.lua — a pandoc Lua filter: fenced code blocks of class fen, chess, chessboard or
pgn become chess diagrams drawn by the `staunton` command line.

  pandoc --lua-filter integrations/pandoc/staunton.lua doc.md -o doc.html

Each fence's class and attributes are turned back into an info string
(```{.fen size=300} -> "fen size=300") and handed with the body to
`staunton fence --info INFO --images DIR --format F`, which writes the image (once per
distinct request) and prints its path, the alt text, the caption and its width and
height in pixels. HTML images carry that width and height (CSS pixels), so a page does
not reflow as they load.

  HTML, EPUB, reveal.js…  SVG
  docx, odt, pptx          PNG at 300 dpi: 8 cm wide, or the fence's size in CSS pixels
                           (size/96 inch) drawn with 300/96 as many pixels
  LaTeX, beamer, ConTeXt   PDF (vector; 8 cm wide unless the fence gives a size in pt)

Settings. The program is the command line's choice, never the document's: pandoc cannot
tell a document's front matter from `--metadata` given on its command line, so the
filter reads these two from the environment only:
  STAUNTON_BIN     the program                                  (staunton on PATH)
  STAUNTON_IMAGES  folder for the images, anywhere               (staunton-diagrams)
A document that names `staunton-bin` stops pandoc (nothing is run). A document may pick a
folder for its images with `staunton-images`, but only a relative one inside the folder
pandoc runs in (or inside STAUNTON_IMAGES when that is set): no absolute path, no `..`,
no link that leads out (`staunton fence --images-within` checks the links); anything
else stops pandoc before an image is written.
These may come from the document's metadata, else the environment, else the default:
  staunton-format  STAUNTON_FORMAT  svg, png or pdf for any output (by output format)
  staunton-lang    STAUNTON_LANG    language of the alt text       (the document's lang,
                                                                    when Staunton has it)
A fence that cannot be rendered stops pandoc with staunton's sentence.
]]

local KINDS = { fen = true, chess = true, chessboard = true, pgn = true }
local LANGS = { en = true, de = true, it = true, fr = true, es = true, nl = true, ja = true }
local PRINT_DPI, CSS_DPI, CM_PER_INCH = 300, 96, 2.54
local DEFAULT_CM = 8

local function env(name)
  local value = os.getenv(name)
  if value == "" then return nil end
  return value
end

local config = { bin = env("STAUNTON_BIN") or "staunton", images = "staunton-diagrams" }

local function setting(meta, field, name)
  if meta[field] ~= nil then return pandoc.utils.stringify(meta[field]) end
  return env(name)
end

local function refuse(sentence)
  error("\nstaunton.lua: " .. sentence, 0)
end

-- The images folder: STAUNTON_IMAGES, or a relative folder the document names inside the
-- current folder (or inside STAUNTON_IMAGES), which `staunton fence` is told to keep to.
local function read_images(meta)
  local folder = env("STAUNTON_IMAGES")
  if meta["staunton-images"] == nil then
    config.images = folder or config.images
    return
  end
  local sub = pandoc.utils.stringify(meta["staunton-images"])
  local allowed = "a relative folder inside " .. (folder or "the current folder") ..
    " (no absolute path, no `..`); set STAUNTON_IMAGES in the environment for a folder elsewhere"
  if sub == "" or sub:match("^[/\\~]") or sub:match("^%a:") or sub:match("\\") then
    refuse("staunton-images " .. string.format("%q", sub) .. " is not allowed: a document may name " .. allowed)
  end
  for part in sub:gmatch("[^/]+") do
    if part == ".." then
      refuse("staunton-images " .. string.format("%q", sub) .. " is not allowed: a document may name " .. allowed)
    end
  end
  config.images = folder and (folder .. "/" .. sub) or sub
  config.within = folder or "."
end

local function read_meta(meta)
  if meta["staunton-bin"] ~= nil then
    refuse("the document names staunton-bin, but the program is never taken from a document " ..
      "(nor from --metadata, which pandoc cannot tell apart): set STAUNTON_BIN in the environment, " ..
      "or put staunton on PATH")
  end
  read_images(meta)
  config.format = setting(meta, "staunton-format", "STAUNTON_FORMAT")
  config.lang = setting(meta, "staunton-lang", "STAUNTON_LANG")
  if not config.lang and meta.lang then
    -- "de-CH" -> "de", used only when Staunton describes positions in that language.
    local primary = pandoc.utils.stringify(meta.lang):match("^(%a%a)")
    if primary and LANGS[primary:lower()] then config.lang = primary:lower() end
  end
end

-- The image format for the output format pandoc is writing.
local function image_format()
  if config.format then return config.format end
  local f = FORMAT
  if f == "docx" or f == "odt" or f == "pptx" or f == "rtf" then return "png" end
  if f == "latex" or f == "beamer" or f == "context" then return "pdf" end
  return "svg"
end

-- A value as one word of the info string; values with spaces or quotes are quoted.
local function info_word(key, value)
  if value:match("[%s\"']") then
    return key .. '="' .. value:gsub('\\', '\\\\'):gsub('"', '\\"') .. '"'
  end
  return key .. "=" .. value
end

-- The size the fence asks for, as a number, or nil: a `size:` line of the body wins over
-- the attribute, as in staunton's fence grammar.
local function fence_size(el)
  local size
  for line in (el.text .. "\n"):gmatch("([^\n]*)\n") do
    size = line:match("^%s*size%s*:%s*(%d+)%s*$") or line:match("^%s*%-%-.-%-%-size=(%d+)")
      or line:match("^%s*%-%-size=(%d+)") or size
  end
  return tonumber(size or el.attributes["size"])
end

-- For PNG: pixels and printed width. The fence's size counts as CSS pixels (1/96 inch)
-- and is drawn at 300 dpi, so the page shows it as large as a browser would, but sharp.
local function print_size(el)
  local css = fence_size(el)
  local inches = css and css / CSS_DPI or DEFAULT_CM / CM_PER_INCH
  local pixels = math.min(2048, math.floor(inches * PRINT_DPI + 0.5))
  return pixels, string.format("%.2fcm", inches * CM_PER_INCH)
end

-- The info string and body handed to staunton, and the width attribute of the image.
local function request(el, format)
  local words = {}
  local body = el.text
  local width
  local print_pixels
  if format == "png" then
    print_pixels, width = print_size(el)
    -- The print size replaces the fence's own: drop its size: lines from the body.
    body = ("\n" .. body):gsub("\n%s*size%s*:[^\n]*", ""):sub(2)
    -- … and the size flag of a fen2png line (`--size=200 --flip`).
    body = body:gsub("%-%-size=%S*", "")
  end
  for key, value in pairs(el.attributes) do
    if not (print_pixels and key == "size") then
      table.insert(words, info_word(key, value))
    end
  end
  table.sort(words) -- pairs() has no order; the same fence must make the same request
  if print_pixels then table.insert(words, "size=" .. print_pixels) end
  table.insert(words, 1, el.classes[1])
  return table.concat(words, " "), body, width
end

-- Runs `staunton fence`; returns path, alt, caption and the image's width and height in
-- pixels (nil from a staunton that prints three lines), or stops pandoc with the sentence.
local function run_staunton(info, body, format)
  local args = { "fence", "--info", info, "--images", config.images, "--format", format }
  if config.within then
    table.insert(args, "--images-within"); table.insert(args, config.within)
  end
  if format == "pdf" then
    -- 8 cm in points (PDF: 1 px = 1 pt) unless the fence gives a size.
    table.insert(args, "--set"); table.insert(args, "size=227")
  end
  if config.lang then table.insert(args, "--lang"); table.insert(args, config.lang) end
  -- stderr goes to a file through sh, so the error message can carry staunton's sentence.
  local errfile = os.tmpname()
  local ok, out = pcall(pandoc.pipe, "sh",
    { "-c", 'f=$1; shift; exec "$@" 2>"$f"', "sh", errfile, config.bin, table.unpack(args) }, body)
  local handle = io.open(errfile, "r")
  local stderr = handle and handle:read("a") or ""
  if handle then handle:close() end
  os.remove(errfile)
  if not ok then
    local sentence = stderr:match("^%s*(.-)%s*$")
    if sentence == "" then sentence = "`" .. config.bin .. " fence` failed: " .. tostring(out) end
    error("\nstaunton.lua: the " .. info .. " fence beginning \"" ..
      (body:match("^%s*([^\n]*)") or "") .. "\" was not rendered: " .. sentence, 0)
  end
  if stderr ~= "" then io.stderr:write(stderr) end
  local path, alt, caption = out:match("^([^\n]*)\n([^\n]*)\n([^\n]*)")
  if not path then
    error("\nstaunton.lua: `" .. config.bin .. " fence` did not print path, alt and caption: " .. out, 0)
  end
  local w, h = out:match("^[^\n]*\n[^\n]*\n[^\n]*\n(%d+) (%d+)")
  return path, alt, caption, tonumber(w), tonumber(h)
end

-- Text as pandoc inlines (words and spaces), for alt texts and captions.
local function inlines(text)
  local result = {}
  for word in text:gmatch("%S+") do
    if #result > 0 then table.insert(result, pandoc.Space()) end
    table.insert(result, pandoc.Str(word))
  end
  return result
end

local function html_escape(s)
  return (s:gsub("&", "&amp;"):gsub("<", "&lt;"):gsub(">", "&gt;"):gsub('"', "&quot;"))
end

local function is_html()
  return FORMAT:match("html") ~= nil or FORMAT:match("epub") ~= nil or FORMAT == "revealjs"
end

-- An image's width and height in CSS pixels for HTML: the pixels staunton reports, or, for
-- a PNG drawn at print size (300 dpi), that many pixels at 96 a inch. nil when unknown.
local function css_size(el, format, w, h)
  if not (w and h) then return nil end
  if format ~= "png" then return w, h end
  local css = fence_size(el) or DEFAULT_CM / CM_PER_INCH * CSS_DPI
  return math.floor(css + 0.5), math.floor(css * h / w + 0.5)
end

local function diagram(el)
  if not KINDS[(el.classes[1] or ""):lower()] then return nil end
  local format = image_format()
  local info, body, width = request(el, format)
  local path, alt, caption, w, h = run_staunton(info, body, format)
  local attributes = width and { width = width } or {}
  local cw, ch = css_size(el, format, w, h)
  if is_html() and cw then
    attributes = { width = tostring(cw), height = tostring(ch) }
  end
  local attr = pandoc.Attr("", {}, attributes)
  if caption == "" then
    return pandoc.Para({ pandoc.Image(inlines(alt), path, "", attr) })
  end
  if is_html() then
    -- pandoc 2's figures take their alt text from the caption; keep the description.
    local size = cw and string.format(' width="%d" height="%d"', cw, ch) or ""
    return pandoc.RawBlock("html", string.format(
      '<figure class="staunton-diagram">\n<img src="%s" alt="%s"%s />\n<figcaption>%s</figcaption>\n</figure>',
      html_escape(path), html_escape(alt), size, html_escape(caption)))
  end
  if pandoc.Figure then
    -- pandoc 3: figures are blocks of their own (the "fig:" title means nothing there).
    return pandoc.Figure(pandoc.Plain({ pandoc.Image(inlines(alt), path, "", attr) }),
      { pandoc.Plain(inlines(caption)) })
  end
  -- pandoc 2.x: an image alone in a paragraph, titled "fig:…", is a figure whose
  -- caption is the image's description.
  return pandoc.Para({ pandoc.Image(inlines(caption), path, "fig:" .. alt, attr) })
end

-- pandoc's own Markdown reader does not take ```fen size=300 (words after the first in an
-- info string, outside braces) for a fence: it reads the whole block as inline code, and
-- the diagram would be gone without a word. Such code is named in a warning; it stays
-- in the document as code.
local function misread_fence(el)
  local word = el.text:match("^(%a+)%s+[%w_-]+=")
  if not word or not KINDS[word:lower()] then return nil end
  local shown = el.text
  if #shown > 60 then shown = shown:sub(1, 57) .. "..." end
  io.stderr:write(string.format(
    "staunton.lua: warning: pandoc's Markdown reader took a %s fence for inline code (%q), " ..
    "so it is not drawn: write its options in braces, ```{.%s size=300}, or in its body " ..
    "(`size: 300`)\n", word, shown, word:lower()))
  return nil
end

return {
  { Meta = function(meta) read_meta(meta) end },
  { CodeBlock = diagram, Code = misread_fence },
}

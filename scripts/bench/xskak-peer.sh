#!/usr/bin/env bash
# The article's LaTeX peer: times one pdflatex run of scripts/bench/peer/opera.tex (the Opera game
# set by hand with xskak + chessboard) against `staunton article` on the same game
# (tests/fixtures/articles/opera.pgn), side by side in ONE hyperfine run, then prints the
# ratio and renders both first pages to PNG (pdftoppm, 80 dpi) for a look.
#   pdflatex  `pdflatex -interaction=batchmode opera.tex`, one run (the file has no
#             references, so one run is its finished output). The PGN-to-TeX step a user
#             would also need (xskak reads no PGN) is not timed: opera.tex is written by hand.
#   Staunton  `$STAUNTON article opera.pgn -o out.pdf`. When the binary has no `article`
#             subcommand (`$STAUNTON article --help` fails) or is missing, this half is
#             skipped with a message and pdflatex is timed alone.
# Installs what it lacks with apt-get (run as root): the TeX packages xskak needs
# (texlive-games: skak, xskak, chessboard, chessfss; texlive-plain-generic: lambda.sty,
# which skak loads; texlive-latex-extra: xifthen, ifmtarg; texlive-pictures: pgf;
# texlive-latex-recommended: xkeyval, xcolor, etoolbox), hyperfine and poppler-utils.
# Environment: STAUNTON (default target/release/staunton; build it first with
# `cargo build --release`), OUT (where the PNGs go; default a new temporary directory),
# RUNS (timed runs per command, default 10; one untimed warm-up run each before).
# Usage: scripts/bench/xskak-peer.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
me=xskak-peer.sh
staunton=${STAUNTON:-target/release/staunton}
runs=${RUNS:-10}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "$me: RUNS must be a positive integer, not $runs" >&2; exit 2; }
out=${OUT:-$(mktemp -d /tmp/xskak-peer-out.XXXXXX)}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# What is missing, as Debian package names; one apt-get for all of it.
need=()
command -v pdflatex >/dev/null || need+=(texlive-latex-base)
for pair in xskak.sty:texlive-games lambda.sty:texlive-plain-generic \
    xifthen.sty:texlive-latex-extra pgf.sty:texlive-pictures \
    xkeyval.sty:texlive-latex-recommended; do
    if ! command -v kpsewhich >/dev/null || [[ -z $(kpsewhich "${pair%%:*}") ]]; then
        need+=("${pair#*:}")
    fi
done
command -v hyperfine >/dev/null || need+=(hyperfine)
command -v pdftoppm >/dev/null || need+=(poppler-utils)
if ((${#need[@]})); then
    echo "$me: installing ${need[*]}" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

work=$(mktemp -d /tmp/xskak-peer.XXXXXX)
trap 'rm -rf "$work"' EXIT
cp scripts/bench/peer/opera.tex tests/fixtures/articles/opera.pgn "$work/"

# A failing LaTeX run would be timed as a fast one: compile once first and stop on error.
if ! (cd "$work" && pdflatex -interaction=batchmode opera.tex >/dev/null); then
    echo "$me: pdflatex failed on opera.tex; its log:" >&2
    tail -40 "$work/opera.log" >&2
    exit 1
fi

commands=("pdflatex -interaction=batchmode opera.tex")
names=(pdflatex)
if [[ -x $staunton ]] && "$staunton" article --help >/dev/null 2>&1; then
    bin=$(cd "$(dirname "$staunton")" && pwd)/$(basename "$staunton")
    commands+=("$bin article opera.pgn -o out.pdf")
    names+=(staunton)
else
    echo "$me: $staunton is missing or has no 'article' subcommand; timing pdflatex alone" >&2
fi

args=()
for i in "${!commands[@]}"; do args+=(--command-name "${names[$i]}" "${commands[$i]}"); done
(cd "$work" && hyperfine --warmup 1 --runs "$runs" --export-json times.json "${args[@]}")

# The ratio from hyperfine's JSON (means in seconds), without jq.
python3 - "$work/times.json" <<'EOF'
import json, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
tex = results["pdflatex"]
print(f"pdflatex: mean {tex['mean'] * 1000:.0f} ms (± {tex['stddev'] * 1000:.0f} ms)")
if "staunton" in results:
    st = results["staunton"]
    print(f"staunton article: mean {st['mean'] * 1000:.1f} ms (± {st['stddev'] * 1000:.1f} ms)")
    print(f"ratio pdflatex / staunton: {tex['mean'] / st['mean']:.1f}x")
EOF

pdftoppm -r 80 -png -f 1 -l 1 -singlefile "$work/opera.pdf" "$out/xskak"
echo "first page of the xskak PDF: $out/xskak.png"
if [[ -f $work/out.pdf ]]; then
    pdftoppm -r 80 -png -f 1 -l 1 -singlefile "$work/out.pdf" "$out/staunton"
    echo "first page of Staunton's PDF: $out/staunton.png"
fi

#!/usr/bin/env bash
# Builds the book (docs/) with mdBook into target/book, and checks every relative link and
# image in docs/src/**/*.md, README.md and CHANGELOG.md: the file must exist on disk, and a
# link's #anchor must name a heading of the Markdown file it points to. Exit status 1 on
# any broken link, image or anchor, or on a chapter that SUMMARY.md does not list.
#
#   scripts/ci/check-book.sh
#
# Installs the pinned mdBook with `cargo install` when `mdbook --version` is another one.
# Builds the release binary first: the book's diagram fences are drawn by `staunton mdbook`
# (docs/book.toml), this build's.
set -euo pipefail
cd "$(dirname "$0")/../.."

mdbook_version=0.5.3
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
if [ "$(mdbook --version 2> /dev/null || true)" != "mdbook v$mdbook_version" ]; then
  echo "== cargo install mdbook $mdbook_version"
  # A target dir of its own, so the install neither waits for nor fills the crate's.
  CARGO_TARGET_DIR="${TMPDIR:-/tmp}/mdbook-build" \
    cargo install mdbook --version "$mdbook_version" --locked --quiet
fi
mdbook --version

echo "== cargo build --release (staunton mdbook draws the book's diagrams)"
cargo build --release --quiet
# Absolute: mdBook runs the preprocessor from docs/.
PATH="$(scripts/target-dir.sh)/release:$PATH"
export PATH
# mdBook skips a preprocessor whose `supports` fails and leaves the fences as code.
staunton mdbook supports html || {
  echo "check-book: $(command -v staunton) has no mdbook command" >&2
  exit 1
}

echo "== mdbook build docs --dest-dir target/book"
rm -rf target/book
mdbook build docs --dest-dir "$PWD/target/book"
test -s target/book/index.html

echo "== relative links, images and anchors in README.md, CHANGELOG.md and docs/src"
python3 - README.md CHANGELOG.md $(find docs/src -name '*.md' | sort) << 'EOF'
import os, re, sys

# A backtick fence's info string holds no backtick (CommonMark): ```` ```chess ```` is code.
FENCE = re.compile(r"^ {0,3}(```|~~~)(?:(?<=```)`*[^`\n]*$|(?<=~~~).*$)")
LINK = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML = re.compile(r"<(?:img|a)\b[^>]*?\b(?:src|href)=\"([^\"]*)\"", re.I)
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")


def prose(path):
    """The file's lines outside fenced code blocks, with inline code blanked."""
    out, fence = [], None
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            m = FENCE.match(line)
            if fence:
                if m and m.group(1) == fence:
                    fence = None
                continue
            if m:
                fence = m.group(1)
                continue
            out.append((number, re.sub(r"(`+)(.+?)\1", lambda c: " " * len(c.group(0)), line)))
    return out


def slug(text):
    """A heading's id as mdBook (and GitHub) make it."""
    text = re.sub(r"`([^`]*)`", r"\1", text)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"<[^>]+>", "", text)
    out = []
    for ch in text:
        if ch.isalnum() or ch in "_-":
            out.append(ch.lower() if ch.isascii() else ch)
        elif ch.isspace():
            out.append("-")
    return "".join(out)


anchors = {}


def ids(path):
    if path not in anchors:
        seen, found = {}, set()
        fence = None
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = FENCE.match(line)
                if fence:
                    fence = None if m and m.group(1) == fence else fence
                    continue
                if m:
                    fence = m.group(1)
                    continue
                h = HEADING.match(line)
                if h:
                    base = slug(h.group(2))
                    n = seen.get(base, 0)
                    seen[base] = n + 1
                    found.add(base if n == 0 else f"{base}-{n}")
        anchors[path] = found
    return anchors[path]


errors = []
for path in sys.argv[1:]:
    for number, line in prose(path):
        targets = [(m.group(1) == "!", m.group(3)) for m in LINK.finditer(line)]
        targets += [(False, m.group(1)) for m in HTML.finditer(line)]
        for image, target in targets:
            if not target or re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
                continue  # an external URL, mailto:, …: not checked here
            file_part, _, anchor = target.partition("#")
            resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
            where = f"{path}:{number}: {'image' if image else 'link'} {target!r}"
            if not os.path.exists(resolved):
                errors.append(f"{where}: {resolved} does not exist")
            elif anchor and resolved.endswith(".md") and anchor not in ids(resolved):
                errors.append(f"{where}: no heading with the id #{anchor} in {resolved}")

summary = "docs/src/SUMMARY.md"
listed = {os.path.normpath(os.path.join("docs/src", m.group(3)))
          for _, line in prose(summary) for m in LINK.finditer(line)}
for path in sys.argv[1:]:
    if path.startswith("docs/src/") and path != summary and os.path.normpath(path) not in listed:
        errors.append(f"{path}: a chapter that {summary} does not list")

for e in errors:
    print(e)
checked = len(sys.argv) - 1
if errors:
    print(f"{len(errors)} broken link(s) in {checked} files")
    sys.exit(1)
print(f"links, images and anchors of {checked} files resolve")
EOF
echo "book: target/book/index.html"

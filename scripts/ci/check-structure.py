#!/usr/bin/env python3
"""Checks the shape of the crate's Rust sources under src/ (the house's rules in code).

Rules (each broken one prints one line and makes the exit status 1):
  1. File size: no .rs file over 1,000 lines counted before its test module (the first
     `#[cfg(test)]` at column 0 that is followed by a `mod`; a `#[cfg(test)]` on a single
     item does not count).
  2. Function length: no `fn` over 100 lines, from the line of the `fn` keyword to its
     closing brace (braces in comments, strings, raw strings and char literals aside).
     Functions inside `#[cfg(test)]` modules are not checked.
  3. Import circles: no strongly connected group of two or more modules in the import graph.
     Each file is a module (`a/b.rs` and `a/b/mod.rs` are `crate::a::b`, lib.rs `crate`,
     main.rs the binary `main`). A file uses a module when its code names a path in it:
     `use` items, `crate::`, `super::`, `self::` and child-module paths in code; a path
     belongs to the longest module prefix that is a file, followed through that module's
     `use` of the next name (so `crate::render::RenderError` is a use of `render::ground`
     when render/mod.rs only re-exports it). Not read: comments (doc comments too), string
     literals, `#[cfg(test)]` modules. Not a use: `mod x;` and `internal_mod!(x)`
     declarations, and a parent's `use`/`pub use` of a child's item that the parent's own
     code does not name (a re-export). Each circle is one line, followed by one indented
     example line per edge inside it.
  4. One way through the render pipeline: a module of src/render reads only its own stage
     and earlier ones, in the order ground, cancel, spec, art, scene, paint, encode,
     workspace, render/mod.rs (the Renderer), layouts (STAGES below).

Numbers (printed, not rules), for each top-level folder of src/ and the whole crate: .rs
files, folders below it, lines (tests included) and floors: the number of modules in the
longest chain of imports between the modules of that part, each circle collapsed into one
module first. `floors*` counts the same without the edges from a module to its own
descendants (a parent's use of its children). Then src/render's longest chain, top first.

Usage:
  scripts/ci/check-structure.py [REPO]        check REPO/src (default: this repository)
  scripts/ci/check-structure.py --numbers     print the numbers only; never fails
  scripts/ci/check-structure.py --rev REV     check `git archive REV` of REPO instead
  scripts/ci/check-structure.py --self-test   run the script's own tests
Exit status: 0 when every rule holds (or with --numbers), 1 when one is broken, 2 when
REV is no commit.

Python 3 standard library only.
"""

import argparse
import bisect
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import unittest

FILE_LIMIT = 1000
FN_LIMIT = 100

# --- Reading Rust: comments and literals blanked, line numbers kept -------------------------

RAW_STRING = re.compile(r'[bc]?r(#*)"')
CHAR_LITERAL = re.compile(r"'(?:[^'\\\n]|\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F_]{1,8}\}|.))'")
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def blank_literals(text):
    """`text` with its comments, strings and char literals turned to spaces (newlines kept),
    so that braces, paths and `fn`s found in what is left are code. Lifetimes (`'a`) stay."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        end = literal_end(text, i)
        if end is None:
            word = IDENT.match(text, i)
            i = word.end() if word else i + 1
            continue
        for k in range(i, end):
            if out[k] != "\n":
                out[k] = " "
        i = end
    return "".join(out)


def literal_end(text, i):
    """Where the comment or literal starting at `i` ends, or None if none starts there."""
    if text.startswith("//", i):
        end = text.find("\n", i)
        return len(text) if end < 0 else end
    if text.startswith("/*", i):
        return block_comment_end(text, i)
    raw = RAW_STRING.match(text, i)
    if raw and (i == 0 or not is_ident_char(text[i - 1])):
        end = text.find('"' + raw.group(1), raw.end())
        return len(text) if end < 0 else end + 1 + len(raw.group(1))
    if text[i] == '"':
        return string_end(text, i + 1)
    if text[i] == "'":
        char = CHAR_LITERAL.match(text, i)
        return char.end() if char else None
    return None


def is_ident_char(c):
    """Whether `c` may be part of an identifier."""
    return c.isalnum() or c == "_"


def block_comment_end(text, i):
    """The end of the (nestable) block comment opening at `i`."""
    depth = 0
    while i < len(text):
        if text.startswith("/*", i):
            depth, i = depth + 1, i + 2
        elif text.startswith("*/", i):
            depth, i = depth - 1, i + 2
            if depth == 0:
                return i
        else:
            i += 1
    return len(text)


def string_end(text, i):
    """The end of a string literal whose contents start at `i`."""
    while i < len(text):
        if text[i] == "\\":
            i += 2
        elif text[i] == '"':
            return i + 1
        else:
            i += 1
    return len(text)


def closing_brace(code, i):
    """The index of the brace closing the first `{` at or after `i` (None if unbalanced)."""
    depth = 0
    for k in range(code.find("{", i), len(code)):
        if code[k] == "{":
            depth += 1
        elif code[k] == "}":
            depth -= 1
            if depth == 0:
                return k
    return None


TEST_ATTR = re.compile(r"^([ \t]*)#\[cfg\((?:test|all\(.*\btest\b.*\))\)\][ \t]*$", re.M)
MOD_ITEM = re.compile(r"\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*([{;])")


def test_modules(code):
    """The `#[cfg(test)] mod name { ... }` blocks of blanked `code`: (start, end, column 0?)
    as character offsets, start at the attribute, end after the closing brace."""
    spans = []
    for attr in TEST_ATTR.finditer(code):
        item = MOD_ITEM.match(code, attr.end())
        if not item or item.group(2) != "{":
            continue
        close = closing_brace(code, item.end() - 1)
        end = len(code) if close is None else close + 1
        spans.append((attr.start(), end, attr.group(1) == ""))
    return spans


def test_module_files(code):
    """Names of the child modules declared `#[cfg(test)] mod name;` (whole test files)."""
    names = []
    for attr in TEST_ATTR.finditer(code):
        item = MOD_ITEM.match(code, attr.end())
        if item and item.group(2) == ";":
            names.append(item.group(1))
    return names


def blank_spans(code, spans):
    """`code` with the given spans turned to spaces, newlines kept."""
    chars = list(code)
    for start, end, _ in spans:
        for k in range(start, end):
            if chars[k] != "\n":
                chars[k] = " "
    return "".join(chars)


# --- The source tree ------------------------------------------------------------------------


class Source:
    """One .rs file: its module path, its text, and its code without comments, literals and
    test modules (`code`), with line numbers kept."""

    def __init__(self, rel, text):
        self.rel = rel
        self.module = module_name(rel)
        self.lines = text.splitlines()
        blanked = blank_literals(text)
        self.tests = test_modules(blanked)
        self.test_files = test_module_files(blanked)
        self.code = blank_spans(blanked, self.tests)
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.imports = {}
        self.plain = None

    def line_of(self, offset):
        """The 1-based line number of a character offset."""
        return bisect.bisect_right(self.starts, offset)

    def size(self):
        """Lines before the first test module at column 0 (all lines if there is none)."""
        for start, _, column0 in self.tests:
            if column0:
                return self.line_of(start) - 1
        return len(self.lines)

    def here(self):
        """The module path as a list: `["crate", "render", "scene"]`."""
        return self.module.split("::")


def module_name(rel):
    """The module of a file path relative to src/: `a/b.rs` and `a/b/mod.rs` are `crate::a::b`,
    `lib.rs` is `crate`, `main.rs` is the binary's root `main`."""
    parts = rel[: -len(".rs")].split("/")
    if parts == ["main"]:
        return "main"
    if parts[-1] in ("mod", "lib"):
        parts = parts[:-1]
    return "::".join(["crate"] + parts)


def read_tree(src):
    """Every .rs file under `src` as a Source, by module name; test-only files left out."""
    sources = {}
    for folder, _, files in os.walk(src):
        for name in sorted(files):
            if name.endswith(".rs"):
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, src).replace(os.sep, "/")
                with open(path, encoding="utf-8", errors="replace") as f:
                    source = Source(rel, f.read())
                sources[source.module] = source
    for source in list(sources.values()):
        for name in source.test_files:
            sources.pop(f"{source.module}::{name}", None)
    return sources


# --- Rules 1 and 2: file size and function length -------------------------------------------


def file_size_violations(sources):
    """One line per file over FILE_LIMIT lines before its test module."""
    out = []
    for source in sorted(sources.values(), key=lambda s: s.rel):
        if source.size() > FILE_LIMIT:
            out.append(
                f"src/{source.rel}: {source.size()} lines before its tests "
                f"(limit {FILE_LIMIT})"
            )
    return out


FN_ITEM = re.compile(r"\bfn\s+([A-Za-z_]\w*)")


def functions(source):
    """(name, first line, last line) of every fn with a body outside test modules."""
    code, found = source.code, []
    for item in FN_ITEM.finditer(code):
        body = body_start(code, item.end())
        if body is None:
            continue
        close = closing_brace(code, body)
        if close is not None:
            found.append((item.group(1), source.line_of(item.start()), source.line_of(close)))
    return found


def body_start(code, i):
    """The offset of the `{` opening the body of the fn whose signature starts at `i`, or
    None if the signature ends with `;` (a declaration). `;` inside `[T; N]` is skipped."""
    depth = 0
    for k in range(i, len(code)):
        c = code[k]
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif depth == 0 and c == ";":
            return None
        elif depth == 0 and c == "{":
            return k
    return None


def function_violations(sources):
    """One line per function over FN_LIMIT lines."""
    out = []
    for source in sorted(sources.values(), key=lambda s: s.rel):
        for name, first, last in functions(source):
            length = last - first + 1
            if length > FN_LIMIT:
                out.append(
                    f"src/{source.rel}:{first}: fn {name} is {length} lines (limit {FN_LIMIT})"
                )
    return out


# --- Rule 3: the import graph ---------------------------------------------------------------

USE_ITEM = re.compile(r"^[ \t]*(pub(?:\s*\([^)]*\))?\s+)?use\s+([^;]*);", re.M)
USE_TOKEN = re.compile(r"::|[{},*]|\$?[A-Za-z_][A-Za-z0-9_]*")
PATH = re.compile(r"(?<![\w$:])(\$?[A-Za-z_]\w*(?:::[A-Za-z_]\w*)+)")


def use_leaves(tree):
    """The leaves of a use tree as (segments, bound name): `a::{b, c::d as e, self}` gives
    (a::b, b), (a::c::d, e), (a, a). Globs give segments ending in `*`."""
    tokens = USE_TOKEN.findall(tree)
    leaves, _ = parse_use(tokens, 0, [])
    return leaves


def parse_use(tokens, pos, prefix):
    """Parse one use tree from `tokens[pos]` under `prefix`; returns (leaves, next pos)."""
    segs = list(prefix)
    while pos < len(tokens):
        tok = tokens[pos]
        if tok == "{":
            return parse_group(tokens, pos + 1, segs)
        if tok == "*":
            return [(segs + ["*"], None)], pos + 1
        if tok != "::":
            segs.append(tok)
        pos += 1
        if tok != "::" and (pos >= len(tokens) or tokens[pos] != "::"):
            break
    name = segs[-1] if segs else None
    if pos + 1 < len(tokens) and tokens[pos] == "as":
        name, pos = tokens[pos + 1], pos + 2
    if segs and segs[-1] == "self":
        segs = segs[:-1]
        name = segs[-1] if name == "self" and segs else name
    return [(segs, name)], pos


def parse_group(tokens, pos, prefix):
    """Parse `a, b, ...}` after a `{`; returns (leaves, pos after the `}`)."""
    leaves = []
    while pos < len(tokens) and tokens[pos] != "}":
        if tokens[pos] == ",":
            pos += 1
            continue
        sub, pos = parse_use(tokens, pos, prefix)
        leaves += sub
    return leaves, pos + 1


def absolute(segs, source, modules):
    """The path `segs`, written in `source`, from the crate root (None if it is outside the
    crate: std, another crate, a local item). In main.rs, `staunton::` is the library."""
    here, first = source.here(), segs[0]
    if first in ("crate", "$crate") and source.module != "main":
        return ["crate"] + segs[1:]
    if first == "staunton" and source.module == "main":
        return ["crate"] + segs[1:]
    if first == "self":
        return here + segs[1:]
    if first == "super":
        ups = len(segs) - len(without_supers(segs))
        return here[:-ups] + without_supers(segs)
    if "::".join(here + [first]) in modules:
        return here + segs
    if first in source.imports:
        return source.imports[first] + segs[1:]
    return None


def without_supers(segs):
    """`segs` without its leading `super`s."""
    k = 0
    while k < len(segs) and segs[k] == "super":
        k += 1
    return segs[k:]


def locate(path, modules, depth=0):
    """The module that owns `path` (a list from `crate`): the longest prefix that is a file,
    following the owner's `use` of the next name, so a re-export leads to where it is
    defined (`crate::render::RenderError` -> `crate::render::ground`)."""
    for k in range(len(path), 0, -1):
        name = "::".join(path[:k])
        if name in modules:
            rest = path[k:]
            target = modules[name].imports.get(rest[0]) if rest else None
            if target and depth < 10 and target + rest[1:] != path:
                return locate(target + rest[1:], modules, depth + 1)
            return name
    return None


def read_imports(sources):
    """Fill each source's `imports` (bound name -> path from the crate root) from its `use`
    items. Two passes, so a `use` may start from a name another `use` brought in."""
    for _ in range(2):
        for source in sources.values():
            for leaves, _ in use_items(source):
                for segs, name in leaves:
                    path = absolute(segs, source, sources) if segs else None
                    if path and name and name != "_" and segs[-1] != "*":
                        source.imports[name] = path


def use_items(source):
    """(leaves, offset) of each `use` item in the source's code."""
    return [(use_leaves(m.group(2)), m.start(2)) for m in USE_ITEM.finditer(source.code)]


def references(source, modules, macros):
    """(path from the crate root, offset, name a `use` binds or None) of every path in the
    source's code that names something in the crate: `use` leaves and paths in code."""
    refs = []
    for leaves, offset in use_items(source):
        for segs, name in leaves:
            path = absolute(segs, source, modules) if segs else None
            if path and segs[-1] == "*":
                refs += glob_references(source, path[:-1], offset, modules)
            elif path:
                refs.append((path, offset, name))
    code = without_uses(source)
    for m in PATH.finditer(code):
        segs = m.group(1).split("::")
        if code.startswith("!", m.end()) and segs[0] in ("crate", "$crate") and segs[-1] in macros:
            segs = macros[segs[-1]]  # an exported macro lives at the root, made elsewhere
        path = absolute(segs, source, modules)
        if path:
            refs.append((path, m.start(), None))
    return refs


def glob_references(source, path, offset, modules):
    """`use path::*`: a reference to each name of that module the source's code uses."""
    target = modules.get("::".join(path))
    if target is None:
        return []
    names = set(target.imports) | defined_names(target)
    return [(path + [n], offset, n) for n in sorted(names) if names_in_code(source, n)]


DEFINITION = re.compile(
    r"^(?:pub(?:\([^)]*\))?\s+)?(?:(?:const|async|unsafe|extern\s+\S+)\s+)*"
    r"(?:fn|struct|enum|const|static|type|trait|union|mod|macro_rules!)\s+([A-Za-z_]\w*)",
    re.M,
)


def defined_names(source):
    """Names of the items the file defines at its top level (rustfmt puts them at column 0)."""
    return set(DEFINITION.findall(source.code))


def exported_macros(sources):
    """Module path (as a list) of each `#[macro_export] macro_rules!`, by the macro's name."""
    macros = {}
    for source in sources.values():
        for m in re.finditer(r"#\[macro_export\]\s*macro_rules!\s*(\w+)", source.code):
            macros[m.group(1)] = source.here()
    return macros


def without_uses(source):
    """The source's code with its `use` items blanked (worked out once)."""
    if source.plain is None:
        source.plain = USE_ITEM.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), source.code)
    return source.plain


def names_in_code(source, name):
    """Whether the code outside `use` items names `name`: a lower-case name as a call, a
    path, a macro or an argument (`name(`, `name::`, `name!`, `(name)`), so a local variable
    is not taken for it; any other name as a word (not after `.`, not before a lone `:`)."""
    word = re.escape(name)
    if name[0].islower():
        pattern = rf"(?<![\w.$]){word}\s*(?:\(|::|!)|[(,]\s*{word}\s*[),]"
    else:
        pattern = rf"(?<![\w.$]){word}\b(?!\s*:(?!:))"
    return re.search(pattern, without_uses(source)) is not None


def is_structure(source, path, name):
    """Whether a reference is only the house's structure: a `use` (pub or not: children see
    both through `super::`) of something in one of the file's own child modules that the
    file does not use itself."""
    here = source.here()
    if name is None or path[: len(here)] != here or len(path) <= len(here):
        return False
    return not names_in_code(source, name)


def graph(sources):
    """The import graph: module -> {module it uses: (file, line, text) of a first example}.

    A file A uses module B when its code (comments, literals and test modules aside) names
    a path in B: `use crate::b::X`, `crate::b::f()`, `super::`, `self::`, a child module's
    name. A path belongs to the longest module prefix that is a file, followed through that
    module's `use` of the next name (so a re-export counts for where the item is defined).
    `mod x;` declarations and `pub use child::Item` re-exports a parent does not use itself
    make no edge from the parent to its children."""
    read_imports(sources)
    macros = exported_macros(sources)
    edges = {name: {} for name in sources}
    for source in sources.values():
        for path, offset, name in references(source, sources, macros):
            target = locate(path, sources)
            if target is None or target == source.module or target in edges[source.module]:
                continue
            if is_structure(source, path, name):
                continue
            line = source.line_of(offset)
            example = (source.rel, line, source.lines[line - 1].strip())
            edges[source.module][target] = example
    return edges


def components(nodes, edges):
    """Strongly connected components of the graph restricted to `nodes` (Tarjan's)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in nodes:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while not comp or comp[-1] != v:
                comp.append(stack.pop())
                on_stack.discard(comp[-1])
            found.append(sorted(comp))

    sys.setrecursionlimit(max(10000, sys.getrecursionlimit()))
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return found


def circle_violations(sources, edges):
    """One line per circle, then an indented example line per edge inside it."""
    out = []
    for comp in components(set(sources), edges):
        if len(comp) < 2:
            continue
        out.append(f"import circle of {len(comp)} modules: {', '.join(comp)}")
        for a in comp:
            for b in sorted(edges[a]):
                if b in comp:
                    rel, line, text = edges[a][b]
                    out.append(f"    {a} -> {b}  (src/{rel}:{line}: {text})")
    return out


# The stages of src/render in the order the data goes: a module may read its own stage and
# the ones before it, never one after it ("" is render/mod.rs, the Renderer).
STAGES = ["ground", "cancel", "spec", "art", "scene", "paint", "encode", "workspace", "", "layouts"]


def stage_of(module):
    """The index in STAGES of a module of src/render, or None for a module elsewhere."""
    if module == "crate::render":
        return STAGES.index("")
    if not module.startswith("crate::render::"):
        return None
    first = module.split("::")[2]
    return STAGES.index(first) if first in STAGES else None


def backward_violations(sources, edges):
    """One line per import in src/render that reads a later stage than its own."""
    out = []
    for a in sorted(edges):
        for b in sorted(edges[a]):
            sa, sb = stage_of(a), stage_of(b)
            if sa is not None and sb is not None and sb > sa:
                rel, line, text = edges[a][b]
                name = lambda k: STAGES[k] or "render/mod.rs"
                out.append(f"{name(sa)} reads {name(sb)}: {a} -> {b}  (src/{rel}:{line}: {text})")
    return out


def longest_chain(nodes, edges):
    """The longest chain of imports among `nodes`, from the top floor down: a list of
    components (a circle is one component, so one floor)."""
    comps = components(nodes, edges)
    comp_of = {v: k for k, comp in enumerate(comps) for v in comp}
    height, below = {}, {}
    for k, comp in enumerate(comps):  # Tarjan yields a component after all it reaches
        under = {comp_of[w] for v in comp for w in edges[v] if w in nodes} - {k}
        below[k] = max(under, key=lambda d: height[d], default=None)
        height[k] = 1 + (height[below[k]] if below[k] is not None else 0)
    k = max(height, key=height.get, default=None)
    chain = []
    while k is not None:
        chain.append(comps[k])
        k = below[k]
    return chain


def floors(nodes, edges):
    """The number of floors of `nodes`: the length of their longest chain of imports."""
    return len(longest_chain(nodes, edges))


def without_parent_uses(edges):
    """The graph without the edges from a module to its own descendants."""
    return {
        a: {b: x for b, x in out.items() if not b.startswith(a + "::")}
        for a, out in edges.items()
    }


# --- Numbers for the book -------------------------------------------------------------------


def part_numbers(sources, edges, folder):
    """(files, folders, lines, floors, floors*) of the part of src/ in `folder` ("" for all
    of it). Folders are counted below `folder`, not itself; floors among the part's
    modules; floors* the same without the edges from a module to its descendants."""
    prefix = folder + "/" if folder else ""
    part = [s for s in sources.values() if s.rel.startswith(prefix)]
    dirs = set()
    for source in part:
        parts = source.rel[len(prefix):].split("/")[:-1]
        dirs.update("/".join(parts[: k + 1]) for k in range(len(parts)))
    lines = sum(len(s.lines) for s in part)
    modules = {s.module for s in part}
    return (
        len(part), len(dirs), lines,
        floors(modules, edges), floors(modules, without_parent_uses(edges)),
    )


def numbers_table(sources, edges):
    """The numbers of each top-level folder of src/ and of the whole crate, as text rows,
    then the floors of src/render from the top down."""
    tops = sorted({s.rel.split("/")[0] for s in sources.values() if "/" in s.rel})
    rows = [(f"src/{top}/", *part_numbers(sources, edges, top)) for top in tops]
    rows.append(("src/ (whole crate)", *part_numbers(sources, edges, "")))
    out = [f"{'part':<20} {'files':>5} {'folders':>7} {'lines':>6} {'floors':>6} {'floors*':>7}"]
    for name, files, dirs, lines, height, height2 in rows:
        out.append(f"{name:<20} {files:>5} {dirs:>7} {lines:>6} {height:>6} {height2:>7}")
    out.append("floors*: the same, not counting a module's use of its own descendants")
    render = {m for m in sources if m == "crate::render" or m.startswith("crate::render::")}
    out.append("src/render's longest chain, top floor first:")
    for k, comp in enumerate(longest_chain(render, edges), 1):
        out.append(f"  {k:>2}. {', '.join(comp)}")
    return out


# --- Running --------------------------------------------------------------------------------


def check(root, numbers_only, label):
    """Check and measure `root`/src; print the report; return the exit status."""
    sources = read_tree(os.path.join(root, "src"))
    edges = graph(sources)
    print(f"structure of {label}: {len(sources)} files")
    failed = False
    if not numbers_only:
        rules = [
            (f"files over {FILE_LIMIT} lines before their tests", file_size_violations),
            (f"functions over {FN_LIMIT} lines", function_violations),
            ("import circles", lambda s: circle_violations(s, edges)),
            ("render stages reading a later stage", lambda s: backward_violations(s, edges)),
        ]
        for title, rule in rules:
            found = rule(sources)
            count = sum(1 for line in found if not line.startswith(" "))
            print(f"{title}: {count}")
            for line in found:
                print(f"  {line}")
            failed = failed or count > 0
    print()
    print("\n".join(numbers_table(sources, edges)))
    return 1 if failed else 0


def check_rev(repo, rev, numbers_only):
    """Check src/ as it was at `rev` (`git archive`), in a temporary folder."""
    found = subprocess.run(
        ["git", "-C", repo, "rev-parse", "--short", "--verify", "--quiet", rev + "^{commit}"],
        capture_output=True, text=True,
    )
    if found.returncode != 0:
        print(f"check-structure: {rev} is no commit of {repo}", file=sys.stderr)
        return 2
    sha = found.stdout.strip()
    with tempfile.TemporaryDirectory(prefix="check-structure-") as tmp:
        archive = os.path.join(tmp, "src.tar")
        subprocess.run(
            ["git", "-C", repo, "archive", "--format=tar", "-o", archive, sha, "src"],
            check=True,
        )
        with tarfile.open(archive) as tar:
            safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
            tar.extractall(os.path.join(tmp, "tree"), **safe)
        return check(os.path.join(tmp, "tree"), numbers_only, f"{rev} ({sha})")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("repo", nargs="?", default=os.path.dirname(os.path.dirname(here)))
    parser.add_argument("--numbers", action="store_true", help="print the numbers only")
    parser.add_argument("--rev", help="check `git archive REV` of the repository")
    parser.add_argument("--self-test", action="store_true", help="run the script's tests")
    args = parser.parse_args()
    if args.self_test:
        suite = unittest.defaultTestLoader.loadTestsFromTestCase(SelfTest)
        return 0 if unittest.TextTestRunner(verbosity=1).run(suite).wasSuccessful() else 1
    if args.rev:
        return check_rev(args.repo, args.rev, args.numbers)
    return check(args.repo, args.numbers, args.repo)


# --- The script's own tests (--self-test) ---------------------------------------------------


def fake_tree(files):
    """Sources made from {path under src/: text}, with their import graph."""
    sources = {}
    for rel, text in files.items():
        source = Source(rel, text)
        sources[source.module] = source
    return sources, graph(sources)


class SelfTest(unittest.TestCase):
    def test_literals_and_comments_are_blanked_lifetimes_kept(self):
        text = "fn f<'a>(x: &'a str) -> char { '{' } // }\n/* { /* } */ */ r#\"}\"# \"\\\"}\" b'}'"
        code = blank_literals(text)
        self.assertEqual(code.count("{"), 1)
        self.assertEqual(code.count("}"), 1)
        self.assertIn("<'a>", code)
        self.assertEqual(len(code), len(text))

    def test_functions_are_measured_from_fn_to_their_brace(self):
        text = "trait T {\n    fn d(&self) -> [u8; 4];\n}\nfn long() {\n    let s = \"}\";\n\n}\n"
        self.assertEqual(functions(Source("a.rs", text)), [("long", 4, 7)])

    def test_the_size_stops_at_a_test_module_not_at_a_test_item(self):
        text = "fn a() {}\n#[cfg(test)]\nfn helper() {}\n\n"
        text += "#[cfg(test)]\nmod tests {\n fn t() {}\n}\n"
        source = Source("a.rs", text)
        self.assertEqual(source.size(), 4)
        self.assertEqual([f[0] for f in functions(source)], ["a", "helper"])

    def test_use_trees_are_expanded(self):
        leaves = use_leaves("a::{b, c::d as e, self, f::{g}}")
        self.assertEqual(
            leaves,
            [(["a", "b"], "b"), (["a", "c", "d"], "e"), (["a"], "a"), (["a", "f", "g"], "g")],
        )

    def test_modules_are_named_by_their_files(self):
        self.assertEqual(module_name("lib.rs"), "crate")
        self.assertEqual(module_name("a/b/mod.rs"), "crate::a::b")
        self.assertEqual(module_name("a/b.rs"), "crate::a::b")

    def test_a_parent_that_uses_a_child_that_uses_it_is_a_circle(self):
        sources, edges = fake_tree({
            "lib.rs": "pub mod a;\n",
            "a/mod.rs": "mod b;\npub struct Own;\nfn f() { b::g(); }\n",
            "a/b.rs": "use super::Own;\npub fn g() {}\n",
        })
        found = circle_violations(sources, edges)
        self.assertTrue(found[0].startswith("import circle of 2 modules: crate::a, crate::a::b"))
        self.assertEqual(floors(set(sources), edges), 1)

    def test_edges(self):
        cases = [
            # A re-export leads to where the item is defined; a parent's `pub use` of a
            # child's item is no use by the parent.
            (
                {
                    "a/mod.rs": "mod b;\nmod c;\npub use b::Thing;\n",
                    "a/b.rs": "pub struct Thing;\n",
                    "a/c.rs": "use super::Thing;\nfn f() { crate::a::b::g() }\n",
                },
                {"crate::a": set(), "crate::a::b": set(), "crate::a::c": {"crate::a::b"}},
            ),
            # A glob import uses the names the code takes from it, where they are defined.
            (
                {
                    "a/mod.rs": "mod b;\nuse crate::c::Far;\npub(crate) use b::Near;\n",
                    "a/b.rs": "use super::*;\npub struct Near(Far);\n",
                    "c.rs": "pub struct Far;\n",
                },
                {"crate::a": {"crate::c"}, "crate::a::b": {"crate::c"}, "crate::c": set()},
            ),
        ]
        for files, expected in cases:
            _, edges = fake_tree(files)
            self.assertEqual({a: set(out) for a, out in edges.items()}, expected)

    def test_a_render_stage_may_not_read_a_later_one(self):
        sources, edges = fake_tree({
            "render/mod.rs": "mod art;\nmod encode;\n",
            "render/art.rs": "pub fn draw() { crate::render::encode::png() }\n",
            "render/encode.rs": "pub fn png() {}\nfn f() { crate::render::art::draw() }\n",
        })
        found = backward_violations(sources, edges)
        self.assertEqual(len(found), 1)
        self.assertTrue(found[0].startswith("art reads encode: crate::render::art"))

    def test_floors_count_the_longest_chain(self):
        sources, edges = fake_tree({
            "lib.rs": "mod a;\nmod b;\nmod c;\n",
            "a.rs": "use crate::b::X;\n",
            "b.rs": "pub struct X;\nfn f() { crate::c::g() }\n",
            "c.rs": "pub fn g() {}\n",
        })
        self.assertEqual(floors(set(sources), edges), 3)


if __name__ == "__main__":
    sys.exit(main())

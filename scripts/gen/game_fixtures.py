#!/usr/bin/env python3
"""Writes the expected positions for the PGN reader's test fixtures.

For every tests/fixtures/games/NAME.pgn (exactly one game a file) this plays the
main line with python-chess and writes tests/fixtures/games/NAME.fens: one line
per ply, from ply 0 (the start position: the standard one, or the [FEN] header's)
to the last move, each line exactly python-chess's `board.fen()`. So a game of
N plies gives N + 1 lines. `board.fen()` is python-chess's default FEN: the en
passant square only when a legal en-passant capture exists, and for Chess960
games ([Variant "Chess960"]) X-FEN castling letters (KQkq when the castling rook
is the outermost one, the rook's file letter otherwise).

Run from the repository root, after editing or adding a .pgn file:

    pip install chess          # python-chess, once
    python3 scripts/gen/game_fixtures.py

and commit the .fens files: `cargo test` reads them and needs no Python.

The script is deterministic and fails loudly (exit status 1, nothing written for
the bad file) when a file does not parse cleanly. Besides python-chess's own
checks (game.errors must be empty: no illegal or ambiguous move), it tokenizes
the movetext itself, because python-chess silently skips tokens it does not
know. Every token must be a tag-free PGN token it recognises (move number, SAN,
glyph such as !? , NAG, comment, `;` comment, variation parenthesis, `e.p.`,
result), every SAN in the main line and in variations must be legal and written
exactly as python-chess writes it (same disambiguation, same + and #; `0-0` is
accepted for `O-O`), `e.p.` may only follow an en-passant capture, and the
result token must end the movetext and agree with the [Result] tag.
"""
import glob
import io
import os
import re
import sys

try:
    import chess
    import chess.pgn
except ImportError:
    sys.exit("python-chess is missing: pip install chess")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GAMES = os.path.join(ROOT, "tests", "fixtures", "games")

TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<comment>\{[^}]*\})
  | (?P<line_comment>;[^\n]*)
  | (?P<result>1-0|0-1|1/2-1/2|\*)
  | (?P<number>\d+\.+)
  | (?P<san>(?:[NBRQK][a-h]?[1-8]?x?[a-h][1-8]
              |[a-h](?:x[a-h])?[1-8](?:=[NBRQ])?
              |O-O-O|O-O|0-0-0|0-0)[+\#]?)
    (?P<glyph>!!|\?\?|!\?|\?!|!|\?)?
  | (?P<ep>e\.p\.)
  | (?P<nag>\$\d+)
  | (?P<open>\()
  | (?P<close>\))
""", re.VERBOSE)

TAG = re.compile(r'^\s*\[[A-Za-z0-9_]+\s+"(?:[^"\\]|\\.)*"\]\s*$')


class FixtureError(Exception):
    pass


def split_movetext(text):
    """Returns the movetext: what follows the leading tag pairs and blank lines."""
    lines = text.split("\n")
    i = 0
    while i < len(lines) and (lines[i].strip() == "" or TAG.match(lines[i])):
        i += 1
    return "\n".join(lines[i:])


def check_movetext(movetext, start):
    """Tokenizes and replays the movetext independently of python-chess's
    reader. Returns (main-line moves, result token)."""
    board = start.copy()
    before = None          # board before the last move at this level
    last_move = None
    stack = []
    mainline = []
    result = None
    pos = 0
    line_of = lambda p: movetext.count("\n", 0, p) + 1
    while pos < len(movetext):
        m = TOKEN.match(movetext, pos)
        if not m:
            raise FixtureError(f"movetext line {line_of(pos)}: unknown token at "
                               f"{movetext[pos:pos + 20]!r}")
        kind = m.lastgroup if m.lastgroup != "glyph" else "san"
        tok = m.group(0)
        where = f"movetext line {line_of(pos)}, {tok!r}"
        pos = m.end()
        if result is not None and kind not in ("ws",):
            raise FixtureError(f"{where}: text after the result token")
        if kind in ("ws", "comment", "line_comment", "number", "nag"):
            continue
        if kind == "result":
            if stack:
                raise FixtureError(f"{where}: result inside a variation")
            result = tok
        elif kind == "san":
            san = m.group("san")
            norm = san.replace("0", "O")
            try:
                move = board.parse_san(norm)
            except ValueError as e:
                raise FixtureError(f"{where}: {e} in {board.fen()}")
            want = board.san(move)
            if norm != want:
                raise FixtureError(f"{where}: python-chess writes this move {want!r}")
            before = board.copy()
            last_move = move
            board.push(move)
            if not stack:
                mainline.append(move)
        elif kind == "ep":
            if last_move is None or not before.is_en_passant(last_move):
                raise FixtureError(f"{where}: e.p. after a move that is no en-passant capture")
        elif kind == "open":
            if before is None:
                raise FixtureError(f"{where}: variation before any move")
            stack.append((board, before, last_move))
            board, before, last_move = before.copy(), None, None
        elif kind == "close":
            if not stack:
                raise FixtureError(f"{where}: unbalanced ')'")
            board, before, last_move = stack.pop()
    if stack:
        raise FixtureError("unclosed variation")
    if result is None:
        raise FixtureError("no result token at the end of the movetext")
    return mainline, result


def process(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    handle = io.StringIO(text)
    game = chess.pgn.read_game(handle)
    if game is None:
        raise FixtureError("no game")
    if game.errors:
        raise FixtureError("python-chess: " + "; ".join(str(e) for e in game.errors))
    if chess.pgn.read_game(handle) is not None:
        raise FixtureError("more than one game in the file")

    start = game.board()
    variant = game.headers.get("Variant", "")
    if variant.lower() in ("chess960", "chess 960", "fischerandom", "fischer random"):
        if not start.chess960:
            raise FixtureError("Chess960 game not read as Chess960")
    elif variant:
        raise FixtureError(f"unexpected variant {variant!r}")
    if "FEN" in game.headers:
        if game.headers.get("SetUp") != "1":
            raise FixtureError('[FEN] without [SetUp "1"]')
        if start.fen() != game.headers["FEN"]:
            raise FixtureError(f"[FEN] is not canonical: python-chess reads it as {start.fen()}")
    if not start.is_valid():
        raise FixtureError(f"invalid start position: {start.status()!r}")

    moves, result = check_movetext(split_movetext(text), start)
    if moves != list(game.mainline_moves()):
        raise FixtureError("own tokenizer and python-chess disagree on the main line")
    tag_result = game.headers.get("Result")
    if "Result" in game.headers and tag_result != result:
        raise FixtureError(f"[Result {tag_result!r}] but movetext ends with {result!r}")

    board = start.copy()
    fens = [board.fen()]
    for move in moves:
        board.push(move)
        fens.append(board.fen())
    out = path[:-len(".pgn")] + ".fens"
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(fens) + "\n")
    return out, len(moves), result, start.chess960


def main():
    paths = sorted(glob.glob(os.path.join(GAMES, "*.pgn")))
    if not paths:
        sys.exit(f"no .pgn files in {GAMES}")
    failed = 0
    for path in paths:
        name = os.path.relpath(path, ROOT)
        try:
            out, plies, result, c960 = process(path)
        except FixtureError as e:
            print(f"ERROR {name}: {e}", file=sys.stderr)
            failed += 1
            continue
        extra = ", Chess960" if c960 else ""
        print(f"wrote {os.path.relpath(out, ROOT)}: {plies} plies, {plies + 1} lines, "
              f"result {result}{extra}")
    if failed:
        sys.exit(f"{failed} file(s) failed")


if __name__ == "__main__":
    main()

"""python-chess objects as inputs: each gives the bytes of the same options as strings."""

import io

import pytest

import staunton

chess = pytest.importorskip("chess")
import chess.pgn  # noqa: E402
import chess.svg  # noqa: E402

ITALIAN = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"


def italian():
    board = chess.Board()
    for san in ["e4", "e5", "Nf3", "Nc6", "Bc4"]:
        board.push_san(san)
    return board


def test_a_board_is_its_fen():
    board = italian()
    assert board.fen() == ITALIAN
    assert staunton.png(board) == staunton.png(ITALIAN)
    assert staunton.svg(board, size=200) == staunton.svg(ITALIAN, size=200)
    assert staunton.describe(board) == staunton.describe(ITALIAN)


def test_a_move_is_its_uci():
    board = italian()
    assert staunton.png(board, last_move=board.peek()) == staunton.png(ITALIAN, last_move="f1c4")


def test_arrows_from_python_chess():
    board = italian()
    arrows = [
        chess.svg.Arrow(chess.F3, chess.G5),
        chess.svg.Arrow(chess.C4, chess.F7, color="red"),
        chess.svg.Arrow(chess.E5, chess.E5, color="blue"),  # a circle
    ]
    expected = staunton.png(ITALIAN, arrows="Gf3g5,Rc4f7,Be5e5")
    assert staunton.png(board, arrows=arrows) == expected
    mixed = ["Gf3g5", (chess.C4, chess.F7, "red"), ("e5", "e5", "B")]
    assert staunton.png(board, arrows=mixed) == expected


def test_squares_from_python_chess():
    board = italian()
    expected = staunton.png(ITALIAN, squares="d5,f7")
    assert staunton.png(board, squares=[chess.D5, chess.F7]) == expected
    assert staunton.png(board, squares=chess.SquareSet([chess.D5, chess.F7])) == expected
    assert staunton.png(board, check=chess.E8) == staunton.png(ITALIAN, check="e8")


def test_highlight_as_a_fill_dict():
    expected = staunton.png(ITALIAN, highlight="Gd5,Rf7")
    assert staunton.png(ITALIAN, highlight={chess.D5: "green", chess.F7: "red"}) == expected
    assert staunton.png(ITALIAN, highlight=[("d5", "G"), (chess.F7, "red")]) == expected


def test_a_pgn_game_and_moves():
    text = '[Event "?"]\n[White "Greco"]\n[Black "NN"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 *\n'
    game = chess.pgn.read_game(io.StringIO(text))
    assert staunton.game_gif(game) == staunton.game_gif(str(game))
    moves = list(game.mainline_moves())
    assert staunton.png(moves=moves) == staunton.png(ITALIAN, last_move="f1c4")
    assert staunton.Game(game)[-1].png() == staunton.png(ITALIAN, last_move="f1c4")


def test_variants_boards_print_their_pockets():
    import chess.variant

    board = chess.variant.CrazyhouseBoard()
    for san in ["e4", "d5", "exd5", "Qxd5"]:
        board.push_san(san)
    # X-FEN pockets, read by the crate as the service reads them.
    assert staunton.png(board)[:4] == b"\x89PNG"
    assert staunton.png(board) != staunton.png(board.board_fen())

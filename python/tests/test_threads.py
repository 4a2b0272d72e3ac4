"""Renders from many threads at once give the bytes of one thread."""

from concurrent.futures import ThreadPoolExecutor

import staunton

POSITIONS = [
    "start",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    "8/8/8/3k4/8/3K4/8/8 w - - 0 1",
]


def job(i):
    fen = POSITIONS[i % len(POSITIONS)]
    size = 160 + 40 * (i % 5)
    kind = i % 3
    if kind == 0:
        return staunton.png(fen, size=size, arrows=["Ge2e4"])
    if kind == 1:
        return staunton.svg(fen, size=size).encode()
    return staunton.webp(fen, size=size, orientation="black")


def test_many_threads_agree_with_one():
    alone = [job(i) for i in range(96)]
    with ThreadPoolExecutor(max_workers=12) as pool:
        together = list(pool.map(job, range(96)))
    assert together == alone


def test_errors_in_threads_are_exceptions():
    def bad(i):
        try:
            staunton.png("start", size=i)
        except staunton.OptionError as e:
            return str(e)
        return None

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(bad, [1, 5000, 240, 3]))
    assert results[2] is None
    assert all(r and r.startswith("size ") for r in [results[0], results[1], results[3]])


def test_games_in_threads():
    game = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6"
    one = staunton.game_gif(game, size=160)
    with ThreadPoolExecutor(max_workers=4) as pool:
        assert list(pool.map(lambda _: staunton.game_gif(game, size=160), range(8))) == [one] * 8

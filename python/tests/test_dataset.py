"""`staunton.Dataset`: the images of `staunton dataset` with their labels, made in Python."""

import json
import os
import shutil
import subprocess
import threading

import pytest

import staunton

CLI = os.environ.get("STAUNTON_BIN") or shutil.which("staunton")


def test_items_are_images_with_their_labels():
    data = staunton.Dataset(count=12, seed=7)
    assert len(data) == 12
    items = list(data)
    assert len(items) == 12
    for index, (image, labels) in enumerate(items):
        extension = labels["file_name"].rsplit(".", 1)[1]
        assert image[:4] == b"\x89PNG" if extension == "png" else image[:2] == b"\xff\xd8"
        assert labels["index"] == index
        assert len(labels["squares"]) == 64 and len(labels["corners"]) == 4
        placed = sum(c.isalpha() for c in labels["fen"].split()[0])
        assert len(labels["pieces"]) == placed
    # The same index is the same image, whichever way it is reached.
    assert data[-1] == items[11]
    assert staunton.Dataset(count=12, seed=7)[5] == items[5]
    assert staunton.Dataset(count=12, seed=8)[5][0] != items[5][0]


def test_parts_are_keyword_arguments():
    data = staunton.Dataset(count=4, seed=1, plain=True, size=(200, 200), arrows=1, theme={"blue": 1})
    for image, labels in data:
        assert labels["width"] == 200 and labels["style"]["theme"] == "blue"
        assert labels["arrows"] and labels["style"]["jpeg"] is None
        assert image[:4] == b"\x89PNG"


def test_bad_parts_and_files_raise_option_errors_naming_them(tmp_path):
    with pytest.raises(staunton.OptionError, match=r'arrows="2": arrows is a chance') as e:
        staunton.Dataset(arrows=2)
    assert e.value.param == "vary"
    with pytest.raises(staunton.OptionError, match="no part of the variety"):
        staunton.Dataset(colour="red")
    with pytest.raises(staunton.OptionError, match="^backgrounds ") as e:
        staunton.Dataset(backgrounds=tmp_path / "missing")
    assert e.value.param == "backgrounds"
    bad = tmp_path / "bad.fen"
    bad.write_text("start\nnonsense\n")
    with pytest.raises(staunton.OptionError, match="line 2"):
        staunton.Dataset(positions=bad)
    with pytest.raises(staunton.OptionError, match="from 1 to 10000000"):
        staunton.Dataset(count=0)
    with pytest.raises(IndexError):
        staunton.Dataset(count=3)[3]


def test_positions_from_a_file(tmp_path):
    games = tmp_path / "games.pgn"
    games.write_text('[Event "a"]\n\n1. e4 e5 *\n')
    data = staunton.Dataset(count=3, positions=games, plain=True, last_move=1)
    fens = [labels["fen"].split()[0] for _, labels in data]
    assert fens[0] == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
    assert fens[1] == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"
    assert [labels["last_move"] for _, labels in data][1] == {"from": "e2", "to": "e4"}


def test_threads_make_images_in_parallel():
    data = staunton.Dataset(count=16, seed=3)
    out = [None] * 16

    def work(start):
        for i in range(start, 16, 4):
            out[i] = data[i]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out == list(data)


@pytest.mark.skipif(not CLI, reason="set STAUNTON_BIN to the staunton binary built from this tree")
def test_the_same_images_and_labels_as_the_command_line(tmp_path):
    subprocess.run([CLI, "dataset", "-o", str(tmp_path), "--count", "6", "--seed", "9"], check=True)
    lines = (tmp_path / "metadata.jsonl").read_text().splitlines()
    data = staunton.Dataset(count=6, seed=9)
    for line, (image, labels) in zip(lines, data):
        assert json.loads(line) == labels
        assert (tmp_path / labels["file_name"]).read_bytes() == image

"""`staunton.add_fonts`: Japanese captions with a font folder (the command line's `--fonts`).

Fonts are added once per process, so each case runs in a fresh interpreter. The CJK font is
Debian's fonts-noto-cjk (CI installs it); without it the cases that need it are skipped.
"""

import os
import subprocess
import sys
import textwrap

import pytest

NOTO = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"


def run(code: str) -> str:
    """`code` in a fresh interpreter; its standard output (fails the test on an error)."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.skipif(not os.path.isfile(NOTO), reason="no Noto Sans CJK (fonts-noto-cjk)")
def test_a_japanese_caption_draws_with_fonts_and_fonts_are_added_once(tmp_path):
    os.symlink(NOTO, tmp_path / "NotoSansCJK-Regular.ttc")
    out = run(
        f"""
        import staunton
        try:
            staunton.png("start", caption="白番")
        except staunton.OptionError as e:
            print("without:", e.param, "the character U+767D at character 1, which cannot be drawn" in str(e))
        print("added:", staunton.add_fonts({str(tmp_path)!r}))
        png = staunton.png("start", caption="白番で勝つ。")
        print("png:", png[1:4] == b"PNG")
        svg = staunton.svg("start", caption="白番で勝つ。")
        print("svg:", "白番で勝つ。" in svg)
        try:
            staunton.add_fonts({str(tmp_path)!r})
        except staunton.StauntonError as e:
            print("again:", "can be added once" in str(e))
        """
    )
    assert out.splitlines() == [
        "without: caption True",
        "added: ['NotoSansCJK-Regular.ttc']",
        "png: True",
        "svg: True",
        "again: True",
    ]


def test_a_folder_without_fonts_is_a_value_error_naming_it(tmp_path):
    out = run(
        f"""
        import staunton
        try:
            staunton.add_fonts({str(tmp_path)!r})
        except ValueError as e:
            print(str(e))
        """
    )
    assert out.strip() == f"{tmp_path} has no font file (.ttf, .otf, .ttc or .otc)"

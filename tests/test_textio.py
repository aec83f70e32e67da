"""textio: files and standard input as lines of text, binary data refused where it is met with its
byte offset, before any line reaches the puzzle readers (tested through them in test_formats.py).
"""

from __future__ import annotations

import errno
import io
from pathlib import Path

import pytest

from sudoku_cp import textio
from sudoku_cp.errors import GridParseError
from sudoku_cp.textio import decode_input, decoded_lines, open_source

# -- decoding a whole input ------------------------------------------------------------------------


def test_binary_garbage() -> None:
    with pytest.raises(GridParseError, match="binary data.*NUL byte at offset 3"):
        decode_input(b"123\0\xff", source="x")
    with pytest.raises(GridParseError, match="binary data.*0xff"):
        decode_input(b"123\xff\xfe", source="x")


def test_decode_input_drops_a_byte_order_mark() -> None:
    assert decode_input(b"\xef\xbb\xbf12\n34\n", source="x") == "12\n34\n"


# -- lines, as they are read -----------------------------------------------------------------------


def test_lines_are_numbered_from_one_and_only_the_first_loses_a_byte_order_mark() -> None:
    handle = io.BytesIO(b"\xef\xbb\xbfab\n\xef\xbb\xbfcd\nef")
    assert list(decoded_lines(handle, "x")) == [(1, "ab\n"), (2, "\ufeffcd\n"), (3, "ef")]


@pytest.mark.parametrize(
    "data, message",
    [
        (b"12\n34\0\n", "x:2: binary data, not a puzzle (a NUL byte at offset 5)"),
        (
            b"12\n3\xff\n",
            "x:2: binary data, not a puzzle (byte 0xff at offset 4 is not UTF-8 text)",
        ),
    ],
)
def test_binary_data_is_refused_at_its_line_with_its_offset_in_the_file(
    data: bytes, message: str
) -> None:
    lines = decoded_lines(io.BytesIO(data), "x")
    assert next(lines) == (1, "12\n")  # the lines before it are given out first
    with pytest.raises(GridParseError) as raised:
        next(lines)
    assert str(raised.value) == message and raised.value.line == 2


def test_a_read_error_is_one_line() -> None:
    class Failing(io.BytesIO):
        def readline(self, size: int | None = -1) -> bytes:
            raise OSError(errno.EIO, "Input/output error")

    with pytest.raises(GridParseError) as raised:
        list(decoded_lines(Failing(), "x"))
    assert str(raised.value) == "x: cannot read: Input/output error"


def test_a_line_longer_than_the_cap_is_cut_there(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(textio, "MAX_LINE_BYTES", 4)
    assert list(decoded_lines(io.BytesIO(b"123456\n7\n"), "x")) == [
        (1, "1234"),
        (2, "56\n"),
        (3, "7\n"),
    ]


# -- opening a source ------------------------------------------------------------------------------


def test_a_dash_is_the_given_standard_input() -> None:
    stdin = io.BytesIO(b"12\n")
    with open_source("-", stdin) as handle:
        assert handle is stdin
    assert not stdin.closed  # standard input is not ours to close


def test_a_file_is_opened_as_bytes_and_closed_after(tmp_path: Path) -> None:
    path = tmp_path / "p.txt"
    path.write_bytes(b"12\n")
    source = open_source(str(path), None)
    with source as handle:
        assert handle.read() == b"12\n"
    assert source.handle is not None and source.handle.closed


def test_a_folder_or_a_missing_file_is_one_line(tmp_path: Path) -> None:
    for path, reason in ((tmp_path, "is a directory"), (tmp_path / "no.txt", "No such file")):
        with pytest.raises(GridParseError) as raised, open_source(str(path), None):
            pass
        assert str(raised.value).startswith(f"{path}: cannot read: {reason}")

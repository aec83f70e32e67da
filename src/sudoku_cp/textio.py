"""Files and standard input as lines of text: binary data refused where it is met, with the byte
offset, before any line reaches the puzzle readers of `formats`."""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Iterator
from typing import Any, BinaryIO

from .errors import GridParseError


def decode_input(data: bytes, *, source: str) -> str:
    """Bytes to text, refusing what is not text.

    Raises:
        GridParseError: for binary data (a NUL byte, or bytes that are not UTF-8) or no puzzle.
    """
    nul = data.find(b"\0")
    if nul >= 0:
        raise GridParseError(
            f"binary data, not a puzzle (a NUL byte at offset {nul})", source=source
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise GridParseError(
            f"binary data, not a puzzle (byte 0x{data[error.start]:02x} at offset {error.start} "
            f"is not UTF-8 text)",
            source=source,
        ) from None
    return text


class open_source:
    """A context manager giving the binary stream of a path, or of standard input for '-'."""

    def __init__(self, path: str, stdin: Any) -> None:
        self.path = path
        self.stdin = stdin
        self.handle: BinaryIO | None = None

    def __enter__(self) -> BinaryIO:
        if self.path == "-":
            stream: BinaryIO = self.stdin if self.stdin is not None else sys.stdin.buffer
            return stream
        try:
            if os.path.isdir(self.path):
                raise IsADirectoryError(errno.EISDIR, "is a directory")
            self.handle = open(self.path, "rb")
        except OSError as error:
            raise GridParseError(
                f"cannot read: {error.strerror or error}", source=self.path
            ) from None
        return self.handle

    def __exit__(self, *exc_info: object) -> None:
        if self.handle is not None:
            self.handle.close()


def decoded_lines(handle: BinaryIO, source: str) -> Iterator[tuple[int, str]]:
    """(1-based number, text) of each line, refusing binary data where it is met.

    Raises:
        GridParseError: for a NUL byte or bytes that are not UTF-8, or a read error.
    """
    offset = 0
    number = 0
    while True:
        try:
            raw = handle.readline(MAX_LINE_BYTES)
        except OSError as error:
            raise GridParseError(f"cannot read: {error.strerror or error}", source=source) from None
        if not raw:
            return
        number += 1
        yield number, _decode_line(raw, source=source, offset=offset, number=number)
        offset += len(raw)


MAX_LINE_BYTES = 1 << 24  # a longer "line" is cut there (and then fails as a puzzle)


def _decode_line(raw: bytes, *, source: str, offset: int, number: int) -> str:
    nul = raw.find(b"\0")
    if nul >= 0:
        raise GridParseError(
            f"binary data, not a puzzle (a NUL byte at offset {offset + nul})",
            source=source,
            line=number,
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise GridParseError(
            f"binary data, not a puzzle (byte 0x{raw[error.start]:02x} at offset "
            f"{offset + error.start} is not UTF-8 text)",
            source=source,
            line=number,
        ) from None
    return text.lstrip("\ufeff") if offset == 0 else text

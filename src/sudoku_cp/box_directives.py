"""The box shape in force at each line of a source: `--box`, or the last `# box: RxC` line above
it (the files sudoku-cp writes for a shape other than the size's default carry one); and the
content lines of a source, with those declarations taken as they are met."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from .errors import GridParseError, GridShapeError
from .grid import Grid, Shape, parse_box

BOX_DIRECTIVE = re.compile(r"#\s*box:\s*(\S+)\s*$", re.IGNORECASE)


def box_directive(box: Shape) -> str:
    """The comment line that declares a box shape: '# box: 3x2'."""
    return f"# box: {box[0]}x{box[1]}"


class BoxDirectives:
    """The box shape in force at each line of one source: `--box`, else the last `# box: RxC`
    line above it (declarations are kept with their line numbers: layout detection reads
    ahead of the puzzles it hands on)."""

    def __init__(self, given: Shape | None, source: str) -> None:
        self.given = given
        self.declared: list[tuple[int, Shape]] = []  # (line, shape), in line order
        self.source = source

    def shape_at(self, number: int) -> Shape | None:
        """The shape for a puzzle that starts at line `number`."""
        if self.given is not None or not self.declared:
            return self.given
        return next((shape for line, shape in reversed(self.declared) if line < number), None)

    def declare(self, number: int, text: str) -> None:
        """Take a `# box:` line.

        Raises:
            GridParseError: for a shape that is not RxC, or one that `--box` contradicts.
        """
        try:
            declared = parse_box(text)
        except GridShapeError as error:
            raise GridParseError(str(error), source=self.source, line=number) from None
        if self.given is not None and declared != self.given:
            raise GridParseError(
                f"the file declares box {declared[0]}x{declared[1]}, --box says "
                f"{self.given[0]}x{self.given[1]}: drop --box, or give the file's shape",
                source=self.source,
                line=number,
            )
        self.declared.append((number, declared))

    def check_fits(self, line: str, number: int, error: Exception) -> None:
        """After a line failed to parse with the shape in force (`error`): when it reads as a
        puzzle of its size's default shape, the shape is what is wrong, for this puzzle and
        (one shape for the whole source) for the rest, so the source stops with one error.

        Raises:
            GridParseError: the shape does not fit the size of the puzzle on this line.
        """
        if self.shape_at(number) is None:
            return
        try:
            Grid.parse(line)
        except (GridParseError, GridShapeError):
            return  # the line is broken whatever the shape: its own error says so
        whose = "--box" if self.given is not None else "the file's '# box:' line"
        raise GridParseError(
            f"{getattr(error, 'message', error)}, as {whose} asks; nothing more is read from "
            f"this source",
            source=self.source,
            line=number,
        )


def content_lines(
    lines: Iterable[tuple[int, str]], boxes: BoxDirectives | None = None
) -> Iterator[tuple[int, str]]:
    """The content lines; `# box:` declarations go to `boxes` as they are met."""
    for number, line in lines:
        stripped = line.strip()
        if not stripped:
            continue
        if not stripped.startswith("#"):
            yield number, stripped
        elif boxes is not None and (declared := BOX_DIRECTIVE.match(stripped)):
            boxes.declare(number, declared.group(1))


__all__ = ["BOX_DIRECTIVE", "BoxDirectives", "box_directive", "content_lines"]

"""A one-line progress display on stderr for long runs, shown only on a terminal."""

from __future__ import annotations

import os
import sys
import time
from typing import TextIO

WIDTH = 80  # the columns the line fits in at most (fewer on a narrower terminal)


class Progress:
    """Count, rate, ETA and an optional note, redrawn at most a few times a second.

    Quiet when the stream is not a terminal (a pipe, a CI log), so logs stay clean. The line is
    cut to the terminal's width: a longer one would wrap, and each redraw would leave a copy.
    The rate and the ETA count this run's work only: steps an earlier session finished (a
    resumed log, `advance(earlier=True)`) are in the count but not in the rate, and until this
    run has finished a step there is no rate to show.
    """

    def __init__(
        self,
        total: int | None,
        *,
        label: str = "",
        stream: TextIO | None = None,
        enabled: bool | None = None,
        interval: float = 0.2,
        width: int | None = None,
    ) -> None:
        self.total = total
        self.label = label
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.interval = interval
        self.width = width
        self.done = 0  # steps counted, an earlier session's included
        self.earlier = 0  # of which an earlier session finished
        self.start = time.perf_counter()  # this run's clock, started after the earlier steps
        self._last_draw = 0.0
        self._drawn = False

    def relabel(self, label: str, *, total: int | None) -> None:
        """Start a new stage (set-up, then the timed runs): its label shown at once, the count,
        rate and ETA from zero."""
        self.label, self.total, self.done, self.earlier = label, total, 0, 0
        self.start = time.perf_counter()
        if self.enabled:
            self._last_draw = self.start
            self._draw(self.start, "")

    def advance(self, steps: int = 1, *, note: str = "", earlier: bool = False) -> None:
        """Count `steps` more (`earlier`: finished by an earlier session, not by this run)."""
        self.done += steps
        now = time.perf_counter()
        if earlier:
            self.earlier += steps
            self.start = now  # this run's rate starts when the earlier steps are counted
        if self.enabled and (now - self._last_draw >= self.interval or self.done == self.total):
            self._last_draw = now
            self._draw(now, note)

    def line(self, now: float, note: str = "") -> str:
        """The text of the line at `now`: label, count, then rate and ETA once there is one."""
        parts = [f"{self.label}{self.done}"]
        if self.total:
            parts[0] += f"/{self.total} ({100 * self.done / self.total:.0f}%)"
        fresh, elapsed = self.done - self.earlier, now - self.start
        if fresh > 0 and elapsed > 0:
            rate = fresh / elapsed
            parts.append(_rate(rate))
            if self.total:
                parts.append(f"ETA {_clock((self.total - self.done) / rate)}")
        if note:
            parts.append(note)
        return " ".join(parts)

    def _draw(self, now: float, note: str) -> None:
        columns = min(self.width or _columns(self.stream), WIDTH)
        # One column short of the edge: a character in the last column makes some terminals
        # wrap, and the next redraw would then start a line too low.
        self.stream.write("\r" + self.line(now, note)[: columns - 1] + "\x1b[K")
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        """Leave the terminal on a fresh line."""
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False


def _columns(stream: TextIO) -> int:
    """The width of the terminal `stream` writes to (WIDTH when it cannot be asked)."""
    try:
        return os.get_terminal_size(stream.fileno()).columns or WIDTH
    except (OSError, ValueError, AttributeError):
        return WIDTH


def _rate(per_second: float) -> str:
    """'12.3/s', or for steps slower than one a second the seconds each takes ('41 s each')."""
    return f"{per_second:.1f}/s" if per_second >= 1 else f"{1 / per_second:.0f} s each"


def _clock(seconds: float) -> str:
    minutes, seconds = divmod(int(seconds + 0.5), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"

"""A one-line progress display on stderr for long runs, shown only on a terminal."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """Count, rate, ETA and an optional note, redrawn at most a few times a second.

    Quiet when the stream is not a terminal (a pipe, a CI log), so logs stay clean.
    """

    def __init__(
        self,
        total: int | None,
        *,
        label: str = "",
        stream: TextIO | None = None,
        enabled: bool | None = None,
        interval: float = 0.2,
    ) -> None:
        self.total = total
        self.label = label
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.interval = interval
        self.done = 0
        self.start = time.perf_counter()
        self._last_draw = 0.0
        self._drawn = False

    def relabel(self, label: str, *, total: int | None) -> None:
        """Start a new stage (set-up, then the timed runs): its label shown at once, the count,
        rate and ETA from zero."""
        self.label, self.total, self.done = label, total, 0
        self.start = time.perf_counter()
        if self.enabled:
            self._last_draw = self.start
            self._draw(self.start, "")

    def advance(self, steps: int = 1, *, note: str = "") -> None:
        self.done += steps
        now = time.perf_counter()
        if self.enabled and (now - self._last_draw >= self.interval or self.done == self.total):
            self._last_draw = now
            self._draw(now, note)

    def _draw(self, now: float, note: str) -> None:
        elapsed = max(now - self.start, 1e-9)
        rate = self.done / elapsed
        if self.total:
            left = (self.total - self.done) / rate if rate > 0 else 0.0
            text = (
                f"{self.label}{self.done}/{self.total} ({100 * self.done / self.total:.0f}%) "
                f"{rate:.1f}/s ETA {_clock(left)}"
            )
        else:
            text = f"{self.label}{self.done} {rate:.1f}/s"
        if note:
            text += f" {note}"
        self.stream.write("\r" + text[:200] + "\x1b[K")
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        """Leave the terminal on a fresh line."""
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False


def _clock(seconds: float) -> str:
    minutes, seconds = divmod(int(seconds + 0.5), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"

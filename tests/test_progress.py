import io

import pytest

from sudoku_cp.progress import Progress


def test_quiet_when_the_stream_is_not_a_terminal():
    stream = io.StringIO()
    progress = Progress(10, stream=stream)
    for _ in range(10):
        progress.advance()
    progress.close()
    assert stream.getvalue() == ""


def test_shows_count_rate_eta_and_note_then_ends_the_line():
    stream = io.StringIO()
    progress = Progress(4, label="solve ", stream=stream, enabled=True, interval=0)
    for _ in range(4):
        progress.advance(note="0 disagree")
    progress.close()
    text = stream.getvalue()
    assert "\rsolve 4/4 (100%)" in text and "ETA 0:00 0 disagree" in text
    assert text.endswith("\n")


def test_without_a_total_it_shows_count_and_rate():
    stream = io.StringIO()
    progress = Progress(None, stream=stream, enabled=True, interval=0)
    progress.advance()
    assert stream.getvalue().startswith("\r1 ") and "/s" in stream.getvalue()


class Clock:
    """A stand-in for time.perf_counter that moves only when told."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_after_a_resume_the_rate_and_eta_count_this_runs_steps_only(monkeypatch):
    # 90 of 100 puzzles come from the log in a blink; this run then takes 10 s a puzzle. The
    # old display counted the 90 in the rate and promised the last 9 in a second.
    clock = Clock()
    monkeypatch.setattr("sudoku_cp.progress.time.perf_counter", clock)
    stream = io.StringIO()
    progress = Progress(100, label="crosscheck ", stream=stream, enabled=True, interval=0)
    clock.now += 1
    progress.advance(90, earlier=True)
    assert stream.getvalue().split("\r")[-1] == "crosscheck 90/100 (90%)\x1b[K"
    clock.now += 10
    progress.advance()
    assert stream.getvalue().split("\r")[-1] == "crosscheck 91/100 (91%) 10 s each ETA 1:30\x1b[K"


def test_no_rate_or_eta_until_a_step_is_done(monkeypatch):
    clock = Clock()
    monkeypatch.setattr("sudoku_cp.progress.time.perf_counter", clock)
    stream = io.StringIO()
    progress = Progress(3, label="generate ", stream=stream, enabled=True, interval=0)
    clock.now += 5
    progress.advance(0, note="filling a grid")
    assert stream.getvalue() == "\rgenerate 0/3 (0%) filling a grid\x1b[K"
    clock.now += 5
    progress.advance()
    assert stream.getvalue().split("\r")[-1] == "generate 1/3 (33%) 10 s each ETA 0:20\x1b[K"


@pytest.mark.parametrize("width", [80, 40])
def test_the_line_fits_the_terminal_so_a_redraw_leaves_no_copy(width):
    # A line as wide as the terminal or wider wraps, and '\r' then goes back to the start of
    # its last row only: each redraw would leave a copy above.
    stream = io.StringIO()
    progress = Progress(
        None, label="generate ", stream=stream, enabled=True, interval=0, width=width
    )
    progress.advance(0, note="exchanging givens, 269 left; 695 questions, 248.3 s " * 3)
    (line,) = stream.getvalue().removeprefix("\r").split("\r")
    assert len(line.removesuffix("\x1b[K")) == width - 1


def test_never_wider_than_80_columns_on_a_wide_terminal():
    stream = io.StringIO()
    progress = Progress(None, stream=stream, enabled=True, interval=0, width=200)
    progress.advance(0, note="x" * 300)
    assert len(stream.getvalue().removeprefix("\r").removesuffix("\x1b[K")) == 79

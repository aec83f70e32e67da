import io

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

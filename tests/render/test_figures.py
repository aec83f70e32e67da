"""render.figures: what the figures share. Log axes get a few ticks at round values, labelled
as a table writes a number, never as a power of ten; times are shown in milliseconds."""

from __future__ import annotations

import pytest

from sudoku_cp.render.figures import MILLISECONDS, MOST_TICKS, log_ticks, milliseconds, plain_number


@pytest.mark.parametrize(
    "low, high, ticks",
    [
        (0.4, 280.0, [1.0, 10.0, 100.0]),  # decades when they give three
        (0.2, 1.3, [0.2, 0.5, 1.0]),  # 1-2-5 inside a decade
        (0.3, 0.45, [0.3, 0.4]),  # the finest multiples on a narrow range
        (3.1, 3.9, [3.3, 3.7]),  # inside one step of those: two significant digits
        (1e-3, 1e9, [1e-3, 1.0, 1e3, 1e6, 1e9]),  # too many decades: every third
    ],
)
def test_a_log_axis_gets_a_few_ticks_at_round_values(low, high, ticks) -> None:
    assert log_ticks(low, high) == pytest.approx(ticks)


@pytest.mark.parametrize("low", [1e-4, 0.02, 0.3, 1.0, 7.0, 300.0])
@pytest.mark.parametrize("span", [1.2, 2.0, 6.0, 40.0, 1e4, 1e8])
def test_every_range_gets_between_two_and_most_ticks_inside_it(low, span) -> None:
    ticks = log_ticks(low, low * span)
    assert 2 <= len(ticks) <= MOST_TICKS
    assert all(low <= tick <= low * span for tick in ticks) and ticks == sorted(set(ticks))


def test_no_ticks_for_an_empty_or_negative_range() -> None:
    assert log_ticks(1.0, 1.0) == [] and log_ticks(0.0, 5.0) == [] and log_ticks(5.0, 1.0) == []


def test_tick_labels_are_plain_numbers() -> None:
    values = [0.0005, 0.3, 0.30000000000000004, 1.0, 20.0, 1000.0, 2.5e6]
    assert [plain_number(value) for value in values] == [
        "0.0005",
        "0.3",
        "0.3",
        "1",
        "20",
        "1,000",
        "2,500,000",
    ]


def test_times_are_drawn_in_milliseconds() -> None:
    assert MILLISECONDS == 1000 and milliseconds(0.25) == 250 and milliseconds(None) is None

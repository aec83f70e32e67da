"""render.text: aligned columns (text left, numbers right), prose wrapped to 80 columns, and the
legend of short labels."""

from __future__ import annotations

from sudoku_cp.render.text import (
    WIDTH,
    aligned,
    certified_line,
    fitted_labels,
    label_legend,
    wrapped,
)


def test_columns_are_as_wide_as_their_widest_cell_text_left_numbers_right() -> None:
    rows = [["backend", "solved", "s"], ["dfs", "12", "0.5"], ["cpsat", "3", "10.25"]]
    assert aligned(rows) == [
        "backend  solved      s",
        "dfs          12    0.5",
        "cpsat         3  10.25",
    ]
    assert aligned([["a", "b"], ["ccc", "d"]], text_columns=2, gap=" | ") == ["a   | b", "ccc | d"]


def test_prose_wraps_at_80_columns_without_cutting_a_word() -> None:
    text = " ".join(["word"] * 40 + ["x" * 100])
    lines = wrapped(text, indent="  ").splitlines()
    assert all(line.startswith("  ") for line in lines)
    assert all(len(line) <= WIDTH for line in lines[:-1]) and lines[-1] == "  " + "x" * 100


def test_the_legend_names_only_the_labels_shown_short() -> None:
    shorts = {"sat[solver=cadical195]": "sat c", "dfs": "dfs"}
    assert label_legend(shorts) == ["sat c: sat[solver=cadical195]"]


def test_the_certified_line_says_how_many_and_what_failed() -> None:
    assert certified_line(12, 12) == "12/12 answers certified"
    assert certified_line(1, 1) == "1/1 answer certified"
    assert certified_line(11, 12) == "11/12 answers certified; 1 not certified, counted as wrong"
    assert certified_line(0, 0) == "0/0 answers certified (a timeout or an error claims nothing)"


def test_labels_too_wide_for_the_table_become_keys_and_those_that_fit_stay() -> None:
    shorts = {"sat[solver=cadical195]": "sat cadical195", "dfs": "dfs", "g=sat[x=1]": "g"}

    def table(width: int):
        return lambda shown: "\n".join(label.ljust(width) for label in shown.values())

    assert fitted_labels(table(WIDTH - 20), shorts) == shorts  # fits: unchanged
    assert fitted_labels(table(WIDTH + 1), shorts) == {
        "sat[solver=cadical195]": "sat#1",
        "dfs": "dfs",  # shorter than its key
        "g=sat[x=1]": "g",
    }


def test_a_hanging_indent_wraps_the_lines_after_the_first() -> None:
    lines = wrapped(" ".join(["word"] * 40), hanging="  ").splitlines()
    assert not lines[0].startswith(" ") and all(line.startswith("  ") for line in lines[1:])

"""render.markup: strings from a log made inert in Markdown (no HTML, no cell break, no code, no
link or image) and in LaTeX (every special escaped), checked against Python-Markdown, the
renderer mkdocs uses."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from sudoku_cp.render.markup import latex_escape, markdown_code, markdown_text

HOSTILE = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "a|b",
    "`code` and ``more``",
    "![x](y.png) [link](javascript:alert(1))",
    "fish & chips &amp; \\<b>",
    "line\n<script>x</script>",
]


class Elements(HTMLParser):
    """The start tags of an HTML text and its visible text."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text = ""

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text += data


def rendered(markdown_source: str) -> Elements:
    markdown = pytest.importorskip("markdown")
    elements = Elements()
    elements.feed(markdown.markdown(markdown_source, extensions=["tables"]))
    return elements


@pytest.mark.parametrize("text", HOSTILE)
def test_text_in_a_table_cell_shows_as_itself(text: str) -> None:
    table = f"| a | b |\n|---|---|\n| {markdown_text(text)} | {markdown_code(text)} |\n"
    elements = rendered(table)
    assert elements.tags.count("td") == 2  # no cell split off
    assert {"script", "img", "a"}.isdisjoint(elements.tags)
    shown = " ".join(text.splitlines())
    assert elements.text.count(shown) == 2, elements.text


def test_plain_code_stays_a_code_span() -> None:
    assert markdown_code("sudoku-cp bench x") == "`sudoku-cp bench x`"
    assert markdown_code("a|b") == "<code>a&#124;b</code>"


def test_latex_escapes_every_special() -> None:
    assert latex_escape("<a> | `b` & 50% _x_ #1 $y {z} ~^\\") == (
        r"\textless{}a\textgreater{} \textbar{} \textasciigrave{}b\textasciigrave{} \& 50\% "
        r"\_x\_ \#1 \$y \{z\} \textasciitilde{}\textasciicircum{}\textbackslash{}"
    )
    assert latex_escape("two\nlines") == "two lines"

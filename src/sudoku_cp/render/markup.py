"""Text from a results log made inert in Markdown and LaTeX (pure: returns text).

A log's strings (set names from file names, configuration labels, the command line, paths) are
the user's and may hold anything. Written raw into Markdown they are live HTML once rendered
(Python-Markdown, which mkdocs uses, passes `<script>` through), a `|` splits a table cell and a
backtick opens code; written raw into LaTeX, `&`, `%` or `_` break the table. The HTML page
escapes through its templates; the Markdown and LaTeX reports escape through these.
"""

from __future__ import annotations

# Characters that are markup in Markdown, as character references: these are decoded after
# the table is split and after inline markup is read, in GitHub's Markdown as in
# Python-Markdown, so they show as themselves and do neither.
_MARKDOWN_REFERENCES = {
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    "|": "&#124;",
    "`": "&#96;",
}


def markdown_text(text: str) -> str:
    """Text shown as itself in Markdown prose or a table cell: no HTML, no cell break, no code,
    no link or image (`](` loses its meaning), on one line."""
    text = " ".join(text.splitlines())
    escaped = "".join(_MARKDOWN_REFERENCES.get(char, char) for char in text.replace("\\", "\\\\"))
    return escaped.replace("](", "]\\(")


def markdown_code(text: str) -> str:
    """Text shown as code: a code span when the text holds no backtick or `|` (a code span
    shows `<` and `&` as themselves), else an HTML code element around `markdown_text`, as a
    code span can carry neither inside a table."""
    text = " ".join(text.splitlines())
    if "`" in text or "|" in text:
        return f"<code>{markdown_text(text)}</code>"
    return f"`{text}`"


_LATEX_SPECIAL = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "\\": r"\textbackslash{}",
    # Not special to LaTeX's parser, but in the default font encoding these print as other
    # glyphs ('<' as an inverted exclamation mark) or none at all.
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    "`": r"\textasciigrave{}",
}


def latex_escape(text: str) -> str:
    """Text shown as itself in LaTeX's text mode, on one line."""
    return "".join(_LATEX_SPECIAL.get(char, char) for char in " ".join(text.splitlines()))


__all__ = ["latex_escape", "markdown_code", "markdown_text"]

"""Rendering, pure (returns text or JSON-ready data): `answers` as `solve` prints them, the
`crosscheck` text (summary and findings), the `bench` tables in text, Markdown, CSV and LaTeX.

Plots are in `plots.py`; the Markdown report document in `report.py`; the HTML page in
`report_html`.
"""

"""The HTML report in a real browser: headless Chromium (the system's, Debian packages chromium
and chromium-driver) driven by Selenium opens the page from file:// with no network, and the
tests act as a reader does: sort, filter, hover and click a scatter point, open a puzzle and
find the cell where a deliberately wrong backend's answer differs.

Without the browser the whole module skips, with one line naming the packages. With
SUDOKU_CP_SCREENSHOTS=FOLDER the grid test also saves the puzzle view it checked there (the
screenshot docs/images/report-puzzle.png; the others come from tools/html_report.py).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from sudoku_cp.explain import Board, explain
from sudoku_cp.grid import Grid

from ..bench_helpers import invoke
from .logs import BACKENDS, LONG, NINE, disagreement_log, records_of

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
if not (CHROMIUM and CHROMEDRIVER and importlib.util.find_spec("selenium")):
    pytest.skip(
        "the browser tests need Chromium: apt-get install chromium chromium-driver "
        "(and pip install selenium, in the test extra)",
        allow_module_level=True,
    )

from selenium import webdriver  # noqa: E402 (after the skip: selenium may be missing)
from selenium.webdriver.chrome.options import Options  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

WAIT_SECONDS = 30  # generous: the machine may be busy; no test asserts a time


def chromium() -> WebDriver:
    """Headless Chromium, the system's binary and driver (Selenium downloads nothing), every
    request to the network refused (a dead proxy), the console kept."""
    options = Options()
    options.binary_location = str(CHROMIUM)
    for argument in (
        "--headless=new",
        "--no-sandbox",  # CI runs as root
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1400,1000",
        "--proxy-server=http://127.0.0.1:9",
        "--proxy-bypass-list=<-loopback>",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The HTML report of a crosscheck in which notlexmin answers three puzzles wrong."""
    folder = tmp_path_factory.mktemp("browser")
    log = disagreement_log(folder)
    page = folder / "report.html"
    result = invoke("report", log, "-o", page, "--baseline", "dfs")
    assert result.exit_code == 0, result.output
    return page


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    driver = chromium()
    try:
        yield driver
    finally:
        driver.quit()


def until(driver: WebDriver, condition: Callable[[WebDriver], Any]) -> Any:
    return WebDriverWait(driver, WAIT_SECONDS).until(condition)


def open_page(driver: WebDriver, page: Path, fragment: str = "") -> WebDriver:
    driver.get(page.as_uri() + fragment)
    until(driver, lambda d: d.execute_script("return document.body.dataset.ready === '1'"))
    return driver


@pytest.fixture
def page(browser: WebDriver, report: Path) -> WebDriver:
    browser.get("about:blank")
    browser.get_log("browser")  # what earlier tests left
    return open_page(browser, report)


def console_errors(driver: WebDriver) -> list[str]:
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def click(driver: WebDriver, element: WebElement) -> None:
    """A real click, with the element in the middle of the window (not under the sticky
    header)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    ActionChains(driver).move_to_element(element).click().perform()


def snapshot(element: WebElement, name: str) -> None:
    folder = os.environ.get("SUDOKU_CP_SCREENSHOTS")
    if folder:
        element.screenshot(str(Path(folder) / name))


def count_text(driver: WebDriver) -> str:
    return str(driver.find_element(By.ID, "puzzle-count").text)


def shown_records(driver: WebDriver) -> list[int]:
    rows = driver.find_elements(By.CSS_SELECTOR, "#puzzle-table tbody tr[data-record]")
    return [int(str(row.get_attribute("data-record"))) for row in rows]


# -- the page as a whole ----------------------------------------------------------------------


def test_the_page_loads_offline_without_console_errors(page: WebDriver) -> None:
    assert console_errors(page) == []
    resources = page.execute_script(
        "return performance.getEntriesByType('resource').map(entry => entry.name)"
    )
    assert not [name for name in resources if not name.startswith(("file:", "data:"))]
    rows = page.find_elements(By.CSS_SELECTOR, "#summary-table tbody tr")
    assert len(rows) == 2 * (len(BACKENDS) + 1)  # two sets, each with its virtual best
    assert count_text(page) == "5 puzzles" and len(shown_records(page)) == 5
    assert page.find_elements(By.CSS_SELECTOR, "#plot-area canvas")  # the cactus is drawn


def test_the_console_check_sees_an_error(browser: WebDriver, report: Path) -> None:
    """The check above can fail: a page whose script throws is caught."""
    broken = report.with_name("broken.html")
    broken.write_text(
        report.read_text().replace(
            "</body>", "<script>throw new Error('deliberate')</script></body>"
        )
    )
    browser.get_log("browser")
    open_page(browser, broken)
    assert any("deliberate" in message for message in console_errors(browser))


# -- the summary table ------------------------------------------------------------------------


def summary_column(driver: WebDriver, title: str) -> tuple[WebElement, list[str]]:
    headers = driver.find_elements(By.CSS_SELECTOR, "#summary-table thead tr:last-child th")
    header = next(th for th in headers if th.text.strip().rstrip("▲▼") == title)
    column = int(str(header.get_attribute("data-column")))
    cells = [
        str(row.find_elements(By.TAG_NAME, "td")[column].get_attribute("data-sort"))
        for row in driver.find_elements(By.CSS_SELECTOR, "#summary-table tbody tr")
    ]
    return header, cells


def sorted_with_blanks_last(values: list[str], *, reverse: bool = False) -> bool:
    """Whether numbers are in order, the cells without one ('-') after them either way."""
    numbers = [float(value) for value in values if value]
    blanks = values[len(numbers) :]
    return numbers == sorted(numbers, reverse=reverse) and not any(blanks)


def test_the_summary_sorts_by_any_column(page: WebDriver) -> None:
    header, before = summary_column(page, "median")
    click(page, header)
    _, ascending = summary_column(page, "median")
    assert sorted(ascending) == sorted(before) and ascending != before
    assert sorted_with_blanks_last(ascending)
    assert header.get_attribute("aria-sort") == "ascending"
    click(page, header)
    _, descending = summary_column(page, "median")
    assert sorted_with_blanks_last(descending, reverse=True)
    assert header.get_attribute("aria-sort") == "descending"
    header, _ = summary_column(page, "configuration")
    click(page, header)
    _, labels = summary_column(page, "configuration")
    assert labels == sorted(labels, key=str.lower) or labels == sorted(labels)


# -- the puzzle table -------------------------------------------------------------------------


def choose(driver: WebDriver, select_id: str, text_start: str) -> None:
    select = Select(driver.find_element(By.ID, select_id))
    option = next(o for o in select.options if o.text.startswith(text_start))
    select.select_by_visible_text(option.text)


def test_the_puzzle_table_filters(page: WebDriver, report: Path) -> None:
    records = records_of(report.with_name("disagree.jsonl"))
    wrong = [number for number, record in enumerate(records) if record["verdict"] == "wrong"]
    choose(page, "f-verdict", "wrong")
    until(page, lambda d: count_text(d) == f"{len(wrong)} of 5 puzzles")
    assert shown_records(page) == wrong
    choose(page, "f-set", "six")
    until(page, lambda d: count_text(d) == "1 of 5 puzzles")
    assert shown_records(page) == [4]
    click(page, page.find_element(By.ID, "f-reset"))
    until(page, lambda d: count_text(d) == "5 puzzles")
    choose(page, "f-status-of", "notlexmin")
    choose(page, "f-status", "solved")
    until(page, lambda d: count_text(d) == f"{5 - len(wrong)} of 5 puzzles")
    page.find_element(By.ID, "f-factor").send_keys("1e9")  # nothing is a billion times slower
    until(page, lambda d: "of 5 puzzles" in count_text(d) and count_text(d).startswith("0 "))
    assert page.find_element(By.CSS_SELECTOR, "#puzzle-table tbody tr.empty").is_displayed()


def test_the_puzzle_table_sorts_by_a_configuration(page: WebDriver) -> None:
    column = BACKENDS.index(LONG)
    header = page.find_element(By.CSS_SELECTOR, f'#puzzle-table th[data-sort="c{column}"]')
    assert header.get_attribute("title") == LONG  # the full option set on hover
    click(page, header)

    def times() -> list[float]:
        position = 3 + 2 + column  # set, puzzle, line, size, givens, verdict; then the times
        rows = page.find_elements(By.CSS_SELECTOR, "#puzzle-table tbody tr[data-record]")
        return [float(row.find_elements(By.TAG_NAME, "td")[position + 1].text) for row in rows]

    until(page, lambda d: header.get_attribute("aria-sort") == "ascending")
    assert times() == sorted(times())
    click(page, header)
    until(page, lambda d: header.get_attribute("aria-sort") == "descending")
    assert times() == sorted(times(), reverse=True)


# -- the plots and the puzzle view ------------------------------------------------------------


def test_a_scatter_point_opens_its_puzzle(page: WebDriver) -> None:
    click(page, page.find_element(By.CSS_SELECTOR, "#plot-tabs button[data-plot=scatter]"))
    Select(page.find_element(By.ID, "p-x")).select_by_visible_text("dfs")
    Select(page.find_element(By.ID, "p-y")).select_by_visible_text("notlexmin")
    page.execute_script("document.querySelector('#plot-area').scrollIntoView({block: 'center'})")
    # A redraw still pending (the selections, a resize from the scroll) would move the point
    # and replace the canvas: wait for the drawn plot, then find both.
    point = until(
        page,
        lambda d: d.execute_script("return !SudokuReport.drawing && SudokuReport.scatterPoint(1)"),
    )
    canvas = page.find_element(By.CSS_SELECTOR, "#plot-area .plot-overlay")
    size = canvas.size
    ActionChains(page).move_to_element_with_offset(
        canvas, round(point["x"] - size["width"] / 2), round(point["y"] - size["height"] / 2)
    ).perform()
    tooltip = page.find_element(By.ID, "tooltip")
    until(page, lambda d: tooltip.is_displayed())
    assert "nine · puzzle 2" in tooltip.text and "notlexmin" in tooltip.text
    ActionChains(page).click().perform()
    view = page.find_element(By.ID, "puzzle-view")
    until(page, lambda d: view.get_attribute("data-record") == "1")
    assert "nine · puzzle 2" in page.find_element(By.ID, "puzzle-title").text
    assert page.execute_script("return location.hash") == "#puzzle-2"  # from 1, as shown
    assert console_errors(page) == []


def test_the_grid_marks_the_cells_where_a_wrong_answer_differs(
    page: WebDriver, report: Path
) -> None:
    record = records_of(report.with_name("disagree.jsonl"))[0]
    answers = {run["backend"]: run["solution"] or run.get("answer") for run in record["runs"]}
    differing = [
        cell
        for cell, (a, b) in enumerate(zip(answers["notlexmin"], answers["dfs"], strict=True))
        if a != b
    ]
    assert differing  # the deliberate disagreement
    row = page.find_element(By.CSS_SELECTOR, '#puzzle-table tbody tr[data-record="0"]')
    click(page, row)
    view = page.find_element(By.ID, "puzzle-view")
    until(page, lambda d: view.get_attribute("data-record") == "0")
    figures = view.find_elements(By.CSS_SELECTOR, "figure.answer")
    wrong = next(figure for figure in figures if "notlexmin" in figure.text)
    marked = wrong.find_elements(By.CSS_SELECTOR, ".grid span.mk-diff")
    assert sorted(int(str(cell.get_attribute("data-cell"))) for cell in marked) == differing
    assert all(cell.is_displayed() for cell in marked)
    assert "differs" in str(marked[0].get_attribute("title"))
    assert [cell.text for cell in marked] == [answers["notlexmin"][cell] for cell in differing]
    right = next(figure for figure in figures if "reference" in figure.text)
    assert "dfs" in right.text and not right.find_elements(By.CSS_SELECTOR, ".mk-diff, .mk-bad")
    assert "not the lex-min" in view.text  # the finding and the run's reason
    snapshot(view.find_element(By.CSS_SELECTOR, ".panel"), "report-puzzle.png")
    view.find_element(By.CSS_SELECTOR, ".panel").send_keys(Keys.ARROW_RIGHT)
    until(page, lambda d: view.get_attribute("data-record") == "1")
    view.find_element(By.CSS_SELECTOR, ".panel").send_keys(Keys.ESCAPE)
    until(page, lambda d: not view.is_displayed())
    assert console_errors(page) == []


def test_an_address_opens_its_puzzle(browser: WebDriver, report: Path) -> None:
    browser.get("about:blank")
    open_page(browser, report, "#puzzle-5")  # the fifth puzzle, counted from 1 as the page does
    view = browser.find_element(By.ID, "puzzle-view")
    until(browser, lambda d: view.get_attribute("data-record") == "4")
    grid = view.find_element(By.CSS_SELECTOR, "figure .grid")
    assert len(grid.find_elements(By.TAG_NAME, "span")) == 36  # the 6x6 puzzle
    assert len(grid.find_elements(By.CSS_SELECTOR, "span.bb")) == 2 * 6  # boxes of 2 rows
    browser.execute_script("location.hash = '#puzzle-3'")  # a link within the page
    until(browser, lambda d: view.get_attribute("data-record") == "2")


def test_the_report_data_is_what_the_log_holds(page: WebDriver, report: Path) -> None:
    records = records_of(report.with_name("disagree.jsonl"))
    puzzles = page.execute_script("return SudokuReport.columns.puzzle")
    assert puzzles == [record["puzzle"] for record in records]
    assert json.loads(page.execute_script("return JSON.stringify(SudokuReport.meta.sets)")) == [
        "nine",
        "six",
    ]


def test_a_cactus_panel_counts_each_puzzle_once_across_modes(
    browser: WebDriver, tmp_path: Path
) -> None:
    """Two logs of one set, lexmin and any: the panel's title says 2 puzzles, where the curves
    of each mode stop, not 4 (one per mode)."""
    puzzles = tmp_path / "two.txt"
    puzzles.write_text("\n".join(NINE[:2]) + "\n")
    logs = []
    for mode in ("lexmin", "any"):
        log = tmp_path / f"{mode}.jsonl"
        result = invoke("crosscheck", puzzles, "-b", "dfs", "--mode", mode, "--results", log)
        assert result.exit_code == 0, result.output
        logs.append(log)
    page = tmp_path / "modes.html"
    assert invoke("report", *logs, "-o", page).exit_code == 0
    open_page(browser, page)
    until(browser, lambda d: d.execute_script("return SudokuReport.n") == 4)
    title = browser.execute_script("return SudokuReport.cactusTitle(0, [0, 1, 2, 3])")
    assert title == "two (2 puzzles)"


def test_the_puzzle_view_steps_through_the_explanation(browser: WebDriver, tmp_path: Path) -> None:
    example = Path(__file__).parents[2] / "data" / "examples" / "baekjoon2239.txt"
    log, page = tmp_path / "rated.jsonl", tmp_path / "rated.html"
    result = invoke("bench", example, "-b", "dfs", "--rating", "--results", log)
    assert result.exit_code == 0, result.output
    assert invoke("report", log, "-o", page).exit_code == 0
    browser.get("about:blank")
    browser.get_log("browser")
    open_page(browser, page, "#puzzle-1")
    view = browser.find_element(By.ID, "puzzle-view")
    until(browser, lambda d: view.get_attribute("data-record") == "0")
    box = view.find_element(By.CSS_SELECTOR, ".explanation")
    assert "solved in 51 steps" in view.text
    steps = box.find_elements(By.CSS_SELECTOR, ".ex-steps li")
    assert len(steps) == 51 and steps[0].text.startswith(("hidden single", "naked single"))

    def grid() -> list[str]:
        return [cell.text for cell in box.find_elements(By.CSS_SELECTOR, ".ex-grid span")]

    start = grid()
    assert start.count("") == 51 and box.get_attribute("data-step") == "0"
    click(browser, box.find_element(By.CSS_SELECTOR, ".ex-next"))
    until(browser, lambda d: box.get_attribute("data-step") == "1")
    after = grid()
    changed = [cell for cell, (a, b) in enumerate(zip(start, after, strict=True)) if a != b]
    assert len(changed) == 1 and start[changed[0]] == ""
    row, col = divmod(changed[0], 9)
    assert f"r{row + 1}c{col + 1}={after[changed[0]]}" in steps[0].text  # 1-based, as listed
    placed = box.find_element(By.CSS_SELECTOR, '.ex-grid span[data-mark="ex-placed"]')
    assert placed.get_attribute("data-cell") == str(changed[0])
    box.send_keys(Keys.ARROW_RIGHT)  # in the explanation the arrows step, not change puzzle
    until(browser, lambda d: box.get_attribute("data-step") == "2")
    box.send_keys(Keys.ARROW_LEFT, Keys.ARROW_LEFT)
    until(browser, lambda d: box.get_attribute("data-step") == "0")
    assert grid() == start and view.get_attribute("data-record") == "0"
    click(browser, box.find_element(By.CSS_SELECTOR, ".ex-pencil"))
    click(browser, steps[9].find_element(By.TAG_NAME, "button"))
    until(browser, lambda d: box.get_attribute("data-step") == "10")
    assert pencil_marks(browser, box) == board_after("".join(example.read_text().split()), 10)
    click(browser, steps[-1].find_element(By.TAG_NAME, "button"))
    until(browser, lambda d: box.get_attribute("data-step") == "51")
    assert "" not in grid()
    assert console_errors(browser) == []


def pencil_marks(driver: WebDriver, box: WebElement) -> dict[int, str]:
    """The pencil marks the page draws: each blank cell's candidates."""
    found: dict[str, str] = driver.execute_script(
        "const marks = {};"
        "arguments[0].querySelectorAll('.ex-grid span[data-cell]').forEach((span) => {"
        "  const pm = span.querySelector('.pm');"
        "  if (pm) marks[span.dataset.cell] = [...pm.children].map((i) => i.textContent).join('');"
        "});"
        "return marks;",
        box,
    )
    return {int(cell): marks for cell, marks in found.items()}


def board_after(puzzle: str, steps: int) -> dict[int, str]:
    """The candidates of each blank cell after the first steps, as explain keeps them."""
    grid = Grid.parse(puzzle)
    board = Board.of(grid)
    for step in explain(grid).steps[:steps]:
        board.apply(step.placements, step.eliminations)
    return {
        cell: "".join(str(value) for value in range(1, 10) if mask >> (value - 1) & 1)
        for cell, mask in enumerate(board.candidates)
        if board.values[cell] == 0
    }


POINTING = (  # easy50.txt, puzzle 6: singles and pointing, which eliminates
    "100920000524010000000000070050008102000000000402700090060000000000030945000071006"
)


def test_the_pencil_marks_follow_the_eliminations(browser: WebDriver, tmp_path: Path) -> None:
    source, log, page = tmp_path / "pointing.txt", tmp_path / "p.jsonl", tmp_path / "p.html"
    source.write_text(POINTING + "\n")
    result = invoke("bench", source, "-b", "dfs", "--results", log)
    assert result.exit_code == 0, result.output
    assert invoke("report", log, "-o", page).exit_code == 0
    steps = explain(Grid.parse(POINTING)).steps
    first = next(n for n, step in enumerate(steps, 1) if step.eliminations)
    browser.get("about:blank")
    browser.get_log("browser")
    open_page(browser, page, "#puzzle-1")
    box = until(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#puzzle-view .explanation"))
    click(browser, box.find_element(By.CSS_SELECTOR, ".ex-pencil"))
    before = board_after(POINTING, first - 1)
    for _ in range(first):
        click(browser, box.find_element(By.CSS_SELECTOR, ".ex-next"))
    until(browser, lambda d: box.get_attribute("data-step") == str(first))
    assert "pointing" in steps[first - 1].technique
    assert pencil_marks(browser, box) == board_after(POINTING, first) != before
    eliminated = box.find_elements(By.CSS_SELECTOR, '.ex-grid span[data-mark="ex-elim"]')
    assert sorted(int(str(cell.get_attribute("data-cell"))) for cell in eliminated) == sorted(
        {cell for cell, _ in steps[first - 1].eliminations}
    )
    assert console_errors(browser) == []

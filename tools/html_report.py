"""The HTML report in headless Chromium, by hand: its screenshots for the docs, and its figures
at scale (how long the page takes to write, how big it is, how fast it opens, filters and sorts).

    python tools/html_report.py screenshots docs/study/encodings.jsonl.gz docs/images
    python tools/html_report.py scale big.jsonl

`screenshots` writes report-summary.png, report-plots.png, report-scatter.png,
report-scaling.png and report-puzzles.png from a results log (.jsonl or .jsonl.gz); the puzzle
view with a wrong answer's marked cells, report-puzzle.png, comes from the browser tests
(SUDOKU_CP_SCREENSHOTS=docs/images python -m pytest tests/report_html/test_browser.py).
`scale` prints the figures of docs/commands/report.md#at-scale for any log (make one of 50,000
records with `sudoku-cp bench 17clue top1465 -b dfs,sat,cpsat --time-limit 0.02 --results`).

Needs Chromium and its driver (Debian: chromium, chromium-driver) and selenium.
"""

from __future__ import annotations

import argparse
import gzip
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sudoku_cp.report_html import load_report_inputs, render_html_report

# Resolves once the page has drawn what an action asked for (its plot is drawn after the table).
SETTLED = """
const done = arguments[arguments.length - 1];
const check = () => (SudokuReport.drawing ? setTimeout(check, 5) : requestAnimationFrame(done));
check();
"""


def chromium(width: int = 1400, height: int = 1000) -> Any:
    """Headless Chromium from the system (no download), the network refused."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = shutil.which("chromium") or "chromium"
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        f"--window-size={width},{height}",
        "--proxy-server=http://127.0.0.1:9",
        "--hide-scrollbars",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(shutil.which("chromedriver") or "chromedriver")
    return webdriver.Chrome(service=service, options=options)


def open_page(driver: Any, page: Path) -> float:
    """Load the page; the seconds until it says it is drawn."""
    from selenium.webdriver.support.ui import WebDriverWait

    started = time.perf_counter()
    driver.get(page.as_uri())
    WebDriverWait(driver, 300).until(
        lambda d: d.execute_script("return document.body.dataset.ready === '1'")
    )
    return time.perf_counter() - started


def write_report(log: Path, page: Path, baseline: str | None = None) -> tuple[float, float]:
    """The page of a log (.jsonl, or .jsonl.gz unpacked first); CPU and wall seconds."""
    if log.suffix == ".gz":
        plain = page.with_name(log.name.removesuffix(".gz"))
        plain.write_bytes(gzip.decompress(log.read_bytes()))
        log = plain
    cpu, wall = time.process_time(), time.perf_counter()
    inputs = load_report_inputs([log])
    labels = inputs.results.labels()
    chosen = baseline or inputs.results.settings.get("baseline") or labels[0]
    page.write_text(render_html_report(inputs, baseline=chosen, title=log.name), encoding="utf-8")
    return time.process_time() - cpu, time.perf_counter() - wall


def screenshots(log: Path, folder: Path) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    with tempfile.TemporaryDirectory() as scratch:
        page = Path(scratch) / "report.html"
        write_report(log, page)
        driver = chromium(1400, 2000)  # tall enough for a whole section
        try:
            open_page(driver, page)
            driver.set_window_size(1400, 900)
            driver.save_screenshot(str(folder / "report-summary.png"))
            driver.set_window_size(1400, 2000)
            plots = driver.find_element(By.ID, "plots")

            def show(kind: str) -> None:
                button = driver.find_element(By.CSS_SELECTOR, f"#plot-tabs [data-plot={kind}]")
                driver.execute_script("arguments[0].click()", button)
                driver.execute_script("arguments[0].scrollIntoView()", plots)
                time.sleep(0.5)

            show("cactus")
            plots.screenshot(str(folder / "report-plots.png"))
            show("scatter")
            point = driver.execute_script(
                "const plot = SudokuReport.plot.drawn[0];"
                "return plot.points.reduce((a, b) => (b.ty - b.tx > a.ty - a.tx ? b : a));"
            )
            canvas = driver.find_element(By.CSS_SELECTOR, "#plot-area .plot-overlay")
            size = canvas.size
            ActionChains(driver).move_to_element_with_offset(
                canvas,
                round(point["x"] - size["width"] / 2),
                round(point["y"] - size["height"] / 2),
            ).perform()
            time.sleep(0.3)
            plots.screenshot(str(folder / "report-scatter.png"))
            show("scaling")
            plots.screenshot(str(folder / "report-scaling.png"))
            puzzles = driver.find_element(By.ID, "puzzles")
            driver.execute_script("arguments[0].scrollIntoView()", puzzles)
            time.sleep(0.3)
            puzzles.screenshot(str(folder / "report-puzzles.png"))
        finally:
            driver.quit()


def scale(log: Path) -> None:
    """Print what the page of `log` costs: writing it, its size, opening, filtering, sorting."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    with tempfile.TemporaryDirectory() as scratch:
        page = Path(scratch) / "report.html"
        cpu, wall = write_report(log, page)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        size = page.stat().st_size
        print(f"written in {wall:.1f} s ({cpu:.1f} s CPU, peak {peak:.0f} MB): {size / 1e6:.1f} MB")
        driver = chromium()
        try:
            opened = open_page(driver, page)
            timings = driver.execute_script("return SudokuReport.timings")
            records = driver.execute_script("return SudokuReport.n")
            print(
                f"{records:,} records: drawn {opened:.2f} s after the request "
                f"(page script ready at {timings['ready'] / 1000:.2f} s)"
            )

            def measure(what: str, act: Any) -> None:
                started = time.perf_counter()
                act()
                driver.execute_async_script(SETTLED)
                seconds = time.perf_counter() - started
                found = driver.execute_script("return SudokuReport.timings")
                count = driver.find_element(By.ID, "puzzle-count").text
                print(
                    f"{what}: filter {found['filter']:.1f} ms, sort {found['sort']:.1f} ms, "
                    f"plot {found['plot']:.0f} ms; {seconds:.2f} s round trip; {count}"
                )

            verdicts = Select(driver.find_element(By.ID, "f-verdict"))
            timeout = next(o.text for o in verdicts.options if o.text.startswith("timeout"))
            measure("verdict timeout", lambda: verdicts.select_by_visible_text(timeout))
            measure("reset", lambda: driver.find_element(By.ID, "f-reset").click())
            measure(
                "slower than the baseline by x10",
                lambda: driver.find_element(By.ID, "f-factor").send_keys("10"),
            )
            measure(
                "sorted by the second configuration",
                lambda: driver.execute_script(
                    "document.querySelector('#puzzle-table th[data-sort=c1]').click()"
                ),
            )
            measure(
                "scatter",
                lambda: driver.execute_script(
                    "document.querySelector('#plot-tabs [data-plot=scatter]').click()"
                ),
            )
            started = time.perf_counter()
            driver.execute_async_script(
                "document.addEventListener('report:opened', arguments[0], {once: true});"
                "SudokuReport.openPuzzle(Math.floor(SudokuReport.n / 2));"
            )
            print(f"a puzzle opened in {time.perf_counter() - started:.2f} s")
            heap = driver.execute_script(
                "return performance.memory ? performance.memory.usedJSHeapSize / 1e6 : null"
            )
            print(f"script heap {heap:.0f} MB" if heap else "script heap unknown")
            errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
            print(f"console errors: {len(errors)}")
        finally:
            driver.quit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    shots = commands.add_parser("screenshots")
    shots.add_argument("log", type=Path)
    shots.add_argument("folder", type=Path)
    big = commands.add_parser("scale")
    big.add_argument("log", type=Path)
    arguments = parser.parse_args()
    if arguments.command == "screenshots":
        arguments.folder.mkdir(parents=True, exist_ok=True)
        screenshots(arguments.log, arguments.folder)
    else:
        scale(arguments.log)
    sys.exit(0)


if __name__ == "__main__":
    main()

/* sudoku-cp HTML report: the page's wiring: the summary table's sorting, the filters, the plot
 * tabs and their choices, the puzzle view's keys, and the start (unpack, filter, draw).
 * `document.body.dataset.ready` is "1" once the page is drawn (the browser tests wait for it).
 */
"use strict";

(function () {
  const R = window.SudokuReport;
  const $ = (selector) => document.querySelector(selector);

  /* -- the summary table: sorted by any column ------------------------------------------------- */

  function sortSummary(table, column, th) {
    const body = table.tBodies[0];
    const direction = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
    table.querySelectorAll("thead th[data-column]").forEach((other) =>
      other.setAttribute("aria-sort", "none"));
    th.setAttribute("aria-sort", direction > 0 ? "ascending" : "descending");
    const numeric = th.classList.contains("num");
    const key = (row) => row.cells[column].dataset.sort;
    const rows = [...body.rows];
    rows.sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      if (x === "" || y === "") return x === y ? 0 : x === "" ? 1 : -1; /* none: last */
      const order = numeric ? Number(x) - Number(y) : x.localeCompare(y);
      return order * direction;
    });
    rows.forEach((row) => body.appendChild(row));
  }

  function wireSummary() {
    const table = $("#summary-table");
    if (!table) return;
    table.querySelectorAll(".swatch[data-colour]").forEach((swatch) => {
      const k = Number(swatch.dataset.colour);
      if (k >= 0) swatch.style.background = R.colour(k);
    });
    table.querySelectorAll("thead th[data-column]").forEach((th) =>
      th.addEventListener("click", () => sortSummary(table, Number(th.dataset.column), th)));
  }

  /* -- the filters ------------------------------------------------------------------------------ */

  function options(select, entries, all) {
    select.innerHTML = (all ? [[-1, all]] : []).concat(entries).map(([value, text]) =>
      `<option value="${value}">${R.escape(text)}</option>`).join("");
  }

  function configurationEntries() {
    return R.meta.configurations.map((config, k) => [k, config.short]);
  }

  function tallies(column, size) {
    const counts = new Array(size).fill(0);
    for (let i = 0; i < R.n; i++) counts[column[i]]++;
    return counts;
  }

  function buildFilters() {
    const c = R.columns;
    const sets = tallies(c.set, R.meta.sets.length);
    options($("#f-set"), R.meta.sets.map((name, k) => [k, `${name} (${R.count(sets[k])})`]),
      "every set");
    const shapes = tallies(c.shape, R.meta.shapes.length);
    options($("#f-shape"), R.meta.shapes.map((_, k) => [k, `${R.shapeName(k)} (${R.count(shapes[k])})`]),
      "every size");
    options($("#f-mode"), R.meta.modes.map((name, k) => [k, name]), "every mode");
    $("#f-mode-field").hidden = R.meta.modes.length < 2;
    const verdicts = tallies(c.verdict, R.meta.verdicts.length);
    options($("#f-verdict"), R.meta.verdicts.map((name, k) => [k, `${name} (${R.count(verdicts[k])})`])
      .filter((_, k) => verdicts[k] > 0), "every verdict");
    options($("#f-status-of"), configurationEntries(), "any configuration");
    options($("#f-status"), R.meta.statuses.map((name, k) => [k, name]), "any status");
    options($("#f-slower-of"), configurationEntries(), "any configuration");
    options($("#f-slower-than"), configurationEntries(), null);
    const baseline = R.meta.baseline === null ? 0 : R.meta.baseline;
    $("#f-slower-than").value = String(baseline);
    $("#f-cert-field").hidden = !R.meta.certified;
    const ratings = R.meta.ratings || [];
    options($("#f-rating"), ratings.map((level) => [level,
      `${level} (${R.count(c.rating.filter((found) => found === level).length)})`]), "any rating");
    $("#f-rating-field").hidden = ratings.length === 0;
    for (const id of ["#f-set", "#f-shape", "#f-mode", "#f-verdict", "#f-rating", "#f-status-of", "#f-status",
      "#f-slower-of", "#f-slower-than", "#f-factor", "#f-cert"]) {
      $(id).addEventListener("change", readFilters);
    }
    $("#f-factor").addEventListener("input", readFilters);
    $("#f-reset").addEventListener("click", () => {
      $("#filters").reset();
      $("#f-slower-than").value = String(baseline);
      readFilters();
    });
  }

  function readFilters() {
    const number = (id) => Number($(id).value);
    const factor = parseFloat($("#f-factor").value);
    Object.assign(R.filters, {
      set: number("#f-set"),
      shape: number("#f-shape"),
      mode: number("#f-mode"),
      verdict: number("#f-verdict"),
      rating: number("#f-rating"),
      statusOf: number("#f-status-of"),
      status: number("#f-status"),
      slowerOf: number("#f-slower-of"),
      slowerThan: number("#f-slower-than"),
      factor: Number.isFinite(factor) && factor > 0 ? factor : 0,
      cert: $("#f-cert").value,
    });
    R.applyFilters();
  }

  function showCount() {
    const kept = R.filtered.length;
    $("#puzzle-count").textContent = kept === R.n ? `${R.plural(R.n, "puzzle")}` :
      `${R.count(kept)} of ${R.plural(R.n, "puzzle")}`;
    $("#plot-count").textContent = kept === R.n ? "" :
      `The plots show the ${R.plural(kept, "puzzle")} the filters keep.`;
  }

  /* -- the plots -------------------------------------------------------------------------------- */

  R.plot = { kind: "cactus", x: 0, y: 1, by: "size", drawn: [] };

  function buildPlotControls() {
    const count = R.meta.configurations.length;
    const baseline = R.meta.baseline === null ? 0 : R.meta.baseline;
    R.plot.x = baseline;
    R.plot.y = baseline === 0 ? Math.min(1, count - 1) : 0;
    options($("#p-x"), configurationEntries(), null);
    options($("#p-y"), configurationEntries(), null);
    $("#p-x").value = String(R.plot.x);
    $("#p-y").value = String(R.plot.y);
    const sizes = new Set(R.meta.shapes.map(([size]) => size));
    R.plot.by = sizes.size > 1 ? "size" : "givens";
    $("#p-by").value = R.plot.by;
    $("#p-x").addEventListener("change", () => ((R.plot.x = Number($("#p-x").value)), draw()));
    $("#p-y").addEventListener("change", () => ((R.plot.y = Number($("#p-y").value)), draw()));
    $("#p-swap").addEventListener("click", () => {
      [R.plot.x, R.plot.y] = [R.plot.y, R.plot.x];
      $("#p-x").value = String(R.plot.x);
      $("#p-y").value = String(R.plot.y);
      draw();
    });
    $("#p-by").addEventListener("change", () => ((R.plot.by = $("#p-by").value), draw()));
    document.querySelectorAll("#plot-tabs button").forEach((button) =>
      button.addEventListener("click", () => choosePlot(button.dataset.plot)));
    if (count < 2) $("#plot-tabs button[data-plot=scatter]").disabled = true;
    buildLegend();
  }

  function choosePlot(kind) {
    R.plot.kind = kind;
    document.querySelectorAll("#plot-tabs button").forEach((button) =>
      button.setAttribute("aria-selected", String(button.dataset.plot === kind)));
    $("#scatter-controls").hidden = kind !== "scatter";
    $("#scaling-controls").hidden = kind !== "scaling";
    $("#plot-legend").hidden = kind === "scatter";
    draw();
  }

  function buildLegend() {
    const legend = $("#plot-legend");
    legend.innerHTML = R.meta.configurations.map((config, k) =>
      `<button type="button" data-config="${k}" title="${R.escape(config.full)}">` +
      `<span class="swatch" style="background:${R.colour(k)}"></span>${R.escape(config.short)}` +
      "</button>").join("");
    legend.querySelectorAll("button").forEach((button) => button.addEventListener("click", () => {
      const k = Number(button.dataset.config);
      if (R.hidden.has(k)) R.hidden.delete(k);
      else R.hidden.add(k);
      button.classList.toggle("off", R.hidden.has(k));
      draw();
    }));
  }

  function draw() {
    const started = performance.now();
    const area = $("#plot-area");
    area.innerHTML = "";
    R.hideTooltip();
    const records = R.filtered;
    if (R.plot.kind === "cactus") R.plot.drawn = R.drawCactus(area, records);
    else if (R.plot.kind === "scatter") {
      R.plot.drawn = R.drawScatter(area, records, R.plot.x, R.plot.y);
    } else R.plot.drawn = R.drawScaling(area, records, R.plot.by);
    R.timings.plot = performance.now() - started;
  }

  /* Where a puzzle's point of the scatter plot is, in CSS pixels from the top left corner of
   * its canvas (null when it is not drawn): for the browser tests, which click there. */
  R.scatterPoint = function (record) {
    const plot = R.plot.kind === "scatter" ? R.plot.drawn[0] : null;
    const point = plot && plot.points.find((p) => p.record === record);
    return point ? { x: point.x, y: point.y } : null;
  };

  /* -- the start ------------------------------------------------------------------------------- */

  function wireView() {
    $("#puzzle-close").addEventListener("click", R.closePuzzle);
    $("#puzzle-prev").addEventListener("click", () => R.step(-1));
    $("#puzzle-next").addEventListener("click", () => R.step(1));
    $("#puzzle-view").addEventListener("click", (event) => {
      if (event.target.id === "puzzle-view") R.closePuzzle();
    });
    document.addEventListener("keydown", (event) => {
      if ($("#puzzle-view").hidden) return;
      if (event.key === "Escape") R.closePuzzle();
      else if (event.key === "ArrowLeft") R.step(-1);
      else if (event.key === "ArrowRight") R.step(1);
    });
  }

  function openFromAddress() {
    const match = /^#puzzle-(\d+)$/.exec(location.hash); /* the N-th puzzle, counted from 1 */
    const number = match ? Number(match[1]) : 0;
    if (number >= 1 && number <= R.n) R.openPuzzle(number - 1);
  }

  let waiting = null;
  function later(action, delay) {
    clearTimeout(waiting);
    R.drawing = true;
    waiting = setTimeout(() => {
      action();
      R.drawing = false;
    }, delay);
  }

  async function start() {
    wireSummary();
    try {
      await R.load();
    } catch (error) {
      $("#load-error").hidden = false;
      $("#load-error").textContent = `The puzzle data could not be unpacked: ${error.message}.`;
      throw error;
    }
    buildFilters();
    buildPlotControls();
    R.renderTableHead();
    wireView();
    document.addEventListener("report:filtered", () => {
      showCount();
      R.orderRows();
      later(draw, 0); /* the table first: a plot of 50,000 puzzles takes a moment */
    });
    window.addEventListener("resize", () => later(draw, 150));
    window.addEventListener("hashchange", openFromAddress);
    R.applyFilters();
    clearTimeout(waiting); /* drawn now, before the page says it is ready */
    draw();
    R.drawing = false;
    openFromAddress();
    R.timings.ready = performance.now();
    document.body.dataset.ready = "1";
    setTimeout(() => R.details(), 500); /* unpack the answers while the reader looks */
  }

  start();
})();

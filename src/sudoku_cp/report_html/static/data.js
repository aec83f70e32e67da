/* sudoku-cp HTML report: the data, unpacked; formatting; the filters.
 *
 * The page embeds three blocks: #meta (plain JSON: configurations, vocabularies), #columns and
 * #details (JSON gzipped and base64-encoded). The columns are unpacked at load; the details,
 * one JSON text per record, only when the first puzzle is opened (or when the page is idle),
 * and each record's text is parsed only when that puzzle is shown.
 */
"use strict";

const R = (window.SudokuReport = window.SudokuReport || {});

R.meta = JSON.parse(document.getElementById("meta").textContent);
R.NONE = -1;

/* -- unpacking ------------------------------------------------------------------------------ */

R.unpack = async function (id) {
  const text = document.getElementById(id).textContent.trim();
  if (typeof DecompressionStream === "undefined") {
    throw new Error("this browser cannot unpack the report's data (no DecompressionStream)");
  }
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return await new Response(stream).text();
};

R.load = async function () {
  R.columns = JSON.parse(await R.unpack("columns"));
  R.n = R.columns.set.length;
};

let detailLines = null;
R.details = function () {
  if (detailLines === null) {
    detailLines = R.unpack("details").then((text) => text.split("\n"));
  }
  return detailLines;
};

R.detail = async function (index) {
  const lines = await R.details();
  return JSON.parse(lines[index]);
};

/* -- words and numbers ---------------------------------------------------------------------- */

R.seconds = (units) => (units === R.NONE ? null : units * R.meta.time_unit);

/* Milliseconds with about three significant digits, as the text tables show them. */
R.ms = function (seconds) {
  if (seconds === null || seconds === undefined) return "-";
  const ms = seconds * 1000;
  const decimals = ms < 1 ? 3 : ms < 10 ? 2 : ms < 100 ? 1 : 0;
  return ms.toFixed(decimals);
};

/* A time with its unit, for axes and hover texts: 420 µs, 2.1 ms, 1.5 s. */
R.duration = function (seconds) {
  if (seconds === null || seconds === undefined) return "-";
  if (seconds < 1e-3) return `${+(seconds * 1e6).toPrecision(3)} µs`;
  if (seconds < 1) return `${+(seconds * 1e3).toPrecision(3)} ms`;
  return `${+seconds.toPrecision(3)} s`;
};

R.count = (n) => n.toLocaleString("en-US");
R.plural = (n, word) => `${R.count(n)} ${word}${n === 1 ? "" : "s"}`;

R.escape = (text) =>
  String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

R.status = (code) => (code === R.NONE ? "none" : R.meta.statuses[code]);
R.answered = (code) => code === 0 || code === 1; /* solved, unsatisfiable */
R.verdict = (code) => R.meta.verdicts[code];

R.shape = function (index) {
  const [size, rows, cols] = R.meta.shapes[index];
  return { size, rows, cols };
};

R.shapeName = function (index) {
  const { size, rows, cols } = R.shape(index);
  const square = rows * rows === size && rows === cols;
  return square ? `${size}×${size}` : `${size}×${size} (${rows}×${cols} boxes)`;
};

R.where = function (index) {
  const c = R.columns;
  return `${R.meta.sets[c.set[index]]} · puzzle ${R.count(c.number[index] + 1)}`;
};

/* A grid line as values: N*N symbols (1-9, A-Z; 0 or . blank) or N*N comma-separated numbers. */
const SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
R.values = function (line) {
  if (line.indexOf(",") >= 0) return line.split(",").map((token) => Number(token.trim()) || 0);
  const values = new Array(line.length);
  for (let i = 0; i < line.length; i++) {
    const symbol = line[i].toUpperCase();
    values[i] = symbol === "." || symbol === "0" ? 0 : SYMBOLS.indexOf(symbol) + 1;
  }
  return values;
};
R.symbol = (value) => (value === 0 ? "" : value <= 35 ? SYMBOLS[value - 1] : String(value));

/* A colour per configuration: tab10 up to ten (as the PNG plots), tab20 up to twenty, then a
 * gradient, so that no two series share a colour. */
const TAB10 = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
  "#7f7f7f", "#bcbd22", "#17becf"];
const TAB20 = ["#1f77b4", "#aec7e8", "#ff7f0e", "#ffbb78", "#2ca02c", "#98df8a", "#d62728",
  "#ff9896", "#9467bd", "#c5b0d5", "#8c564b", "#c49c94", "#e377c2", "#f7b6d2", "#7f7f7f",
  "#c7c7c7", "#bcbd22", "#dbdb8d", "#17becf", "#9edae5"];
R.colour = function (index) {
  const count = R.meta.configurations.length;
  if (count <= 10) return TAB10[index % 10];
  if (count <= 20) return TAB20[index % 20];
  return `hsl(${Math.round((300 * index) / (count - 1))}, 70%, 45%)`;
};
R.setColour = (index) => TAB10[index % 10];

R.shortLabel = (index) => R.meta.configurations[index].short;
R.fullLabel = (index) => R.meta.configurations[index].full;

/* -- the filters ------------------------------------------------------------------------------
 * A filter is a predicate over record indices; R.filtered holds the records all of them keep,
 * in input order. Plots and the puzzle table read it.
 */
R.filters = {
  set: -1, shape: -1, mode: -1, verdict: -1, rating: -1, /* rating: an explain level */
  statusOf: -1, status: -1, /* a configuration (-1: any) whose status is `status` */
  slowerOf: -1, slowerThan: -1, factor: 0, /* configuration, baseline, k (0: off) */
  cert: "",
};

R.slowerBy = function (index, config, baseline, factor) {
  const c = R.columns;
  const base = c.status[baseline][index];
  if (!R.answered(base)) return false;
  const own = c.status[config][index];
  if (own === R.NONE) return false;
  if (!R.answered(own)) return true; /* unanswered where the baseline answered */
  return c.time[config][index] >= factor * Math.max(c.time[baseline][index], 1);
};

R.keeps = function (index) {
  const f = R.filters;
  const c = R.columns;
  if (f.set >= 0 && c.set[index] !== f.set) return false;
  if (f.shape >= 0 && c.shape[index] !== f.shape) return false;
  if (f.mode >= 0 && c.mode[index] !== f.mode) return false;
  if (f.verdict >= 0 && c.verdict[index] !== f.verdict) return false;
  if (f.rating >= 0 && (!c.rating || c.rating[index] !== f.rating)) return false;
  const configs = R.meta.configurations.length;
  if (f.status >= 0) {
    if (f.statusOf >= 0) {
      if (c.status[f.statusOf][index] !== f.status) return false;
    } else {
      let any = false;
      for (let k = 0; k < configs && !any; k++) any = c.status[k][index] === f.status;
      if (!any) return false;
    }
  }
  if (f.factor > 0 && f.slowerThan >= 0) {
    if (f.slowerOf >= 0) {
      if (!R.slowerBy(index, f.slowerOf, f.slowerThan, f.factor)) return false;
    } else {
      let any = false;
      for (let k = 0; k < configs && !any; k++) {
        any = k !== f.slowerThan && R.slowerBy(index, k, f.slowerThan, f.factor);
      }
      if (!any) return false;
    }
  }
  if (f.cert && c.cert) {
    let refused = false;
    let certified = false;
    for (let k = 0; k < configs; k++) {
      refused = refused || c.cert[k][index] === 0;
      certified = certified || c.cert[k][index] === 1;
    }
    if (f.cert === "refused" && !refused) return false;
    if (f.cert === "certified" && (refused || !certified)) return false;
    if (f.cert === "none" && (refused || certified)) return false;
  }
  return true;
};

R.applyFilters = function () {
  const started = performance.now();
  const kept = new Int32Array(R.n);
  let count = 0;
  for (let i = 0; i < R.n; i++) if (R.keeps(i)) kept[count++] = i;
  R.filtered = kept.subarray(0, count);
  R.timings.filter = performance.now() - started;
  document.dispatchEvent(new CustomEvent("report:filtered"));
};

R.timings = {};

/* sudoku-cp HTML report: cactus, scatter and scaling plots on canvas.
 *
 * Canvas rather than SVG: a scatter of 50,000 puzzles is one drawing, not 50,000 elements. Each
 * plot keeps what it drew so that the mouse can find the nearest point (a grid of buckets for
 * the scatter, a binary search along each cactus line) without drawing again: hover shows the
 * puzzle behind the point, a click opens it. A second canvas on top draws the hover ring.
 */
"use strict";

(function () {
  const R = window.SudokuReport;
  const FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", sans-serif';
  const INK = "#1f2328";
  const MUTED = "#59636e";
  const GRID = "#e6e9ed";
  const MARGIN = { left: 80, right: 16, top: 30, bottom: 44 };

  R.hidden = new Set(); /* configurations hidden from the plots by a click on the legend */

  /* -- scales and ticks --------------------------------------------------------------------- */

  function scale(kind, lo, hi, from, to) {
    const f = kind === "log" ? Math.log10 : (v) => v;
    const a = f(lo);
    const b = f(hi);
    const span = b - a || 1;
    const map = (v) => from + ((f(v) - a) / span) * (to - from);
    map.invert = (p) => {
      const v = a + ((p - from) / (to - from)) * span;
      return kind === "log" ? Math.pow(10, v) : v;
    };
    map.kind = kind;
    map.lo = lo;
    map.hi = hi;
    return map;
  }

  function logTicks(lo, hi) {
    const ticks = [];
    const first = Math.floor(Math.log10(lo));
    const last = Math.ceil(Math.log10(hi));
    const steps = last - first <= 2 ? [1, 2, 5] : [1];
    for (let e = first; e <= last; e++) {
      for (const m of steps) {
        const v = m * Math.pow(10, e);
        if (v >= lo && v <= hi) ticks.push({ v, major: m === 1 });
      }
    }
    return ticks;
  }

  function linearTicks(lo, hi, integer) {
    const raw = (hi - lo) / 6 || 1;
    const power = Math.pow(10, Math.floor(Math.log10(raw)));
    let step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) || power;
    if (integer) step = Math.max(1, Math.round(step));
    const ticks = [];
    for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) {
      ticks.push({ v: +v.toPrecision(12), major: true });
    }
    return ticks;
  }

  /* -- one plot: a canvas, its axes, and what the mouse can find ---------------------------- */

  class Plot {
    constructor(container, { width, height, square }) {
      this.box = document.createElement("div");
      this.box.className = "plot-box";
      const cssWidth = Math.max(240, Math.floor(width));
      const cssHeight = square ? Math.min(cssWidth, height) : height;
      this.width = square ? cssHeight : cssWidth;
      this.height = cssHeight;
      this.canvas = this.layer();
      this.overlay = this.layer();
      this.overlay.classList.add("plot-overlay");
      this.box.style.width = `${this.width}px`;
      this.box.style.height = `${this.height}px`;
      container.appendChild(this.box);
      this.ctx = this.context(this.canvas);
      this.top = this.context(this.overlay);
      this.find = () => null;
      this.listen();
    }

    layer() {
      const canvas = document.createElement("canvas");
      canvas.style.width = `${this.width}px`;
      canvas.style.height = `${this.height}px`;
      this.box.appendChild(canvas);
      return canvas;
    }

    context(canvas) {
      const ratio = window.devicePixelRatio || 1;
      canvas.width = Math.round(this.width * ratio);
      canvas.height = Math.round(this.height * ratio);
      const ctx = canvas.getContext("2d");
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      ctx.font = FONT;
      return ctx;
    }

    listen() {
      const position = (event) => {
        const rect = this.overlay.getBoundingClientRect();
        return [event.clientX - rect.left, event.clientY - rect.top];
      };
      this.overlay.addEventListener("mousemove", (event) => {
        const hit = this.find(...position(event));
        this.top.clearRect(0, 0, this.width, this.height);
        this.overlay.style.cursor = hit ? "pointer" : "default";
        if (!hit) return R.hideTooltip();
        this.ring(hit);
        R.showTooltip(event.clientX, event.clientY, hit.html());
      });
      this.overlay.addEventListener("mouseleave", () => {
        this.top.clearRect(0, 0, this.width, this.height);
        R.hideTooltip();
      });
      this.overlay.addEventListener("click", (event) => {
        const hit = this.find(...position(event));
        if (hit) R.openPuzzle(hit.record);
      });
    }

    ring(hit) {
      const ctx = this.top;
      ctx.beginPath();
      ctx.arc(hit.x, hit.y, 6, 0, 2 * Math.PI);
      ctx.lineWidth = 2;
      ctx.strokeStyle = INK;
      ctx.stroke();
    }

    axes(x, y, { xLabel, yLabel, title, xFormat, yFormat, xTicks, yTicks }) {
      const ctx = this.ctx;
      const [left, right] = [MARGIN.left, this.width - MARGIN.right];
      const [top, bottom] = [MARGIN.top, this.height - MARGIN.bottom];
      ctx.fillStyle = "#fff";
      ctx.fillRect(0, 0, this.width, this.height);
      ctx.lineWidth = 1;
      ctx.textBaseline = "middle";
      const xAtLeft = xTicks.some((tick) => Math.abs(x(tick.v) - left) < 3);
      for (const tick of yTicks) {
        const py = Math.round(y(tick.v)) + 0.5;
        this.line(left, py, right, py, tick.major ? GRID : "#f3f4f6");
        const corner = xAtLeft && py > bottom - 3; /* where the x axis's first label stands */
        if ((tick.major || yTicks.length < 8) && !corner) {
          this.text(yFormat(tick.v), left - 6, py, "right");
        }
      }
      ctx.textBaseline = "top";
      for (const tick of xTicks) {
        const px = Math.round(x(tick.v)) + 0.5;
        this.line(px, top, px, bottom, tick.major ? GRID : "#f3f4f6");
        if (tick.major || xTicks.length < 8) this.text(xFormat(tick.v), px, bottom + 6, "center");
      }
      ctx.strokeStyle = "#8c959f";
      ctx.strokeRect(left + 0.5, top + 0.5, right - left, bottom - top);
      this.text(xLabel, (left + right) / 2, this.height - 16, "center", MUTED);
      ctx.save();
      ctx.translate(12, (top + bottom) / 2);
      ctx.rotate(-Math.PI / 2);
      this.text(yLabel, 0, 0, "center", MUTED);
      ctx.restore();
      ctx.font = `600 ${FONT}`;
      this.text(title, left, 12, "left", INK);
      ctx.font = FONT;
    }

    line(x1, y1, x2, y2, colour) {
      const ctx = this.ctx;
      ctx.strokeStyle = colour;
      ctx.beginPath();
      ctx.moveTo(x1, y1);
      ctx.lineTo(x2, y2);
      ctx.stroke();
    }

    text(words, px, py, align, colour) {
      this.ctx.fillStyle = colour || MUTED;
      this.ctx.textAlign = align;
      this.ctx.fillText(words, px, py);
    }

    clip(draw) {
      const ctx = this.ctx;
      ctx.save();
      ctx.beginPath();
      ctx.rect(MARGIN.left, MARGIN.top, this.width - MARGIN.left - MARGIN.right,
        this.height - MARGIN.top - MARGIN.bottom);
      ctx.clip();
      draw(ctx);
      ctx.restore();
    }
  }

  function ranges(plot) {
    return {
      x: [MARGIN.left, plot.width - MARGIN.right],
      y: [plot.height - MARGIN.bottom, MARGIN.top],
    };
  }

  const seriesDash = (mode) => [[], [6, 3], [2, 3], [8, 3, 2, 3]][mode % 4];

  /* The series of configuration x mode among `records`, each with its answered times sorted. */
  function timeSeries(records) {
    const c = R.columns;
    const modes = R.meta.modes.length;
    const found = new Map();
    R.meta.configurations.forEach((_, config) => {
      if (R.hidden.has(config)) return;
      for (const index of records) {
        const status = c.status[config][index];
        if (status === R.NONE) continue;
        const key = config * modes + c.mode[index];
        if (!found.has(key)) found.set(key, { config, mode: c.mode[index], items: [], runs: 0 });
        const series = found.get(key);
        series.runs++;
        if (R.answered(status)) series.items.push([c.time[config][index], index]);
      }
    });
    for (const series of found.values()) series.items.sort((a, b) => a[0] - b[0]);
    return [...found.values()];
  }

  function seriesName(series) {
    const name = R.shortLabel(series.config);
    return R.meta.modes.length > 1 ? `${name} (${R.meta.modes[series.mode]})` : name;
  }

  /* -- cactus: one panel per set ------------------------------------------------------------- */

  R.drawCactus = function (container, records) {
    const bySet = new Map();
    for (const index of records) {
      const set = R.columns.set[index];
      if (!bySet.has(set)) bySet.set(set, []);
      bySet.get(set).push(index);
    }
    const panels = bySet.size;
    const width = container.clientWidth;
    const across = panels > 1 && width >= 900 ? 2 : 1;
    const plots = [];
    for (const [set, indices] of [...bySet.entries()].sort((a, b) => a[0] - b[0])) {
      const plot = new Plot(container, { width: width / across - 12, height: 340 });
      cactusPanel(plot, set, indices);
      plots.push(plot);
    }
    return plots;
  };

  /* A cactus panel's title: its set and its puzzles, each counted once however many modes the
     logs hold it in (the curves of one mode stop at that number). */
  R.cactusTitle = function (set, indices) {
    const puzzles = new Set(indices.map((index) => R.columns.number[index])).size;
    return `${R.meta.sets[set]} (${R.plural(puzzles, "puzzle")})`;
  };

  function cactusPanel(plot, set, indices) {
    const all = timeSeries(indices);
    const shown = all.filter((series) => series.items.length);
    const puzzles = Math.max(1, ...all.map((series) => series.runs));
    let lo = Infinity;
    let hi = 0;
    for (const series of shown) {
      lo = Math.min(lo, series.items[0][0]);
      hi = Math.max(hi, series.items[series.items.length - 1][0]);
    }
    if (!shown.length) [lo, hi] = [1e3, 1e4];
    const unit = R.meta.time_unit;
    const limit = R.meta.time_limit;
    const everything = all.every((series) => series.items.length === series.runs);
    const right = !everything && limit ? (limit / unit) * 1.15 : hi * 1.5;
    const range = ranges(plot);
    const x = scale("log", Math.max(lo / 1.5, 1), Math.max(right, lo * 2), ...range.x);
    const y = scale("linear", 0, puzzles * 1.05, ...range.y);
    plot.axes(x, y, {
      title: R.cactusTitle(set, indices),
      xLabel: "time per puzzle",
      yLabel: "puzzles solved",
      xTicks: logTicks(x.lo, x.hi),
      yTicks: linearTicks(0, puzzles * 1.05, true),
      xFormat: (v) => R.duration(v * unit),
      yFormat: (v) => R.count(v),
    });
    plot.line(range.x[0], Math.round(y(puzzles)) + 0.5, range.x[1], Math.round(y(puzzles)) + 0.5,
      "#afb8c1");
    if (!everything && limit) {
      const at = Math.round(x(limit / unit)) - 0.5; /* the time limit: the story then */
      plot.ctx.setLineDash([5, 4]);
      plot.line(at, range.y[1], at, range.y[0], "#6e7781");
      plot.ctx.setLineDash([]);
      plot.text(`limit ${R.duration(limit)}`, at - 4, range.y[0] - 10, "right", MUTED);
    }
    plot.clip((ctx) => {
      for (const series of shown) {
        ctx.strokeStyle = R.colour(series.config);
        ctx.lineWidth = 1.8;
        ctx.setLineDash(seriesDash(series.mode));
        ctx.beginPath();
        ctx.moveTo(x(series.items[0][0]), y(0));
        series.items.forEach(([time], k) => {
          ctx.lineTo(x(time), y(k));
          ctx.lineTo(x(time), y(k + 1));
        });
        ctx.lineTo(range.x[1], y(series.items.length));
        ctx.stroke();
      }
      ctx.setLineDash([]);
    });
    plot.find = (px, py) => cactusHit(shown, x, y, px, py, indices.length);
  }

  function cactusHit(shown, x, y, px, py) {
    const t = x.invert(px);
    let best = null;
    for (const series of shown) {
      const items = series.items;
      let lo = 0;
      let hi = items.length; /* the first item slower than t */
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (items[mid][0] <= t) lo = mid + 1;
        else hi = mid;
      }
      for (const k of [lo - 1, lo]) {
        if (k < 0 || k >= items.length) continue;
        const dx = x(items[k][0]) - px;
        const dy = y(k + 1) - py;
        const distance = Math.hypot(dx, dy);
        if (distance <= 10 && (!best || distance < best.distance)) {
          best = { distance, series, k, x: x(items[k][0]), y: y(k + 1), record: items[k][1] };
        }
      }
    }
    if (!best) return null;
    const { series, k, record } = best;
    best.html = () =>
      R.tooltipHtml(record, [
        `<b style="color:${R.colour(series.config)}">${R.escape(seriesName(series))}</b>: ` +
          `${R.duration(series.items[k][0] * R.meta.time_unit)}, ` +
          `${R.count(k + 1)} solved by then`,
      ]);
    return best;
  }

  /* -- scatter: two configurations, puzzle by puzzle ----------------------------------------- */

  R.drawScatter = function (container, records, xConfig, yConfig) {
    const c = R.columns;
    const points = [];
    let lo = Infinity;
    let hi = 0;
    for (const index of records) {
      const sx = c.status[xConfig][index];
      const sy = c.status[yConfig][index];
      if (sx === R.NONE || sy === R.NONE) continue;
      const tx = R.answered(sx) ? c.time[xConfig][index] : null;
      const ty = R.answered(sy) ? c.time[yConfig][index] : null;
      if (tx === null && ty === null) continue;
      for (const t of [tx, ty]) {
        if (t !== null) [lo, hi] = [Math.min(lo, Math.max(t, 1)), Math.max(hi, t)];
      }
      points.push([tx, ty, index]);
    }
    if (!points.length) [lo, hi] = [1e3, 1e4];
    const unit = R.meta.time_unit;
    const penalty = R.meta.time_limit ? (2 * R.meta.time_limit) / unit : 2 * hi;
    const oneSided = points.some(([tx, ty]) => tx === null || ty === null);
    if (oneSided) hi = Math.max(hi, penalty);
    const side = Math.min(container.clientWidth, 620);
    const plot = new Plot(container, { width: side, height: side, square: true });
    const range = ranges(plot);
    const x = scale("log", lo / 1.5, hi * 1.5, ...range.x);
    const y = scale("log", lo / 1.5, hi * 1.5, ...range.y);
    const [xName, yName] = [R.shortLabel(xConfig), R.shortLabel(yConfig)];
    plot.axes(x, y, {
      title: `${yName} vs ${xName} (below the diagonal: ${yName} faster)`,
      xLabel: `${xName}: time per puzzle`,
      yLabel: `${yName}: time per puzzle`,
      xTicks: logTicks(x.lo, x.hi),
      yTicks: logTicks(y.lo, y.hi),
      xFormat: (v) => R.duration(v * unit),
      yFormat: (v) => R.duration(v * unit),
    });
    const drawn = scatterPoints(plot, points, x, y, penalty);
    plot.find = bucketFinder(drawn, (hit) => scatterHtml(hit, xConfig, yConfig));
    plot.points = drawn;
    scatterLegend(container, records, oneSided, penalty * unit);
    return [plot];
  };

  function scatterPoints(plot, points, x, y, penalty) {
    const drawn = [];
    plot.clip((ctx) => {
      ctx.setLineDash([5, 4]);
      plot.line(x(x.lo), y(y.lo), x(x.hi), y(y.hi), "#57606a");
      ctx.setLineDash([]);
      ctx.globalAlpha = points.length > 5000 ? 0.35 : 0.7;
      for (const [tx, ty, index] of points) {
        const px = x(tx === null ? penalty : Math.max(tx, 1));
        const py = y(ty === null ? penalty : Math.max(ty, 1));
        if (tx === null || ty === null) {
          ctx.globalAlpha = 0.9;
          ctx.strokeStyle = INK;
          ctx.lineWidth = 1.3;
          ctx.beginPath();
          ctx.moveTo(px - 3, py - 3);
          ctx.lineTo(px + 3, py + 3);
          ctx.moveTo(px + 3, py - 3);
          ctx.lineTo(px - 3, py + 3);
          ctx.stroke();
          ctx.globalAlpha = points.length > 5000 ? 0.35 : 0.7;
        } else {
          ctx.fillStyle = R.setColour(R.columns.set[index]);
          ctx.beginPath();
          ctx.arc(px, py, 2.6, 0, 2 * Math.PI);
          ctx.fill();
        }
        drawn.push({ x: px, y: py, record: index, tx, ty });
      }
      ctx.globalAlpha = 1;
    });
    return drawn;
  }

  function scatterLegend(container, records, oneSided, penalty) {
    const sets = [...new Set(Array.from(records, (index) => R.columns.set[index]))].sort((a, b) => a - b);
    const items = sets.map((set) => `<span><span class="dot" style="background:${R.setColour(set)}">` +
      `</span>${R.escape(R.meta.sets[set])}</span>`);
    if (oneSided) {
      items.push(`<span><span class="cross">×</span>solved by one of the two only (the other ` +
        `drawn at the penalty, ${R.duration(penalty)})</span>`);
    }
    const legend = document.createElement("div");
    legend.className = "scatter-legend";
    legend.innerHTML = items.join("");
    container.appendChild(legend);
  }

  function scatterHtml(hit, xConfig, yConfig) {
    const c = R.columns;
    const side = (config, time) => {
      const status = c.status[config][hit.record];
      const text = time === null ? R.status(status) : R.duration(time * R.meta.time_unit);
      return `<b style="color:${R.colour(config)}">${R.escape(R.shortLabel(config))}</b>: ${text}`;
    };
    const lines = [side(xConfig, hit.tx), side(yConfig, hit.ty)];
    if (hit.tx !== null && hit.ty !== null) {
      const ratio = Math.max(hit.ty, 1) / Math.max(hit.tx, 1);
      const [slow, fast, by] = ratio >= 1 ? [yConfig, xConfig, ratio] : [xConfig, yConfig, 1 / ratio];
      lines.push(`${R.escape(R.shortLabel(slow))} takes ${by.toFixed(by < 10 ? 2 : 1)}× as long as ` +
        `${R.escape(R.shortLabel(fast))}`);
    }
    return R.tooltipHtml(hit.record, lines);
  }

  /* The nearest drawn point within 8 px, through buckets of 16 px. */
  function bucketFinder(drawn, html) {
    const size = 16;
    const buckets = new Map();
    drawn.forEach((point, n) => {
      const key = `${Math.floor(point.x / size)},${Math.floor(point.y / size)}`;
      if (!buckets.has(key)) buckets.set(key, []);
      buckets.get(key).push(n);
    });
    return (px, py) => {
      let best = null;
      let bestDistance = 8;
      const bx = Math.floor(px / size);
      const by = Math.floor(py / size);
      for (let i = bx - 1; i <= bx + 1; i++) {
        for (let j = by - 1; j <= by + 1; j++) {
          for (const n of buckets.get(`${i},${j}`) || []) {
            const distance = Math.hypot(drawn[n].x - px, drawn[n].y - py);
            if (distance <= bestDistance) [best, bestDistance] = [drawn[n], distance];
          }
        }
      }
      return best && { ...best, html: () => html(best) };
    };
  }

  /* -- scaling: time against size or givens ---------------------------------------------------- */

  const BANDS = 4; /* the p10-p90 bands are drawn for this many lines or fewer */

  R.drawScaling = function (container, records, by) {
    const groups = scalingGroups(records, by);
    const plot = new Plot(container, { width: container.clientWidth, height: 380 });
    const range = ranges(plot);
    const xs = [...new Set(groups.flatMap((group) => group.points.map((p) => p.at)))];
    let lo = Infinity;
    let hi = 0;
    for (const group of groups) {
      for (const p of group.points) [lo, hi] = [Math.min(lo, p.p10), Math.max(hi, p.p90)];
    }
    if (!groups.length) [lo, hi] = [1e3, 1e4];
    const [xLo, xHi] = xs.length ? [Math.min(...xs), Math.max(...xs)] : [0, 1];
    const pad = Math.max((xHi - xLo) * 0.04, 0.5);
    const x = scale("linear", xLo - pad, xHi + pad, ...range.x);
    const y = scale("log", Math.max(lo / 1.5, 1), hi * 1.5, ...range.y);
    const unit = R.meta.time_unit;
    plot.axes(x, y, {
      title: by === "size" ? "time against grid size" : "time against givens",
      xLabel: by === "size" ? "grid size N" : "number of givens",
      yLabel: groups.length <= BANDS ? "time per puzzle: median, p10–p90" : "median time per puzzle",
      xTicks: by === "size" ? xs.sort((a, b) => a - b).map((v) => ({ v, major: true })) :
        linearTicks(xLo - pad, xHi + pad, true),
      yTicks: logTicks(y.lo, y.hi),
      xFormat: (v) => String(v),
      yFormat: (v) => R.duration(v * unit),
    });
    const drawn = scalingLines(plot, groups, x, y);
    plot.find = bucketFinder(drawn, scalingHtml);
    return [plot];
  };

  function scalingGroups(records, by) {
    const c = R.columns;
    const sizes = new Set();
    for (const index of records) sizes.add(R.shape(c.shape[index]).size);
    const perSize = by === "givens" && sizes.size > 1;
    const groups = new Map();
    R.meta.configurations.forEach((_, config) => {
      if (R.hidden.has(config)) return;
      for (const index of records) {
        const status = c.status[config][index];
        if (!R.answered(status)) continue;
        const size = R.shape(c.shape[index]).size;
        const key = `${config}|${c.mode[index]}|${perSize ? size : ""}`;
        if (!groups.has(key)) {
          groups.set(key, { config, mode: c.mode[index], size: perSize ? size : null, at: new Map() });
        }
        const at = by === "size" ? size : c.givens[index];
        const group = groups.get(key);
        if (!group.at.has(at)) group.at.set(at, []);
        group.at.get(at).push([c.time[config][index], index]);
      }
    });
    return [...groups.values()].map((group) => ({ ...group, points: summarise(group.at) }));
  }

  /* Per x: the median (the lower middle puzzle, so that it is a puzzle), p10 and p90. */
  function summarise(at) {
    return [...at.entries()].sort((a, b) => a[0] - b[0]).map(([value, items]) => {
      items.sort((a, b) => a[0] - b[0]);
      const rank = (p) => items[Math.max(Math.ceil((p / 100) * items.length), 1) - 1][0];
      const middle = items[Math.floor((items.length - 1) / 2)];
      return { at: value, median: middle[0], record: middle[1], p10: rank(10), p90: rank(90),
        n: items.length };
    });
  }

  function scalingLines(plot, groups, x, y) {
    const drawn = [];
    const bands = groups.length <= BANDS;
    plot.clip((ctx) => {
      for (const group of groups) {
        const colour = R.colour(group.config);
        if (bands) {
          ctx.globalAlpha = 0.12;
          ctx.fillStyle = colour;
          ctx.beginPath();
          group.points.forEach((p, k) => (k ? ctx.lineTo : ctx.moveTo).call(ctx, x(p.at), y(p.p90)));
          [...group.points].reverse().forEach((p) => ctx.lineTo(x(p.at), y(p.p10)));
          ctx.closePath();
          ctx.fill();
          ctx.globalAlpha = 1;
        }
        ctx.strokeStyle = colour;
        ctx.lineWidth = 1.8;
        ctx.setLineDash(seriesDash(group.mode));
        ctx.beginPath();
        group.points.forEach((p, k) => (k ? ctx.lineTo : ctx.moveTo).call(ctx, x(p.at), y(p.median)));
        ctx.stroke();
        ctx.setLineDash([]);
        ctx.fillStyle = colour;
        for (const p of group.points) {
          ctx.beginPath();
          ctx.arc(x(p.at), y(p.median), 3, 0, 2 * Math.PI);
          ctx.fill();
          drawn.push({ x: x(p.at), y: y(p.median), record: p.record, group, point: p });
        }
      }
    });
    return drawn;
  }

  function scalingHtml(hit) {
    const { group, point } = hit;
    const unit = R.meta.time_unit;
    const name = seriesName(group) + (group.size ? `, ${group.size}×${group.size}` : "");
    return R.tooltipHtml(hit.record, [
      `<b style="color:${R.colour(group.config)}">${R.escape(name)}</b> at ${point.at}: ` +
        `median ${R.duration(point.median * unit)} over ${R.plural(point.n, "puzzle")}`,
      `p10 ${R.duration(point.p10 * unit)}, p90 ${R.duration(point.p90 * unit)}; ` +
        "the median puzzle:",
    ]);
  }
})();

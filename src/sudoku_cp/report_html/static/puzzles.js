/* sudoku-cp HTML report: the puzzle table (a screenful of rows at a time), the puzzle view
 * (the puzzle and every distinct answer drawn as grids, marked cells, every run's figures) and
 * the hover card.
 */
"use strict";

(function () {
  const R = window.SudokuReport;
  const ROW = 28; /* px: every row of the puzzle table has this height (see report.css) */
  const OVERSCAN = 10;

  /* -- the hover card -------------------------------------------------------------------------- */

  const tooltip = document.getElementById("tooltip");

  R.showTooltip = function (clientX, clientY, html) {
    tooltip.innerHTML = html;
    tooltip.hidden = false;
    const { width, height } = tooltip.getBoundingClientRect();
    const left = clientX + 16 + width > window.innerWidth ? clientX - 16 - width : clientX + 16;
    const top = Math.min(clientY + 12, window.innerHeight - height - 8);
    tooltip.style.left = `${Math.max(4, left)}px`;
    tooltip.style.top = `${Math.max(4, top)}px`;
  };
  R.hideTooltip = () => (tooltip.hidden = true);

  R.facts = function (index) {
    const c = R.columns;
    const facts = [`line ${R.count(c.line[index])}`, R.shapeName(c.shape[index]),
      `${c.givens[index]} givens`];
    if (R.meta.modes.length > 1) facts.push(R.meta.modes[c.mode[index]]);
    if (c.rating && c.rating[index] >= 0) facts.push(`rating ${c.rating[index]}`);
    return facts.join(" · ");
  };

  R.tooltipHtml = function (index, lines) {
    const c = R.columns;
    const verdict = R.verdict(c.verdict[index]);
    const shape = R.shape(c.shape[index]);
    const grid = shape.size <= 16 ?
      R.gridHtml(R.values(c.puzzle[index]), shape, { mini: true }) : "";
    return `<div class="tip-title">${R.escape(R.where(index))}
        <span class="badge v-${verdict}">${verdict}</span></div>
      <div class="tip-facts">${R.escape(R.facts(index))}</div>
      ${lines.map((line) => `<div>${line}</div>`).join("")}
      ${grid}<div class="tip-hint">click to open</div>`;
  };

  /* -- grids ------------------------------------------------------------------------------------ */

  /* A grid as HTML: `givens` (values of the puzzle) are bold, `marks` maps a cell to a mark
   * code (meta.marks: 0 differs from the reference, then the verifier's rules). */
  R.gridHtml = function (values, shape, { givens, marks, mini } = {}) {
    const { size, rows, cols } = shape;
    const parts = [];
    for (let cell = 0; cell < size * size; cell++) {
      const row = Math.floor(cell / size);
      const col = cell % size;
      const classes = [];
      if ((col + 1) % cols === 0 && col < size - 1) classes.push("br");
      if ((row + 1) % rows === 0 && row < size - 1) classes.push("bb");
      if (givens ? givens[cell] : values[cell]) classes.push("g");
      let title = "";
      if (marks && marks.has(cell)) {
        const code = marks.get(cell);
        classes.push(code === 0 ? "mk-diff" : "mk-bad");
        title = ` title="row ${row + 1}, column ${col + 1}: ${R.escape(R.meta.marks[code])}"`;
      }
      parts.push(`<span class="${classes.join(" ")}" data-cell="${cell}"${title}>` +
        `${R.symbol(values[cell])}</span>`);
    }
    const kind = mini ? "grid mini" : size > 16 ? "grid big" : "grid";
    return `<div class="${kind}" style="--n:${size}">${parts.join("")}</div>`;
  };

  /* -- the table ------------------------------------------------------------------------------- */

  const scroller = document.getElementById("puzzle-scroll");
  const head = document.querySelector("#puzzle-table thead");
  const body = document.querySelector("#puzzle-table tbody");
  R.sort = { key: "input", direction: 1 };
  R.view = new Int32Array(0);

  const FIXED = [
    ["set", "set"], ["number", "puzzle"], ["line", "line"], ["size", "size"],
    ["givens", "givens"], ["mode", "mode"], ["verdict", "verdict"],
  ];

  function fixedColumns() {
    return FIXED.filter(([key]) =>
      key !== "mode" ? key !== "set" || R.meta.sets.length > 1 : R.meta.modes.length > 1);
  }

  R.renderTableHead = function () {
    const cells = fixedColumns().map(([key, title]) =>
      `<th data-sort="${key}" class="${key === "set" || key === "verdict" ? "text" : "num"}">` +
      `<button type="button">${title}</button></th>`);
    R.meta.configurations.forEach((config, k) => {
      const values = config.values.length ? `<span class="opts">${config.values.map((value) =>
        `<span>${R.escape(value)}</span>`).join("")}</span>` : "";
      cells.push(`<th data-sort="c${k}" class="num config" title="${R.escape(config.full)}">` +
        `<button type="button"><span class="name"><span class="swatch" style="background:` +
        `${R.colour(k)}"></span>${R.escape(values ? config.backend : config.short)}</span>` +
        `${values}</button></th>`);
    });
    head.innerHTML = `<tr>${cells.join("")}</tr>`;
    head.querySelectorAll("th").forEach((th) =>
      th.addEventListener("click", () => R.sortBy(th.dataset.sort)));
    markSorted();
  };

  function markSorted() {
    head.querySelectorAll("th").forEach((th) => {
      const sorted = th.dataset.sort === R.sort.key;
      th.setAttribute("aria-sort", sorted ? (R.sort.direction > 0 ? "ascending" : "descending") :
        "none");
    });
  }

  R.sortBy = function (key) {
    R.sort = { key, direction: R.sort.key === key ? -R.sort.direction : 1 };
    markSorted();
    R.orderRows();
  };

  function sortValue(key) {
    const c = R.columns;
    if (key === "size") return (i) => R.shape(c.shape[i]).size;
    if (key[0] === "c" && key !== "cert") {
      const k = Number(key.slice(1));
      /* answered by time; then timeouts, wrong, errors, no run */
      return (i) => {
        const s = c.status[k][i];
        return R.answered(s) ? c.time[k][i] : 1e15 * (s === R.NONE ? 9 : s + 1);
      };
    }
    const column = c[key];
    return (i) => column[i];
  }

  R.orderRows = function () {
    const started = performance.now();
    const view = Int32Array.from(R.filtered);
    if (R.sort.key !== "input") {
      const value = sortValue(R.sort.key);
      const keys = new Float64Array(R.n);
      for (const i of view) keys[i] = value(i);
      const direction = R.sort.direction;
      view.sort((a, b) => (keys[a] - keys[b]) * direction || a - b);
    } else if (R.sort.direction < 0) {
      view.reverse();
    }
    R.view = view;
    R.timings.sort = performance.now() - started;
    scroller.scrollTop = 0;
    R.renderRows();
  };

  function cellHtml(k, i) {
    const c = R.columns;
    const status = c.status[k][i];
    const refused = c.cert && c.cert[k][i] === 0 ?
      ' <span class="refused" title="not certified">✗</span>' : "";
    if (status === R.NONE) return `<td class="num none">–</td>`;
    if (status === 0) return `<td class="num">${R.ms(R.seconds(c.time[k][i]))}${refused}</td>`;
    const name = R.status(status);
    const shown = name === "unsatisfiable" ? `unsat ${R.ms(R.seconds(c.time[k][i]))}` : name;
    return `<td class="num s-${name}">${shown}${refused}</td>`;
  }

  function rowHtml(i) {
    const c = R.columns;
    const cells = fixedColumns().map(([key]) => {
      if (key === "set") return `<td class="text">${R.escape(R.meta.sets[c.set[i]])}</td>`;
      if (key === "number") return `<td class="num">${R.count(c.number[i] + 1)}</td>`;
      if (key === "line") return `<td class="num">${R.count(c.line[i])}</td>`;
      if (key === "size") return `<td class="num">${R.shape(c.shape[i]).size}</td>`;
      if (key === "givens") return `<td class="num">${c.givens[i]}</td>`;
      if (key === "mode") return `<td class="text">${R.meta.modes[c.mode[i]]}</td>`;
      const verdict = R.verdict(c.verdict[i]);
      return `<td class="text"><span class="badge v-${verdict}">${verdict}</span></td>`;
    });
    R.meta.configurations.forEach((_, k) => cells.push(cellHtml(k, i)));
    return `<tr data-record="${i}" tabindex="0">${cells.join("")}</tr>`;
  }

  R.renderRows = function () {
    const total = R.view.length;
    const first = Math.max(0, Math.floor(scroller.scrollTop / ROW) - OVERSCAN);
    const shown = Math.ceil(scroller.clientHeight / ROW) + 2 * OVERSCAN;
    const last = Math.min(total, first + shown);
    const columns = fixedColumns().length + R.meta.configurations.length;
    const rows = [];
    if (first > 0) rows.push(`<tr class="spacer" style="height:${first * ROW}px"><td colspan="${columns}"></td></tr>`);
    for (let n = first; n < last; n++) rows.push(rowHtml(R.view[n]));
    if (last < total) {
      rows.push(`<tr class="spacer" style="height:${(total - last) * ROW}px"><td colspan="${columns}"></td></tr>`);
    }
    if (!total) rows.push(`<tr class="empty"><td colspan="${columns}">No puzzle passes the filters.</td></tr>`);
    body.innerHTML = rows.join("");
  };

  let pending = false;
  scroller.addEventListener("scroll", () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      R.renderRows();
    });
  });
  body.addEventListener("click", (event) => {
    const row = event.target.closest("tr[data-record]");
    if (row) R.openPuzzle(Number(row.dataset.record));
  });
  body.addEventListener("keydown", (event) => {
    const row = event.target.closest("tr[data-record]");
    if (row && event.key === "Enter") R.openPuzzle(Number(row.dataset.record));
  });

  /* -- the puzzle view -------------------------------------------------------------------------- */

  const overlay = document.getElementById("puzzle-view");
  const viewTitle = document.getElementById("puzzle-title");
  const viewBody = document.getElementById("puzzle-body");
  R.current = -1;

  R.openPuzzle = async function (index) {
    R.hideTooltip();
    R.current = index;
    const c = R.columns;
    const verdict = R.verdict(c.verdict[index]);
    viewTitle.innerHTML = `${R.escape(R.where(index))} <span class="badge v-${verdict}">` +
      `${verdict}</span><span class="facts">${R.escape(R.facts(index))}</span>`;
    viewBody.innerHTML = '<p class="loading">Unpacking the answers…</p>';
    overlay.hidden = false;
    document.body.classList.add("viewing");
    history.replaceState(null, "", `#puzzle-${index + 1}`); /* counted from 1, as shown */
    const detail = await R.detail(index);
    if (R.current !== index) return; /* another puzzle was opened meanwhile */
    viewBody.innerHTML = puzzleHtml(index, detail);
    wireSteps(index, detail);
    overlay.dataset.record = String(index);
    overlay.querySelector(".panel").focus();
    document.dispatchEvent(new CustomEvent("report:opened", { detail: index }));
  };

  R.closePuzzle = function () {
    overlay.hidden = true;
    delete overlay.dataset.record;
    R.current = -1;
    document.body.classList.remove("viewing");
    history.replaceState(null, "", location.pathname + location.search);
  };

  R.step = function (by) {
    if (R.current < 0 || !R.view.length) return;
    const at = R.view.indexOf(R.current);
    const next = at < 0 ? 0 : Math.min(Math.max(at + by, 0), R.view.length - 1);
    R.openPuzzle(R.view[next]);
  };

  function puzzleHtml(index, detail) {
    const c = R.columns;
    const shape = R.shape(c.shape[index]);
    const puzzle = R.values(c.puzzle[index]);
    const givens = puzzle.map((v) => v !== 0);
    const findings = detail.f.length ? `<ul class="findings">${detail.f.map((f) =>
      `<li>${R.escape(f)}</li>`).join("")}</ul>` : "";
    const grids = [`<figure>${R.gridHtml(puzzle, shape)}<figcaption><b>puzzle</b> ` +
      `${R.escape(detail.src)}:${R.count(c.line[index])}</figcaption></figure>`];
    (detail.a || []).forEach((line, a) => grids.push(answerFigure(detail, a, line, shape, givens)));
    const silent = detail.r.filter((run) => run.a === undefined).map((run) =>
      `${chip(run.c)} ${R.status(run.s)}`);
    const none = silent.length ? `<p class="no-grid">No grid from ${silent.join(", ")}.</p>` : "";
    return `${findings}<div class="grids">${grids.join("")}</div>${none}${markLegend(detail)}` +
      `${explanationHtml(detail.ex)}<h3>Runs</h3>${runsTable(detail)}`;
  }

  /* -- the explanation: its steps, and the grid after step k ------------------------------------ */

  function explanationHtml(ex) {
    if (!ex) return "";
    if (ex.none !== undefined) {
      return `<h3>Explanation</h3><p class="no-explanation">No explanation: ${R.escape(ex.none)}.</p>`;
    }
    const ending = ex.st === "solved" ? `solved in ${R.plural(ex.s.length, "step")}` :
      ex.st === "stuck" ? `stuck after ${R.plural(ex.s.length, "step")}: the techniques ` +
        "find no further step (it needs a proof by contradiction, or has several completions)" :
        `unsatisfiable after ${R.plural(ex.s.length, "step")} (${R.escape(ex.why || "")})`;
    const items = ex.s.map(([text], k) =>
      `<li data-step="${k + 1}"><button type="button">${R.escape(text)}</button></li>`).join("");
    return `<h3>Explanation</h3><p class="ex-status">${ending}</p>` +
      `<div class="explanation" tabindex="0" title="← → step through (when focused)">` +
      `<div class="ex-side"><div class="ex-controls"><button type="button" class="ex-prev" ` +
      `title="previous step">◀ step</button><span class="ex-at" aria-live="polite"></span>` +
      `<button type="button" class="ex-next" title="next step">step ▶</button><label>` +
      `<input type="checkbox" class="ex-pencil"> pencil marks</label></div>` +
      `<div class="ex-grid"></div></div><ol class="ex-steps">${items}</ol></div>`;
  }

  /* The values after the first `k` steps, and the cells step k changes. */
  function valuesAfter(puzzle, steps, k) {
    const values = puzzle.slice();
    for (let n = 0; n < k; n++) {
      const placements = steps[n][1];
      for (let i = 0; i < placements.length; i += 2) values[placements[i]] = placements[i + 1];
    }
    return values;
  }

  /* The candidates (bit v-1 for value v) after the first `k` steps, as explain keeps them: a
   * blank cell starts with every value no given peer holds; a placement empties its cell and
   * strikes its value from the cell's peers; an elimination strikes one value. */
  function candidatesAfter(puzzle, shape, steps, k) {
    const { size, rows, cols } = shape;
    const peers = (cell) => {
      const row = Math.floor(cell / size);
      const col = cell % size;
      const top = row - (row % rows);
      const left = col - (col % cols);
      const found = [];
      for (let i = 0; i < size; i++) {
        found.push(row * size + i, i * size + col);
        found.push((top + Math.floor(i / cols)) * size + left + (i % cols));
      }
      return found.filter((peer) => peer !== cell);
    };
    const full = (1 << size) - 1;
    const candidates = puzzle.map((value) => (value ? 0 : full));
    const place = (cell, value) => {
      candidates[cell] = 0;
      for (const peer of peers(cell)) candidates[peer] &= ~(1 << (value - 1));
    };
    puzzle.forEach((value, cell) => value && place(cell, value));
    const values = puzzle.slice();
    for (let n = 0; n < k; n++) {
      const [, placements, eliminations] = steps[n];
      for (let i = 0; i < eliminations.length; i += 2) {
        candidates[eliminations[i]] &= ~(1 << (eliminations[i + 1] - 1));
      }
      for (let i = 0; i < placements.length; i += 2) {
        if (values[placements[i]]) continue;
        values[placements[i]] = placements[i + 1];
        place(placements[i], placements[i + 1]);
      }
    }
    return candidates;
  }

  function pencilHtml(mask, shape) {
    const marks = [];
    for (let value = 1; value <= shape.size; value++) {
      marks.push(`<i>${mask & (1 << (value - 1)) ? R.symbol(value) : ""}</i>`);
    }
    return `<b class="pm" style="--k:${shape.cols}">${marks.join("")}</b>`;
  }

  function wireSteps(index, detail) {
    const box = viewBody.querySelector(".explanation");
    if (!box) return;
    const steps = detail.ex.s;
    const shape = R.shape(R.columns.shape[index]);
    const puzzle = R.values(R.columns.puzzle[index]);
    const givens = puzzle.map((v) => v !== 0);
    let at = 0;
    const show = (k) => {
      at = Math.min(Math.max(k, 0), steps.length);
      const marks = new Map();
      if (at > 0) {
        const [, placements, eliminations] = steps[at - 1];
        for (let i = 0; i < eliminations.length; i += 2) marks.set(eliminations[i], "ex-elim");
        for (let i = 0; i < placements.length; i += 2) marks.set(placements[i], "ex-placed");
      }
      const values = valuesAfter(puzzle, steps, at);
      const pencil = box.querySelector(".ex-pencil").checked;
      const candidates = pencil ? candidatesAfter(puzzle, shape, steps, at) : null;
      const target = box.querySelector(".ex-grid");
      target.classList.toggle("pencil", pencil);
      target.innerHTML = R.gridHtml(values, shape, { givens })
        .replace(/data-cell="(\d+)"([^>]*)><\/span>/g, (whole, cell, rest) => candidates ?
          `data-cell="${cell}"${rest}>${pencilHtml(candidates[Number(cell)], shape)}</span>` :
          whole)
        .replace(/data-cell="(\d+)"/g, (whole, cell) =>
          marks.has(Number(cell)) ? `${whole} data-mark="${marks.get(Number(cell))}"` : whole);
      box.querySelector(".ex-at").textContent = `${at} / ${steps.length}`;
      box.dataset.step = String(at);
      box.querySelectorAll(".ex-steps li").forEach((li) =>
        li.classList.toggle("current", Number(li.dataset.step) === at));
      const current = box.querySelector(".ex-steps li.current");
      if (current) current.scrollIntoView({ block: "nearest" });
      box.querySelector(".ex-prev").disabled = at === 0;
      box.querySelector(".ex-next").disabled = at === steps.length;
    };
    box.querySelector(".ex-prev").addEventListener("click", () => show(at - 1));
    box.querySelector(".ex-next").addEventListener("click", () => show(at + 1));
    box.querySelector(".ex-pencil").addEventListener("change", () => show(at));
    box.querySelector(".ex-steps").addEventListener("click", (event) => {
      const li = event.target.closest("li[data-step]");
      if (li) show(Number(li.dataset.step));
    });
    box.addEventListener("keydown", (event) => {
      /* inside the explanation the arrows step through it, not through the puzzles */
      if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
      event.stopPropagation();
      event.preventDefault();
      show(at + (event.key === "ArrowRight" ? 1 : -1));
    });
    show(0);
  }

  function chip(config) {
    if (config < 0) return '<span class="chip">?</span>';
    return `<span class="chip" title="${R.escape(R.fullLabel(config))}"><span class="swatch" ` +
      `style="background:${R.colour(config)}"></span>${R.escape(R.shortLabel(config))}</span>`;
  }

  function answerFigure(detail, a, line, shape, givens) {
    const marks = new Map();
    const list = detail.mk ? detail.mk[a] : [];
    for (const [cell, code] of list) marks.set(cell, code);
    const who = detail.r.filter((run) => run.a === a);
    const configs = [...new Set(who.map((run) => run.c))];
    const everyone = new Set(detail.r.map((run) => run.c)).size;
    const names = configs.length === everyone && everyone > 3 ?
      `<span class="everyone">every configuration (${everyone})</span>` :
      `<div class="who">${configs.map(chip).join("")}</div>`;
    const statuses = [...new Set(who.map((run) => R.status(run.s)))].join(", ");
    const reference = detail.ref === a ? '<span class="ref">reference</span>' : "";
    const problems = detail.pb && detail.pb[a].length ?
      `<div class="problems">${detail.pb[a].map(R.escape).join("<br>")}</div>` : "";
    const marked = list.length ? `<div class="marked">${R.plural(list.length, "cell")} marked</div>` : "";
    return `<figure class="answer" data-answer="${a}">${R.gridHtml(R.values(line), shape,
      { givens, marks })}<figcaption>${names}<div class="statuses">${statuses} ${reference}` +
      `</div>${marked}${problems}</figcaption></figure>`;
  }

  function markLegend(detail) {
    if (!detail.mk || !detail.mk.some((list) => list.length)) return "";
    return `<p class="mark-legend"><span class="key mk-bad"></span> breaks a rule (a changed ` +
      `given, a blank, a repeated value: the verifier's findings) <span class="key mk-diff">` +
      `</span> differs from the reference answer (the smallest valid completion in lexmin ` +
      `mode, else the most common)</p>`;
  }

  function runsTable(detail) {
    const runs = detail.r;
    const has = (key) => runs.some((run) => run[key] !== undefined);
    const columns = [
      ["configuration", (run) => chip(run.c)],
      ...(runs.some((run) => run.k) ? [["repeat", (run) => run.k + 1]] : []),
      ["status", (run) => `<span class="s-${R.status(run.s)}">${R.status(run.s)}</span>`],
      ["wall ms", (run) => R.ms(run.t)],
      ...(has("cpu") ? [["CPU ms", (run) => R.ms(run.cpu)]] : []),
      ...(has("bld") ? [["build ms", (run) => R.ms(run.bld)]] : []),
      ...(has("slv") ? [["solve ms", (run) => R.ms(run.slv)]] : []),
      ...(has("mb") ? [["peak MB", (run) => (run.mb === undefined ? "-" : run.mb.toFixed(0))]] : []),
      ...(has("n") ? [["count", (run) => (run.n === undefined ? "-" : `${run.n}${run.lr ? "+" : ""}`)]] : []),
      ...(has("cert") ? [["certificate", certificate]] : []),
      ["stats", (run) => statsText(run.x)],
      ["reason", (run) => R.escape(run.why || "")],
    ];
    const headRow = columns.map(([title]) => `<th>${title}</th>`).join("");
    const rows = runs.map((run) => `<tr>${columns.map(([, cell]) => `<td>${cell(run)}</td>`)
      .join("")}</tr>`);
    return `<div class="table-wrap"><table class="runs"><thead><tr>${headRow}</tr></thead>` +
      `<tbody>${rows.join("")}</tbody></table></div>`;
  }

  function certificate(run) {
    if (!run.cert) return "-";
    const [certified, reason] = run.cert;
    return certified ? `<span class="s-solved" title="${R.escape(reason)}">certified</span>` :
      `<span class="s-wrong" title="${R.escape(reason)}">not certified</span>`;
  }

  function statsText(stats) {
    if (!stats) return "";
    return Object.entries(stats).map(([key, value]) =>
      `${R.escape(key)} ${typeof value === "number" ? R.count(+value.toPrecision(6)) :
        R.escape(typeof value === "string" ? value : JSON.stringify(value))}`).join(" · ");
  }
})();

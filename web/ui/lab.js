// The playtest lab page (#/lab/<game>?...): pick the knobs of one or two settings, run N seeded
// bot-vs-bot games of each in the worker, and read the designer's numbers side by side.
//
// A run is a series of `lab` requests of a few games each (a Python call cannot be interrupted,
// so Stop takes effect between chunks; chunks are sized to take about a third of a second), A
// and B in turn so a stopped run still compares both. Each request sends the setting's tally so
// far and gets it back with the chunk added, with the numbers and the table's text: the table
// grows as the games are played, and ends the same as `python -m tapete.lab` prints for the
// same link (the page shows that command too).

import { h, mount } from "../dom.js";
import { has, t } from "../i18n.js";
import { endsChart, histogramChart, SIDE_CLASS } from "./lab-charts.js";
import {
  changedKnobs, commandLine, defaultSetting, formatLabLink, knobValue, LAB_SEED_RE, MAX_LAB_GAMES, parseLabQuery, parsePlayers,
} from "./lab-link.js";
import { errorText, optionLabel, optionValueLabel } from "./messages.js";

const TARGET_MS = 300; // a chunk should take about this long
const MAX_CHUNK = 200;
const SIDES = ["A", "B"];
const HISTOGRAMS = ["rounds_per_game", "turns_per_round", "round_score", "final_score"];

/** The last finished run ({link, view}): a language change redraws it instead of running again. */
let finished = null;

/**
 * @param {HTMLElement} root
 * @param {object} catalogue the game's catalogue from build.json
 * @param {{engine: any, query: string | null, active: () => boolean}} p
 *        query: the link's query (null for a bare #/lab/<game>); active: false once the player left
 */
export function renderLab(root, catalogue, p) {
  const game = catalogue.id;
  const gameName = has(`game.${game}.name`) ? t(`game.${game}.name`) : game[0].toUpperCase() + game.slice(1);
  let setting = defaultSetting(catalogue);
  let linkError = null;
  if (p.query !== null) {
    const parsed = parseLabQuery(p.query, catalogue);
    if ("error" in parsed) linkError = t(parsed.error, parsed.params || {});
    else setting = parsed.setting;
  }

  // -- the form ---------------------------------------------------------------------------------
  const games = h("input", { id: "lab-games", type: "number", min: 1, max: MAX_LAB_GAMES, step: 1, dataset: { testid: "lab-games" } });
  games.value = String(setting.games);
  const seed = h("input", { id: "lab-seed", type: "text", maxlength: 24, autocomplete: "off", spellcheck: "false", dataset: { testid: "lab-seed" } });
  seed.value = setting.seed;
  const counts = [];
  for (let n = catalogue.min_players; n <= catalogue.max_players; n++) counts.push(String(n));
  const playerChoices = [...counts, ...(counts.length > 1 ? [counts.join(",")] : [])];
  const players = h(
    "select",
    { id: "lab-players", dataset: { testid: "lab-players" }, onchange: () => drawSeats() },
    playerChoices.map((value) => h("option", { value }, value.includes(",") ? t("lab.players.mixed", { list: value.replaceAll(",", ", ") }) : value)),
  );
  players.value = playerChoices.includes(setting.players.join(",")) ? setting.players.join(",") : String(setting.players[0]);
  const levelSelects = Array.from({ length: catalogue.max_players }, (_, i) => {
    const select = h("select", { id: `lab-level-${i}`, dataset: { testid: `lab-level-${i}` } },
      (catalogue.bot_levels || []).map((level) => h("option", { value: level }, levelLabel(level))));
    select.value = setting.levels[i % setting.levels.length];
    return select;
  });
  const seatRows = levelSelects.map((select, i) => h("div", { class: "seat-row" }, h("label", { for: select.id }, t("lab.seat", { n: i + 1 })), select));
  function drawSeats() {
    const most = Math.max(...(parsePlayers(players.value, catalogue) || [catalogue.max_players]));
    seatRows.forEach((row, i) => { row.hidden = i >= most; });
  }
  drawSeats();

  const compare = h("input", { id: "lab-compare", type: "checkbox", dataset: { testid: "lab-compare" }, onchange: () => drawCompare() });
  compare.checked = setting.b !== null;
  const knobRows = (catalogue.options || []).map((spec) => {
    const inputs = ["a", "b"].map((side) => knobInput(game, spec, side, (setting[side] || setting.a)[spec.name] ?? spec.default));
    const hint = `opt.${game}.${spec.name}.hint`;
    const row = h("div", { class: "lab-knob" },
      h("div", { class: "lab-knob-name" }, h("label", { for: inputs[0].id }, optionLabel(game, spec.name)),
        has(hint) ? h("p", { class: "hint" }, t(hint)) : null),
      inputs.map((input, i) => h("div", { class: ["lab-knob-input", i ? "side-b-input" : null] }, input)));
    for (const input of inputs) input.addEventListener("change", () => markDifferences());
    return { spec, inputs, row };
  });
  const knobHead = h("div", { class: "lab-knob lab-knob-head", "aria-hidden": "true" }, h("span"), SIDES.map((side, i) => h("span", { class: ["lab-side-tag", SIDE_CLASS[i], i ? "side-b-input" : null] }, side)));
  const knobs = h("div", { class: "lab-knobs", dataset: { testid: "lab-knobs" } }, knobHead, knobRows.map((k) => k.row));
  function drawCompare() {
    knobs.classList.toggle("comparing", compare.checked);
    markDifferences();
  }
  function markDifferences() {
    for (const { spec, inputs } of knobRows) {
      const [a, b] = inputs.map((input) => readKnob(spec, input));
      inputs[1].classList.toggle("differs", compare.checked && a !== b);
    }
  }
  drawCompare();

  const notice = h("div", { class: "notice", role: "alert", dataset: { testid: "lab-error" }, hidden: !linkError }, linkError || "");
  const runButton = h("button", { type: "submit", class: "primary big", dataset: { testid: "lab-run" } }, t("lab.run"));
  const stopButton = h("button", { type: "button", class: "ghost", hidden: true, dataset: { testid: "lab-stop" }, onclick: () => stop() }, t("lab.stop"));
  const form = h(
    "form",
    { class: "panel wide lab-form", novalidate: true, dataset: { testid: "lab-form" } },
    h("div", { class: "lab-form-grid" },
      h("fieldset", null, h("legend", null, t("lab.run_legend")),
        row(t("lab.games"), games), row(t("lab.seed"), seed), row(t("lab.players"), players),
        h("p", { class: "lab-subhead" }, t("lab.bots")), seatRows),
      h("fieldset", null, h("legend", null, t("lab.knobs")),
        h("label", { class: "lab-compare" }, compare, h("span", null, t("lab.compare"))),
        knobs)),
    h("div", { class: "panel-actions" }, h("a", { class: "button ghost", href: "#/" }, t("common.back")), runButton),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const read = readForm();
    if (typeof read === "string") return showError(read);
    history.replaceState(null, "", formatLabLink(game, read, catalogue));
    start(read);
    progress.scrollIntoView?.({ block: "start" });
  });

  function readForm() {
    const n = /^\d{1,6}$/.test(games.value.trim()) ? Number(games.value.trim()) : 0;
    if (n < 1 || n > MAX_LAB_GAMES) return t("lab.error.games", { max: MAX_LAB_GAMES });
    if (!LAB_SEED_RE.test(seed.value.trim())) return t("lab.error.seed");
    const chosen = parsePlayers(players.value, catalogue);
    const seats = Math.max(...chosen);
    let levels = levelSelects.slice(0, seats).map((select) => select.value);
    if (levels.every((level) => level === levels[0])) levels = [levels[0]];
    const sides = { a: {}, b: {} };
    for (const { spec, inputs } of knobRows) {
      for (const [i, side] of (compare.checked ? ["a", "b"] : ["a"]).entries()) {
        const value = readKnob(spec, inputs[i]);
        if (value === undefined) return t("lab.error.knob", { knob: `${SIDES[i]}: ${optionLabel(game, spec.name)}` });
        sides[side][spec.name] = value;
      }
    }
    return {
      seed: seed.value.trim(), games: n, players: chosen, levels,
      a: changedKnobs(sides.a, catalogue), b: compare.checked ? changedKnobs(sides.b, catalogue) : null,
    };
  }

  // -- running ----------------------------------------------------------------------------------
  const bar = h("progress", { max: 1, value: 0, dataset: { testid: "lab-progress" } });
  const progressText = h("p", { class: "lab-progress-text", role: "status", dataset: { testid: "lab-progress-text" } });
  const progress = h("section", { class: "panel wide lab-progress", hidden: true }, h("div", { class: "lab-progress-row" }, progressText, stopButton), bar);
  const results = h("section", { class: "panel wide lab-results", hidden: true, dataset: { testid: "lab-results" } });
  const page = h(
    "div",
    { class: "lab", dataset: { testid: "lab", state: "idle" } },
    h("header", { class: "lab-head" }, h("h1", null, t("lab.title", { game: gameName })), h("p", null, t("lab.intro", { game: gameName }))),
    notice, form, progress, results,
  );
  mount(root, page);

  /** The run in progress: {stopping} (a new object per run). */
  let current = null;

  function showError(text) {
    notice.textContent = text;
    notice.hidden = false;
    notice.scrollIntoView?.({ block: "nearest" });
  }

  function setState(state) {
    page.dataset.state = state;
    const running = state === "running";
    runButton.disabled = running;
    stopButton.hidden = !running;
    stopButton.disabled = false;
    stopButton.textContent = t("lab.stop");
    for (const el of form.querySelectorAll("input, select")) el.disabled = running;
  }

  function stop() {
    if (!current) return;
    current.stopping = true;
    stopButton.disabled = true;
    stopButton.textContent = t("lab.stopping");
  }

  async function start(run) {
    notice.hidden = true;
    const token = { stopping: false };
    current = token;
    setState("running");
    results.hidden = true;
    const link = formatLabLink(game, run, catalogue);
    progress.hidden = false;
    // `resume`: the game a chunk stopped in when it ran out of time (the engine bounds each request)
    const sides = [{ side: "A", options: run.a, done: 0, tally: null, answer: null, resume: null }];
    if (run.b) sides.push({ side: "B", options: run.b, done: 0, tally: null, answer: null, resume: null });
    const total = run.games * sides.length;
    const began = performance.now();
    const draw = () => {
      const done = sides.reduce((sum, s) => sum + s.done, 0);
      bar.max = total;
      bar.value = done;
      progressText.textContent = p.engine.status === "ready" ? t("lab.progress", { done, n: total }) : t("lab.waiting");
    };
    const view = () => ({
      run,
      link,
      runs: sides.filter((s) => s.answer).map((s) => ({ side: s.side, options: s.options, games: s.done, summary: s.answer.summary, cells: s.answer.cells })),
      stopped: token.stopping,
      seconds: (performance.now() - began) / 1000,
    });
    draw();
    let chunk = 2;
    try {
      while (sides.some((s) => s.done < run.games) && !token.stopping) {
        for (const s of sides) {
          if (s.done >= run.games || token.stopping) continue;
          const config = { game, players: run.players, games: run.games, seed: run.seed, options: s.options, levels: run.levels };
          const asked = performance.now();
          const answer = await p.engine.call("lab", { config, start: s.done, count: chunk, tally: s.tally, resume: s.resume });
          if (!p.active() || current !== token) return;
          s.done += answer.records.length;
          s.tally = answer.tally;
          s.resume = answer.resume;
          s.answer = answer;
          const each = (performance.now() - asked) / Math.max(1, answer.records.length);
          chunk = Math.max(1, Math.min(MAX_CHUNK, Math.round(TARGET_MS / Math.max(each, 0.5))));
          if (sides.every((side) => side.answer)) drawResults(view(), true); // the numbers so far
          draw();
        }
      }
      const last = view();
      if (!last.stopped) finished = { link, view: last };
      current = null;
      setState(last.stopped ? "stopped" : "done");
      drawResults(last, false);
    } catch (error) {
      if (!p.active() || current !== token) return;
      current = null;
      setState("error");
      progress.hidden = true;
      showError(errorText(error, game));
    }
  }

  /** The table and charts of `view`; `live` while the run goes on (the progress text stays). */
  function drawResults(view, live) {
    const { run, runs } = view;
    const played = runs.reduce((sum, r) => sum + r.games, 0);
    if (!live) {
      progressText.textContent = view.stopped
        ? t("lab.stopped", { done: played, n: run.games * (run.b ? 2 : 1) })
        : t("lab.done", { n: played, seconds: view.seconds.toFixed(1) });
    }
    if (!runs.length) return; // stopped before any game was played
    results.classList.toggle("live", live);
    const table = h(
      "table",
      { class: "lab-table", dataset: { testid: "lab-table" } },
      h("thead", null, h("tr", null, h("th", { scope: "col" }, ""),
        runs.map((r, i) => h("th", { scope: "col", class: SIDE_CLASS[i] }, h("span", { class: "lab-side-tag" }, r.side), h("span", { class: "lab-setting" }, settingLabel(game, r.options)))))),
      h("tbody", null, Object.keys(runs[0].cells).map((key) =>
        h("tr", { dataset: { row: key } }, h("th", { scope: "row" }, t(`lab.row.${key}`)),
          runs.map((r) => h("td", { dataset: { testid: `lab-cell-${r.side.toLowerCase()}-${key}` } }, r.cells[key]))))),
    );
    const url = location.href.split("#")[0] + view.link;
    const linkBox = h("input", { type: "text", readonly: true, class: "share-url", value: url, id: "lab-link", dataset: { testid: "lab-link" }, onfocus: (e) => e.target.select() });
    const copied = h("span", { class: "small", role: "status" });
    const copy = h("button", { type: "button", class: "ghost", dataset: { testid: "lab-copy" }, onclick: () => {
      linkBox.select();
      navigator.clipboard?.writeText(url).then(() => { copied.textContent = t("lab.copied"); }, () => { copied.textContent = t("lab.copy_by_hand"); });
    } }, t("lab.copy"));
    const charts = runs.every((r) => r.summary.finished > 0)
      ? h("div", { class: "lab-charts", dataset: { testid: "lab-charts" } }, endsChart(runs), HISTOGRAMS.map((key) => histogramChart(key, runs)))
      : h("p", null, t("lab.nothing"));
    mount(
      results,
      h("h2", null, t("lab.results")),
      h("div", { class: "lab-table-wrap" }, table),
      charts,
      h("div", { class: "lab-share" }, h("label", { for: "lab-link" }, t("lab.share")), h("div", { class: "lab-share-row" }, linkBox, copy), copied),
      h("p", { class: "small" }, t("lab.cli")),
      h("pre", { class: "small lab-cli", dataset: { testid: "lab-cli" } }, commandLine(game, run, catalogue)),
    );
    results.hidden = false;
  }

  if (linkError) return;
  const link = p.query !== null ? formatLabLink(game, setting, catalogue) : null;
  if (link && finished && finished.link === link) {
    progress.hidden = false;
    setState("done");
    drawResults(finished.view, false);
  } else if (link) {
    start(setting);
  }
}

function row(label, input) {
  input.setAttribute("aria-label", label);
  return h("div", { class: "option-row" }, h("label", { for: input.id }, label), input);
}

function knobInput(game, spec, side, value) {
  const id = `lab-${side}-${spec.name}`;
  const attrs = { id, dataset: { testid: id, knob: spec.name }, "aria-label": `${side.toUpperCase()}: ${optionLabel(game, spec.name)}` };
  let input;
  if (spec.kind === "enum") {
    input = h("select", attrs, spec.choices.map((choice) => h("option", { value: choice }, optionValueLabel(game, spec.name, choice))));
    input.value = String(value);
  } else if (spec.kind === "bool") {
    input = h("input", { ...attrs, type: "checkbox" });
    input.checked = value === true;
  } else {
    input = h("input", { ...attrs, type: "number", step: 1, min: spec.min ?? null, max: spec.max ?? null });
    input.value = String(value);
  }
  return input;
}

function readKnob(spec, input) {
  if (spec.kind === "bool") return input.checked;
  return knobValue(spec, input.value.trim());
}

function settingLabel(game, options) {
  const entries = Object.entries(options);
  if (!entries.length) return t("lab.defaults");
  return entries.map(([name, value]) => `${optionLabel(game, name)}: ${optionValueLabel(game, name, value)}`).join(" · ");
}

function levelLabel(level) {
  const key = `bot.level.${level}`;
  return has(key) ? t(key) : level;
}

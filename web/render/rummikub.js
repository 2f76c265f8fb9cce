// Drawing Rummikub: the rack, the table of melds the player rearranges (meld-table.js), the
// pool, the other racks, the initial meld's running value, hint, auto-arrange and the turn
// timer. No rules here: the engine says which melds are valid (`inspect`), finds the hint and
// the auto-arrangement (`hint`, `arrange`) and accepts or refuses the turn.
// Tile codes: K (black), R (red), B (blue), Y (yellow) then 1..13; the joker is "*".

import { h } from "../dom.js";
import { sharedErrorText } from "../ui/messages.js";
import { MeldTable } from "./meld-table.js";

const COLOURS = ["K", "R", "B", "Y"];
/** A mark per colour as well as the colour itself, for colour-blind players. */
const MARK = { K: "▲", R: "♥", B: "●", Y: "★" };

/** `ask(op, fields)` from app.js: an engine call on the game and seat shown. */
let ask = null;
export function connect(askEngine) {
  ask = askEngine;
}

/** One board per turn (it survives the page's re-renders); the rack order the player chose. */
let board = null;
let handPref = { mode: "colour", order: [] };
let timer = { key: "", deadline: 0, interval: 0, fired: false };
const DEADLINE_KEY = "tapete.rummikub.deadline";
let note = { key: "", text: "", busy: false, bad: false };
/** The hint panel on screen: its hint, its element, and the table's layout it was shown on. A
 * "no play" hint goes as soon as the player moves a tile (it spoke of that layout), for good. */
let hintShown = { hint: null, el: null, layout: "" };
const staleHints = new WeakSet();

/**
 * A meld of the view (or of a hint) for the meld table: its tiles, and its kind when the tiles
 * alone would read otherwise. Only one tile and two jokers read both ways, and a plain list of
 * them is a run (engine/tapete/rummikub/game.py): such a group is sent back as {"group": [...]}.
 */
function asGiven(meld) {
  const jokers = meld.tiles.filter((code) => code === "*").length;
  return meld.kind === "group" && meld.tiles.length === 3 && jokers === 2 ? { tiles: meld.tiles, kind: "group" } : meld.tiles;
}

export function tileName(code, t) {
  if (code === "*") return t("rummikub.joker");
  return t("rummikub.tile", { colour: t(`rummikub.colour.${code[0]}`), number: code.slice(1) });
}

/** A tile's face: the number in its colour, the colour's mark; the joker a face of its own. */
export function tileFace(code, t, className = "") {
  if (code === "*") {
    return h("span", { class: ["rk-tile", "rk-joker", className], dataset: { code } }, h("span", { class: "rk-num", "aria-hidden": "true" }, "☺"), h("span", { class: "rk-mark rk-joker-mark", "aria-hidden": "true" }));
  }
  const colour = code[0];
  return h(
    "span",
    { class: ["rk-tile", `rk-${colour}`, className], dataset: { code } },
    h("span", { class: "rk-num", "aria-hidden": "true" }, code.slice(1)),
    h("span", { class: "rk-mark", "aria-hidden": "true" }, MARK[colour]),
  );
}

/** The home screen's picture of the game: a group of sevens and a joker. */
export function homeArt(t) {
  return ["K7", "R7", "B7", "Y7", "*"].map((code) => tileFace(code, t, "rk-art"));
}

function tileBack() {
  return h("span", { class: "rk-tile rk-back", "aria-hidden": "true" });
}

const byColour = (a, b) => key(a, "colour") - key(b, "colour");
const byNumber = (a, b) => key(a, "number") - key(b, "number");
function key(code, mode) {
  if (code === "*") return 10_000;
  const colour = COLOURS.indexOf(code[0]);
  const number = Number(code.slice(1));
  return mode === "colour" ? colour * 100 + number : number * 100 + colour;
}

/** The rack in the order the player likes: a sort mode, or the order they dragged it into. */
function orderedRack(rack) {
  if (handPref.mode !== "manual") return [...rack].sort(handPref.mode === "number" ? byNumber : byColour);
  const left = [...rack];
  const out = [];
  for (const code of handPref.order) {
    const i = left.indexOf(code);
    if (i >= 0) out.push(left.splice(i, 1)[0]);
  }
  return [...out, ...left.sort(byColour)];
}

/** An engine refusal in the player's language, with which meld and why. */
export function explainError(error, t) {
  const info = (error && (error.info || error)) || {};
  if (info.code !== "illegal_move" || !info.reason) return sharedErrorText(error, "rummikub");
  const params = { ...info };
  if (typeof info.index === "number") params.n = info.index + 1;
  if (info.why) params.why = t(`meld.why.${info.why}`);
  for (const name of ["tile", "joker"]) if (typeof info[name] === "string") params[name] = tileName(info[name], t);
  const k = `rummikub.reason.${info.reason}`;
  const text = t(k, params);
  return text === k ? sharedErrorText(error, "rummikub") : text;
}

/**
 * @param {object} p the PlayScreen's table parameters (view, legal, names, viewer, t, onMove,
 *        interactive, status, message, hideHand, selectionKey, onHint, hint, hintBusy, refresh)
 */
export function renderTable(p) {
  const { view, t } = p;
  const mine = view.seat === p.viewer && !p.hideHand;
  const myTurn = Boolean(p.interactive && mine && view.to_move === p.viewer && view.phase === "play");
  const key = `${p.selectionKey || view.turn}:${view.seat}:${view.game_no}:${mine}`;
  if (!board || board.key !== key) {
    if (board) board.forget();
    note = { key, text: "", busy: false, bad: false };
    board = new MeldTable({
      key,
      table: view.table.map(asGiven),
      hand: mine ? orderedRack(view.rack) : [],
      t,
      drawTile: (code) => tileFace(code, t),
      tileName: (code) => tileName(code, t),
      inspect: (move) => ask("inspect", { move }),
      explain: (error) => explainError(error, t),
      onDone: (move) => p.onMove(move),
      onHandOrder: (codes) => (handPref = { mode: "manual", order: codes }),
      onChange: () => {
        dropStaleHint();
        drawInfo(p);
      },
    });
  }
  board.update({ interactive: myTurn, t, onDone: (move) => p.onMove(move), explain: (error) => explainError(error, t) });
  // a keyboard player's focus starts the turn on the rack (ui/focus.js)
  if (myTurn) board.handEl.dataset.focusHome = "1";
  else delete board.handEl.dataset.focusHome;
  armTimer(p, key, myTurn);

  const info = h("div", { class: "rk-info", dataset: { testid: "rk-info" } });
  board.infoEl = info;
  drawInfo(p);

  const players = h(
    "div",
    { class: "rk-players", dataset: { testid: "rk-players" } },
    view.rack_sizes.map((size, seat) =>
      h(
        "div",
        { class: ["rk-player", seat === view.to_move ? "rk-turn" : null, seat === p.viewer ? "rk-me" : null], dataset: { testid: `seat-${seat}` } },
        h("span", { class: "rk-name" }, p.names[seat]),
        h("span", { class: "rk-count", dataset: { testid: "rack-count" } }, t("rummikub.tiles_n", { n: size })),
        view.melded[seat] ? h("span", { class: "rk-melded", title: t("rummikub.melded") }, "✓") : null,
      ),
    ),
    h("div", { class: "rk-pool", dataset: { testid: "pool" } }, h("span", { "aria-hidden": "true" }, "▦ "), t("rummikub.pool", { n: view.pool_size })),
  );

  const status = h("div", { class: "status-line", dataset: { testid: "status" } }, statusText(p, myTurn), lastText(view, p.names, t));
  const message = p.message ? h("p", { class: "notice error", dataset: { testid: "message" } }, p.message) : null;

  const rackTools = mine
    ? h(
        "div",
        { class: "rk-rack-tools" },
        h("button", { type: "button", class: "ghost small", dataset: { testid: "sort-colour" }, onclick: () => sortRack("colour") }, t("rummikub.sort_colour")),
        h("button", { type: "button", class: "ghost small", dataset: { testid: "sort-number" }, onclick: () => sortRack("number") }, t("rummikub.sort_number")),
        h("span", { class: "rk-rack-value" }, t("rummikub.rack_value", { n: view.rack_value ?? 0 })),
      )
    : null;
  const rack = mine
    ? board.handEl
    : h("div", { class: "mt-hand rk-hidden-rack", dataset: { testid: "hidden-rack" } }, Array.from({ length: view.rack_sizes[p.viewer] || 0 }, () => tileBack()));

  const turnTools = myTurn
    ? h(
        "div",
        { class: "rk-turn-tools", dataset: { focusHome: "2" } },
        view.pool_size > 0
          ? h("button", { type: "button", class: "ghost", dataset: { testid: "draw" }, onclick: () => p.onMove("draw") }, t("rummikub.draw"))
          : h("button", { type: "button", class: "ghost", dataset: { testid: "pass" }, onclick: () => p.onMove("pass") }, t("rummikub.pass")),
        h("button", { type: "button", class: "ghost", disabled: Boolean(p.hintBusy), dataset: { testid: "hint" }, onclick: () => p.onHint && p.onHint() }, p.hintBusy ? t("rummikub.hint_busy") : t("rummikub.hint")),
        ...arrangeTools(p),
        view.options && view.options.turn_timer_s ? h("span", { class: "rk-timer", dataset: { testid: "timer" } }, timerText(t)) : null,
      )
    : null;

  const hint = p.hint && myTurn && !staleHints.has(p.hint) ? hintPanel(p) : null;
  if (hint && hintShown.hint !== p.hint) hintShown = { hint: p.hint, el: null, layout: board.layoutKey() };
  hintShown.el = hint;
  return h(
    "div",
    { class: "rk-table", dataset: { testid: "rummikub-table", myTurn: String(myTurn), melded: String(Boolean(view.melded[p.viewer])) } },
    players,
    status,
    info,
    message,
    board.tableEl,
    hint,
    myTurn ? h("div", { class: "rk-controls", dataset: { testid: "rk-controls" } }, turnTools, board.barEl) : null,
    rackTools,
    rack,
  );
}

function sortRack(mode) {
  if (board) board.sortHand(mode === "number" ? byNumber : byColour);
  handPref = { mode, order: [] };
}

function statusText(p, myTurn) {
  const { view, t } = p;
  if (view.phase === "over" || p.hideHand || view.to_move === null) return p.status;
  if (myTurn) return t("rummikub.status.you");
  if (view.to_move === p.viewer) return p.status;
  return t("rummikub.status.other", { name: p.names[view.to_move] });
}

function lastText(view, names, t) {
  const text = lastMoveText(view, names, t);
  return text ? h("span", { class: "rk-last", dataset: { testid: "last" } }, " · ", text) : null;
}

/** The last move in words ("Bot 2 played 3 tiles"), as the status line and the live region
 * (ui/announce-moves.js) say it; null before the first move. */
export function lastMoveText(view, names, t) {
  const last = view.last;
  if (!last) return null;
  // the seat that sees the view is spoken to ("You drew", "Has robado"), not named
  const key = last.seat === view.seat ? `rummikub.last.you.${last.action}` : `rummikub.last.${last.action}`;
  return t(key, { name: names[last.seat], n: last.tiles });
}

/** The initial meld's line: what it needs, or its running value against the threshold (with
 * a threshold of 0 there is no number to reach, only new melds from the rack). */
function initialText(t, changed, value, threshold) {
  if (threshold <= 0) return changed ? t("rummikub.initial.running_any", { value }) : t("rummikub.initial.needed_any");
  return changed ? t("rummikub.initial.running", { value, threshold }) : t("rummikub.initial.needed", { threshold });
}

/** The line above the table: the initial meld's running value, auto-arrange's news. */
function drawInfo(p) {
  if (!board || !board.infoEl) return;
  const { view, t } = p;
  const parts = [];
  const mine = view.seat === p.viewer && !p.hideHand;
  if (mine && view.phase === "play" && !view.melded[p.viewer]) {
    const threshold = view.options.initial_meld_threshold;
    const result = board.current();
    let value = 0;
    if (result && result.melds) for (const m of result.melds) if (m.valid && m.changed) value += m.value;
    const jokers = view.options.initial_meld_joker_value === "ZERO" ? t("rummikub.initial.joker_zero") : "";
    parts.push(
      h(
        "span",
        { class: ["rk-initial", value >= threshold ? "rk-enough" : null], dataset: { testid: "initial-meld" } },
        initialText(t, board.changed(), value, threshold),
        jokers ? ` ${jokers}` : "",
      ),
    );
  }
  if (board.choosing && !note.busy) {
    const n = board.chosenHandCodes().length;
    parts.push(h("span", { class: "rk-choosing", dataset: { testid: "arrange-count" } }, n ? t("rummikub.arrange.count", { n }) : t("rummikub.arrange.choose")));
  }
  if (note.text) parts.push(h("span", { class: ["rk-note", note.bad ? "rk-note-bad" : null], role: "status", dataset: { testid: "note" } }, note.text));
  board.infoEl.replaceChildren(...parts);
}

/**
 * Auto-arrange: the button starts a mode where the player marks rack tiles (a tile picked up
 * is marked already); "Arrange these" asks the engine for a table that lays exactly those tiles
 * plus the ones already laid out this turn; Cancel ends the mode.
 */
function arrangeTools(p) {
  const { t } = p;
  if (!board || !board.choosing) {
    return [h("button", { type: "button", class: "ghost", disabled: note.busy, dataset: { testid: "arrange" }, onclick: () => chooseTiles(p, true) }, t("rummikub.arrange"))];
  }
  return [
    h(
      "button",
      { type: "button", class: "primary", disabled: note.busy, dataset: { testid: "arrange-these" }, onclick: () => autoArrange(p) },
      note.busy ? t("rummikub.arrange.busy") : t("rummikub.arrange.these"),
    ),
    h("button", { type: "button", class: "ghost", disabled: note.busy, dataset: { testid: "arrange-cancel" }, onclick: () => chooseTiles(p, false) }, t("rummikub.arrange.cancel")),
  ];
}

function chooseTiles(p, on) {
  if (!board || note.busy) return;
  note.text = "";
  note.bad = false;
  board.choose(on);
  if (p.refresh) p.refresh();
  else drawInfo(p);
  if (on) {
    const first = board.handEl.querySelector(".mt-chosen") || board.handEl.querySelector(".mt-tile");
    if (first) first.focus({ preventScroll: true });
  }
}

async function autoArrange(p) {
  const { t } = p;
  if (!board || note.busy) return;
  const tiles = [...board.move().play.from_hand, ...board.chosenHandCodes()];
  if (!tiles.length) {
    // nothing marked and nothing laid out: say what to do
    note.text = t("rummikub.arrange.empty");
    note.bad = false;
    return drawInfo(p);
  }
  const at = board;
  note.busy = true;
  note.bad = false;
  note.text = t("rummikub.arrange.busy");
  if (p.refresh) p.refresh();
  let ok = false;
  try {
    const answer = await ask("arrange", { tiles });
    if (board !== at) return;
    // the engine lays as many of the tiles as it can: only a table with all of them will do
    ok = Boolean(answer.table && answer.complete);
    if (ok) {
      board.choose(false);
      board.setWorking(answer.table, answer.from_hand); // a {"group": [...]} meld keeps its kind
    }
    note.text = ok ? t("rummikub.arrange.done") : t("rummikub.arrange.none");
    note.bad = !ok;
  } catch (error) {
    note.text = explainError(error, t);
    note.bad = true;
  } finally {
    note.busy = false;
  }
  if (board === at) p.refresh ? p.refresh() : drawInfo(p);
}

/** A "no play from your rack" hint is about the layout it was shown on: once the player moves a
 * tile it is stale, and its panel goes (a hint with a play stays: "Use this play" still works). */
function dropStaleHint() {
  const { hint, el, layout } = hintShown;
  if (!hint || !board || !isNoPlay(hint) || board.layoutKey() === layout) return;
  staleHints.add(hint);
  el?.remove();
  hintShown = { hint: null, el: null, layout: "" };
}

function isNoPlay(hint) {
  return !hint.melds || !hint.melds.length || !hint.placed || !hint.placed.length;
}

/** The solver's best play as a rearranged table: new and moved tiles marked; "Use it". */
function hintPanel(p) {
  const { t, hint } = p;
  if (isNoPlay(hint)) {
    return h("div", { class: "rk-hint panel", dataset: { testid: "hint-panel" } }, h("p", null, t("rummikub.hint.none")));
  }
  const changed = new Set(hint.changed || []);
  const placed = new Map();
  for (const code of hint.placed) placed.set(code, (placed.get(code) || 0) + 1);
  const melds = hint.melds.map((meld, i) =>
    h(
      "div",
      { class: ["rk-hint-meld", changed.has(i) ? "rk-changed" : null] },
      meld.tiles.map((code) => {
        const isNew = changed.has(i) && (placed.get(code) || 0) > 0;
        if (isNew) placed.set(code, placed.get(code) - 1);
        return tileFace(code, t, isNew ? "rk-new" : changed.has(i) ? "rk-moved" : "");
      }),
    ),
  );
  const use = h(
    "button",
    {
      type: "button",
      class: "primary",
      dataset: { testid: "use-hint" },
      onclick: () => {
        if (!board) return;
        board.setWorking(hint.melds.map(asGiven), hint.placed);
        if (p.onHintUsed) p.onHintUsed(); // the play is on the table now: the panel closes
      },
    },
    t("rummikub.hint.use"),
  );
  // the player may put the hint away and play otherwise (on a phone held sideways it lies over
  // the table's melds)
  const close = h(
    "button",
    {
      type: "button",
      class: "ghost",
      dataset: { testid: "close-hint" },
      onclick: () => {
        staleHints.add(hint);
        if (p.refresh) p.refresh();
      },
    },
    t("common.close"),
  );
  // The whole width, its button beside the summary and its melds in a box of bounded height
  // (scrolled inside): the rack below stays on screen whatever the size of the table.
  return h(
    "div",
    { class: "rk-hint rk-hint-play panel", dataset: { testid: "hint-panel" } },
    h(
      "div",
      { class: "rk-hint-head" },
      // before the initial meld the number is the one the meld counter shows (a joker by the options)
      h("p", null, t("rummikub.hint.summary", { n: hint.placed.length, value: hint.initial_value ?? hint.value })),
      use,
      close,
    ),
    // it scrolls inside on a big table: reachable by keyboard, named for a screen reader
    h("div", { class: "rk-hint-table", tabindex: "0", role: "region", "aria-label": t("rummikub.hint.table"), dataset: { testid: "hint-table" } }, melds),
    h("p", { class: "hint" }, t("rummikub.hint.legend"), hint.exact === false ? h("span", { dataset: { testid: "hint-not-proven" } }, " ", t("rummikub.hint.not_proven")) : null),
  );
}

// -- the turn timer -------------------------------------------------------------------------

function armTimer(p, key, myTurn) {
  const seconds = p.view.options ? p.view.options.turn_timer_s : 0;
  if (!seconds || !myTurn) {
    if (timer.key !== key) stopTimer();
    return;
  }
  if (timer.key === key) return;
  stopTimer();
  timer = { key, deadline: turnDeadline(key, seconds), interval: 0, fired: false };
  timer.interval = setInterval(() => {
    if (!board || board.key !== key) return stopTimer();
    const el = document.querySelector("[data-testid=timer]");
    if (el) {
      el.textContent = timerText(p.t);
      el.classList.toggle("rk-hurry", left() <= 10);
    }
    if (left() <= 0 && !timer.fired) {
      timer.fired = true;
      stopTimer();
      p.onMove("timeout");
    }
  }, 250);
}

/**
 * The turn's deadline, kept in this tab's sessionStorage under the turn's key (game seed, move
 * count, seat, game number), so a reload does not give a fresh turn: the clock goes on from
 * where it was, and a turn whose time ran out while the page was away ends at once. A kept
 * deadline is never later than a full turn from now.
 */
function turnDeadline(key, seconds) {
  const now = Date.now();
  let deadline = now + seconds * 1000;
  try {
    const kept = JSON.parse(sessionStorage.getItem(DEADLINE_KEY) || "null");
    if (kept && kept.key === key && Number.isFinite(kept.deadline)) deadline = Math.min(kept.deadline, deadline);
    sessionStorage.setItem(DEADLINE_KEY, JSON.stringify({ key, deadline }));
  } catch { /* no storage: the turn starts afresh on a reload */ }
  return deadline;
}

function stopTimer() {
  if (timer.interval) clearInterval(timer.interval);
  timer = { ...timer, interval: 0 };
}

function left() {
  return Math.max(0, Math.ceil((timer.deadline - Date.now()) / 1000));
}

function timerText(t) {
  return t("rummikub.timer", { s: left() });
}

// -- scores -----------------------------------------------------------------------------------

/** A share of points as the engine writes it ("12", "-7", "3/2") as [numerator, denominator]. */
function ratio(text) {
  const [a, b = "1"] = String(text).split("/");
  return [Number(a), Number(b)];
}

function gcd(a, b) {
  return b ? gcd(b, a % b) : Math.abs(a) || 1;
}

/** The sum of point shares, written as the engine writes one ("12", "-7/2"). */
function sumPoints(texts) {
  let [n, d] = [0, 1];
  for (const text of texts) {
    const [a, b] = ratio(text);
    [n, d] = [n * b + a * d, d * b];
    const g = gcd(n, d);
    [n, d] = [n / g, d / g];
  }
  return d === 1 ? String(n) : `${n}/${d}`;
}

function signed(text) {
  return ratio(text)[0] > 0 ? `+${text}` : String(text);
}

/**
 * The score sheet: a row per finished game (a match has several), per seat the points and the
 * rack left; the winners marked; a total row for a match. Styled like the other games' sheets.
 */
export function renderScoreSheet(view, names, t) {
  const results = view.results || [];
  if (!results.length) return h("p", { class: "hint" }, t("rummikub.sheet.empty"));
  const head = h("tr", null, h("th", { scope: "col" }, t("rummikub.sheet.game")), names.map((name) => h("th", { scope: "col", class: "sheet-player" }, name)));
  const rows = results.map((r, i) =>
    h(
      "tr",
      { dataset: { game: i + 1 } },
      h("th", { scope: "row" }, h("span", { class: "sheet-round" }, String(i + 1)), h("span", { class: "rk-sheet-ending" }, t(`rummikub.ending.${r.ending}`))),
      r.points.map((pts, seat) => {
        const won = r.winners.includes(seat);
        return h(
          "td",
          { class: ["sheet-player", "rk-sheet-cell", won ? "rk-sheet-won" : null], dataset: { seat } },
          h("span", { class: ["rk-sheet-points", ratio(pts)[0] >= 0 ? "plus" : "minus"] }, signed(pts)),
          won ? h("span", { class: "rk-sheet-mark", title: t("over.winner") }, "★", h("span", { class: "visually-hidden" }, ` ${t("over.winner")}`)) : null,
          h("span", { class: "rk-sheet-rack" }, t("rummikub.sheet.rack", { n: r.racks[seat] })),
        );
      }),
    ),
  );
  const total =
    results.length > 1
      ? h(
          "tfoot",
          null,
          h(
            "tr",
            { class: "rk-sheet-total" },
            h("th", { scope: "row" }, t("rummikub.sheet.total")),
            names.map((_, seat) => h("td", { class: "sheet-player sheet-total" }, signed(sumPoints(results.map((r) => r.points[seat]))))),
          ),
        )
      : null;
  return h(
    "div",
    { class: "sheet-scroll", tabindex: "0", role: "region", "aria-label": t("sheet.title"), dataset: { testid: "score-sheet" } },
    h("table", { class: "sheet rk-sheet" }, h("thead", null, head), h("tbody", null, rows), total),
  );
}

export function renderRanking(outcome, names, t) {
  const order = names.map((_, seat) => seat).sort((a, b) => outcome.scores[b] - outcome.scores[a] || a - b);
  let place = 0;
  return h(
    "ol",
    { class: "ranking", dataset: { testid: "ranking" } },
    order.map((seat, index) => {
      if (index === 0 || outcome.scores[seat] !== outcome.scores[order[index - 1]]) place = index + 1;
      const winner = outcome.winners.includes(seat);
      const points = outcome.points ? outcome.points[seat] : outcome.scores[seat];
      return h(
        "li",
        { class: winner ? "winner" : null, dataset: { seat, testid: winner ? "winner" : "ranked" } },
        h("span", { class: "place" }, t("over.place", { place })),
        h("span", { class: "who" }, names[seat], outcome.racks ? h("span", { class: "hint" }, " · ", t("rummikub.sheet.rack", { n: outcome.racks[seat] })) : null),
        h("span", { class: "score" }, t("rummikub.points", { n: points })),
        winner ? h("span", { class: "crown" }, t("over.winner")) : h("span"),
      );
    }),
  );
}

export function renderRoundResult(row, names, t) {
  return renderScoreSheet({ results: [row] }, names, t);
}

export function describeTransition() {
  return {};
}

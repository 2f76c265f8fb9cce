// Willie table renderer: (view JSON + legal moves) -> DOM, on the shared meld table
// (render/meld-table.js). No rules here: which melds are valid and which cards a wild may stand
// for come from the engine (the `inspect` op: per-meld validity and `wild_choices`); the legal
// simple moves (draw, pass, close, continue) come from `legal_moves`.

import { h, svg } from "../dom.js";
import { has } from "../i18n.js";
import { showOverlay } from "../ui/overlay.js";
import { MeldTable } from "./meld-table.js";

export const SUITS = ["R", "O", "Y", "G", "B"];
const FIGURES = ["J", "Q", "K"];

// A shape per suit as well as a colour, so colour-blind players can tell the five apart.
const GLYPHS = {
  R: '<path d="M12 2.5 22.5 20.5H1.5Z"/>',
  O: '<path d="M12 1.5 22.5 12 12 22.5 1.5 12Z"/>',
  Y: '<path d="M12 1.5l3 6.9 7.4.6-5.6 4.9 1.7 7.3L12 17.3l-6.5 3.9 1.7-7.3L1.6 9l7.4-.6Z"/>',
  G: '<circle cx="12" cy="7" r="4.6"/><circle cx="6.8" cy="14.2" r="4.6"/><circle cx="17.2" cy="14.2" r="4.6"/><path d="M11 14h2l1 8.5h-4Z"/>',
  B: '<path d="M12 1.5C9.2 6.4 4.8 10.6 4.8 15.2a7.2 7.2 0 0 0 14.4 0c0-4.6-4.4-8.8-7.2-13.7Z"/>',
  F: '<path d="M2 8.5l5 4.5 5-8.5 5 8.5 5-4.5-2.2 11H4.2Z"/><path d="M4 21h16v2H4Z"/>',
};

function glyph(kind, className = "glyph") {
  return svg(`<svg class="${className} wglyph wglyph-${kind}" viewBox="0 0 24 24" aria-hidden="true" focusable="false">${GLYPHS[kind] || ""}</svg>`);
}

/** The home screen's picture of the game: the five suits. */
export function homeArt() {
  return SUITS.map((suit) => glyph(suit, "glyph"));
}

/** "R7" -> {suit: "R", rank: 7}; "K" -> {figure: "K"}; "K:R7" -> {figure: "K", as: "R7"}. */
export function parseCard(code) {
  const [card, declared] = String(code).split(":");
  if (FIGURES.includes(card)) return { figure: card, as: declared || null };
  return { suit: card[0], rank: Number(card.slice(1)) };
}

/** The card a token is in the hand: "K:R7" -> "K". */
export function physical(code) {
  return String(code).split(":")[0];
}

/** A card's name for screen readers and messages: "red 7", "King", "King as red 7". */
export function cardName(code, t) {
  const card = parseCard(code);
  if (card.figure) {
    const figure = t(`willie.card.${card.figure}`);
    return card.as ? t("willie.card.wild", { figure, card: cardName(card.as, t) }) : figure;
  }
  return t("willie.card.number", { suit: t(`willie.suit.${card.suit}`), rank: card.rank });
}

/** A card face (not interactive). A wild shows its figure and the card it stands for. Its
 * indices are drawn by CSS from data-rank: the face is a picture named by its aria-label. */
export function cardFace(code, t, opts = {}) {
  const card = parseCard(code);
  const size = opts.size || "";
  if (card.figure) {
    const as = card.as ? parseCard(card.as) : null;
    return h(
      "div",
      { class: ["card", "wcard", "wcard-F", size, as ? "wcard-wild" : null], role: "img", "aria-label": cardName(code, t), dataset: { card: code, testid: opts.testid || "wcard" } },
      h("span", { class: "wcard-rank", dataset: { rank: t(`willie.card.${card.figure}.short`) } }),
      as
        ? h("span", { class: ["wcard-as", `wsuit-${as.suit}`], dataset: { testid: "wild-as" } }, glyph(as.suit, "glyph wcard-as-glyph"), h("span", { dataset: { rank: as.rank } }))
        : h("span", { class: "wcard-pip" }, glyph("F", "glyph wcard-pip-glyph")),
    );
  }
  return h(
    "div",
    { class: ["card", "wcard", `wsuit-${card.suit}`, size], role: "img", "aria-label": cardName(code, t), dataset: { card: code, testid: opts.testid || "wcard" } },
    h("span", { class: "wcard-rank", dataset: { rank: card.rank } }),
    h("span", { class: "wcard-pip" }, glyph(card.suit, "glyph wcard-pip-glyph")),
  );
}

/** Number cards by suit then rank, then J, Q, K (the engine's deck order). */
export function sortCards(cards) {
  const order = (code) => {
    const card = parseCard(code);
    return card.figure ? 100 + FIGURES.indexOf(card.figure) : SUITS.indexOf(card.suit) * 20 + card.rank;
  };
  return [...cards].sort((a, b) => order(a) - order(b));
}

function back(className = "") {
  return h("div", { class: ["card", "card-back", className], "aria-hidden": "true" }, h("span", { class: "card-back-mark" }, "T"));
}

function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

/** An engine error about a Willie move in the player's language. */
export function explainError(error, t) {
  const info = (error && (error.info || error)) || {};
  const params = { ...info };
  if (typeof info.card === "string") params.card = cardName(info.card, t);
  if (typeof info.wild === "string") params.wild = cardName(info.wild, t);
  if (typeof info.meld === "number") params.meld = info.meld + 1;
  const key = `willie.reason.${info.reason}`;
  if (info.code === "illegal_move" && has(key)) return t(key, params);
  if (info.code === "illegal_move" || info.code === "invalid_move") return t("willie.reason.generic", { message: info.message || "" });
  const code = `error.${info.code}`;
  return has(code) ? t(code, params) : t("willie.reason.generic", { message: info.message || String(error) });
}

// -- the table --------------------------------------------------------------------------------

/** One meld table per turn (kept across renders while the turn lasts). */
let board = null;
/** The engine, for `inspect` while the player builds a meld (app.js connects it). */
let ask = null;

/** @param {(op: string, fields?: object) => Promise<any>} askEngine */
export function connect(askEngine) {
  ask = askEngine;
}

function inspect(move) {
  return ask ? ask("inspect", { move }) : Promise.resolve({ legal: true });
}

/**
 * @param {object} p the controller's props (see render/wizard.js TableProps), with `hint`,
 *        `onHint`, `hintBusy`
 */
export function renderTable(p) {
  const { view, t, viewer } = p;
  const myTurn = view.to_move === viewer && p.legal.length > 0 && !p.hideHand;
  const building = myTurn && (view.phase === "meld" || view.phase === "final");
  const table = meldTable(p, building);
  // a keyboard player's focus starts a meld phase on the hand, the others on the actions
  if (building && p.interactive) table.handEl.dataset.focusHome = "1";
  else delete table.handEl.dataset.focusHome;
  return h(
    "section",
    {
      class: ["table", "willie-table", myTurn ? "my-turn" : null],
      dataset: {
        testid: "table",
        phase: view.phase,
        round: view.round,
        draws: view.draws,
        toMove: view.to_move ?? "",
        viewer,
        myTurn: myTurn && p.interactive ? "true" : "false",
      },
    },
    renderInfo(view, t),
    renderSeats(p),
    // not live regions (drawn again on every render): the play screen's announcer says them
    h("p", { class: "willie-status", dataset: { testid: "status" } }, statusText(p, myTurn)),
    p.message ? h("p", { class: "willie-message", dataset: { testid: "message" } }, p.message) : null,
    h("div", { class: "willie-felt", dataset: { testid: "felt" } }, table.tableEl),
    myTurn ? renderActions(p, view) : null,
    building ? table.barEl : null,
    myTurn && p.hint ? renderHint(p) : null,
    renderHand(p, table),
  );
}

function meldTable(p, building) {
  const { view, t } = p;
  const key = `${p.selectionKey}:${p.viewer}:${view.phase}:${p.hideHand ? "hidden" : "shown"}`;
  const hooks = {
    interactive: building && p.interactive,
    t,
    inspect,
    onDone: (move) => p.onMove(move),
    explain: (error) => explainError(error, t),
    text: (name, params) => (has(`willie.meld.${name}`) ? t(`willie.meld.${name}`, params) : undefined),
    onDrop: (code, info) => chooseWild(p, code, info),
  };
  if (!board || board.key !== key) {
    if (board) board.forget();
    board = new MeldTable({
      key,
      table: view.table,
      hand: p.hideHand ? [] : sortCards(view.hand),
      drawTile: (code, where) => cardFace(where.where === "hand" ? physical(code) : code, t),
      tileName: (code) => cardName(code, t),
      restoreCode: physical,
      ...hooks,
    });
  } else {
    board.update(hooks);
  }
  return board;
}

function renderInfo(view, t) {
  const draws = [1, 2, 3].map((n) =>
    h("span", { class: ["willie-pip", n <= view.draws ? "done" : null, n === 3 ? "last" : null], title: t(n === 3 ? "willie.draw.third" : "willie.draw.nth", { n }) }, String(n)),
  );
  const regular = view.phase !== "final" && view.phase !== "over";
  return h(
    "div",
    { class: "willie-info" },
    h("span", { class: "willie-round" }, t("willie.round", { round: view.round, target: view.options.target_score })),
    h(
      "span",
      { class: "willie-stock", title: t("willie.stock.title", { n: view.stock_size }), dataset: { testid: "stock", count: view.stock_size } },
      back("mini"),
      view.stock_size ? t("willie.stock", { n: view.stock_size }) : t("willie.stock.empty"),
    ),
    regular
      ? h("span", { class: "willie-draws", dataset: { testid: "draw-count", draws: view.draws } }, h("span", null, t("willie.draws")), ...draws)
      : view.phase === "final"
        ? h("span", { class: "willie-draws final", dataset: { testid: "draw-count", draws: 0 } }, t("willie.final_turns", { n: view.final_left }))
        : null,
  );
}

function renderSeats(p) {
  const { view, t } = p;
  const seats = [];
  for (let seat = 0; seat < view.players; seat++) {
    const turn = view.to_move === seat && view.phase !== "over";
    seats.push(
      h(
        "div",
        { class: ["willie-seat", seat === p.viewer ? "me" : null, turn ? "turn" : null], dataset: { testid: `seat-${seat}`, seat } },
        h(
          "div",
          { class: "willie-seat-name" },
          h("span", null, p.names[seat]),
          seat === view.dealer ? h("span", { class: "dealer-chip", title: t("table.dealer") }, t("table.dealer.short")) : null,
          turn && p.bots[seat] ? h("span", { class: "thinking", "aria-hidden": "true" }, h("i"), h("i"), h("i")) : null,
        ),
        h(
          "div",
          { class: "willie-seat-stats" },
          h("span", { title: t("willie.cards_in_hand", { n: view.hand_sizes[seat] }) }, back("mini"), h("b", { dataset: { testid: `hand-size-${seat}` } }, `×${view.hand_sizes[seat]}`)),
          h("span", { title: t("table.score") }, "Σ ", h("b", { dataset: { testid: `score-${seat}` } }, String(view.scores[seat]))),
          h("span", { title: t("willie.rounds_won", { n: view.rounds_won[seat] }) }, "★ ", h("b", null, String(view.rounds_won[seat]))),
        ),
      ),
    );
  }
  return h("div", { class: "willie-seats", dataset: { testid: "willie-seats" } }, seats);
}

function statusText(p, myTurn) {
  const { view, t } = p;
  if (view.phase === "over") return t("status.over");
  if (p.trickShown) return t("willie.status.round_over");
  const name = p.names[view.to_move];
  if (!myTurn) return t(`willie.status.other.${view.phase}`, { name });
  if (view.phase === "draw") return t("willie.status.you.draw", { n: view.draws + 1 });
  if (view.phase === "meld") return t(view.draws === 1 ? "willie.status.you.meld1" : "willie.status.you.meld2");
  if (view.phase === "end_turn") return t("willie.status.you.end_turn", { n: view.hand_points, limit: view.close_threshold });
  return t("willie.status.you.final");
}

function renderActions(p, view) {
  const { t } = p;
  const legal = new Set(p.legal.filter((m) => typeof m === "string"));
  const live = p.interactive;
  const button = (move, label, cls = "primary") =>
    legal.has(move) ? h("button", { type: "button", class: cls, disabled: !live, dataset: { testid: move }, onclick: () => p.onMove(move) }, label) : null;
  let pass = "willie.pass.final";
  if (view.phase === "meld") pass = view.stock_size === 0 ? "willie.pass.empty" : view.draws === 1 ? "willie.pass.second" : "willie.pass.third";
  return h(
    "div",
    { class: "willie-actions", dataset: { testid: "actions", focusHome: view.phase === "meld" || view.phase === "final" ? "2" : "1" } },
    button("draw", t("willie.draw")),
    button("close", t("willie.close")),
    button("continue", t("willie.continue"), "ghost"),
    button("pass", t(pass), "ghost"),
    view.phase !== "draw"
      ? h("button", { type: "button", class: "ghost", disabled: !live || p.hintBusy, dataset: { testid: "hint" }, onclick: () => p.onHint() }, p.hintBusy ? t("willie.hint.busy") : t("willie.hint"))
      : null,
  );
}

function renderHint(p) {
  const { t, hint } = p;
  const move = hint.move;
  const box = h("div", { class: "willie-hint", dataset: { testid: "hint-box" } });
  if (move && typeof move === "object" && move.play) {
    box.append(
      h("p", null, t(hint.changes ? "willie.hint.best" : "willie.hint.best_untouched", { cards: t("willie.hint.cards", { n: hint.points }), changes: hint.changes, left: t("willie.hint.left", { n: hint.hand_after }) })),
      h(
        "div",
        { class: "willie-hint-melds" },
        move.play.table.map((meld) => h("div", { class: "willie-mini-meld" }, meld.map((code) => cardFace(code, t, { size: "small", testid: "hint-card" })))),
      ),
      h(
        "button",
        { type: "button", class: "primary", disabled: !p.interactive, dataset: { testid: "hint-use" }, onclick: () => board && board.setWorking(move.play.table, move.play.from_hand) },
        t("willie.hint.use"),
      ),
    );
  } else if (move === "pass") {
    box.append(h("p", null, t("willie.hint.no_meld")));
  } else if (move === "close" || move === "continue") {
    const risk = Math.round((hint.undercut_risk || 0) * 100);
    box.append(h("p", null, t(`willie.hint.${move}`, { risk })));
  } else {
    box.append(h("p", null, t("willie.hint.draw")));
  }
  return box;
}

function renderHand(p, table) {
  const { view, t } = p;
  const label = h(
    "div",
    { class: "willie-hand-label" },
    h("span", null, t("table.your_hand")),
    !p.hideHand && view.hand_points !== null ? h("span", { class: "willie-hand-points", dataset: { testid: "hand-points" } }, t("willie.hand_points", { n: view.hand_points })) : null,
  );
  const cards = p.hideHand ? h("div", { class: "mt-hand willie-hidden-hand" }, view.hand.map(() => back())) : table.handEl;
  return h("div", { class: "willie-hand", dataset: { testid: "hand" } }, label, cards);
}

// -- the wild picker --------------------------------------------------------------------------

/**
 * A card dropped into a meld: a figure is asked what it stands for. The choices are the engine's
 * (`inspect` -> `wild_choices`); a wild already on the table keeps its declaration unless its
 * real card has freed it (`wild_fixed`).
 */
async function chooseWild(p, code, info) {
  const figure = physical(code);
  if (!FIGURES.includes(figure) || !ask) return code;
  const original = info.original || code;
  const declared = original.includes(":") && !info.fromHand;
  const target = [...info.meld];
  target.splice(Math.min(info.index, target.length), 0, declared ? original : figure);
  const others = board ? board.move().play.table : [];
  let answer;
  try {
    answer = await inspect({ play: { table: [target, ...others] } });
  } catch {
    return figure;
  }
  const entry = answer && answer.melds ? answer.melds[0] : null;
  // No lone figure among number cards (a new meld, a Willie): a table wild keeps its card, a
  // figure from the hand stays undeclared until it joins number cards.
  if (!entry || entry.wild === undefined) return declared ? original : figure;
  if (entry.wild_fixed) return original;
  return pickDeclaration(p.t, figure, entry.wild_choices || []);
}

function pickDeclaration(t, figure, choices) {
  const name = t(`willie.card.${figure}`);
  return showOverlay(
    (close) => {
      const bySuit = SUITS.map((suit) => choices.filter((code) => code[0] === suit)).filter((list) => list.length);
      return h(
        "div",
        { class: "panel willie-picker" },
        h("h2", null, t("willie.picker.title", { figure: name })),
        choices.length
          ? h("p", { class: "hint" }, t("willie.picker.body"))
          : h("p", { class: "hint", dataset: { testid: "picker-none" } }, t("willie.picker.none")),
        h(
          "div",
          { class: "willie-picker-rows" },
          bySuit.map((list) =>
            h(
              "div",
              { class: "willie-picker-row" },
              list.map((card) =>
                h(
                  "button",
                  { type: "button", class: "willie-choice", "aria-label": cardName(card, t), dataset: { testid: "wild-choice", card }, onclick: () => close(`${figure}:${card}`) },
                  cardFace(card, t, { size: "small" }),
                ),
              ),
            ),
          ),
        ),
        h(
          "div",
          { class: "panel-actions" },
          choices.length ? null : h("button", { type: "button", class: "ghost", dataset: { testid: "picker-plain" }, onclick: () => close(figure) }, t("willie.picker.plain")),
          h("button", { type: "button", class: "ghost", dataset: { testid: "picker-cancel" }, onclick: () => close(null) }, t("willie.picker.cancel")),
        ),
      );
    },
    { testid: "wild-picker", escapeValue: null },
  );
}

// -- score sheet, round result, game over -----------------------------------------------------

/** Every round so far: how it ended and, per seat, hand points, points won and the total. */
export function renderScoreSheet(view, names, t) {
  const n = view.players;
  const head1 = h("tr", null, h("th", { rowspan: 2, scope: "col" }, t("sheet.round")));
  const head2 = h("tr");
  for (let seat = 0; seat < n; seat++) {
    head1.append(h("th", { colspan: 3, scope: "colgroup", class: "sheet-player" }, names[seat]));
    for (const key of ["hand", "gain", "total"]) head2.append(h("th", { scope: "col", title: t(`willie.sheet.${key}`) }, t(`willie.sheet.${key}.short`)));
  }
  const body = h("tbody");
  for (const row of view.history) {
    const tr = h("tr", { dataset: { round: row.round } }, h("th", { scope: "row", title: endText(row, names, t) }, `${row.round} ${t(`willie.end.${row.end}.mark`)}`));
    for (let seat = 0; seat < n; seat++) {
      const gain = row.gains[seat];
      tr.append(
        h("td", null, String(row.points[seat])),
        h("td", { class: [gain >= 0 ? "plus" : "minus", row.winners.includes(seat) ? "won" : null] }, signed(gain)),
        h("td", { class: "sheet-total" }, String(row.totals[seat])),
      );
    }
    body.append(tr);
  }
  if (view.phase === "over") {
    const bonus = h("tr", { class: "willie-bonus-row", dataset: { testid: "bonus-row" } }, h("th", { scope: "row" }, t("willie.sheet.bonus")));
    const final = h("tr", { class: "willie-final-row" }, h("th", { scope: "row" }, t("willie.sheet.final")));
    for (let seat = 0; seat < n; seat++) {
      bonus.append(h("td", { colspan: 3 }, signed(view.bonuses[seat])));
      final.append(h("td", { colspan: 3, class: "sheet-total" }, String(view.final_scores[seat])));
    }
    body.append(bonus, final);
  }
  const target = view.options.target_score;
  const bonuses =
    view.phase === "over"
      ? h(
          "ul",
          { class: "willie-bonuses", dataset: { testid: "bonuses" } },
          view.bonuses.map((bonus, seat) =>
            h(
              "li",
              null,
              view.scores[seat] >= target
                ? t("willie.over.bonus_target", { name: names[seat], target, bonus: signed(bonus) })
                : t("willie.over.bonus_rounds", { name: names[seat], rounds: view.rounds_won[seat], bonus: signed(bonus) }),
            ),
          ),
        )
      : null;
  const legend = h("p", { class: "hint" }, ["close", "out", "stock"].map((end) => `${t(`willie.end.${end}.mark`)} ${t(`willie.end.${end}.short`)}`).join(" · "));
  return h("div", { class: "sheet-scroll", tabindex: "0", role: "region", "aria-label": t("sheet.title"), dataset: { testid: "score-sheet" } }, h("table", { class: "sheet willie-sheet" }, h("thead", null, head1, head2), body), bonuses, legend);
}

/** How a round ended: "Bot 2 closed." (the score sheet, the round's sheet, the live region). */
export function endText(row, names, t) {
  if (row.end === "close") return t("willie.end.close", { name: names[row.closer] });
  if (row.end === "out") return t("willie.end.out", { name: names[row.went_out] });
  return t("willie.end.stock");
}

/** The round-end sheet: the scoring of one round, step by step. */
export function renderRoundResult(row, names, t) {
  const n = names.length;
  const lowest = Math.min(...row.points);
  const winners = row.winners;
  const losers = [...Array(n).keys()].filter((s) => !winners.includes(s));
  const steps = h("ol", { class: "willie-steps", dataset: { testid: "round-steps" } });
  const step = (key, params, testid) => steps.append(h("li", { dataset: { testid: testid || key.split(".").pop() } }, t(key, params)));
  const list = (seats) => seats.map((s) => names[s]).join(", ");

  step("willie.step.end", { how: endText(row, names, t) }, "end");
  step("willie.step.lowest", { points: lowest, names: list([...Array(n).keys()].filter((s) => row.points[s] === lowest)) });
  const tied = row.closer !== null && row.closer !== undefined && row.points[row.closer] === lowest && !winners.includes(row.closer);
  if (tied) step("willie.step.tie", { name: names[row.closer] });
  step(winners.length > 1 ? "willie.step.winners" : "willie.step.winner", { names: list(winners) }, "winners");
  for (const w of winners) {
    const parts = losers.map((s) => t("willie.step.diff_part", { name: names[s], points: row.points[s], lowest, diff: row.points[s] - lowest }));
    const sum = losers.reduce((acc, s) => acc + row.points[s] - lowest, 0);
    if (losers.length) step("willie.step.differences", { name: names[w], parts: parts.join(" + "), sum }, "differences");
    if (row.multiplier !== 1) step("willie.step.multiplier", { sum, mult: row.multiplier, total: sum * row.multiplier }, "multiplier");
    if (row.adjustments[w]) step("willie.step.undercut_winner", { name: names[w], points: signed(row.adjustments[w]), closer: names[row.closer] }, "undercut");
    if (row.out_bonus[w]) step("willie.step.out_bonus", { name: names[w], points: signed(row.out_bonus[w]) }, "out-bonus");
  }
  if (row.closer !== null && row.closer !== undefined && !winners.includes(row.closer) && row.adjustments[row.closer]) {
    step("willie.step.undercut_closer", { name: names[row.closer], points: signed(row.adjustments[row.closer]) }, "undercut");
  }
  if (row.undercut && !row.adjustments.some((a) => a)) step("willie.step.undercut_none", { name: names[row.closer] }, "undercut");
  if (losers.length) step("willie.step.others", { names: list(losers) }, "others");

  const table = h(
    "table",
    { class: "round-result willie-round", dataset: { testid: "round-result" } },
    h("thead", null, h("tr", null, h("th", null, ""), h("th", null, t("willie.sheet.cards")), h("th", null, t("willie.sheet.hand")), h("th", null, t("willie.sheet.gain")), h("th", null, t("willie.sheet.total")))),
    h(
      "tbody",
      null,
      names.map((name, seat) =>
        h(
          "tr",
          { class: winners.includes(seat) ? "made" : null },
          h("th", { scope: "row" }, name),
          h("td", { class: "willie-left" }, row.hands[seat].length ? sortCards(row.hands[seat]).map((c) => cardFace(c, t, { size: "tiny" })) : t("willie.sheet.none")),
          h("td", null, String(row.points[seat])),
          h("td", { class: row.gains[seat] >= 0 ? "plus" : "minus" }, signed(row.gains[seat])),
          h("td", null, String(row.totals[seat])),
        ),
      ),
    ),
  );
  return h("div", { class: "willie-round-sheet" }, steps, table);
}

/** The final ranking: score before the bonuses, the bonus, the final score. */
export function renderRanking(outcome, names, t) {
  const order = outcome.scores.map((score, seat) => ({ seat, score })).sort((a, b) => b.score - a.score || a.seat - b.seat);
  const list = h("ol", { class: "ranking", dataset: { testid: "ranking" } });
  let place = 0;
  order.forEach((entry, index) => {
    if (index === 0 || entry.score !== order[index - 1].score) place = index + 1;
    const winner = outcome.winners.includes(entry.seat);
    const bonus = (outcome.bonuses || [])[entry.seat] || 0;
    list.append(
      h(
        "li",
        { class: winner ? "winner" : null, dataset: { seat: entry.seat, testid: winner ? "winner" : "ranked" } },
        h("span", { class: "place" }, t("over.place", { place })),
        h("span", { class: "who" }, names[entry.seat]),
        h("span", { class: "score" }, bonus ? t("willie.over.score", { before: entry.score - bonus, bonus: signed(bonus), score: entry.score }) : String(entry.score)),
        winner ? h("span", { class: "crown" }, t("over.winner")) : null,
      ),
    );
  });
  return list;
}

/** A round that ended with this move: pause on it and show its sheet (no tricks in Willie). */
export function describeTransition(prev, next) {
  if (!prev || !next || next.history.length <= prev.history.length) return { trick: null, view: next, roundEnded: null };
  const row = next.history[next.history.length - 1];
  return { trick: { cards: [], winner: null, round: row.round }, view: next, roundEnded: row };
}

// Wizard table renderer: (view JSON + legal moves) -> DOM. No rules here: which cards, bids and
// suits are legal comes only from the engine's legal_moves; a click on anything reports the
// move through `onMove`, and the controller asks the engine.

import { h } from "../dom.js";
import { SUITS, cardBack, cardFace, cardName, glyph, sortHand, suitChip } from "./cards.js";

/** The table shows the engine's hint by itself on a human's turn when the player turned hints
 * on (the PlayScreen asks for it; see ui/play.js autoHint). */
export const autoHint = true;

/** First-dealer draws the player closed, by their content (one per game start). */
const dismissedDraws = new Set();

/**
 * @typedef {object} TableProps
 * @property {object} view            the engine's view for `viewer`
 * @property {string[]} legal          legal moves of `viewer` (empty when not its turn)
 * @property {string[]} names          a display name per seat
 * @property {boolean[]} bots          whether each seat is a bot
 * @property {number} viewer           the seat whose hand is shown
 * @property {(key: string, params?: object) => string} t
 * @property {(move: string) => void} onMove
 * @property {boolean} interactive     false while a request or a pause is running
 * @property {{cards: {seat: number, card: string}[], winner: number} | null} [trickShown]
 *           a finished trick to show instead of the current one (the pause after a trick)
 * @property {string} [status]         the status line
 * @property {string} [message]        a message (an illegal move's reason)
 * @property {boolean} [hideHand]     show the viewer's hand face down (hot-seat hand-over)
 * @property {{move: string, expected_points?: number, expected_tricks?: number, only_move?: boolean} | null} [hint]
 *           the engine's suggestion for the viewer's move (hints on; it is only shown)
 * @property {boolean} [hintBusy]     the hint is being computed
 * @property {() => void} [refresh]   draw the table again (after closing the first-dealer draw)
 */

/** @param {TableProps} p */
export function renderTable(p) {
  const { view, t, viewer } = p;
  const n = view.players;
  const myTurn = view.to_move === viewer && p.legal.length > 0;
  const trick = p.trickShown ? p.trickShown.cards : view.trick;
  const winner = p.trickShown ? p.trickShown.winner : null;
  const hint = myTurn && !p.hideHand && p.hint ? p.hint : null;
  const draw = drawToShow(p);

  const info = h("div", { class: "table-info" }, renderTrump(view, t), renderRoundInfo(view, t));
  const felt = h("div", { class: "felt", dataset: { testid: "felt", players: n } });
  for (let seat = 0; seat < n; seat++) felt.append(renderSeat(p, seat));
  const trickEl = h("div", { class: "trick", dataset: { testid: "trick", count: trick.length } });
  for (const [order, play] of trick.entries()) {
    const card = cardFace(play.card, t, {
      className: ["trick-card", play.seat === winner ? "winner" : null].filter(Boolean).join(" "),
      testid: "trick-card",
      dataset: { seat: play.seat },
    });
    placeAt(card, play.seat, viewer, n);
    card.style.zIndex = String(order + 1);
    card.style.setProperty("--tilt", `${((play.seat * 37) % 11) - 5}deg`);
    trickEl.append(card);
  }
  felt.append(trickEl);
  if (draw) felt.append(renderDrawCards(p, draw));

  return h(
    "section",
    {
      class: ["table", "wizard-table", myTurn ? "my-turn" : null, p.trickShown ? "trick-done" : null],
      dataset: {
        testid: "table",
        phase: view.phase,
        round: view.round,
        toMove: view.to_move ?? "",
        viewer,
        myTurn: myTurn && p.interactive ? "true" : "false",
        trick: view.trick.map((play) => play.card).join(" "),
      },
    },
    info,
    draw ? renderDrawPanel(p, draw) : null,
    felt,
    renderActions(p, myTurn, hint),
    renderHand(p, myTurn, hint),
  );
}

// -- the first-dealer draw ------------------------------------------------------------------

/** The draws to show: at the start of a HIGH_CARD game, until the player closes them. */
function drawToShow(p) {
  const { view } = p;
  const draws = view.first_dealer_draws || [];
  if (!draws.length || view.options?.first_dealer !== "HIGH_CARD") return null;
  if (view.round !== 1 || view.phase === "play" || view.phase === "over" || view.history.length || p.trickShown) return null;
  const key = JSON.stringify([view.first_dealer, draws]);
  return dismissedDraws.has(key) ? null : { key, draws, dealer: view.first_dealer };
}

/** Each seat's drawn cards where its trick card would go; the first dealer's last one glows. */
function renderDrawCards(p, draw) {
  const box = h("div", { class: "draw-cards", dataset: { testid: "draw-cards" } });
  const bySeat = new Map();
  for (const round of draw.draws) for (const play of round) bySeat.set(play.seat, [...(bySeat.get(play.seat) || []), play.card]);
  for (const [seat, cards] of bySeat) {
    cards.forEach((card, k) => {
      const last = k === cards.length - 1;
      const el = cardFace(card, p.t, {
        className: ["draw-card", last && seat === draw.dealer ? "winner" : null, last ? null : "earlier"].filter(Boolean).join(" "),
        testid: "draw-card",
        dataset: { seat },
      });
      placeAt(el, seat, p.viewer, p.view.players);
      el.style.setProperty("--k", String(k - (cards.length - 1)));
      box.append(el);
    });
  }
  return box;
}

/** Who drew what, the ties and who deals, in words, with a button to close it. */
function renderDrawPanel(p, draw) {
  const { t, names } = p;
  const lang = document.documentElement.lang || "en";
  const list = (seats) => new Intl.ListFormat(lang, { type: "conjunction" }).format(seats.map((s) => names[s]));
  const lines = draw.draws.map((round, index) => {
    const plays = round.map((play) => `${names[play.seat]}: ${cardName(play.card, t)}`).join(" · ");
    const label = draw.draws.length > 1 ? h("b", null, t("wizard.draw.round", { n: index + 1 }), ": ") : null;
    const next = draw.draws[index + 1];
    const tie = next ? h("span", { class: "draw-tie" }, " ", t("wizard.draw.tie", { names: list(next.map((play) => play.seat)) })) : null;
    return h("li", null, label, plays, tie);
  });
  return h(
    "aside",
    { class: "draw-panel", role: "status", dataset: { testid: "first-dealer-draw", dealer: draw.dealer } },
    h("div", { class: "draw-text" },
      h("strong", null, t("wizard.draw.title")),
      h("span", { class: "draw-rule" }, " ", t("wizard.draw.rule")),
      h("ul", { class: "draw-list" }, ...lines),
      h("p", { class: "draw-dealer" }, names[draw.dealer] === t("seat.you") ? t("wizard.draw.you_deal") : t("wizard.draw.deals", { name: names[draw.dealer] })),
    ),
    h(
      "button",
      {
        type: "button",
        class: "ghost draw-ok",
        dataset: { testid: "first-dealer-ok" },
        onclick: () => {
          dismissedDraws.add(draw.key);
          p.refresh?.();
        },
      },
      t("wizard.draw.ok"),
    ),
  );
}

// -- the hint ---------------------------------------------------------------------------------

function formatNumber(value, digits) {
  const lang = document.documentElement.lang || "en";
  return new Intl.NumberFormat(lang, { maximumFractionDigits: digits, signDisplay: digits === 0 ? "exceptZero" : "auto" }).format(value);
}

/** "Hint: bid 2 — your hand is worth about 1.6 tricks · +24 points on average this round". */
function renderHintLine(p, hint) {
  const { t } = p;
  if (!hint) {
    return h(
      "div",
      { class: "wizard-hint busy", role: "status", dataset: { testid: "hint-busy" } },
      h("span", null, t("wizard.hint.thinking")),
      h("progress", { dataset: { testid: "hint-progress" } }),
    );
  }
  const [kind, value] = hint.move.split(" ");
  const head =
    kind === "bid"
      ? t("wizard.hint.bid", { bid: value })
      : kind === "trump"
        ? t("wizard.hint.trump", { suit: t(`suit.${value}.name`) })
        : t("wizard.hint.card", { card: cardName(value, t) });
  const reasons = [];
  if (typeof hint.expected_tricks === "number") reasons.push(t("wizard.hint.tricks", { n: formatNumber(hint.expected_tricks, 1), count: Math.round(hint.expected_tricks * 10) / 10 }));
  if (hint.only_move) reasons.push(t("wizard.hint.only"));
  else if (typeof hint.expected_points === "number") reasons.push(t("wizard.hint.points", { n: formatNumber(Math.round(hint.expected_points), 0), count: Math.round(hint.expected_points) }));
  return h(
    "div",
    { class: "wizard-hint", role: "status", dataset: { testid: "hint", move: hint.move } },
    h("strong", null, head),
    reasons.length ? h("span", { class: "hint-why" }, reasons.join(" · ")) : null,
  );
}

/**
 * Put an element on the seat's direction around the table: the viewer at the bottom, the others
 * clockwise. The radius comes from CSS (--rx, --ry), so each screen size sets its own.
 */
function placeAt(el, seat, viewer, n) {
  const k = (seat - viewer + n) % n;
  const rad = ((90 + (k * 360) / n) * Math.PI) / 180;
  el.style.setProperty("--cx", Math.cos(rad).toFixed(4));
  el.style.setProperty("--cy", Math.sin(rad).toFixed(4));
}

function renderSeat(p, seat) {
  const { view, t } = p;
  const isViewer = seat === p.viewer;
  const bid = view.bids[seat];
  const bidText = bid !== null && bid !== undefined ? String(bid) : view.has_bid[seat] ? "?" : "–";
  const turn = view.to_move === seat && view.phase !== "over";
  const el = h(
    "div",
    {
      class: ["seat", isViewer ? "seat-me" : null, turn ? "seat-turn" : null, p.bots[seat] ? "seat-bot" : null],
      dataset: { testid: `seat-${seat}`, seat },
    },
    h(
      "div",
      { class: "seat-name" },
      h("span", { class: "seat-name-text" }, p.names[seat]),
      seat === view.dealer ? h("span", { class: "dealer-chip", title: t("table.dealer"), dataset: { testid: "dealer" } }, t("table.dealer.short")) : null,
    ),
    h(
      "div",
      { class: "seat-stats" },
      h("span", { class: "stat", title: t("table.bid") }, statLabel(t, "table.bid"), " ", h("span", { dataset: { testid: `bid-${seat}` } }, bidText)),
      h("span", { class: "stat", title: t("table.tricks") }, statLabel(t, "table.tricks"), " ", h("span", { dataset: { testid: `tricks-${seat}` } }, String(view.tricks_won[seat]))),
      h("span", { class: "stat stat-score", title: t("table.score") }, h("b", null, "Σ"), " ", String(view.scores[seat])),
      !isViewer ? h("span", { class: "seat-hand", title: t("table.cards_left", { n: view.hand_sizes[seat] }) }, cardBack("mini"), h("span", null, `×${view.hand_sizes[seat]}`)) : null,
    ),
    turn && p.bots[seat] ? h("div", { class: "thinking", "aria-hidden": "true" }, h("i"), h("i"), h("i")) : null,
  );
  placeAt(el, seat, p.viewer, view.players);
  return el;
}

/** A seat plate's label: the short word, and a tinier one a phone shows instead (CSS). */
function statLabel(t, key) {
  return h("b", null, h("span", { class: "stat-label" }, t(`${key}.short`)), h("span", { class: "stat-label-tiny" }, t(`${key}.tiny`)));
}

function renderTrump(view, t) {
  const box = h("div", { class: "trump", dataset: { testid: "trump", trump: view.trump ?? "" } });
  box.append(h("div", { class: "trump-label" }, t("table.trump")));
  const row = h("div", { class: "trump-row" });
  if (view.trump_card) row.append(cardFace(view.trump_card, t, { className: "small", testid: "trump-card" }));
  if (view.trump) row.append(suitChip(view.trump, t));
  else if (view.phase === "trump") row.append(h("span", { class: "trump-none" }, t("table.trump.choosing")));
  else row.append(h("span", { class: "trump-none" }, view.trump_card ? t("table.trump.none") : t("table.trump.no_card")));
  box.append(row);
  return box;
}

function renderRoundInfo(view, t) {
  return h(
    "div",
    { class: "round-info", dataset: { testid: "round" } },
    h("div", { class: "round-label" }, t("table.round", { round: view.round, rounds: view.rounds })),
    h("div", { class: "round-sub" }, t(view.round === 1 ? "table.cards_each.one" : "table.cards_each", { n: view.round })),
  );
}

function renderActions(p, myTurn, hint) {
  const { view, t } = p;
  const box = h("div", { class: "actions", dataset: { testid: "actions" } });
  // not a live region: drawn again on every render; the play screen's announcer says the turn
  box.append(h("div", { class: "status", dataset: { testid: "status" } }, p.status || ""));
  if (hint || (myTurn && !p.hideHand && p.hintBusy)) box.append(renderHintLine(p, hint));
  const hinted = hint ? hint.move : null;
  if (myTurn && view.phase === "bid") {
    const bids = h("div", { class: "bids", role: "group", "aria-label": t("table.your_bid"), dataset: { focusHome: "1", arrows: "" } });
    for (let k = 0; k <= view.round; k++) {
      const move = `bid ${k}`;
      const legal = p.legal.includes(move);
      bids.append(
        h(
          "button",
          {
            type: "button",
            class: ["bid-button", legal ? "legal" : "illegal", move === hinted ? "hinted" : null],
            "aria-disabled": legal ? null : "true",
            "aria-description": move === hinted ? t("wizard.hint.marked") : null,
            disabled: !p.interactive,
            dataset: { testid: "bid", bid: k, hinted: move === hinted ? "true" : null },
            onclick: () => p.onMove(move),
          },
          String(k),
        ),
      );
    }
    box.append(h("div", { class: "bid-row" }, h("span", { class: "bid-label" }, t("table.your_bid")), bids));
  }
  if (myTurn && view.phase === "trump") {
    const suits = h("div", { class: "suits", role: "group", "aria-label": t("table.choose_trump"), dataset: { focusHome: "1", arrows: "" } });
    for (const suit of SUITS) {
      const move = `trump ${suit}`;
      const legal = p.legal.includes(move);
      suits.append(
        h(
          "button",
          {
            type: "button",
            class: ["suit-button", `suit-${suit}`, legal ? "legal" : "illegal", move === hinted ? "hinted" : null],
            "aria-description": move === hinted ? t("wizard.hint.marked") : null,
            disabled: !p.interactive,
            dataset: { testid: "trump-choice", suit, hinted: move === hinted ? "true" : null },
            onclick: () => p.onMove(move),
          },
          glyph(suit),
          h("span", null, t(`suit.${suit}.name`)),
        ),
      );
    }
    box.append(h("div", { class: "bid-row" }, h("span", { class: "bid-label" }, t("table.choose_trump")), suits));
  }
  box.append(h("div", { class: ["message", p.message ? "shown" : null], dataset: { testid: "message" } }, p.message || ""));
  return box;
}

function renderHand(p, myTurn, hint) {
  const { view, t } = p;
  const playable = new Set(p.legal.filter((m) => m.startsWith("play ")).map((m) => m.slice(5)));
  const playing = myTurn && view.phase === "play";
  const cards = sortHand(view.hand, view.trump);
  const hand = h("div", {
    class: ["hand", playing ? "playing" : null, cards.length > 10 ? "crowded" : null],
    dataset: { testid: "hand", count: cards.length, focusHome: playing ? "1" : null, arrows: "" },
    style: { "--count": cards.length },
    role: "group",
    "aria-label": t("table.your_hand"),
  });
  if (p.hideHand) {
    for (let i = 0; i < cards.length; i++) hand.append(cardBack("hand-card hidden"));
    return hand;
  }
  for (const code of cards) {
    const state = playing ? (playable.has(code) ? "legal" : "dim") : "idle";
    const hinted = playing && hint && hint.move === `play ${code}`;
    hand.append(
      cardFace(code, t, {
        className: `hand-card ${state}${hinted ? " hinted" : ""}`,
        testid: "hand-card",
        dataset: { state, hinted: hinted ? "true" : null },
        label: hinted ? `${cardName(code, t)} (${t("wizard.hint.marked")})` : undefined,
        onClick: p.interactive ? () => p.onMove(`play ${code}`) : () => {},
      }),
    );
  }
  return hand;
}

/**
 * The score sheet: a row per round, per seat bid / tricks / points / total.
 * @param {object} view
 * @param {string[]} names
 * @param {(key: string, params?: object) => string} t
 */
export function renderScoreSheet(view, names, t) {
  const n = view.players;
  const head1 = h("tr", null, h("th", { rowspan: 2, scope: "col" }, t("sheet.round")));
  const head2 = h("tr");
  for (let seat = 0; seat < n; seat++) {
    head1.append(h("th", { colspan: 4, scope: "colgroup", class: "sheet-player" }, names[seat]));
    for (const key of ["bid", "tricks", "points", "total"]) {
      head2.append(h("th", { scope: "col", title: t(`sheet.${key}`), class: `sheet-${key}` }, t(`sheet.${key}.short`)));
    }
  }
  const body = h("tbody");
  for (const row of view.history) {
    const tr = h("tr", { dataset: { round: row.round } }, h("th", { scope: "row" }, trumpMark(row, t)));
    for (let seat = 0; seat < n; seat++) {
      const points = row.points[seat];
      tr.append(
        h("td", { class: "sheet-bid" }, String(row.bids[seat])),
        h("td", { class: "sheet-tricks" }, String(row.tricks[seat])),
        h("td", { class: ["sheet-points", points >= 0 ? "plus" : "minus"] }, points > 0 ? `+${points}` : String(points)),
        h("td", { class: "sheet-total" }, String(row.totals[seat])),
      );
    }
    body.append(tr);
  }
  if (view.phase !== "over") {
    const tr = h("tr", { class: "sheet-current" }, h("th", { scope: "row" }, String(view.round)));
    for (let seat = 0; seat < n; seat++) {
      const bid = view.bids[seat];
      tr.append(
        h("td", { class: "sheet-bid" }, bid !== null && bid !== undefined ? String(bid) : view.has_bid[seat] ? "?" : ""),
        h("td", { class: "sheet-tricks" }, view.phase === "play" ? String(view.tricks_won[seat]) : ""),
        h("td", { class: "sheet-points" }, ""),
        h("td", { class: "sheet-total" }, ""),
      );
    }
    body.append(tr);
  }
  return h(
    "div",
    { class: "sheet-scroll", tabindex: "0", role: "region", "aria-label": t("sheet.title"), dataset: { testid: "score-sheet" } },
    h("table", { class: "sheet" }, h("thead", null, head1, head2), body),
  );
}

function trumpMark(row, t) {
  const label = h("span", { class: "sheet-round" }, String(row.round));
  if (!row.trump) return label;
  const mark = glyph(row.trump, `glyph sheet-trump suit-${row.trump}`);
  return h("span", { class: "sheet-round-cell", title: t("sheet.trump", { suit: t(`suit.${row.trump}.name`) }) }, label, mark);
}

/**
 * The result of one round: bid, tricks, points and total per seat.
 * @param {object} row  a history entry {round, bids, tricks, points, totals}
 */
export function renderRoundResult(row, names, t) {
  const list = h("table", { class: "round-result", dataset: { testid: "round-result" } });
  list.append(
    h(
      "thead",
      null,
      h("tr", null, h("th", null, ""), h("th", null, t("sheet.bid")), h("th", null, t("sheet.tricks")), h("th", null, t("sheet.points")), h("th", null, t("sheet.total"))),
    ),
  );
  const body = h("tbody");
  for (let seat = 0; seat < names.length; seat++) {
    const points = row.points[seat];
    body.append(
      h(
        "tr",
        { class: row.bids[seat] === row.tricks[seat] ? "made" : "missed" },
        h("th", { scope: "row" }, names[seat]),
        h("td", null, String(row.bids[seat])),
        h("td", null, String(row.tricks[seat])),
        h("td", { class: points >= 0 ? "plus" : "minus" }, points > 0 ? `+${points}` : String(points)),
        h("td", null, String(row.totals[seat])),
      ),
    );
  }
  list.append(body);
  return list;
}

/**
 * The final ranking: places by score (ties share a place), winners from the engine's outcome.
 * @param {{scores: number[], winners: number[]}} outcome
 */
export function renderRanking(outcome, names, t) {
  const order = outcome.scores.map((score, seat) => ({ seat, score })).sort((a, b) => b.score - a.score || a.seat - b.seat);
  const list = h("ol", { class: "ranking", dataset: { testid: "ranking" } });
  let place = 0;
  order.forEach((entry, index) => {
    if (index === 0 || entry.score !== order[index - 1].score) place = index + 1;
    const winner = outcome.winners.includes(entry.seat);
    list.append(
      h(
        "li",
        { class: winner ? "winner" : null, dataset: { seat: entry.seat, testid: winner ? "winner" : "ranked" } },
        h("span", { class: "place" }, t("over.place", { place })),
        h("span", { class: "who" }, names[entry.seat]),
        h("span", { class: "score" }, String(entry.score)),
        winner ? h("span", { class: "crown" }, t("over.winner")) : null,
      ),
    );
  });
  return list;
}

/**
 * What to show between two snapshots after `move` by `seat`: the finished trick (for a pause),
 * the view to show it on, and the round that ended (if any). Pure presentation of what the
 * engine already decided (the winner is the engine's `last_trick.winner`).
 * @returns {{trick: {cards: object[], winner: number} | null, view: object, roundEnded: object | null}}
 */
export function describeTransition(prev, next, move, seat) {
  const none = { trick: null, view: next, roundEnded: null };
  // `move` may be unknown (null): on another device, other seats' moves are not sent
  if (!prev || !next || prev.phase !== "play" || (typeof move === "string" && !move.startsWith("play "))) return none;
  if (prev.trick.length !== prev.players - 1 || !next.last_trick) return none;
  const trick = next.last_trick;
  const roundEnded = next.history.length > prev.history.length ? next.history[next.history.length - 1] : null;
  if (!roundEnded) return { trick, view: next, roundEnded: null };
  // The round is over and the next one is already dealt: show the trick on the old round.
  const card = typeof move === "string" ? move.slice(5) : trick.cards.find((play) => play.seat === seat)?.card;
  const tricks = [...prev.tricks_won];
  tricks[trick.winner] += 1;
  const view = {
    ...prev,
    to_move: null,
    trick: [],
    tricks_won: tricks,
    hand: prev.seat === seat ? prev.hand.filter((c) => c !== card) : prev.hand,
    hand_sizes: prev.hand_sizes.map((size, s) => (s === seat ? size - 1 : size)),
    bids: roundEnded.bids,
  };
  return { trick, view, roundEnded };
}

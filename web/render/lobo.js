// Drawing Lobo: The Vanguard (solo). The player builds a move by selecting cards; the page only
// matches the selection against the engine's listed legal moves (no rules here) and, when none
// matches, asks the engine why (PlayScreen.check -> the translated reason).
// Card codes: rank A, 2..10 then suit S H D C (V = the fifth suit); members JS, QS, KS.

import { h } from "../dom.js";

const SUIT_SIGN = { S: "♠", H: "♥", D: "♦", C: "♣", V: "✿" };
const RED = new Set(["H", "D"]);
const KINDS = ["perfect", "sum", "split", "over", "sacrifice", "wild"];

/** The selection survives re-renders of the same position only. */
let selection = { key: "", cards: new Set(), reason: "", asked: "" };

/** "10H" -> {rank: "10", value: 10, suit: "H"}; "QS" -> {rank: "Q", value: null, suit: "S"}. */
export function parseLoboCard(code) {
  const text = String(code || "");
  const suit = text.slice(-1);
  const rank = text.slice(0, -1);
  const value = rank === "A" ? 1 : /^\d+$/.test(rank) ? Number(rank) : null;
  return { rank, value, suit };
}

/** "7 of hearts", "Queen of spades" (for screen readers and messages). */
export function loboCardName(code, t) {
  const { rank, suit } = parseLoboCard(code);
  const rankName = ["A", "J", "Q", "K"].includes(rank) ? t(`lobo.rank.${rank}`) : rank;
  return t("lobo.card", { rank: rankName, suit: t(`lobo.suit.${suit}`) });
}

function face(code, t, opts = {}) {
  const { rank, suit } = parseLoboCard(code);
  const tag = opts.onClick ? "button" : "div";
  return h(
    tag,
    {
      class: ["card", "lobo-card", RED.has(suit) ? "red" : "black", opts.className],
      type: opts.onClick ? "button" : null,
      onclick: opts.onClick || null,
      "aria-label": loboCardName(code, t),
      "aria-pressed": opts.onClick ? String(Boolean(opts.selected)) : null,
      role: opts.onClick ? null : "img",
      dataset: { card: code, testid: opts.testid || "card", ...(opts.dataset || {}) },
    },
    h("span", { class: "lobo-rank", dataset: { rank } }),
    h("span", { class: "lobo-suit", "aria-hidden": "true" }, SUIT_SIGN[suit] || suit),
  );
}

function back(className = "", label = "") {
  return h("div", { class: ["card", "card-back", "lobo-card", className], role: label ? "img" : null, "aria-label": label || null, "aria-hidden": label ? null : "true" }, h("span", { class: "card-back-mark" }, "T"));
}

/** A move's text -> {kind, give: [...], take: [...]} (the engine's own text form). */
export function parseMove(text) {
  const [kind, rest = ""] = String(text).split(" ");
  if (!KINDS.includes(kind)) return { kind, give: rest ? [rest] : [], take: [] };
  const [give, take = ""] = rest.split(">");
  return { kind, give: give.split("+").filter(Boolean), take: take.split("+").filter(Boolean) };
}

function values(cards) {
  return cards.map((c) => parseLoboCard(c).value ?? parseLoboCard(c).rank).join(" + ");
}

/** "Sum: 4 + 2 takes 6" and so on. */
export function describeMove(text, t, view) {
  const m = parseMove(text);
  if (m.kind === "fold" || m.kind === "skip") return t(`lobo.move.${m.kind}`);
  if (m.kind === "reserve") return t("lobo.move.reserve", { card: loboCardName(m.give[0], t) });
  if (m.kind === "revive") return t("lobo.move.revive", { card: loboCardName(m.give[0], t) });
  const give = m.kind === "sacrifice" ? loboCardName(m.give[0], t) : values(m.give);
  const take = values(m.take);
  let draws = 0;
  if (m.kind === "split") draws = 1;
  if (m.kind === "over") draws = Number(parseLoboCard(m.give[0]).value) - Number(parseLoboCard(m.take[0]).value);
  const base = t(`lobo.move.${m.kind}`, { give, take });
  return draws > 0 ? `${base} ${t("lobo.move.wolf_draws", { n: draws })}` : base;
}

function pct(p) {
  return `${(100 * p).toFixed(p > 0 && p < 0.001 ? 2 : 1)}%`;
}

function oddsLabel(entry, t) {
  return entry.exact ? t("lobo.odds.exact") : t("lobo.odds.estimated", { n: entry.samples ?? "?" });
}

/**
 * @param {object} p the PlayScreen's table parameters, plus {onHint, onUndo, onCheck, refresh,
 *        hint, hintBusy, canUndo, selectionKey}
 */
export function renderTable(p) {
  const { view, t } = p;
  const legal = p.legal || [];
  const myTurn = Boolean(p.interactive && view.to_move === p.viewer && legal.length);
  const key = p.selectionKey || `${view.round}:${view.phase}:${view.hand.join()}:${view.wolf.join()}`;
  if (selection.key !== key) selection = { key, cards: new Set(), reason: "", asked: "" };
  const sel = selection.cards;
  const hint = p.hint || null;
  const hinted = new Set();
  if (hint && hint.move) for (const c of [...parseMove(hint.move).give, ...parseMove(hint.move).take]) hinted.add(c);
  const playing = view.phase === "play";
  const choosing = view.phase === "choice";

  const toggle = (code) => {
    if (!myTurn || !playing) return;
    if (sel.has(code)) sel.delete(code);
    else sel.add(code);
    selection.reason = "";
    p.refresh && p.refresh();
  };
  const cardOpts = (code, testid) => ({
    testid,
    selected: sel.has(code),
    className: [sel.has(code) ? "selected" : null, hinted.has(code) ? "hinted" : null].filter(Boolean).join(" ") || null,
    onClick: myTurn && playing ? () => toggle(code) : null,
  });

  // -- top bar: round, final marker, pile --------------------------------------------------
  const info = h(
    "div",
    { class: "lobo-info" },
    h("span", { class: "lobo-round", dataset: { testid: "lobo-round" } }, t("lobo.round", { round: view.round })),
    view.final ? h("span", { class: "lobo-final", dataset: { testid: "lobo-final" } }, t("lobo.final")) : null,
  );
  const pile = h(
    "div",
    { class: "lobo-pile", dataset: { testid: "pile", size: view.pile_size } },
    h("div", { class: "lobo-pile-stack" }, view.pile_size > 1 ? back("lobo-pile-back") : null, view.pile_top ? face(view.pile_top, t, { testid: "pile-top", className: "lobo-pile-top" }) : h("div", { class: "lobo-slot" })),
    h("p", { class: "lobo-caption" }, view.pile_size ? t("lobo.pile", { n: view.pile_size }) : t("lobo.pile.empty")),
  );

  // -- the Wolf ---------------------------------------------------------------------------
  const wolf = h(
    "section",
    { class: "lobo-zone lobo-wolf", "aria-label": t("lobo.wolf") },
    h("h3", null, t("lobo.wolf"), " ", h("span", { class: "lobo-count" }, `(${view.wolf.length})`)),
    h("div", { class: "lobo-cards", dataset: { testid: "wolf" } }, view.wolf.length ? view.wolf.map((c) => face(c, t, cardOpts(c, "wolf-card"))) : h("p", { class: "lobo-empty" }, t("lobo.wolf.empty"))),
  );

  // -- the party ---------------------------------------------------------------------------
  const party = view.members && view.members.length
    ? h(
        "section",
        { class: "lobo-zone lobo-party", "aria-label": t("lobo.party") },
        h("h3", null, t("lobo.party")),
        h(
          "div",
          { class: "lobo-cards", dataset: { testid: "party" } },
          view.members.map((m) => {
            const canSacrifice = legal.some((move) => move.startsWith(`sacrifice ${m.card}>`));
            const canRevive = choosing && legal.includes(`revive ${m.card}`);
            if (!m.active) {
              return h(
                "div",
                { class: "lobo-member down", dataset: { testid: "member", card: m.card, active: "false" } },
                back("", t("lobo.member.down", { card: loboCardName(m.card, t) })),
                canRevive && myTurn ? h("button", { type: "button", class: "ghost small", dataset: { testid: "revive" }, onclick: () => p.onMove(`revive ${m.card}`) }, t("lobo.revive")) : null,
              );
            }
            const opts = cardOpts(m.card, "member-card");
            if (!canSacrifice) opts.onClick = null;
            return h("div", { class: "lobo-member up", dataset: { testid: "member", card: m.card, active: "true" } }, face(m.card, t, opts));
          }),
        ),
      )
    : null;

  // -- your hand and reserve -------------------------------------------------------------
  const reserveOnly = (c) => choosing && myTurn && legal.includes(`reserve ${c}`);
  const handCards = view.hand.map((c) => {
    if (reserveOnly(c)) return face(c, t, { testid: "hand-card", className: "choosable", onClick: () => p.onMove(`reserve ${c}`) });
    return face(c, t, cardOpts(c, "hand-card"));
  });
  const you = h(
    "section",
    { class: "lobo-zone lobo-you", "aria-label": t("lobo.hand") },
    h("h3", null, t("lobo.hand")),
    h("div", { class: "lobo-cards", dataset: { testid: "hand" } }, handCards.length ? handCards : h("p", { class: "lobo-empty" }, t("lobo.hand.empty"))),
    view.mode !== "CLASSIC_LOBO"
      ? h(
          "div",
          { class: "lobo-reserve" },
          h("h4", null, t("lobo.reserve")),
          h("div", { class: "lobo-cards lobo-small", dataset: { testid: "reserve" } }, view.reserve.length ? view.reserve.map((c) => face(c, t, cardOpts(c, "reserve-card"))) : h("p", { class: "lobo-empty" }, t("lobo.reserve.empty"))),
        )
      : null,
  );

  // -- the move panel ---------------------------------------------------------------------
  const panel = h("div", { class: "lobo-panel panel", dataset: { testid: "move-panel" } });
  const last = view.history && view.history.length ? view.history[view.history.length - 1] : null;
  if (last && last.round >= view.round - 1 && !(playing && last.round === view.round)) {
    panel.append(
      h(
        "p",
        { class: ["lobo-last", last.won ? "won" : "lost"], dataset: { testid: "last-round" } },
        last.won ? t("lobo.last.won", { round: last.round }) : last.members_lost ? t("lobo.last.lost_members", { round: last.round, n: last.members_lost }) : t("lobo.last.lost", { round: last.round }),
      ),
    );
  }
  if (view.mode === "CLASSIC_LOBO" && view.scores) {
    panel.append(h("p", { class: "lobo-classic-score", dataset: { testid: "classic-score" } }, t("lobo.classic.score", { player: view.scores.player, wolf: view.scores.wolf, target: view.target })));
  }
  let status;
  if (view.phase === "over") status = t("status.over");
  else if (!myTurn) status = t("lobo.status.wait");
  else if (choosing) status = t("lobo.status.choice");
  else if (view.forced_fold) status = t("lobo.status.forced_fold");
  else status = view.final ? t("lobo.status.final") : t("lobo.status.play");
  panel.append(h("p", { class: "lobo-status", role: "status", dataset: { testid: "status" } }, status));

  const actions = h("div", { class: "lobo-actions" });
  if (myTurn && playing) {
    const mine = [...sel].filter((c) => !view.wolf.includes(c));
    const theirs = [...sel].filter((c) => view.wolf.includes(c));
    const same = (a, b) => a.length === b.length && a.every((x) => b.includes(x));
    const matches = legal.filter((move) => {
      const m = parseMove(move);
      return KINDS.includes(m.kind) && same(m.give, mine) && same(m.take, theirs);
    });
    if (!sel.size) {
      panel.append(h("p", { class: "lobo-help" }, t("lobo.select.help")));
    } else if (matches.length) {
      for (const move of matches) {
        panel.append(h("p", { class: "lobo-forms", dataset: { testid: "move-desc" } }, describeMove(move, t, view)));
        actions.append(h("button", { type: "button", class: "primary", dataset: { testid: "play-move", move }, onclick: () => p.onMove(move) }, t("lobo.play", { move: t(`lobo.kind.${parseMove(move).kind}`) })));
      }
    } else if (!mine.length || !theirs.length) {
      panel.append(h("p", { class: "lobo-help" }, t(mine.length ? "lobo.select.theirs" : "lobo.select.mine")));
    } else {
      const text = `${mine.join("+")}>${theirs.join("+")}`;
      if (selection.asked !== text) {
        selection.asked = text;
        selection.reason = "";
        const asked = selection;
        if (p.onCheck) {
          p.onCheck(text).then((reason) => {
            if (selection !== asked || asked.asked !== text) return;
            asked.reason = reason || t("lobo.select.none");
            p.refresh && p.refresh();
          });
        }
      }
      panel.append(h("p", { class: "lobo-reason", role: "alert", dataset: { testid: "move-reason" } }, selection.reason || t("lobo.checking")));
    }
    if (sel.size) actions.append(h("button", { type: "button", class: "ghost", dataset: { testid: "clear-selection" }, onclick: () => { sel.clear(); p.refresh && p.refresh(); } }, t("lobo.clear")));
    if (legal.includes("fold")) actions.append(h("button", { type: "button", class: view.forced_fold ? "primary" : "ghost danger", dataset: { testid: "fold" }, onclick: () => p.onMove("fold") }, t("lobo.fold")));
  }
  if (myTurn && choosing) {
    panel.append(h("p", { class: "lobo-help" }, t(view.hand.length ? "lobo.choice.help" : "lobo.choice.help_no_hand")));
    if (legal.includes("skip")) actions.append(h("button", { type: "button", class: "ghost", dataset: { testid: "skip" }, onclick: () => p.onMove("skip") }, t("lobo.skip")));
  }
  const tools = h(
    "div",
    { class: "lobo-tools" },
    h("button", { type: "button", class: "ghost", disabled: !myTurn || p.hintBusy, dataset: { testid: "hint" }, onclick: () => p.onHint && p.onHint() }, p.hintBusy ? t("lobo.hint.thinking") : t("lobo.hint")),
    h("button", { type: "button", class: "ghost", disabled: !p.canUndo || !p.interactive, dataset: { testid: "undo" }, onclick: () => p.onUndo && p.onUndo() }, t("lobo.undo")),
  );
  panel.append(h("div", { class: "lobo-bar" }, actions, tools));
  if (hint && myTurn) panel.append(renderHint(hint, p, view));
  if (p.message) panel.append(h("p", { class: "message shown", role: "alert", dataset: { testid: "table-message" } }, p.message));

  return h(
    "div",
    {
      class: ["lobo-table", view.final ? "final" : null],
      dataset: { testid: "table", phase: view.phase, myTurn: String(myTurn), round: view.round, final: String(view.final), game: "lobo" },
    },
    h("div", { class: "lobo-top" }, wolf, h("div", { class: "lobo-side" }, info, pile)),
    h("div", { class: "lobo-row" }, you, party),
    panel,
  );
}

/** "5♠ > 4♥" (which cards, since the description names ranks only). */
function cardsText(move) {
  const m = parseMove(move);
  const show = (cards) => cards.map((c) => { const { rank, suit } = parseLoboCard(c); return `${rank}${SUIT_SIGN[suit] || suit}`; }).join("+");
  if (!m.give.length) return "";
  return m.take.length ? `(${show(m.give)} › ${show(m.take)})` : `(${show(m.give)})`;
}

function renderHint(hint, p, view) {
  const { t } = p;
  const best = (hint.moves || []).find((m) => m.move === hint.move) || { p_win: hint.p_win, exact: hint.exact, samples: hint.samples };
  const list = h(
    "ol",
    { class: "lobo-odds", dataset: { testid: "odds-list" } },
    (hint.moves || []).map((m) =>
      h(
        "li",
        { class: m.move === hint.move ? "best" : null, dataset: { move: m.move } },
        h("span", { class: "lobo-odds-move" }, describeMove(m.move, t, view), " ", h("span", { class: "lobo-odds-cards" }, cardsText(m.move))),
        h("span", { class: "lobo-odds-p" }, pct(m.p_win)),
        h("span", { class: "lobo-odds-kind" }, oddsLabel(m, t)),
      ),
    ),
  );
  return h(
    "div",
    { class: "lobo-hint", dataset: { testid: "hint-panel", move: hint.move } },
    h("p", null, h("strong", null, t("lobo.hint.best")), " ", describeMove(hint.move, t, view), " ", h("span", { class: "lobo-odds-cards" }, cardsText(hint.move))),
    h("p", { dataset: { testid: "hint-odds" } }, t("lobo.hint.odds", { p: pct(best.p_win ?? hint.p_win ?? 0) }), " ", h("span", { class: "lobo-odds-kind" }, oddsLabel(best, t))),
    h(
      "div",
      { class: "lobo-actions" },
      h("button", { type: "button", class: "primary", dataset: { testid: "play-hint", move: hint.move }, onclick: () => p.onMove(hint.move) }, t("lobo.hint.play")),
    ),
    h("details", { class: "lobo-odds-all" }, h("summary", { dataset: { testid: "odds-toggle" } }, t("lobo.odds.all", { n: (hint.moves || []).length })), list),
  );
}

/** The rounds so far. */
export function renderScoreSheet(view, names, t) {
  const body = h("tbody");
  for (const row of view.history || []) {
    body.append(
      h(
        "tr",
        { dataset: { round: row.round } },
        h("th", { scope: "row" }, String(row.round)),
        h("td", null, row.won ? t("lobo.sheet.won") : t("lobo.sheet.lost")),
        h("td", null, String(row.wolf_left)),
        h("td", null, String(row.members_lost)),
        h("td", null, String(row.points)),
      ),
    );
  }
  return h(
    "div",
    { class: "sheet-scroll", tabindex: "0", role: "region", "aria-label": t("sheet.title"), dataset: { testid: "score-sheet" } },
    h(
      "table",
      { class: "sheet lobo-sheet" },
      h("thead", null, h("tr", null, ...["round", "result", "wolf_left", "members_lost", "points"].map((k) => h("th", { scope: "col" }, t(`lobo.sheet.${k}`))))),
      body,
    ),
  );
}

/** The game-over headline. */
export function renderHeadline(outcome, view, t) {
  const won = outcome.winners && outcome.winners.length > 0;
  const text = won
    ? view.mode === "CLASSIC_LOBO" ? t("lobo.over.won_classic") : t("lobo.over.won", { score: outcome.scores[0] })
    : t("lobo.over.lost");
  return h("p", { class: ["winners", won ? "won" : "lost"], dataset: { testid: "winners", result: won ? "won" : "lost" } }, text);
}

/** The final score with its parts (the Vanguard), or the two totals (Classic Lobo). */
export function renderRanking(outcome, names, t) {
  if (outcome.result === "lost") return h("p", { class: "lobo-lost", dataset: { testid: "score-parts" } }, t("lobo.over.lost_note"));
  if (outcome.score_parts) {
    const parts = outcome.score_parts;
    return h(
      "table",
      { class: "lobo-score", dataset: { testid: "score-parts" } },
      h(
        "tbody",
        null,
        ["hand", "members", "reserve"].map((k) => h("tr", { dataset: { part: k } }, h("th", { scope: "row" }, t(`lobo.score.${k}`)), h("td", null, String(parts[k])))),
        h("tr", { class: "total", dataset: { part: "score" } }, h("th", { scope: "row" }, t("lobo.score.total")), h("td", null, String(parts.score))),
      ),
    );
  }
  return h(
    "table",
    { class: "lobo-score", dataset: { testid: "score-parts" } },
    h("tbody", null,
      h("tr", null, h("th", { scope: "row" }, t("lobo.score.player")), h("td", null, String(outcome.scores[0]))),
      h("tr", null, h("th", { scope: "row" }, t("lobo.score.wolf")), h("td", null, String(outcome.wolf_score ?? "")))),
  );
}

export function renderRoundResult(row, names, t) {
  return h("p", null, row.won ? t("lobo.last.won", { round: row.round }) : t("lobo.last.lost", { round: row.round }));
}

/** Lobo has no tricks to pause on. */
export function describeTransition(prev, next) {
  return { trick: null, view: next, roundEnded: null };
}

// -- "Was this deal winnable?" (the game-over screen asks the engine on request) ---------------

// Positions one lobo_deal request searches (the engine's most: each request stays about a second
// long); "Search longer" goes on from where the last one stopped, request after request, up to
// LONGER_POSITIONS in all, with a progress bar and Stop.
const DEAL_BUDGET = 60_000;
const LONGER_POSITIONS = 3_000_000;

function valuesText(values) {
  return values.map((v) => (v === 1 ? "A" : String(v))).join(" + ");
}

function lineMove(step, t) {
  const kind = t(`lobo.kind.${step.kind}`);
  const take = valuesText(step.take);
  const text = step.kind === "sacrifice"
    ? t("lobo.deal.move_sacrifice", { kind, take })
    : t("lobo.deal.move", { kind, give: valuesText(step.give), take });
  return step.kind === "over" && step.draws > 0 ? `${text} ${t("lobo.deal.wolf_draws", { n: step.draws })}` : text;
}

function renderLine(line, t) {
  const last = line[line.length - 1];
  const rows = line.map((row) => {
    const cards = (values) => values.map((v) => (v === 1 ? "A" : String(v))).join(" ") || "—";
    let head = t(row.final ? "lobo.deal.round_final" : "lobo.deal.round", { round: row.round, hand: cards(row.hand), wolf: cards(row.wolf) });
    if (row.reserve.length) head += ` ${t("lobo.deal.with_reserve", { cards: cards(row.reserve) })}`;
    const steps = row.moves.map((m) => lineMove(m, t));
    if (!row.won) steps.push(t("lobo.deal.fold", { n: row.lost_members }));
    else if (row.choice) steps.push(t(`lobo.deal.choice_${row.choice.kind}`, { card: cards(row.choice.give) }));
    else steps.push(t("lobo.deal.won_final", { score: row.score }));
    return h("li", { dataset: { round: row.round } }, h("strong", null, head), h("div", null, steps.join(" · ")));
  });
  return h(
    "details",
    { class: "lobo-deal-line", dataset: { testid: "deal-line" } },
    h("summary", null, t("lobo.deal.line", { n: line.length, score: last.score })),
    h("ol", null, rows),
  );
}

function dealAnswer(result, t) {
  const out = [];
  const verdict = result.winnable === true ? "yes" : result.winnable === false ? "no" : "unknown";
  const text = t(`lobo.deal.${verdict}`, { n: result.nodes.toLocaleString(), count: result.nodes });
  out.push(h("p", { class: ["lobo-deal-verdict", verdict], dataset: { testid: "deal-verdict", verdict } }, h("strong", null, text)));
  if (result.line) out.push(renderLine(result.line, t));
  if (result.policy) {
    out.push(h("p", { class: "lobo-help", dataset: { testid: "deal-policy", won: String(result.policy.won) } }, result.policy.won ? t("lobo.deal.policy_won", { score: result.policy.score }) : t("lobo.deal.policy_lost")));
  }
  return out;
}

/**
 * The game-over panel "Was this deal winnable?": a button that asks the engine (op lobo_deal,
 * within a budget of positions; "search longer" goes on from there) and shows its answer.
 * @param {{snap: object, engine: {call: Function} | null | undefined, t: Function}} p
 */
export function renderOverExtra({ snap, engine, t }) {
  const state = snap && snap.state;
  if (!engine || !state || typeof state.seed !== "string") return null;
  const answer = h("div", { class: "lobo-deal-answer", "aria-live": "polite", dataset: { testid: "deal-answer" } });
  const button = h("button", { type: "button", class: "primary", dataset: { testid: "deal-ask" } }, t("lobo.deal.ask"));
  let policy = null; // the hint's game, asked once (the first time)
  let stopping = false;
  const show = (result, searched) => {
    const parts = dealAnswer({ ...result, nodes: searched, policy }, t);
    if (result.winnable === null && result.resume && searched < LONGER_POSITIONS) {
      parts.push(h("button", { type: "button", class: "ghost", dataset: { testid: "deal-longer" }, onclick: () => longer(result.resume, searched) }, t("lobo.deal.longer", { budget: LONGER_POSITIONS.toLocaleString() })));
    }
    answer.replaceChildren(...parts);
  };
  const failed = (error) => {
    answer.replaceChildren(h("p", { class: "lobo-reason", role: "alert" }, t("lobo.deal.failed", { message: (error && error.message) || String(error) })));
  };
  const ask = async () => {
    button.remove();
    answer.replaceChildren(h("p", { class: "lobo-help", dataset: { testid: "deal-busy" } }, t("lobo.deal.thinking", { budget: DEAL_BUDGET.toLocaleString() })));
    let result;
    try {
      result = await engine.call("lobo_deal", { seed: state.seed, options: state.options, budget: DEAL_BUDGET, policy: true });
    } catch (error) {
      failed(error);
      answer.before(button);
      return;
    }
    policy = result.policy || policy;
    show(result, result.nodes);
  };
  /** Go on from `resume`, one bounded request after another, until an answer, Stop, or the cap. */
  const longer = async (resume, searched) => {
    stopping = false;
    const bar = h("progress", { max: LONGER_POSITIONS, value: searched, dataset: { testid: "deal-progress" } });
    const text = h("span", null, t("lobo.deal.searched", { n: searched.toLocaleString(), count: searched }));
    const stop = h("button", { type: "button", class: "ghost", dataset: { testid: "deal-stop" }, onclick: () => { stopping = true; stop.disabled = true; } }, t("lobo.deal.stop"));
    answer.replaceChildren(h("div", { class: "lobo-help lobo-deal-progress", dataset: { testid: "deal-busy" } }, text, bar, stop));
    let result = null;
    while (!stopping && searched < LONGER_POSITIONS) {
      try {
        result = await engine.call("lobo_deal", { seed: state.seed, options: state.options, budget: DEAL_BUDGET, policy: false, resume });
      } catch (error) {
        failed(error);
        return;
      }
      searched += result.nodes;
      bar.value = Math.min(searched, LONGER_POSITIONS);
      text.textContent = t("lobo.deal.searched", { n: searched.toLocaleString(), count: searched });
      if (result.winnable !== null || !result.resume) break;
      resume = result.resume;
    }
    if (result) show(result, searched);
  };
  button.onclick = () => ask();
  return h(
    "section",
    { class: "panel wide lobo-deal", dataset: { testid: "deal-panel" } },
    h("h2", null, t("lobo.deal.title")),
    h("p", { class: "lobo-help" }, t("lobo.deal.help")),
    button,
    answer,
  );
}

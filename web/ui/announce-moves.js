// What the live region (web/ui/announce.js) says after a move, per game, from the views before
// and after it: another player's move (in the replay's words, "Bot 2 bid 1"; Rummikub's last-move
// line), what the player's own move brought that a sighted player sees at once (the card drawn,
// the Wolf's new cards), the trick's winner, a round's result, a new deal. Only what the view
// after the move shows is said: a hidden bid stays hidden, another rack stays unseen, and what
// the mover alone sees is a secret (a hot-seat hand-over removes it).

import { t, language } from "../i18n.js";
import { describeTransition as wizardTransition } from "../render/wizard.js";
import { lastMoveText, tileName } from "../render/rummikub.js";
import { cardName as willieCardName, endText } from "../render/willie.js";
import { lastRoundText, loboCardName } from "../render/lobo.js";
import { secret } from "./announce.js";
import { moveText } from "./replay-moves.js";

/**
 * @typedef {object} MoveNews
 * @property {object} prev    the view before the move (the viewer's)
 * @property {object} next    the view after it
 * @property {string|object|null} move  the move (null: another device's, not told)
 * @property {number} seat    who moved
 * @property {number|null} viewer  the seat whose view these are
 * @property {string[]} names
 * @property {(seat: number) => boolean} you  the seat is spoken to ("You drew")
 */

/** "red 5, blue 7 and the joker", in the page's language. */
function list(items) {
  return new Intl.ListFormat(language(), { type: "conjunction" }).format(items);
}

/** The codes in `after` that were not in `before` (as many times as they were added). */
function added(before, after) {
  const left = [...(before || [])];
  const out = [];
  for (const code of after || []) {
    const at = left.indexOf(code);
    if (at >= 0) left.splice(at, 1);
    else out.push(code);
  }
  return out;
}

function signed(n) {
  return n > 0 ? `+${n}` : number(n);
}

/** A number as the tables print it, with a true minus sign. */
function number(n) {
  return n < 0 ? `−${-n}` : String(n);
}

/** "Scores: You 12, Bot 2 30". */
function scoresText(totals, names) {
  return t("say.scores", { scores: list(totals.map((total, seat) => t("say.score", { name: names[seat], total: number(total) }))) });
}

/** Another player's move in the replay's words; a table play adds the cards laid. */
function otherMove(game, p, nameOf) {
  const text = moveText(game, p.move, p.names[p.seat], p.next, false);
  const laid = p.move && typeof p.move === "object" && p.move.play ? p.move.play.from_hand || [] : [];
  return laid.length ? t("say.with_cards", { text, cards: list(laid.map(nameOf)) }) : text;
}

// -- Wizard -------------------------------------------------------------------------------

function wizardDeal(view) {
  const cards = t("table.cards_each", { n: view.round });
  const trump = view.phase === "trump" ? t("wizard.say.trump_choosing") : view.trump ? t("wizard.say.trump", { suit: t(`suit.${view.trump}`) }) : t("table.trump.none");
  return t("wizard.say.deal", { round: view.round, cards, trump });
}

function wizardNews(p) {
  const { prev, next, seat, names } = p;
  const out = [];
  const move = typeof p.move === "string" ? p.move : null;
  if (seat !== p.viewer) {
    if (prev.phase === "bid") {
      // as the table shows it: with hidden bids, only that the bid was made
      const bid = next.round === prev.round ? next.bids[seat] : null;
      out.push(bid !== null && bid !== undefined ? moveText("wizard", `bid ${bid}`, names[seat], next) : t("wizard.say.bid_hidden", { name: names[seat] }));
    } else if (prev.phase === "trump") {
      if (next.trump) out.push(moveText("wizard", `trump ${next.trump}`, names[seat], next));
    } else if (prev.phase === "play") {
      const plays = [...(next.trick || []), ...((next.last_trick && next.last_trick.cards) || [])];
      const card = move && move.startsWith("play ") ? move.slice(5) : plays.find((play) => play.seat === seat)?.card;
      if (card) out.push(moveText("wizard", `play ${card}`, names[seat], next));
    }
  }
  // hidden bids shown once everyone has bid
  if (prev.phase === "bid" && next.phase !== "bid" && next.round === prev.round) {
    const shown = prev.bids.map((bid, s) => (bid === null && s !== seat && next.bids[s] !== null ? s : -1)).filter((s) => s >= 0);
    if (shown.length) {
      if (seat !== p.viewer) out.pop(); // the mover's bid is in the list
      out.push(t("wizard.say.bids", { bids: list(next.bids.map((bid, s) => t("say.score", { name: names[s], total: bid }))) }));
    }
  }
  const change = wizardTransition(prev, next, move, seat);
  if (change.trick) {
    const winner = change.trick.winner;
    out.push(t(p.you(winner) ? "status.trick_won.you" : "status.trick_won", { name: names[winner] }));
  }
  if (change.roundEnded) {
    const row = change.roundEnded;
    const seats = names.map((name, s) => t("wizard.say.round_seat", { name, bid: row.bids[s], tricks: row.tricks[s], points: signed(row.points[s]), total: number(row.totals[s]) }));
    out.push(`${t("round.title", { round: row.round })}: ${seats.join("; ")}`);
  }
  if (next.round > prev.round && next.phase !== "over") out.push(wizardDeal(next));
  return out;
}

// -- Rummikub -----------------------------------------------------------------------------

function rummikubNews(p) {
  const { prev, next, seat, names } = p;
  const out = [];
  const nameOf = (code) => tileName(code, t);
  if (next.last && next.last.seat === seat && next.game_no === prev.game_no) {
    const drawn = added(prev.rack, next.rack);
    if (seat === p.viewer && next.last.action === "draw" && drawn.length === 1) out.push(secret(t("rummikub.say.drew", { tile: nameOf(drawn[0]) })));
    else if (seat !== p.viewer) {
      const text = lastMoveText(next, names, t);
      const laid = p.move && typeof p.move === "object" && p.move.play ? p.move.play.from_hand || [] : [];
      out.push(laid.length ? t("say.with_cards", { text, cards: list(laid.map(nameOf)) }) : text);
    }
  }
  // a game of a match is over and the next one dealt (the last game: the game-over screen says it)
  if ((next.results || []).length > (prev.results || []).length && next.phase !== "over") {
    const result = next.results[next.results.length - 1];
    const winners = result.winners.map((s) => names[s]);
    out.push(`${t("rummikub.say.game_over", { game: next.results.length, ending: t(`rummikub.ending.${result.ending}`) })} ${t(winners.length > 1 ? "over.winners" : "over.winner_is", { names: list(winners) })}`);
  }
  return out;
}

// -- Willie -------------------------------------------------------------------------------

/** The move another device did not tell: what the views show of it. */
function willieMoveOf(prev, next, seat) {
  if (next.history.length > prev.history.length) return next.history[next.history.length - 1].closer === seat ? "close" : null;
  if (next.hand_sizes[seat] > prev.hand_sizes[seat]) return "draw";
  if (next.hand_sizes[seat] < prev.hand_sizes[seat]) return { play: { table: next.table, from_hand: [] } };
  return prev.phase === "end_turn" ? "continue" : "pass";
}

function willieNews(p) {
  const { prev, next, seat, names } = p;
  const out = [];
  const nameOf = (code) => willieCardName(code, t);
  const ended = next.history.length > prev.history.length ? next.history[next.history.length - 1] : null;
  const move = p.move ?? willieMoveOf(prev, next, seat);
  if (seat !== p.viewer) {
    // "Bot 2 closed the round" is the round's first words below
    if (move && !(ended && move === "close")) out.push(otherMove("willie", { ...p, move }, nameOf));
  } else if (move === "draw" && !ended) {
    const drawn = added(prev.hand, next.hand);
    if (drawn.length === 1) out.push(secret(t("willie.say.drew", { card: nameOf(drawn[0]) })));
  }
  if (ended) {
    const winners = ended.winners.map((s) => names[s]);
    out.push(`${t("round.title", { round: ended.round })}: ${endText(ended, names, t)} ${t(winners.length > 1 ? "willie.step.winners" : "willie.step.winner", { names: list(winners) })} ${scoresText(ended.totals, names)}`);
  }
  if (next.round > prev.round && next.phase !== "over") out.push(t("willie.say.deal", { round: next.round }));
  return out;
}

// -- Lobo (solo: every move is the player's own) -------------------------------------------

function loboDeal(view) {
  const names = (cards) => list(cards.map((code) => loboCardName(code, t)));
  return t("lobo.say.deal", { round: view.round, wolf: names(view.wolf), hand: names(view.hand) });
}

function loboNews(p) {
  const { prev, next } = p;
  const out = [];
  const names = (cards) => list(cards.map((code) => loboCardName(code, t)));
  if (next.round === prev.round) {
    const wolf = added(prev.wolf, next.wolf);
    if (wolf.length) out.push(t("lobo.say.wolf_draws", { cards: names(wolf) }));
    const hand = added([...prev.hand, ...prev.reserve], next.hand);
    if (hand.length) out.push(t("lobo.say.you_draw", { cards: names(hand) }));
  }
  if ((next.history || []).length > (prev.history || []).length) out.push(lastRoundText(next.history[next.history.length - 1], t));
  if (next.round > prev.round && next.phase === "play") out.push(loboDeal(next));
  return out;
}

const NEWS = { wizard: wizardNews, rummikub: rummikubNews, willie: willieNews, lobo: loboNews };

/**
 * The lines to say after a move (texts, and secrets for the mover alone).
 * @param {string} game
 * @param {MoveNews} p
 * @returns {(string | {text: string, secret: true})[]}
 */
export function moveNews(game, p) {
  if (!p.prev || !p.next || !NEWS[game]) return [];
  return NEWS[game](p).filter(Boolean);
}

/** The lines to say when a table opens: the round dealt (Wizard, Lobo). */
export function tableNews(game, view) {
  if (!view || view.phase === "over") return [];
  if (game === "wizard" && (view.phase === "bid" || view.phase === "trump")) return [wizardDeal(view)];
  if (game === "lobo" && view.phase === "play" && !(view.history || []).some((row) => row.round === view.round)) return [loboDeal(view)];
  return [];
}

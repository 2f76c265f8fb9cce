// The words of a review (the `review` op's items, docs/CONTRACTS.md): a move played or the
// better one, where the decision was, and a loss in the game's unit. Display only: every
// figure comes from the engine.

import { cardName as wizardCardName } from "../render/cards.js";
import { describeMove as loboMove } from "../render/lobo.js";
import { tileName } from "../render/rummikub.js";
import { cardName as willieCardName } from "../render/willie.js";

/** A number with one decimal at most, in the page's language (12.5, 12,5; 3 stays 3). */
export function formatNumber(value, lang) {
  return new Intl.NumberFormat(lang === "es" ? "es-ES" : "en-GB", { maximumFractionDigits: 1 }).format(value);
}

/** "12.4 points", "8 rack points", "3.5 percentage points". */
export function lossText(loss, unit, t, lang) {
  return t(`review.unit.${unit}`, { n: formatNumber(loss, lang), count: Math.round(loss * 10) / 10 });
}

function names(codes, nameOf, t) {
  return (codes || []).map((code) => nameOf(code, t)).join(", ");
}

/**
 * What a move of the item says: `which` is "played" or "best".
 * @param {string} game
 * @param {object} item an item of the review op
 * @param {"played" | "best"} which
 * @param {(key: string, params?: object) => string} t
 */
export function moveText(game, item, which, t) {
  const move = item[which];
  const facts = item.facts || {};
  const laid = which === "played" ? facts.laid : facts.best_laid;
  if (game === "wizard") {
    const [kind, value] = String(move).split(" ");
    if (kind === "bid") return t("review.wizard.bid", { n: value });
    if (kind === "trump") return t("review.wizard.trump", { suit: t(`suit.${value}`) });
    return wizardCardName(value, t);
  }
  if (game === "rummikub") {
    if (move && typeof move === "object") return t("review.lay", { cards: names(laid, tileName, t) });
    return t(`review.rummikub.${move}`);
  }
  if (game === "willie") {
    if (move && typeof move === "object") return t("review.lay", { cards: names(laid, willieCardName, t) });
    return t(`review.willie.${move}`);
  }
  if (game === "lobo") return loboMove(String(move), t);
  return String(move);
}

/** Where the decision was: "Round 5 · trick 2", "Turn 7", "Game 2 · turn 7". */
export function whereText(game, item, t) {
  const c = item.context || {};
  if (game === "wizard") {
    return c.trick ? t("review.where.trick", { round: c.round, trick: c.trick }) : t("review.where.bid", { round: c.round });
  }
  if (game === "rummikub") {
    const turn = t("review.where.turn", { turn: c.round });
    return c.game_no > 1 ? t("review.where.game", { game: c.game_no, rest: turn }) : turn;
  }
  if (game === "willie") return t("review.where.round_turn", { round: c.round, turn: c.turn });
  return t("review.where.round", { round: c.round });
}

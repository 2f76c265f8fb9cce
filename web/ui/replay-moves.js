// A recorded move in words, for the replay ("Bot 2 bid 1", "You played the red 7", "Lucía laid
// down 4 tiles"), and the face of a card or tile of each game for the "every hand" panel.

import { t } from "../i18n.js";
import { cardFace as wizardFace, cardName as wizardCardName } from "../render/cards.js";
import { describeMove as loboMove } from "../render/lobo.js";
import { tileFace } from "../render/rummikub.js";
import { cardFace as willieFace } from "../render/willie.js";

/**
 * The move of a seat in words. `you`: the seat is the player's own, unnamed ("You"), which some
 * languages say in the second person ("Robaste", not "Tú robó"). `view` is the position after
 * the move (Lobo words its moves from it).
 */
export function moveText(game, move, name, view, you = false) {
  const say = (key, params = {}) => t(you ? `replay.move.${key}.you` : `replay.move.${key}`, { name, ...params });
  if (move && typeof move === "object") {
    const play = move.play;
    const laid = play && Array.isArray(play.from_hand) ? play.from_hand.length : 0;
    return laid ? say(game === "rummikub" ? "laid_tiles" : "laid_cards", { n: laid }) : say("rearranged");
  }
  const text = String(move);
  const [verb, arg = ""] = text.split(" ");
  if (game === "wizard") {
    if (verb === "bid") return say("bid", { n: arg });
    if (verb === "play") return say("play", { card: wizardCardName(arg, t) });
    if (verb === "trump") return say("trump", { suit: t(`suit.${arg}`) });
  }
  if (game === "lobo") return `${name}: ${loboMove(text, t, view)}`;
  if (["draw", "pass", "timeout", "close", "continue"].includes(verb)) return say(verb);
  return `${name}: ${text}`;
}

/** The face of one card or tile of `game` (for the hands of every seat). */
export function faceOf(game, code) {
  if (game === "rummikub") return tileFace(code, t);
  if (game === "willie") return willieFace(code, t);
  return wizardFace(code, t);
}

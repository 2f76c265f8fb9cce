// Engine errors -> a sentence in the player's language: `reason.<reason>` for illegal moves,
// `error.<code>` otherwise, with details (suit, card, option, max, forbidden) as placeholders.

import { has, t } from "../i18n.js";
import { cardName } from "../render/cards.js";
import { loboCardName } from "../render/lobo.js";

/** The translated label of an option of a game (falls back to its name). */
export function optionLabel(game, name) {
  const key = `opt.${game}.${name}`;
  return has(key) ? t(key) : name;
}

/** The translated label of an option's value (falls back to the value). */
export function optionValueLabel(game, name, value) {
  const key = `opt.${game}.${name}.${value}`;
  return has(key) ? t(key) : String(value);
}

/** Games whose renderer words its own refusals (`explainError(error, t)`), by game id. */
const explainers = new Map();

/** Let a game's renderer explain its moves' errors (app.js registers every renderer's). */
export function registerExplainer(game, explain) {
  explainers.set(game, explain);
}

/**
 * An engine error in the player's language: the game's own explainer for move errors, else
 * the shared wording.
 * @param {any} error an EngineError (with .info) or a plain {code, message, reason?, ...}
 * @param {string} [game]
 */
export function errorText(error, game = "wizard") {
  const info = (error && error.info) || error || {};
  const explain = explainers.get(game);
  if (explain && (info.code === "illegal_move" || info.code === "invalid_move")) return explain(error, t);
  return sharedErrorText(error, game);
}

/** The shared wording: `reason.<reason>` for illegal moves, `error.<code>` otherwise. */
export function sharedErrorText(error, game = "wizard") {
  const info = (error && error.info) || error || {};
  const params = { ...info };
  if (typeof info.suit === "string") params.suit = t(`suit.${info.suit}`);
  if (typeof info.card === "string") params.card = game === "lobo" ? loboCardName(info.card, t) : cardName(info.card, t);
  if (game === "lobo" && typeof info.kind === "string" && has(`lobo.kind.${info.kind}`)) params.kind = t(`lobo.kind.${info.kind}`);
  if (typeof info.option === "string") params.option = optionLabel(game, info.option);
  if (info.code === "illegal_move") {
    const key = `reason.${info.reason}`;
    return has(key) ? t(key, params) : t("reason.generic", { message: info.message || "" });
  }
  // a combination the game refuses (no `reason`) has its own sentence, by the setting's name
  const specific = `error.${info.code}.${info.option}`;
  if (info.code === "bad_option" && info.option && !info.reason && has(specific)) return t(specific, params);
  if (info.code === "bad_option" && info.option && Number.isInteger(info.min) && Number.isInteger(info.max)) {
    return t("error.bad_option.range", params);
  }
  // which setting and why: not one of its choices (named in the player's language), not on or
  // off, not a whole number, no such setting
  const why = `error.bad_option.${info.reason}`;
  if (info.code === "bad_option" && info.option && typeof info.reason === "string" && has(why)) {
    if (Array.isArray(info.choices)) {
      const lang = document.documentElement.lang || "en";
      const labels = info.choices.map((value) => t("error.bad_option.choice", { value: optionValueLabel(game, info.option, value) }));
      params.choices = new Intl.ListFormat(lang, { type: "disjunction" }).format(labels);
    }
    return t(why, params);
  }
  const key = `error.${info.code}`;
  return has(key) ? t(key, params) : t("error.generic", { message: info.message || String(error) });
}

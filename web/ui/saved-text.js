// Words for a saved game, shared by the home list, "My games" and the replay: who played whom,
// where the game stands, when it was last played, and each seat's name.

import { language, t } from "../i18n.js";
import { optionValueLabel } from "./messages.js";
import { defaultName } from "./play.js";
import { youSeat } from "../saves/summary.js";

/** Every seat's name, as the table showed it. */
export function seatNames(record) {
  const humans = record.seats.filter((seat) => seat.kind === "human").length;
  return record.seats.map((seat, i) => seat.name || defaultName(seat, i, humans));
}

export function levelText(level) {
  const key = `bot.level.${level}`;
  const text = t(key);
  return text === key ? String(level) : text;
}

/** "3 bots · normal", "Luis, 1 bot · hard", "the Wolf · Easy (A–8)". */
export function opponentsText(record) {
  if (record.game === "lobo") return t("saves.vs.wolf", { level: optionValueLabel("lobo", "difficulty", record.options?.difficulty || "STANDARD") });
  const you = youSeat(record);
  const names = seatNames(record);
  const people = [];
  const bots = new Map();
  record.seats.forEach((seat, i) => {
    if (i === you) return;
    if (seat.kind === "human") people.push(names[i]);
    else bots.set(seat.level, (bots.get(seat.level) || 0) + 1);
  });
  const parts = [...people];
  for (const [level, n] of bots) parts.push(t("saves.vs.bots", { n, level: levelText(level) }));
  return parts.join(", ");
}

/** "Round 3 of 20", "Turn 12", "Game 2 of 3 · turn 4", or "12 moves" without a summary. */
export function progressText(entry) {
  const summary = entry.summary;
  const moves = entry.record.moves.length;
  if (!summary || !summary.progress) return t("saves.progress.moves", { n: moves });
  const p = summary.progress;
  if (entry.record.game === "wizard" && p.round) return t("saves.progress.round_of", { round: p.round, rounds: p.rounds ?? "?" });
  if (entry.record.game === "rummikub" && Number.isFinite(p.turn)) {
    const turn = t("saves.progress.turn", { n: p.turn + 1 });
    return p.games > 1 ? `${t("saves.progress.game_of", { n: p.game_no, games: p.games })} · ${turn}` : turn;
  }
  if (p.round) return t("saves.progress.round", { round: p.round });
  return t("saves.progress.moves", { n: moves });
}

/** "just now", "5 min ago", "today, 14:05", or a date and a time, in the player's language. */
export function whenText(ms, now = Date.now()) {
  const lang = language();
  const minutes = Math.round((now - ms) / 60_000);
  if (minutes < 1) return t("saves.when.now");
  if (minutes < 60) return new Intl.RelativeTimeFormat(lang, { numeric: "auto" }).format(-minutes, "minute");
  const date = new Date(ms);
  const time = new Intl.DateTimeFormat(lang, { timeStyle: "short" }).format(date);
  const today = new Date(now);
  if (date.toDateString() === today.toDateString()) return t("saves.when.today", { time });
  const yesterday = new Date(now - 86_400_000);
  if (date.toDateString() === yesterday.toDateString()) return t("saves.when.yesterday", { time });
  return new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(date);
}

/** A date alone, e.g. for the history table. */
export function dateText(ms) {
  return new Intl.DateTimeFormat(language(), { dateStyle: "medium" }).format(new Date(ms));
}

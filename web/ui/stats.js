// Statistics of finished games, from their summaries (web/saves/summary.js), and the score chart.
// Every number is "you": the first human seat of each game. Rows are per opponent level (the
// bots' levels, "people" for other humans; Lobo: its difficulty), then all games together.

import { h, svg } from "../dom.js";
import { t } from "../i18n.js";
import { opponentsKey } from "../saves/summary.js";
import { optionValueLabel } from "./messages.js";
import { levelText } from "./saved-text.js";

const mean = (values) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : null);
const finite = (values) => values.filter((v) => Number.isFinite(v));

/** One row of numbers for a set of finished entries of one game. */
export function statsRow(game, entries) {
  const stats = entries.map((entry) => entry.summary?.stats).filter(Boolean);
  const row = {
    played: stats.length,
    won: stats.filter((s) => s.won).length,
    average: mean(finite(stats.map((s) => s.score))),
  };
  if (game === "wizard") {
    row.bids_made = stats.reduce((n, s) => n + (s.bids_made || 0), 0);
    row.rounds = stats.reduce((n, s) => n + (s.rounds || 0), 0);
  } else if (game === "rummikub") {
    row.rack = mean(finite(stats.map((s) => s.rack_points)));
  } else if (game === "willie") {
    row.rounds_won = stats.reduce((n, s) => n + (s.rounds_won || 0), 0);
    row.rounds = stats.reduce((n, s) => n + (s.rounds || 0), 0);
  }
  return row;
}

/** The rows of a game's table: per opponent level (most played first), then "all". */
export function statsTable(game, entries) {
  const groups = new Map();
  for (const entry of entries) {
    const key = opponentsKey(entry.record, entry.summary);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(entry);
  }
  const rows = [...groups].map(([key, group]) => ({ key, ...statsRow(game, group) }));
  rows.sort((a, b) => b.played - a.played || a.key.localeCompare(b.key));
  if (rows.length > 1) rows.push({ key: "all", ...statsRow(game, entries) });
  return rows;
}

/** "vs hard", "vs easy + normal", "vs people", "Easy (A–8)". */
export function opponentsLabel(game, key) {
  if (key === "all") return t("stats.all");
  if (key.startsWith("difficulty:")) return optionValueLabel("lobo", "difficulty", key.slice(11));
  const parts = key.split("+").map((part) => (part === "people" ? t("stats.people") : part === "solo" ? t("stats.solo") : levelText(part)));
  return t("stats.vs", { who: parts.join(" + ") });
}

function percent(n, of) {
  return of ? `${Math.round((100 * n) / of)}%` : "–";
}

function number(value, digits = 1) {
  if (!Number.isFinite(value)) return "–";
  return new Intl.NumberFormat(document.documentElement.lang || "en", { maximumFractionDigits: digits }).format(value);
}

/** The statistics table of one game. */
export function renderStatsTable(game, entries) {
  const rows = statsTable(game, entries);
  const extra = {
    wizard: [t("stats.bids_made"), (r) => `${percent(r.bids_made, r.rounds)} (${r.bids_made}/${r.rounds})`],
    rummikub: [t("stats.rack_left"), (r) => number(r.rack)],
    willie: [t("stats.rounds_won"), (r) => `${r.rounds_won}/${r.rounds} (${percent(r.rounds_won, r.rounds)})`],
  }[game];
  const head = [game === "lobo" ? t("stats.difficulty") : t("stats.opponents"), t("stats.played"), t("stats.won"), t("stats.average")];
  if (extra) head.push(extra[0]);
  return h(
    "div",
    // a phone scrolls it sideways: a keyboard must reach it too
    { class: "table-scroll", tabindex: "0", role: "region", "aria-label": t("stats.title", { game: t(`game.${game}.name`) }) },
    h(
      "table",
      { class: "stats-table", dataset: { testid: "stats-table", game } },
      h("thead", null, h("tr", null, head.map((text, i) => h("th", { scope: "col", class: i ? "num" : null }, text)))),
      h(
        "tbody",
        null,
        rows.map((row) =>
          h(
            "tr",
            { class: row.key === "all" ? "stats-all" : null, dataset: { testid: "stats-row", key: row.key } },
            h("th", { scope: "row" }, opponentsLabel(game, row.key)),
            h("td", { class: "num", dataset: { stat: "played" } }, String(row.played)),
            h("td", { class: "num", dataset: { stat: "won" } }, `${row.won} (${percent(row.won, row.played)})`),
            h("td", { class: "num", dataset: { stat: "average" } }, number(row.average)),
            extra ? h("td", { class: "num", dataset: { stat: "extra" } }, extra[1](row)) : null,
          ),
        ),
      ),
    ),
  );
}

const CHART_GAMES = 20;

/** Your score over the last games of one game (oldest left), a bar per game, won in gold. */
export function renderScoreChart(entries) {
  const games = entries
    .filter((entry) => Number.isFinite(entry.summary?.stats?.score))
    .sort((a, b) => a.updated - b.updated)
    .slice(-CHART_GAMES);
  if (games.length < 2) return null;
  const scores = games.map((entry) => entry.summary.stats.score);
  if (scores.every((score) => score === 0)) return null; // nothing to draw
  const top = Math.max(0, ...scores);
  const bottom = Math.min(0, ...scores);
  const span = top - bottom || 1;
  const width = 600;
  const height = 180;
  const pad = { left: 44, right: 8, top: 12, bottom: 22 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const y = (value) => pad.top + ((top - value) / span) * plotH;
  const slot = plotW / games.length;
  const barW = Math.max(4, Math.min(28, slot * 0.7));
  const bars = games
    .map((entry, i) => {
      const score = entry.summary.stats.score;
      const x = pad.left + i * slot + (slot - barW) / 2;
      const y0 = y(Math.max(0, score));
      const barH = Math.max(1, Math.abs(y(score) - y(0)));
      const won = entry.summary.stats.won ? "won" : "lost";
      return `<rect class="bar ${won}" x="${x.toFixed(1)}" y="${y0.toFixed(1)}" width="${barW.toFixed(1)}" height="${barH.toFixed(1)}"><title>${Math.round(score)}</title></rect>`;
    })
    .join("");
  const label = (value) => `<text class="axis" x="${pad.left - 6}" y="${(y(value) + 4).toFixed(1)}" text-anchor="end">${Math.round(value)}</text>`;
  const ticks = [...new Set([top, 0, bottom])].map(label).join("");
  const zero = `<line class="zero" x1="${pad.left}" x2="${width - pad.right}" y1="${y(0).toFixed(1)}" y2="${y(0).toFixed(1)}"/>`;
  const chart = svg(`<svg class="score-chart" viewBox="0 0 ${width} ${height}" role="img">${zero}${bars}${ticks}</svg>`);
  const summary = t("stats.chart.aria", { n: games.length, last: Math.round(scores[scores.length - 1]), best: Math.round(Math.max(...scores)) });
  chart.setAttribute("aria-label", summary);
  return h(
    "figure",
    { class: "chart", dataset: { testid: "score-chart", bars: games.length } },
    h("figcaption", null, t("stats.chart.title", { n: games.length }), " ", h("span", { class: "chart-key won" }, t("stats.chart.won")), " ", h("span", { class: "chart-key lost" }, t("stats.chart.other"))),
    chart,
  );
}

// The lab's charts, inline SVG drawn by hand: how rounds end (a stacked bar per setting) and
// histograms with the settings' bars side by side. Heights are shares of each setting's own
// total, so a run stopped early still compares fairly.

import { h } from "../dom.js";
import { t } from "../i18n.js";

const NS = "http://www.w3.org/2000/svg";
/** The bin width of each histogram of the summary (tapete.lab.stats). */
const BIN_WIDTH = { rounds_per_game: 1, turns_per_round: 1, round_score: 5, final_score: 5 };
const MAX_BINS = 60;
export const SIDE_CLASS = ["side-a", "side-b"];

/** An SVG element (attributes set one by one: nothing is parsed as markup). */
function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attrs)) if (value !== null && value !== undefined) el.setAttribute(name, String(value));
  for (const child of children) if (child) el.append(child);
  return el;
}

function tip(text) {
  const title = s("title");
  title.textContent = text;
  return title;
}

const pct = (part, whole) => (whole ? (100 * part) / whole : 0);

/**
 * How rounds end: one stacked bar per setting (closing, going out, empty stock).
 * @param {{side: string, summary: object}[]} runs
 */
export function endsChart(runs) {
  const ends = ["close", "out", "stock"];
  const rows = runs.map(({ side, summary }) => {
    const shares = ends.map((end) => 100 * (summary[`end_${end}`] || 0));
    let x = 0;
    const bar = s("svg", { class: "lab-stack", viewBox: "0 0 100 10", preserveAspectRatio: "none", role: "img", "aria-label": side });
    shares.forEach((share, i) => {
      if (share > 0) bar.append(s("rect", { x, y: 0, width: share, height: 10, class: `end-${ends[i]}` }, tip(`${t(`lab.end.${ends[i]}`)}: ${share.toFixed(1)}%`)));
      x += share;
    });
    return h("div", { class: "lab-stack-row" }, h("span", { class: "lab-side-tag" }, side), bar);
  });
  const legend = h(
    "ul",
    { class: "lab-legend" },
    ends.map((end) => h("li", null, h("span", { class: `swatch end-${end}` }), t(`lab.end.${end}`))),
  );
  return chartBox("ends", t("lab.chart.ends"), h("div", null, rows, legend));
}

/**
 * A histogram of `key` for every setting, bars side by side per bin.
 * @param {string} key a key of summary.histograms
 * @param {{side: string, summary: object}[]} runs
 */
export function histogramChart(key, runs) {
  const bins = allBins(runs.flatMap(({ summary }) => Object.keys(summary.histograms[key] || {})), BIN_WIDTH[key] || 1);
  const totals = runs.map(({ summary }) => Object.values(summary.histograms[key] || {}).reduce((sum, n) => sum + n, 0));
  const shares = runs.map(({ summary }, i) => bins.map((bin) => pct((summary.histograms[key] || {})[bin] || 0, totals[i])));
  const top = Math.max(1, ...shares.flat());
  const width = 300, height = 120, left = 4, bottom = 18;
  const slot = (width - left) / Math.max(1, bins.length);
  const bar = Math.max(1, (slot * 0.8) / runs.length);
  const chart = s("svg", { class: "lab-hist", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": t(`lab.chart.${key}`) });
  chart.append(s("line", { x1: left, x2: width, y1: height - bottom, y2: height - bottom, class: "axis" }));
  const every = Math.ceil(bins.length / 12); // at most about 12 labels under the bars
  bins.forEach((bin, b) => {
    const x0 = left + b * slot + slot * 0.1;
    runs.forEach(({ side, summary }, i) => {
      const value = shares[i][b];
      const tall = ((height - bottom - 6) * value) / top;
      const count = (summary.histograms[key] || {})[bin] || 0;
      chart.append(
        s("rect", { x: x0 + i * bar, y: height - bottom - tall, width: Math.max(0.5, bar - 0.5), height: tall, class: SIDE_CLASS[i] },
          tip(t("lab.chart.bar", { side, bin, count, pct: value.toFixed(1) }))),
      );
    });
    if (b % every === 0) {
      const label = s("text", { x: x0 + (bar * runs.length) / 2, y: height - 5, class: "tick" });
      label.textContent = bin;
      chart.append(label);
    }
  });
  const legend = runs.length > 1
    ? h("ul", { class: "lab-legend" }, runs.map(({ side }, i) => h("li", null, h("span", { class: ["swatch", SIDE_CLASS[i]] }), side)))
    : null;
  return chartBox(key, t(`lab.chart.${key}`), h("div", null, chart, legend), t("lab.chart.top", { pct: top.toFixed(0) }));
}

/** Every bin from the lowest to the highest one seen (empty ones too), unless that is too many. */
function allBins(seen, width) {
  const values = [...new Set(seen)].map(Number).sort((x, y) => x - y);
  if (!values.length) return [];
  const low = values[0], high = values[values.length - 1];
  if ((high - low) / width >= MAX_BINS) return values.map(String);
  const out = [];
  for (let v = low; v <= high; v += width) out.push(String(v));
  return out;
}

function chartBox(key, title, body, note) {
  return h("figure", { class: "lab-chart", dataset: { testid: `lab-chart-${key}` } }, h("figcaption", null, title), body, note ? h("p", { class: "hint" }, note) : null);
}

// "Review my play": the `review` op (docs/CONTRACTS.md) run in the worker chunk by chunk from
// the replay screen, with a progress bar and Stop; a short summary (the three costliest
// decisions, the total loss) and a mark per decision on the replay's timeline. The game-over
// screen links here (`#/replay/<id>?review=1` starts it at once).
//
// Every figure is the engine's: the page only shows them. A finished (or stopped) review is kept
// with the saved game (`extras.review`): the engine reviews the same record the same way every
// time, so it is valid as long as the record has not grown.

import { h, mount } from "../dom.js";
import { language } from "../i18n.js";
import { getExtra, setExtra } from "../saves/saves.js";
import { reducedMotion } from "../motion.js";
import { errorText } from "./messages.js";
import { addGameOverLink, addReplayExtension } from "./replay.js";
import { lossText, moveText, whereText } from "./review-text.js";

const CHUNK_BUDGET = 250; // work units a request (about a quarter of a second of CPython)
const CHUNK_TIMEOUT_MS = 90_000;
const KEPT_VERSION = 1;

/** The key the engine gives a review's summary: game, seat, seed and number of moves. */
export function reviewKey(record, seat) {
  return `${record.game}:${seat}:${record.seed}:${record.moves.length}`;
}

/** The seat a review judges: the one the replay shows, else the record's first human seat. */
export function reviewSeat(screen) {
  if (Number.isInteger(screen.viewer)) return screen.viewer;
  const index = (screen.record.seats || []).findIndex((s) => s && s.kind === "human");
  return index >= 0 ? index : null;
}

/** What is kept of an item: the rummy games' tables are left out (the laid tiles say it). */
function compact(item) {
  const keep = (move) => (move && typeof move === "object" ? { play: true } : move);
  return { ...item, played: keep(item.played), best: keep(item.best) };
}

/**
 * Runs a review chunk after chunk; `onChunk(state)` after each one. `state`: {items, summary,
 * grading, done, total, next, resume, finished}.
 */
export class ReviewRun {
  constructor({ engine, record, seat, onChunk, from = null }) {
    this.engine = engine;
    this.record = record;
    this.seat = seat;
    this.onChunk = onChunk;
    this.stopping = false;
    this.state = from || { items: [], summary: null, grading: null, done: 0, total: record.moves.length, next: 0, resume: null, finished: false };
  }

  stop() {
    this.stopping = true;
  }

  /** Resolves with the state when finished or stopped; rejects with the engine's error. */
  async run() {
    const s = this.state;
    while (!s.finished && !this.stopping) {
      const request = { record: this.record, seat: this.seat, budget: CHUNK_BUDGET, start: s.next || 0 };
      if (s.resume) request.state = s.resume;
      if (s.summary) request.summary = s.summary;
      const result = await this.engine.call("review", request, { timeout: CHUNK_TIMEOUT_MS });
      s.items = s.items.concat(result.items.map(compact));
      s.summary = result.summary;
      s.grading = result.grading;
      s.done = result.done;
      s.total = result.total;
      s.next = result.next;
      s.resume = result.state;
      s.finished = result.next === null;
      this.onChunk(s);
    }
    return s;
  }
}

/** The panel of one replay screen. */
class ReviewPanel {
  constructor(screen) {
    this.screen = screen;
    this.t = screen.t;
    this.seat = reviewSeat(screen);
    this.key = this.seat === null ? null : reviewKey(screen.record, this.seat);
    this.run = null;
    this.state = null;
    this.error = "";
    // hidden until a review runs or one is kept: the replay's panel stays empty otherwise
    this.root = h("section", { class: "panel wide review", hidden: true, dataset: { testid: "review" } });
    screen.panel.append(this.root);
    if (this.seat === null) return; // nobody to review (every seat a bot)
    this.button = screen.addAction({ id: "review", label: this.t("review.open"), onclick: () => this.start() });
    screen.addEventListener("close", () => this.run?.stop());
    this.restore();
  }

  async restore() {
    const kept = await getExtra(this.screen.entry.id, "review").catch(() => undefined);
    if (kept && kept.v === KEPT_VERSION && kept.key === this.key && kept.state) {
      this.state = kept.state;
      this.draw();
    }
    const wanted = this.screen.params && this.screen.params.get("review") === "1";
    if (wanted && !(this.state && this.state.finished)) this.start();
  }

  async start() {
    if (this.run) return;
    this.error = "";
    const from = this.state && !this.state.finished ? this.state : null;
    // a finished review is shown already: the button only brings it into view
    if (this.state && this.state.finished) return this.root.scrollIntoView?.({ block: "start", behavior: reducedMotion() ? "auto" : "smooth" });
    this.run = new ReviewRun({
      engine: this.screen.engine,
      record: this.screen.record,
      seat: this.seat,
      from,
      onChunk: (state) => {
        this.state = state;
        this.draw();
      },
    });
    this.draw();
    try {
      this.state = await this.run.run();
    } catch (error) {
      this.error = errorText(error, this.screen.record.game);
    }
    this.run = null;
    this.draw();
    if (this.state && this.state.items) this.keep();
  }

  stop() {
    if (!this.run) return;
    this.run.stop();
    this.draw();
  }

  keep() {
    const value = { v: KEPT_VERSION, key: this.key, state: { ...this.state, resume: this.state.finished ? null : this.state.resume } };
    setExtra(this.screen.entry.id, "review", value).catch(() => {
      // too big or no storage: the review stays on screen, it is only not kept
    });
  }

  marks() {
    const game = this.screen.record.game;
    const unit = this.state?.grading?.unit || "points";
    return (this.state?.items || []).map((item) => ({
      index: item.index,
      grade: item.grade,
      seat: item.seat,
      title: `${this.t(`review.grade.${item.grade}`)}: ${whereText(game, item, this.t)}, ${moveText(game, item, "played", this.t)}${item.loss > 0 ? ` (−${lossText(item.loss, unit, this.t, language())})` : ""}`,
    }));
  }

  draw() {
    const t = this.t;
    const running = Boolean(this.run);
    const state = this.state;
    if (this.button) {
      this.button.disabled = running;
      this.button.textContent = state && !state.finished && state.items.length ? t("review.resume") : t("review.open");
    }
    this.root.hidden = false;
    this.screen.setMarks(this.marks());
    const parts = [h("h2", null, t("review.title"))];
    if (running || (state && !state.finished)) parts.push(this.progress(running));
    if (this.error) parts.push(h("p", { class: "review-error", role: "alert", dataset: { testid: "review-error" } }, this.error));
    if (state && state.summary) parts.push(this.summary());
    else if (!running && !this.error) parts.push(h("p", { class: "review-intro" }, t("review.intro")));
    mount(this.root, parts);
  }

  progress(running) {
    const t = this.t;
    const s = this.state || { done: 0, total: this.screen.record.moves.length };
    const stopping = running && this.run.stopping;
    const text = running ? t(stopping ? "review.stopping" : "review.progress", { done: s.done, total: s.total }) : t("review.stopped", { done: s.done, total: s.total });
    return h(
      "div",
      { class: "review-progress" },
      h(
        "div",
        { class: "review-progress-row" },
        h("p", { class: "review-progress-text", role: "status", dataset: { testid: "review-progress-text" } }, text),
        running
          ? h("button", { type: "button", class: "ghost", disabled: stopping, dataset: { testid: "review-stop" }, onclick: () => this.stop() }, t("review.stop"))
          : h("button", { type: "button", class: "primary", dataset: { testid: "review-resume" }, onclick: () => this.start() }, t("review.resume")),
      ),
      h("progress", { max: s.total || 1, value: s.done, dataset: { testid: "review-progress" } }),
    );
  }

  summary() {
    const t = this.t;
    const lang = language();
    const game = this.screen.record.game;
    const { summary, grading, items } = this.state;
    const unit = grading.unit;
    const byIndex = new Map(items.map((item) => [item.index, item]));
    const counts = h(
      "ul",
      { class: "review-counts", dataset: { testid: "review-counts" } },
      ["good", "inaccuracy", "mistake"].map((grade) =>
        h("li", { class: `review-count grade-${grade}`, dataset: { grade } }, h("span", { class: "review-dot", "aria-hidden": "true" }), t(`review.count.${grade}`, { n: summary[grade] })),
      ),
    );
    const top = summary.top
      .map((entry) => byIndex.get(entry.index))
      .filter(Boolean)
      .map((item) =>
        h(
          "li",
          { class: `review-top grade-${item.grade}`, dataset: { testid: "review-top", index: item.index } },
          h(
            "div",
            { class: "review-top-head" },
            h("button", { type: "button", class: "ghost review-goto", title: t("review.goto"), onclick: () => this.screen.goTo(item.index) }, whereText(game, item, t)),
            h("span", { class: "review-loss" }, `−${lossText(item.loss, unit, t, lang)}`),
          ),
          h("p", { class: "review-played" }, t("review.played", { move: moveText(game, item, "played", t) })),
          h("p", { class: "review-better" }, t("review.better", { move: moveText(game, item, "best", t) })),
        ),
      );
    return h(
      "div",
      { class: "review-summary", dataset: { testid: "review-summary" } },
      h(
        "p",
        { class: "review-total", dataset: { testid: "review-total" } },
        t(this.state.finished ? "review.total" : "review.total_so_far", { n: summary.decisions, loss: lossText(summary.loss, unit, t, lang) }),
      ),
      counts,
      top.length ? h("h3", null, t("review.costliest")) : h("p", null, t("review.no_loss")),
      top.length ? h("ol", { class: "review-tops" }, top) : null,
      h("p", { class: "review-note" }, t(`review.note.${game}`, { inaccuracy: grading.inaccuracy, mistake: grading.mistake })),
    );
  }
}

addReplayExtension((screen) => new ReviewPanel(screen));
addGameOverLink({ id: "review", label: (t) => t("review.open"), query: "review=1" });

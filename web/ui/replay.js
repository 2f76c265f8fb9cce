// The replay of a saved game (#/replay/<id>), finished or not: first / back / forward / last,
// the arrow keys, Home / End, a timeline to drag, and autoplay. Every position is rebuilt from
// the record by the engine (`replay_steps`, a window of 64 positions a call, kept), so a step is
// drawn from memory and a 500-move game is never replayed from move 0 for each step. A finished
// game may be seen from any seat with every hand shown; an unfinished one only as its human
// seat saw it (no hand at all when several humans share the device).
//
// Other features plug in without editing this file (docs/CONTRACTS.md): addReplayExtension,
// addGameOverLink, screen.addAction, screen.panel, screen.setMarks, "step" and "close" events.

import { h, mount } from "../dom.js";
import { t } from "../i18n.js";
import { youSeat } from "../saves/summary.js";
import { faceOf, moveText } from "./replay-moves.js";
import { seatNames } from "./saved-text.js";

export const WINDOW = 64;
const AUTOPLAY_MS = 900;
const GRADES = ["good", "inaccuracy", "mistake"];

const extensions = [];
const overLinks = [];

/** Register a feature for every replay screen: `factory(screen)` runs each time one opens. */
export function addReplayExtension(factory) {
  extensions.push(factory);
}

/** A link on the game-over screen to `#/replay/<id>?<query>`: {id, label: (t) => string, query}. */
export function addGameOverLink(link) {
  overLinks.push(link);
}

/** The game-over screen's links for a saved game: the replay, then every registered one. */
export function gameOverLinks(gameId) {
  if (!gameId) return [];
  return [
    h("a", { class: "button ghost", href: `#/replay/${gameId}`, dataset: { testid: "replay-link" } }, t("replay.open")),
    ...overLinks.map((link) =>
      h("a", { class: "button ghost", href: `#/replay/${gameId}?${link.query || ""}`, dataset: { testid: `over-link-${link.id}` } }, link.label(t)),
    ),
  ];
}

/** The positions of one record as one seat sees them, fetched a window at a time and kept. */
class Positions {
  constructor(engine, record, viewSeat, reveal) {
    this.engine = engine;
    this.record = record;
    this.viewSeat = viewSeat;
    this.reveal = reveal;
    this.windows = new Map();
  }

  fetch(start) {
    if (!this.windows.has(start)) {
      const call = this.engine
        .call("replay_steps", { record: this.record, view_seat: this.viewSeat, start, count: WINDOW, reveal: this.reveal }, { timeout: 60_000 })
        .then((result) => result.steps);
      call.catch(() => this.windows.delete(start)); // asked again next time
      this.windows.set(start, call);
    }
    return this.windows.get(start);
  }

  /** The position after `step` moves: {step, to_move, view, hands?}. */
  async get(step) {
    const start = step - (step % WINDOW);
    const steps = await this.fetch(start);
    const total = this.record.moves.length;
    // the neighbours are fetched ahead, while the player looks at this one
    if (step % WINDOW >= WINDOW / 2 && start + WINDOW <= total) this.fetch(start + WINDOW).catch(() => {});
    if (step % WINDOW < WINDOW / 2 && start >= WINDOW) this.fetch(start - WINDOW).catch(() => {});
    return steps[step - start];
  }
}

export class ReplayScreen extends EventTarget {
  /**
   * @param {{root: HTMLElement, engine: object, entry: object, renderer: object, params: URLSearchParams,
   *          onError: (error: object) => void}} ctx
   */
  constructor(ctx) {
    super();
    this.ctx = ctx;
    this.entry = ctx.entry;
    this.record = ctx.entry.record;
    this.engine = ctx.engine;
    this.params = ctx.params || new URLSearchParams();
    this.t = t;
    this.finished = ctx.entry.status === "finished";
    this.names = seatNames(this.record);
    this.total = this.record.moves.length;
    const humans = this.record.seats.filter((seat) => seat.kind === "human").length;
    this.viewer = youSeat(this.record);
    /** An unfinished game with several humans on one device: nobody's hand is shown. */
    this.handsHidden = !this.finished && humans > 1;
    this.reveal = false;
    this.step = this.total;
    this.marks = [];
    this.closed = false;
    this.playing = 0;
    this.drawn = -1;
    this.positions = new Positions(this.engine, this.record, this.viewer, false);
    this.actionsEl = h("div", { class: "replay-actions", dataset: { testid: "replay-actions" } });
    this.panel = h("div", { class: "replay-panel", dataset: { testid: "replay-panel" } });
    this.onKey = (event) => this.key(event);
  }

  /** Open the screen at the last position (or `?step=N`), then run the extensions. */
  async start() {
    const wanted = Number.parseInt(this.params.get("step") ?? "", 10);
    if (Number.isInteger(wanted)) this.step = Math.max(0, Math.min(this.total, wanted));
    this.layout();
    document.addEventListener("keydown", this.onKey);
    for (const factory of extensions) {
      try {
        factory(this);
      } catch (error) {
        console.error("tapete: a replay extension failed:", error);
      }
    }
    await this.goTo(this.step);
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    this.stopAutoplay();
    document.removeEventListener("keydown", this.onKey);
    this.dispatchEvent(new CustomEvent("close"));
  }

  /** A button in the toolbar (test id `replay-action-<id>`). */
  addAction({ id, label, onclick }) {
    const button = h("button", { type: "button", class: "ghost", dataset: { testid: `replay-action-${id}` }, onclick }, label);
    this.actionsEl.append(button);
    return button;
  }

  /** Marks on the timeline: [{index, grade, seat?, title?}] (index: the move, 0-based). */
  setMarks(marks) {
    this.marks = (Array.isArray(marks) ? marks : []).filter((mark) => mark && Number.isInteger(mark.index) && mark.index >= 0 && mark.index < this.total && GRADES.includes(mark.grade));
    this.drawMarks();
  }

  /** Whether a seat is the player's own, shown as "You" (unnamed, the only human). */
  isYou(seat) {
    const humans = this.record.seats.filter((s) => s.kind === "human").length;
    const who = this.record.seats[seat];
    return Boolean(who && who.kind === "human" && !who.name && humans === 1);
  }

  // -- layout ------------------------------------------------------------------------------

  layout() {
    const button = (testid, label, text, onclick) => h("button", { type: "button", class: "ghost replay-button", "aria-label": label, title: label, dataset: { testid }, onclick }, text);
    this.slider = h("input", {
      type: "range", min: "0", max: String(this.total), step: "1", value: String(this.step),
      class: "replay-slider", "aria-label": t("replay.timeline"), dataset: { testid: "replay-slider" },
    });
    this.slider.addEventListener("input", () => this.goTo(Number(this.slider.value)));
    this.marksEl = h("div", { class: "replay-marks", dataset: { testid: "replay-marks" } });
    this.position = h("span", { class: "replay-position", dataset: { testid: "replay-position" } });
    this.moveEl = h("p", { class: "replay-move", role: "status", "aria-live": "polite", dataset: { testid: "replay-move" } });
    this.playButton = h("button", { type: "button", class: "ghost replay-play", dataset: { testid: "replay-play" }, onclick: () => (this.playing ? this.stopAutoplay() : this.autoplay()) }, t("replay.play"));
    this.board = h("div", { class: "replay-board", dataset: { testid: "replay-board" } });
    this.handsEl = h("div", { class: "replay-hands", dataset: { testid: "replay-hands" } });
    this.errorEl = h("p", { class: "notice", role: "alert", hidden: true, dataset: { testid: "replay-error" } });
    const views = [];
    if (this.finished && this.record.players > 1) {
      const seatSelect = h(
        "select",
        { dataset: { testid: "replay-seat" }, "aria-label": t("replay.seen_from") },
        this.names.map((name, seat) => h("option", { value: String(seat), selected: seat === this.viewer }, name)),
      );
      seatSelect.addEventListener("change", () => this.setView(Number(seatSelect.value), this.reveal));
      const reveal = h("input", { type: "checkbox", dataset: { testid: "replay-reveal" } });
      reveal.addEventListener("change", () => this.setView(this.viewer, reveal.checked));
      views.push(
        h("label", { class: "replay-option" }, h("span", null, t("replay.seen_from")), seatSelect),
        h("label", { class: "replay-option replay-check" }, reveal, h("span", null, t("replay.show_hands"))),
      );
    } else if (!this.finished) {
      const note = this.handsHidden ? "replay.note.hidden" : this.isYou(this.viewer) ? "replay.note.you" : "replay.note.seat";
      views.push(h("p", { class: "replay-note small", dataset: { testid: "replay-note" } }, t(note, { name: this.names[this.viewer] })));
    }
    const game = t(`game.${this.record.game}.name`);
    mount(
      this.ctx.root,
      h(
        "div",
        { class: "replay", dataset: { testid: "replay", finished: String(this.finished), total: this.total } },
        h(
          "section",
          { class: "panel wide replay-head" },
          h("div", { class: "replay-title" },
            h("h1", null, t("replay.title", { game }), " ", this.position),
            h("div", { class: "replay-links" },
              this.finished ? h("a", { class: "button ghost small", href: `#/play/${this.entry.id}`, dataset: { testid: "replay-final" } }, t("stats.open")) : h("a", { class: "button primary small", href: `#/play/${this.entry.id}`, dataset: { testid: "replay-continue" } }, t("home.continue")),
              h("a", { class: "button ghost small", href: "#/games", dataset: { testid: "replay-my-games" } }, t("stats.my_games")))),
          h("div", { class: "replay-bar" },
            h("div", { class: "replay-controls", role: "group", "aria-label": t("replay.controls") },
              button("replay-first", t("replay.first"), "|◀", () => this.goTo(0)),
              button("replay-back", t("replay.back"), "◀", () => this.goTo(this.step - 1)),
              this.playButton,
              button("replay-forward", t("replay.forward"), "▶", () => this.goTo(this.step + 1)),
              button("replay-last", t("replay.last"), "▶|", () => this.goTo(this.total))),
            h("div", { class: "replay-timeline" }, this.marksEl, this.slider)),
          h("div", { class: "replay-info" }, this.moveEl, h("div", { class: "replay-views" }, views)),
          h("div", { class: "replay-foot" }, this.actionsEl, h("p", { class: "small replay-keys" }, t("replay.keys"))),
        ),
        this.errorEl,
        this.board,
        this.handsEl,
        this.panel,
      ),
    );
    this.drawMarks();
  }

  drawMarks() {
    if (!this.marksEl) return;
    const span = Math.max(1, this.total);
    mount(
      this.marksEl,
      this.marks.map((mark) => {
        const label = mark.title || t(`replay.mark.${mark.grade}`, { n: mark.index + 1 });
        return h("button", {
          type: "button",
          class: ["replay-mark", `grade-${mark.grade}`],
          style: { left: `${(100 * (mark.index + 0.5)) / span}%` },
          title: label,
          "aria-label": label,
          dataset: { testid: "replay-mark", index: mark.index, grade: mark.grade },
          onclick: () => this.goTo(mark.index),
        });
      }),
    );
  }

  // -- stepping ----------------------------------------------------------------------------

  /** Show the position after `step` moves (clamped). */
  async goTo(step) {
    if (this.closed) return;
    step = Math.max(0, Math.min(this.total, Math.round(Number(step) || 0)));
    this.step = step;
    this.slider.value = String(step);
    this.position.textContent = t("replay.position", { step, total: this.total });
    const token = (this.token = (this.token || 0) + 1);
    let position;
    let previous = null;
    try {
      position = await this.positions.get(step);
      if (step > 0) previous = await this.positions.get(step - 1);
    } catch (error) {
      if (this.closed || token !== this.token) return;
      this.stopAutoplay();
      this.errorEl.hidden = false;
      this.errorEl.textContent = this.ctx.errorText ? this.ctx.errorText(error) : String(error.message || error);
      if (this.ctx.onError) this.ctx.onError(error);
      return;
    }
    if (this.closed || token !== this.token) return; // a later step was asked meanwhile
    this.errorEl.hidden = true;
    this.draw(position, previous);
    this.dispatchEvent(new CustomEvent("step", { detail: { step } }));
  }

  /** Draw a position; a move that ended a trick shows the trick still on the table, as in play
   * (the renderer's `describeTransition` from the position before). */
  draw(position, previous = null) {
    const { renderer } = this.ctx;
    const step = position.step;
    const entry = step > 0 ? this.record.moves[step - 1] : null;
    const change = entry && previous && renderer.describeTransition ? renderer.describeTransition(previous.view, position.view, entry.move, entry.seat) : null;
    const view = change && change.trick ? change.view : position.view;
    this.moveEl.textContent = entry
      ? t("replay.move_of", { n: step, total: this.total, move: moveText(this.record.game, entry.move, this.names[entry.seat], position.view, this.isYou(entry.seat)) })
      : t("replay.deal");
    const table = renderer.renderTable({
      view,
      legal: [],
      names: this.names,
      bots: this.record.seats.map((seat) => seat.kind === "bot"),
      viewer: this.viewer,
      t,
      onMove: () => {},
      interactive: false,
      trickShown: change && change.trick ? change.trick : null,
      status: position.to_move === null ? t("status.over") : this.isYou(position.to_move) ? t("replay.to_move.you") : t("replay.to_move", { name: this.names[position.to_move] }),
      message: "",
      hideHand: this.handsHidden,
      selectionKey: `replay:${this.entry.id}:${this.viewer}:${step}`,
      refresh: () => this.draw(position, previous),
      onCheck: async () => null,
      onHint: () => {},
      onUndo: () => {},
      canUndo: false,
      hint: null,
      hintBusy: false,
    });
    mount(this.board, table);
    this.board.dataset.step = String(step);
    this.drawn = step;
    this.drawHands(position);
  }

  drawHands(position) {
    if (!this.reveal || !position.hands) {
      this.handsEl.hidden = true;
      return;
    }
    this.handsEl.hidden = false;
    mount(
      this.handsEl,
      h("h2", null, t("replay.hands")),
      position.hands.map((cards, seat) =>
        seat === this.viewer
          ? null
          : h("div", { class: "replay-hand", dataset: { testid: "replay-hand", seat } },
            h("span", { class: "replay-hand-name" }, t("replay.hand_of", { name: this.names[seat], n: cards.length })),
            h("div", { class: "replay-cards" }, cards.map((code) => faceOf(this.record.game, code)))),
      ),
    );
  }

  /** See the game from another seat, or with every hand (finished games only). */
  setView(seat, reveal) {
    if (!this.finished) return;
    this.viewer = seat;
    this.reveal = reveal;
    this.positions = new Positions(this.engine, this.record, seat, reveal);
    this.goTo(this.step);
  }

  autoplay() {
    if (this.step >= this.total) this.goTo(0);
    this.playButton.textContent = t("replay.pause");
    const tick = async () => {
      if (!this.playing || this.closed) return;
      if (this.step >= this.total) return this.stopAutoplay();
      await this.goTo(this.step + 1);
      if (this.playing) this.playing = setTimeout(tick, AUTOPLAY_MS);
    };
    this.playing = setTimeout(tick, AUTOPLAY_MS);
  }

  stopAutoplay() {
    if (this.playing) clearTimeout(this.playing);
    this.playing = 0;
    if (!this.playButton) return;
    this.playButton.textContent = t("replay.play");
  }

  key(event) {
    if (this.closed || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    // the timeline's slider steps by itself; fields and dialogs keep their keys
    const typing = target && (target.isContentEditable || ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName));
    if (typing || document.querySelector("#overlays .overlay")) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: null, ArrowDown: null, Home: -Infinity, End: Infinity }[event.key];
    if (moves === undefined || moves === null) return;
    event.preventDefault();
    this.stopAutoplay();
    if (moves === -Infinity) this.goTo(0);
    else if (moves === Infinity) this.goTo(this.total);
    else this.goTo(this.step + moves);
  }
}

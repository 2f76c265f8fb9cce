// The game controller: holds the game record and the latest snapshot, asks the engine for every
// move (human clicks and bot turns), autosaves after each move, paces bots, pauses on finished
// tricks and rounds, and shows the hot-seat hand-over between two human players.
//
// On several devices (web/net/) a `driver` in the context stands in for the engine where a
// seat is on another device: `remoteMove(seat, game)` resolves with the next move of a seat
// marked `remote` (the host: a guest's move checked and applied by the host's engine; a guest:
// the move the host announced), `apply(seat, move, game)` plays the viewer's move (a guest
// sends it to the host), `ask(op, fields)` answers inspect/arrange/hint, and `committed(game)`
// hears of every move. Renderers never know which it is.
//
// For keyboard and screen-reader players (issue 18): the focus survives every redraw
// (./focus.js), and a live region (./announce.js) says each other player's move, the trick's
// winner, a round's result, the player's turn, a refused move and the game's end
// (./announce-moves.js words them).
//
// First-time help (issue 18): the guided tour of the table (./tour.js) opens by itself on the
// player's first turn of a game they have never toured here: on their turn every element it
// explains is on the table (the bids, Done, the hint), and the game waits for them anyway, so
// nothing moves behind it, and on several devices no one else waits for it. Opened again from
// the ⚙ menu while bots play, the bots of this device wait until it ends.

import { h, mount, sleep } from "../dom.js";
import { t } from "../i18n.js";
import { keepMove } from "../saves/keeper.js";
import { saveSettings } from "../store.js";
import { errorText } from "./messages.js";
import { showOverlay, closeOverlay } from "./overlay.js";
import { announce, clearAnnouncements, forgetSecrets } from "./announce.js";
import { moveNews, tableNews } from "./announce-moves.js";
import { FocusKeeper } from "./focus.js";
import { gameOverText } from "./game-over.js";
import { markTourSeen, offerTourButton, Tour, tourDue, withdrawTourButton } from "./tour.js";

/**
 * Pacing in milliseconds: [normal, fast bots]. `bot` and `human` are the least time from one
 * move on screen to a bot's next move: the bot thinks meanwhile (its request starts at once), so
 * a bot that thinks longer adds only what goes over. After a person's move (`human`: this
 * device's or another's) the table waits longer, so that the card just played can be read.
 * `trick` is the pause on a finished trick, `round` how long an unattended table (no one at it
 * to press Continue) shows a round's result. Measured in bench/bench_pace.py.
 */
export const PACE = { bot: [400, 40], human: [700, 150], trick: [1000, 300], round: [8000, 600] };
/** A searching bot may think for a while inside Pyodide. */
const BOT_TIMEOUT_MS = 180_000;

/**
 * @typedef {object} Game
 * @property {import("../store.js").GameRecord} record
 * @property {object} snap  the latest snapshot {state, to_move, outcome, view, legal_moves}
 * @property {number} viewer the seat whose view `snap` holds
 * @property {number|null} shown the human last shown the table (hot-seat), null before anyone
 */

/** A seat's name when the player gave none: "You" alone at the table, else "Player 2" / "Bot 3". */
export function defaultName(seat, index, humans) {
  if (seat.kind === "bot") return t("seat.bot", { n: index + 1 });
  return humans === 1 ? t("seat.you") : t("seat.player", { n: index + 1 });
}

export class PlayScreen {
  /**
   * @param {object} ctx {engine, root, renderer, settings, onOver(game), onFatal(error)}; and
   *   optionally barExtra() (more of the bar under the table) and notice() (a line above it)
   * @param {Game} game
   */
  constructor(ctx, game) {
    this.ctx = ctx;
    this.game = game;
    this.stopped = false;
    this.busy = true;
    this.looping = false;
    this.message = "";
    this.trickShown = null;
    this.displayView = null;
    this.hideHand = false;
    this.paused = false; // the last move ended with a pause on the table (a finished trick)
  }

  get record() {
    return this.game.record;
  }

  /** "human" (a player at this device), "bot" (played here) or "remote" (another device). */
  seatKind(seat) {
    const who = this.record.seats[seat];
    return who.remote ? "remote" : who.kind;
  }

  /** The seats of the players at this device. */
  humans() {
    return this.record.seats.map((s, i) => (this.seatKind(i) === "human" ? i : -1)).filter((i) => i >= 0);
  }

  /** The view the engine should send with a snapshot: the viewer's, or no seat's (a table screen). */
  viewFields() {
    return this.game.viewer === null ? { view_public: true } : { view_seat: this.game.viewer };
  }

  /** An engine question about the position on view (a guest asks its host). */
  ask(op, fields = {}) {
    if (this.ctx.driver) return this.ctx.driver.ask(op, fields, this.game);
    return this.ctx.engine.call(op, { game: this.record.game, state: this.game.snap.state, seat: this.game.viewer, ...fields }, op === "hint" ? { timeout: 120_000 } : {});
  }

  names() {
    const humans = this.humans();
    return this.record.seats.map((seat, i) => seat.name || (this.seatKind(i) === "remote" && seat.kind !== "bot" ? t("seat.player", { n: i + 1 }) : defaultName(seat, i, humans.length)));
  }

  pace(kind) {
    return PACE[kind][this.ctx.settings.fastBots ? 1 : 0];
  }

  /** Whether the last move was a person's (here or on another device), not a bot's. */
  lastMoveByPerson() {
    const last = this.record.moves[this.record.moves.length - 1];
    return Boolean(last) && this.record.seats[last.seat]?.kind !== "bot";
  }

  /** Whether a bot plays at this device (the pace is this device's to set). */
  hasLocalBots() {
    return this.record.seats.some((_, seat) => this.seatKind(seat) === "bot");
  }

  /** The table bar's pace switch: fast bots on or off, kept with the settings at once. */
  paceToggle() {
    const fast = Boolean(this.ctx.settings.fastBots);
    return h(
      "button",
      {
        type: "button",
        class: ["ghost", "pace-toggle", fast ? "active" : null],
        "aria-pressed": String(fast),
        title: t(fast ? "table.pace.fast_title" : "table.pace.normal_title"),
        dataset: { testid: "pace-toggle" },
        onclick: () => {
          this.ctx.settings.fastBots = !fast;
          saveSettings(this.ctx.settings);
          document.dispatchEvent(new CustomEvent("tapete-settings")); // the header's menu follows
          this.render();
        },
      },
      h("span", { class: "pace-icon", "aria-hidden": "true" }, fast ? "▶▶" : "▶"),
      " ",
      t("table.pace.fast"),
    );
  }

  start() {
    this.hideHand = this.humans().length > 1 && this.game.shown === null;
    this.focus = new FocusKeeper(this.ctx.root, t("table.focus_park", { game: t(`game.${this.record.game}.name`) }));
    clearAnnouncements();
    if (!this.hideHand) announce(tableNews(this.record.game, this.game.snap.view));
    this.render();
    offerTourButton(() => this.showTour());
    this.loop();
  }

  stop() {
    this.stopped = true;
    this.tour?.close("stopped");
    withdrawTourButton();
    closeOverlay();
    if (this.focus) this.focus.remove();
  }

  /** The first turn of the player here in a game whose tour they have not seen: show it once. */
  firstTour() {
    if (this.tourChecked || this.hideHand || this.seatKind(this.game.viewer) !== "human") return;
    this.tourChecked = true;
    if (tourDue(this.ctx.settings, this.record.game)) this.showTour();
  }

  /** The guided tour of this table (a second call while it is open does nothing). */
  showTour() {
    if (this.tour || this.stopped || this.hideHand) return;
    const tour = new Tour(this.record.game, { scope: this.ctx.root });
    if (!tour.start()) return;
    this.tour = tour;
    markTourSeen(this.ctx.settings, this.record.game);
    tour.closed.then(() => {
      if (this.tour === tour) this.tour = null;
    });
  }

  /** The seat is the one player at this device, spoken to ("You take the trick"). */
  isYou(seat) {
    // nobody (a round's end with no trick winner) is never "you", not even on a table screen,
    // whose viewer is nobody too
    if (seat === null || seat === undefined || !this.record.seats[seat]) return false;
    return seat === this.game.viewer && this.seatKind(seat) === "human" && this.humans().length === 1;
  }

  /** Whether the player here may move now (their table is live). */
  awaitsPlayer() {
    const snap = this.game.snap;
    return !this.busy && !this.hideHand && !this.displayView && !snap.outcome && snap.to_move === this.game.viewer;
  }

  /** Say the player's turn once, in the table's own status line ("Your turn: play a card."),
   * unless the line is the one said last and nobody else moved since (Lobo's next capture). */
  sayTurn() {
    const key = `${this.record.moves.length}:${this.game.viewer}`;
    if (this.turnSaid === key) return;
    this.turnSaid = key;
    const status = this.ctx.root.querySelector("[data-testid=status]");
    if (!status) return;
    // Rummikub's line ends with the last move, said already when it was made
    const own = [...status.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE).map((node) => node.textContent).join("").trim();
    const text = own || status.textContent.trim();
    const last = this.record.moves[this.record.moves.length - 1];
    if (text === this.turnText && last && last.seat === this.game.viewer) return;
    this.turnText = text;
    announce(text);
  }

  statusText(view) {
    if (view.phase === "over") return t("status.over");
    const seat = view.to_move;
    const name = this.names()[seat];
    const mine = seat === this.game.viewer && !this.hideHand;
    if (seat === null || seat === undefined) return t("status.over");
    if (this.trickShown && this.trickShown.winner === null) return t("round.title", { round: this.trickShown.round });
    if (this.trickShown) return t(this.isYou(this.trickShown.winner) ? "status.trick_won.you" : "status.trick_won", { name: this.names()[this.trickShown.winner] });
    if (mine) return t(`status.you.${view.phase}`);
    return t(`status.other.${view.phase}`, { name });
  }

  render() {
    if (this.stopped) return;
    const { renderer, root } = this.ctx;
    this.focus?.hold(); // before the renderer, which may move the focus itself (the meld table)
    const view = this.displayView || this.game.snap.view;
    const names = this.names();
    const table = renderer.renderTable({
      view,
      legal: this.displayView || this.hideHand ? [] : this.game.snap.legal_moves || [],
      names,
      bots: this.record.seats.map((s) => s.kind === "bot"),
      viewer: this.game.viewer ?? 0, // a table screen (no seat) draws the table from seat 0's side
      t,
      onMove: (move) => this.onMove(move),
      interactive: !this.busy,
      trickShown: this.trickShown,
      status: this.statusText(view),
      message: this.message,
      hideHand: this.hideHand,
      // Solo games (Lobo): selection checks, hints and undo.
      selectionKey: `${this.record.seed}:${this.record.moves.length}`,
      refresh: () => this.render(),
      onCheck: (move) => this.check(move),
      onHint: () => this.hint(),
      onHintUsed: () => {
        // the button goes with its panel: a keyboard player goes on to "Done" (the play is laid)
        const fromButton = document.activeElement?.dataset?.testid === "use-hint";
        this.hintResult = null;
        this.render();
        if (fromButton) this.ctx.root.querySelector("[data-testid=done]:not([disabled])")?.focus({ preventScroll: true });
      },
      onUndo: () => this.undo(),
      canUndo: this.record.moves.length > 0,
      hint: this.showsHint() && this.hintResult && this.hintResult.at === this.record.moves.length && this.hintResult.seat === this.game.viewer ? this.hintResult : null,
      hintBusy: this.showsHint() && Boolean(this.hintBusy),
    });
    const bar = h(
      "div",
      { class: "table-bar", dataset: { testid: "table-bar" } },
      h("button", { type: "button", class: "ghost", dataset: { testid: "show-scores" }, onclick: () => this.showScores() }, t("table.scores")),
      this.ctx.share ? h("button", { type: "button", class: "ghost", dataset: { testid: "share" }, onclick: () => this.ctx.share(this.record) }, t("table.share")) : null,
      this.hasLocalBots() ? this.paceToggle() : null,
      this.ctx.barExtra ? this.ctx.barExtra() : null,
      h("a", { class: "ghost button", href: `rules/${this.record.game}.${document.documentElement.lang || "en"}.html`, target: "_blank", rel: "noopener", dataset: { testid: "rules-link" } }, t("home.rules")),
    );
    // Cards already on the table keep still; only a newly played card slides in.
    const shown = new Set([...root.querySelectorAll(".trick-card")].map((card) => card.dataset.card));
    for (const card of table.querySelectorAll(".trick-card")) if (shown.has(card.dataset.card)) card.classList.add("settled");
    const notice = this.ctx.notice ? this.ctx.notice() : null;
    mount(root, h("div", { class: "play", dataset: { testid: "play", seed: this.record.seed, moves: this.record.moves.length } }, notice, table, bar));
    if (!this.handShown && this.awaitsPlayer()) {
      // the screen opens at its top; at the player's first turn on it, on a small phone, the
      // player's side (Lobo's move panel, the rack, the hand) comes whole into view, scrolling
      // no further than that
      this.handShown = true;
      const mine = ["[data-testid=move-panel]", "[data-testid=hand-zone]", "[data-testid=hidden-rack]", "[data-testid=hand]"];
      const target = mine.map((selector) => root.querySelector(selector)).find(Boolean);
      target?.scrollIntoView({ block: "nearest", inline: "nearest" });
    }
    this.focus?.restore({ moment: this.record.moves.length, turn: this.awaitsPlayer() });
    this.tour?.refresh();
  }

  showScores() {
    const view = this.game.snap.view;
    showOverlay(
      (close) =>
        h(
          "div",
          { class: "panel wide" },
          h("h2", null, t("sheet.title")),
          this.ctx.renderer.renderScoreSheet(view, this.names(), t),
          h("div", { class: "panel-actions" }, h("button", { type: "button", class: "primary", dataset: { testid: "close-scores" }, onclick: () => close() }, t("common.close"))),
        ),
      { testid: "scores" },
    );
  }

  /** The engine call loop: bots move, humans are waited for (their clicks restart it). */
  async loop() {
    if (this.looping || this.stopped) return;
    this.looping = true;
    try {
      while (!this.stopped) {
        const snap = this.game.snap;
        if (snap.outcome) {
          if (this.record.moves.length > 0) announce(gameOverText(this.ctx.renderer, snap, this.names()));
          this.ctx.onOver(this.game);
          return;
        }
        const seat = snap.to_move;
        const who = this.record.seats[seat];
        if (this.seatKind(seat) === "remote") {
          this.busy = true;
          this.render();
          const step = await this.ctx.driver.remoteMove(seat, this.game);
          if (this.stopped) return;
          await this.commit(step.seat, step.move, step.result);
          continue;
        }
        if (who.kind === "bot") {
          if (this.tour) {
            // the tour was opened again from the menu: this device's bots wait for its end
            await this.tour.closed;
            continue;
          }
          this.busy = true;
          this.render();
          // the bot thinks while the last move stays on screen: only the rest of the pause is added
          const shown = performance.now();
          // (a person's card waits longer, unless it ended a trick: the trick's pause showed it)
          const pause = this.pace(this.lastMoveByPerson() && !this.paused ? "human" : "bot");
          const result = await this.ctx.engine.call("bot_move", {
            game: this.record.game,
            state: snap.state,
            seat,
            level: who.level,
            bot_seed: this.record.moves.length,
            ...this.viewFields(),
          }, { timeout: BOT_TIMEOUT_MS });
          if (this.stopped) return;
          const left = pause - (performance.now() - shown);
          if (left > 0) await sleep(left);
          if (this.stopped) return;
          await this.commit(seat, result.move, result);
          continue;
        }
        if (this.humans().length > 1 && seat !== this.game.shown) {
          await this.handOver(seat);
          if (this.stopped) return;
        }
        if (seat !== this.game.viewer) {
          const result = await this.ctx.engine.call("view", { game: this.record.game, state: snap.state, seat });
          if (this.stopped) return;
          this.game.snap = result;
          this.game.viewer = seat;
        }
        this.busy = false;
        this.render();
        this.sayTurn();
        this.autoHint();
        this.firstTour();
        return; // wait for the player's click
      }
    } catch (error) {
      if (!this.stopped) this.ctx.onFatal(error);
    } finally {
      this.looping = false;
    }
  }

  async handOver(seat) {
    forgetSecrets(); // what the last player drew is theirs alone
    this.hideHand = true;
    this.busy = true;
    this.render();
    await showOverlay(
      (close) =>
        h(
          "div",
          { class: "panel handover-panel" },
          h("div", { class: "handover-icon", "aria-hidden": "true" }, "⇄"),
          h("h2", null, t("handover.title", { name: this.names()[seat] })),
          h("p", null, t("handover.body", { name: this.names()[seat] })),
          h("button", { type: "button", class: "primary big", dataset: { testid: "handover-ready" }, onclick: () => close() }, t("handover.ready", { name: this.names()[seat] })),
        ),
      { testid: "handover", opaque: true },
    );
    this.game.shown = seat;
    this.hideHand = false;
  }

  /** A human's click: the engine decides; a refusal shows the translated reason. */
  async onMove(move) {
    if (this.busy || this.stopped) return;
    const snap = this.game.snap;
    if (snap.to_move !== this.game.viewer) {
      this.message = t("msg.not_your_turn");
      this.render();
      announce(this.message);
      return;
    }
    this.busy = true;
    this.message = "";
    this.render();
    let result;
    try {
      if (this.ctx.driver) {
        ({ move, result } = await this.ctx.driver.apply(this.game.viewer, move, this.game));
      } else {
        result = await this.ctx.engine.call("apply", {
          game: this.record.game,
          state: snap.state,
          seat: this.game.viewer,
          move,
          view_seat: this.game.viewer,
        });
      }
    } catch (error) {
      if (this.stopped) return;
      if (["illegal_move", "invalid_move", "not_your_turn", "game_over"].includes(error.code)) {
        this.message = errorText(error, this.record.game);
        this.busy = false;
        this.render();
        announce(this.message);
        return;
      }
      this.ctx.onFatal(error);
      return;
    }
    if (this.stopped) return;
    await this.commit(this.game.viewer, move, result);
    this.loop();
  }

  /** Why a move is refused (the translated reason), or null if the engine would take it. */
  async check(move) {
    const snap = this.game.snap;
    try {
      await this.ctx.engine.call("apply", { game: this.record.game, state: snap.state, seat: this.game.viewer, move, view_seat: this.game.viewer });
      return null;
    } catch (error) {
      return errorText(error, this.record.game);
    }
  }

  /** Whether hints may show: always for a game with a hint button (Lobo), else the setting. */
  showsHint() {
    return !this.ctx.renderer.autoHint || Boolean(this.ctx.settings.showHints);
  }

  /** Games whose table shows the hint by itself (Wizard): ask for it on a human's turn, if the
   * player turned hints on. Never on a hand-over screen; the hint only shows, never moves. */
  autoHint() {
    if (!this.ctx.renderer.autoHint || !this.ctx.settings.showHints || this.hideHand) return;
    const snap = this.game.snap;
    if (snap.outcome || snap.to_move !== this.game.viewer || this.game.viewer === null || this.seatKind(this.game.viewer) !== "human") return;
    const at = this.record.moves.length;
    if (this.hintResult && this.hintResult.at === at && this.hintResult.seat === this.game.viewer) return;
    this.hint();
  }

  /** The settings changed (the header's panel): show or hide hints at once. */
  settingsChanged() {
    if (this.stopped) return;
    this.render();
    if (!this.busy) this.autoHint();
  }

  /** Ask the engine for the best move and the odds of every move (solo games). */
  async hint() {
    if (this.busy || this.stopped || this.hintBusy) return;
    const at = this.record.moves.length;
    const seat = this.game.viewer;
    const engine = this.ctx.engine;
    const id = engine.nextId; // the id the call below gets: its progress messages carry it
    const onProgress = (event) => {
      const { id: of, done, total } = event.detail || {};
      if (of !== id || this.stopped) return;
      const bar = this.ctx.root.querySelector("[data-testid=hint-progress]");
      if (bar && total > 0) {
        bar.max = total;
        bar.value = done;
      }
    };
    engine.addEventListener?.("progress", onProgress);
    this.hintBusy = true;
    this.render();
    try {
      const result = await this.ask("hint");
      if (!this.stopped && this.record.moves.length === at && this.game.viewer === seat) this.hintResult = { ...result, at, seat };
    } catch (error) {
      if (!this.stopped) this.message = errorText(error, this.record.game);
    } finally {
      this.hintBusy = false;
      engine.removeEventListener?.("progress", onProgress);
    }
    this.render();
  }

  /** Take back the last move (solo games): replay the record without it. */
  async undo() {
    if (this.busy || this.stopped || !this.record.moves.length) return;
    this.busy = true;
    this.message = "";
    this.render();
    const record = { ...this.record, moves: this.record.moves.slice(0, -1) };
    let snap;
    try {
      snap = await this.ctx.engine.call("replay", { record, view_seat: this.game.viewer }, { timeout: 90_000 });
    } catch (error) {
      if (!this.stopped) this.ctx.onFatal(error);
      return;
    }
    if (this.stopped) return;
    this.record.moves.pop();
    this.game.snap = snap;
    keepMove(this.game);
    this.busy = false;
    this.render();
  }

  /** Record a move, autosave, and show what it finished (a trick, a round). */
  async commit(seat, move, result) {
    const prev = this.game.snap.view;
    const prevState = this.game.snap.state;
    this.record.moves.push({ seat, move });
    const { move: _ignored, ...snap } = result;
    this.game.snap = snap;
    if (this.ctx.driver) this.ctx.driver.committed(this.game);
    else keepMove(this.game);
    const news = moveNews(this.record.game, { prev, next: snap.view, move, seat, viewer: this.game.viewer, names: this.names(), you: (s) => this.isYou(s) });
    announce(await this.sharedNews(seat, move, prevState, snap.state, news));
    const change = this.ctx.renderer.describeTransition(prev, snap.view, move, seat);
    this.paused = Boolean(change.trick);
    if (change.trick) {
      this.trickShown = change.trick;
      this.displayView = change.view;
      this.busy = true;
      this.render();
      await sleep(this.pace("trick"));
      if (this.stopped) return;
      if (change.roundEnded) await this.showRound(change.roundEnded);
      this.trickShown = null;
      this.displayView = null;
    }
    this.render();
  }

  /**
   * Several people at this device (hot-seat): a person's own move is told too, for the next
   * player, in the words of the public views before and after it (a hidden bid stays hidden, a
   * drawn card unnamed); what the mover alone may hear stays a secret, which the hand-over
   * removes. Anyone else: the news as it is.
   */
  async sharedNews(seat, move, prevState, nextState, news) {
    if (this.ctx.driver || this.humans().length < 2 || this.seatKind(seat) !== "human" || seat !== this.game.viewer) return news;
    try {
      const game = this.record.game;
      const [before, after] = await Promise.all([prevState, nextState].map((state) => this.ctx.engine.call("view", { game, state, view_public: true })));
      const told = moveNews(game, { prev: before.view, next: after.view, move, seat, viewer: null, names: this.names(), you: () => false });
      return [...told, ...news.filter((line) => line && line.secret)];
    } catch {
      return news; // the move stands; only its words are missing
    }
  }

  async showRound(row) {
    const names = this.names();
    // A table screen has nobody at it to press Continue: the result stays a while, then goes.
    const unattended = this.humans().length === 0;
    await showOverlay(
      (close) => {
        if (unattended) setTimeout(() => close(), this.pace("round"));
        return h(
          "div",
          { class: "panel" },
          h("h2", null, t("round.title", { round: row.round })),
          this.ctx.renderer.renderRoundResult(row, names, t),
          h(
            "div",
            { class: "panel-actions" },
            h("button", { type: "button", class: "primary", dataset: { testid: "round-continue" }, onclick: () => close() }, t("round.continue")),
          ),
        );
      },
      { testid: "round-summary" },
    );
  }

  /** The engine was restarted under one of this screen's requests (it made no progress): say
   * so and go on from the same state; the record and the last snapshot are untouched. */
  recover() {
    if (this.stopped) return;
    this.message = t("engine.restarted");
    this.busy = false;
    this.render();
    announce(this.message);
    setTimeout(() => this.loop(), 0); // after the loop that failed has ended
  }

  /** Show an engine failure that is not the player's fault. */
  showError(text) {
    this.message = text;
    this.busy = false;
    this.render();
    announce(text);
  }
}

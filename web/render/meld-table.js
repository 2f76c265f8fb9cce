// A table of melds the player rearranges by hand: Rummikub and Willie share it. No game logic
// inside (chessground's rule): which melds are valid, and whether the turn may be played, comes
// from the engine (the `inspect` op) through the `inspect` callback.
//
// API
//
//   const board = new MeldTable({key, table, hand, drawTile, tileName, inspect, onDone, t, ...})
//   board.update({interactive, ...any option})   new callbacks/flags on every page render
//   board.tableEl, board.handEl, board.barEl      persistent elements the renderer lays out
//   board.move()          -> {play: {table: [[codes]...], from_hand: [codes]}} (the working copy;
//                            a meld the player said to read as a group or run: {"group": [codes]})
//   board.changed()       -> true once anything differs from the start of the turn
//   board.undo(), board.reset(), board.done()
//   board.setWorking(table, fromHand)   replace the working table (a hint, an auto-arrange);
//                                       undoable; tiles are matched by code
//   board.sortHand(compare)             reorder the hand (compare(codeA, codeB))
//   board.handCodes(), board.selectedHandCodes()
//   board.choose(on)      a mode where tapping (or Space/Enter on) hand tiles marks several of
//                         them (a check mark) instead of picking one up; a tile picked up when
//                         the mode starts is marked; no dragging meanwhile
//   board.choosing, board.chosenHandCodes()   the mode, and the marked tiles' codes
//   board.forget()        stop pending timers (the renderer drops the board)
//
// Options
//   key         the turn's identity; a renderer keeps one board per key
//   table       [[codes]] at the start of the turn (a meld may also be {tiles, kind} or
//               {"group": [codes]}: sent back with that kind while it keeps those tiles);
//               hand: [codes] (the rack, in display order)
//   drawTile(code, {where: "hand"|"table", fromHand}) -> HTMLElement   the face (not interactive)
//   tileName(code) -> string       accessible name of a tile
//   inspect(move) -> Promise<{legal, error?, melds?: [{valid, kind?, value?, reason?, changed?, ambiguous?}]}>
//               a meld marked `ambiguous` (reads as a run and as a group) gets a run/group choice
//   onDone(move)                   the built move, called only after inspect said legal
//   explain(error) -> string       an engine error in the player's language
//   onDrop(code, {meld, index, fromHand, original}) -> code | null | Promise<code|null>
//               called when a tile is dropped into a meld (or moved inside one), with its hand
//               code (restoreCode applied) and the meld's codes without it: may return a code
//               (Willie: which card a wild stands for, "K:R9"), or null to cancel the drop
//               (`original` is the code the tile has now, before restoreCode: "K:R9")
//   restoreCode(code) -> code       the code a tile has back in the hand ("K:R9" -> "K")
//   meldLabel(info, codes, index) -> Node | string | null   an extra label shown on a meld
//   onChange(board)                after every change of the working copy and every inspect answer
//   onHandOrder(codes)             after the player reordered the hand by dragging
//   text(name, params) -> string | undefined   overrides a `meld.<name>` string
//   interactive                    false: tiles are shown, nothing moves
//   t                              the translation function
//
// Interaction: drag a tile (pointer events: mouse, pen and touch) from the hand or any meld to a
// meld (dropped between two tiles it is inserted there), to "New meld", or back to the hand
// (only tiles that came from the hand this turn; dropped inside the hand it reorders the hand).
// Mouse and pen: the drag starts once the pointer moves. Touch: a swipe over tiles scrolls the
// page (tiles are `touch-action: manipulation`); a long press (LONG_PRESS_MS without moving more
// than TOUCH_SLOP_PX) lifts the tile, then the finger drags it (a non-passive touchmove listener
// on every tile stops the page scrolling meanwhile); lifted and released in place, the tile
// stays picked up, as after a tap.
// Tap (or Enter/Space) a tile to pick it up, then tap (or Enter) a target: the gaps of every
// meld, "New meld", "Back to hand"; Escape puts it down; arrow keys move between tiles and
// targets. A picked table tile can also split its meld in front of itself. A tile put down by
// the keyboard keeps the focus where it went; a button that went away hands it to the hand.
// A refusal ("Done" on an invalid table) is said in the page's live region (ui/announce.js).

import { h } from "../dom.js";
import { announce } from "../ui/announce.js";

const DRAG_START_PX = 6;
const LONG_PRESS_MS = 280; // touch: how long a finger rests on a tile to lift it
const TOUCH_SLOP_PX = 8; // touch: moving farther before the long press is a scroll, not a drag
const TOUCH_CLICK_MS = 400; // touch: how long after a lift the browser's click is ignored
const INSPECT_DELAY_MS = 120;

let nextId = 1;
const newId = (prefix) => `${prefix}${nextId++}`;

export class MeldTable {
  constructor(options) {
    this.opts = { interactive: true, ...options };
    this.key = options.key;
    this.tableEl = h("div", { class: "mt-table", dataset: { testid: "meld-table" } });
    this.handEl = h("div", { class: "mt-hand", dataset: { testid: "hand-zone", drop: "hand" } });
    this.barEl = h("div", { class: "mt-bar" });
    this.start = this.load(options.table || [], options.hand || []);
    this.restore(this.start);
    this.history = [];
    this.selected = null; // a tile id
    this.choosing = false; // marking several hand tiles (board.choose)
    this.chosen = new Set(); // the marked hand tiles' ids
    this.message = "";
    this.result = null; // the last inspect answer, for the layout it was asked about
    this.resultFor = "";
    this.seq = 0;
    this.forgotten = false; // set once the renderer drops this board
    this.timer = 0;
    this.drag = null;
    this.wire();
    this.render();
  }

  // -- the working copy ---------------------------------------------------------------------

  load(table, hand) {
    return {
      melds: table.map((item) => {
        const { codes, kind } = meldEntry(item);
        return withKind({ id: newId("m"), tiles: codes.map((code) => ({ id: newId("t"), code, fromHand: false })) }, kind);
      }),
      hand: hand.map((code) => ({ id: newId("t"), code, fromHand: true })),
    };
  }

  snapshot() {
    return JSON.stringify({ melds: this.melds, hand: this.hand });
  }

  restore(snap) {
    const copy = typeof snap === "string" ? JSON.parse(snap) : JSON.parse(JSON.stringify(snap));
    this.melds = copy.melds;
    this.hand = copy.hand;
  }

  /** Record the state before a change (for "Undo step"). */
  remember() {
    this.history.push(this.snapshot());
    if (this.history.length > 200) this.history.shift();
  }

  move() {
    const melds = this.melds.filter((m) => m.tiles.length);
    return {
      play: {
        table: melds.map((m) => {
          const codes = m.tiles.map((tile) => tile.code);
          const kind = declaredKind(m);
          return kind ? { [kind]: codes } : codes;
        }),
        from_hand: melds.flatMap((m) => m.tiles.filter((tile) => tile.fromHand).map((tile) => tile.code)),
      },
    };
  }

  changed() {
    return this.layoutKey() !== this.layoutKeyOf(this.start.melds);
  }

  layoutKey() {
    return this.layoutKeyOf(this.melds);
  }

  layoutKeyOf(melds) {
    return melds
      .filter((m) => m.tiles.length)
      .map((m) => m.tiles.map((tile) => tile.code).join(" ") + (declaredKind(m) ? ` #${declaredKind(m)}` : ""))
      .join("|");
  }

  handCodes() {
    return this.hand.map((tile) => tile.code);
  }

  selectedHandCodes() {
    const tile = this.hand.find((x) => x.id === this.selected);
    return tile ? [tile.code] : [];
  }

  /** Start (on) or end the mode of marking several hand tiles; either way nothing is marked but
   *  a tile picked up when the mode starts. */
  choose(on) {
    const picked = this.hand.find((x) => x.id === this.selected);
    this.choosing = Boolean(on) && Boolean(this.opts.interactive);
    this.chosen = new Set(this.choosing && picked ? [picked.id] : []);
    this.selected = null;
    this.message = "";
    this.render();
    if (this.opts.onChange) this.opts.onChange(this);
  }

  chosenHandCodes() {
    return this.hand.filter((tile) => this.chosen.has(tile.id)).map((tile) => tile.code);
  }

  toggleChosen(tileId) {
    if (!this.hand.some((tile) => tile.id === tileId)) return;
    if (this.chosen.has(tileId)) this.chosen.delete(tileId);
    else this.chosen.add(tileId);
    this.render();
    if (this.opts.onChange) this.opts.onChange(this);
  }

  find(tileId) {
    const inHand = this.hand.findIndex((tile) => tile.id === tileId);
    if (inHand >= 0) return { where: "hand", index: inHand, tile: this.hand[inHand], meld: null };
    for (const meld of this.melds) {
      const index = meld.tiles.findIndex((tile) => tile.id === tileId);
      if (index >= 0) return { where: "meld", index, tile: meld.tiles[index], meld };
    }
    return null;
  }

  take(found) {
    if (found.where === "hand") this.hand.splice(found.index, 1);
    else found.meld.tiles.splice(found.index, 1);
  }

  /**
   * Move a tile to a target: {kind: "meld", meldId, index} | {kind: "new"} | {kind: "hand", index?}.
   * Returns false when the move is not allowed (a table tile to the hand, a cancelled drop).
   */
  async moveTile(tileId, target) {
    const found = this.find(tileId);
    if (!found || !this.opts.interactive) return false;
    if (target.kind === "hand") {
      if (!found.tile.fromHand) {
        this.say(this.text("only_own"));
        return false;
      }
      this.remember();
      let index = target.index ?? this.hand.length;
      if (found.where === "hand" && found.index < index) index -= 1;
      this.take(found);
      const tile = { ...found.tile, code: this.restore_code(found.tile.code) };
      this.hand.splice(Math.max(0, Math.min(index, this.hand.length)), 0, tile);
      this.focusAfter = `tile:${tileId}`;
      if (found.where === "hand" && this.opts.onHandOrder) this.opts.onHandOrder(this.handCodes());
      return this.changedNow();
    }
    let meld = target.kind === "meld" ? this.melds.find((m) => m.id === target.meldId) : null;
    if (target.kind === "meld" && !meld) return false;
    let index = meld ? target.index ?? meld.tiles.length : 0;
    if (found.meld && meld === found.meld && found.index < index) index -= 1;
    const codesAfter = meld ? meld.tiles.filter((tile) => tile.id !== tileId).map((tile) => tile.code) : [];
    let code = found.tile.code;
    if (this.opts.onDrop) {
      const answer = await this.opts.onDrop(this.restore_code(code), { meld: codesAfter, index, fromHand: found.tile.fromHand, original: code });
      if (answer === null || answer === undefined || answer === false) return false;
      code = String(answer);
    }
    // the hook may have awaited the player: look the tile up again
    const now = this.find(tileId);
    if (!now) return false;
    this.remember();
    this.take(now);
    if (!meld) {
      meld = { id: newId("m"), tiles: [] };
      this.melds.push(meld);
    }
    meld.tiles.splice(Math.max(0, Math.min(index, meld.tiles.length)), 0, { ...now.tile, code });
    this.focusAfter = `tile:${tileId}`;
    return this.changedNow();
  }

  restore_code(code) {
    return this.opts.restoreCode ? this.opts.restoreCode(code) : code;
  }

  /** Ask for a meld to be read as `kind` ("run" or "group"), for a meld the engine says reads
   *  both ways (`ambiguous`); the choice holds while the meld keeps these tiles. */
  setKind(meldId, kind) {
    const meld = this.melds.find((m) => m.id === meldId);
    if (!meld || !this.opts.interactive) return false;
    this.remember();
    withKind(meld, kind);
    return this.changedNow();
  }

  /** Split a meld in front of position `index` (both parts stay on the table). */
  split(meldId, index) {
    const at = this.melds.findIndex((m) => m.id === meldId);
    if (at < 0 || index <= 0 || index >= this.melds[at].tiles.length) return false;
    this.remember();
    const meld = this.melds[at];
    const rest = { id: newId("m"), tiles: meld.tiles.splice(index) };
    this.melds.splice(at + 1, 0, rest);
    return this.changedNow();
  }

  changedNow() {
    this.melds = this.melds.filter((m) => m.tiles.length);
    this.selected = null;
    this.message = "";
    this.render();
    this.scheduleInspect();
    if (this.opts.onChange) this.opts.onChange(this);
    return true;
  }

  undo() {
    if (!this.history.length) return;
    this.restore(this.history.pop());
    this.selected = null;
    this.message = "";
    this.render();
    this.scheduleInspect();
    if (this.opts.onChange) this.opts.onChange(this);
  }

  reset() {
    if (!this.changed() && !this.history.length) return;
    this.remember();
    const order = this.hand.map((tile) => tile.id);
    this.restore(this.start);
    // the hand keeps the order the player gave it; tiles back from the table go last
    const at = (tile) => (order.includes(tile.id) ? order.indexOf(tile.id) : order.length);
    this.hand.sort((a, b) => at(a) - at(b));
    this.selected = null;
    this.message = "";
    this.render();
    this.scheduleInspect();
    if (this.opts.onChange) this.opts.onChange(this);
  }

  /** Replace the working table by `table` (codes), playing `fromHand` (codes) from the hand. */
  setWorking(table, fromHand = []) {
    this.remember();
    const base = (code) => this.restore_code(code);
    const byCode = (tiles) => {
      const map = new Map();
      for (const tile of tiles) map.set(base(tile.code), [...(map.get(base(tile.code)) || []), tile]);
      return map;
    };
    const onTable = byCode(this.start.melds.flatMap((m) => m.tiles)); // they stay on the table
    const mine = [...this.hand, ...this.melds.flatMap((m) => m.tiles.filter((tile) => tile.fromHand))];
    const ofHand = byCode(mine);
    const need = new Map();
    for (const code of fromHand) need.set(base(code), (need.get(base(code)) || 0) + 1);
    const used = new Set();
    const free = (map, code) => (map.get(code) || []).find((tile) => !used.has(tile.id));
    const pick = (code) => {
      const key = base(code);
      let tile = (need.get(key) || 0) > 0 ? free(ofHand, key) : null;
      if (tile) need.set(key, need.get(key) - 1);
      else tile = free(onTable, key) || free(ofHand, key);
      if (!tile) return { id: newId("t"), code, fromHand: false };
      used.add(tile.id);
      return { ...tile, code };
    };
    this.melds = table.map((item) => {
      const { codes, kind } = meldEntry(item);
      return withKind({ id: newId("m"), tiles: codes.map(pick) }, kind);
    });
    const left = [...onTable.values()].flat().filter((tile) => !used.has(tile.id));
    if (left.length) this.melds.push({ id: newId("m"), tiles: left });
    this.hand = mine.filter((tile) => !used.has(tile.id)).map((tile) => ({ ...tile, code: base(tile.code) }));
    return this.changedNow();
  }

  sortHand(compare) {
    this.hand.sort((a, b) => compare(a.code, b.code));
    this.render();
    if (this.opts.onHandOrder) this.opts.onHandOrder(this.handCodes());
  }

  update(options) {
    Object.assign(this.opts, options);
    if (!this.opts.interactive) {
      this.endDrag(); // the turn is over: a tile held or dragged is put down
      this.selected = null;
      this.choosing = false;
      this.chosen.clear();
    }
    this.render();
    if (this.changed() && this.resultFor !== this.layoutKey()) this.scheduleInspect();
  }

  forget() {
    clearTimeout(this.timer);
    this.seq += 1;
    this.forgotten = true;
    this.endDrag();
  }

  // -- the engine's opinion -----------------------------------------------------------------

  scheduleInspect() {
    clearTimeout(this.timer);
    this.seq += 1;
    if (!this.changed() || !this.opts.inspect) {
      this.result = null;
      this.resultFor = this.layoutKey();
      return;
    }
    const seq = this.seq;
    this.timer = setTimeout(() => this.runInspect(seq), INSPECT_DELAY_MS);
  }

  async runInspect(seq) {
    const layout = this.layoutKey();
    let result;
    try {
      result = await this.opts.inspect(this.move());
    } catch (error) {
      result = { legal: false, error: error && (error.info || error), melds: null };
    }
    // An answer for the layout still shown stands, whatever redraws asked again meanwhile (a
    // redraw before the answer reschedules the check: dropping this answer for that reason
    // left a valid meld unmarked for as long as the redraws went on); only a change of the
    // melds or the board being dropped voids it.
    if (this.forgotten || (seq !== this.seq && layout !== this.layoutKey())) return;
    if (seq !== this.seq && this.resultFor === layout) return; // a later answer came first
    this.result = result;
    this.resultFor = layout;
    this.render();
    if (this.opts.onChange) this.opts.onChange(this);
  }

  /** The inspect answer for the layout shown now, or null while it is being asked. */
  current() {
    return this.result && this.resultFor === this.layoutKey() ? this.result : null;
  }

  async done() {
    if (!this.opts.interactive || !this.changed()) return;
    const move = this.move();
    const layout = this.layoutKey();
    let result = this.current();
    if (!result) {
      clearTimeout(this.timer);
      this.seq += 1; // a live check in flight is superseded by this one
      try {
        result = await this.opts.inspect(move);
      } catch (error) {
        result = { legal: false, error: error && (error.info || error) };
      }
      // Only a change of the melds (or the board dropped) voids the answer: a redraw of the
      // screen meanwhile (which reschedules the live check) must not swallow the tap on Done.
      if (this.forgotten || layout !== this.layoutKey()) return;
      this.result = result;
      this.resultFor = layout;
    }
    if (!result.legal) {
      this.say(this.opts.explain ? this.opts.explain(result.error) : (result.error && result.error.message) || "");
      return;
    }
    this.opts.onDone(move);
  }

  say(text) {
    this.message = text;
    this.render();
    announce(text);
    if (this.opts.onChange) this.opts.onChange(this);
  }

  text(name, params = {}) {
    const own = this.opts.text ? this.opts.text(name, params) : undefined;
    return own !== undefined ? own : this.opts.t(`meld.${name}`, params);
  }

  // -- drawing ------------------------------------------------------------------------------

  render() {
    const active = document.activeElement;
    const focused = active && [this.tableEl, this.handEl, this.barEl].some((zone) => zone.contains(active)) ? active.dataset.focus || "" : null;
    const picked = this.selected ? this.find(this.selected) : null;
    const live = Boolean(this.opts.interactive);
    const result = this.current();
    const pending = this.changed() && !result;
    const infos = result && result.melds ? result.melds : [];

    const melds = this.melds.map((meld, index) => this.drawMeld(meld, index, infos[index] || null, picked, pending));
    const newZone = live
      ? h(
          "button",
          {
            type: "button",
            class: ["mt-new", picked ? "mt-target" : null],
            dataset: { drop: "new", focus: "new", testid: "new-meld" },
            onclick: () => picked && this.moveTile(picked.tile.id, { kind: "new" }),
          },
          h("span", { "aria-hidden": "true" }, "+ "),
          this.text("new"),
        )
      : null;
    this.tableEl.replaceChildren(
      ...(melds.length ? melds : [h("p", { class: "mt-empty" }, this.text("empty"))]),
      newZone || "",
    );
    this.tableEl.classList.toggle("mt-picking", Boolean(picked));

    const handTiles = this.hand.map((tile) => this.drawTile(tile, "hand", picked));
    const back =
      live && picked && picked.where === "meld" && picked.tile.fromHand
        ? h("button", { type: "button", class: "mt-back mt-target", dataset: { focus: "back", testid: "back-to-hand", drop: "hand" }, onclick: () => this.moveTile(picked.tile.id, { kind: "hand" }) }, this.text("back"))
        : null;
    this.handEl.replaceChildren(...handTiles, back || "");
    this.handEl.classList.toggle("mt-picking", Boolean(picked));
    this.handEl.classList.toggle("mt-choosing", this.choosing);

    const canUndo = live && this.history.length > 0;
    const status = this.message
      ? h("p", { class: "mt-message", dataset: { testid: "meld-message" } }, this.message)
      : picked
        ? h("p", { class: "mt-status", role: "status" }, this.text("picked", { tile: this.name(picked.tile.code) }))
        : null;
    this.barEl.replaceChildren(
      h(
        "div",
        { class: "mt-actions" },
        h("button", { type: "button", class: "ghost", disabled: !canUndo, dataset: { testid: "undo-step", focus: "undo" }, onclick: () => this.undo() }, this.text("undo")),
        h("button", { type: "button", class: "ghost", disabled: !(live && this.changed()), dataset: { testid: "reset-turn", focus: "reset" }, onclick: () => this.reset() }, this.text("reset")),
        picked && picked.where === "meld" && picked.index > 0
          ? h("button", { type: "button", class: "ghost", dataset: { testid: "split", focus: "split" }, onclick: () => this.split(picked.meld.id, picked.index) }, this.text("split"))
          : null,
        picked ? h("button", { type: "button", class: "ghost", dataset: { testid: "cancel-pick", focus: "cancel" }, onclick: () => this.pick(null) }, this.text("cancel")) : null,
        h(
          "button",
          { type: "button", class: "primary", disabled: !(live && this.changed()), dataset: { testid: "done", focus: "done" }, onclick: () => this.done() },
          this.text("done"),
        ),
      ),
      status || "",
    );
    const after = this.focusAfter;
    this.focusAfter = null;
    if (focused !== null) this.refocus([after, focused]);
  }

  /** Give the focus, which was on the board, to the first of these keys still there and
   * enabled, else to the first tile of the hand, else to the first enabled button. */
  refocus(keys) {
    if (!this.tableEl.isConnected) return;
    const byKey = (key) => (key ? document.querySelector(`[data-focus="${CSS.escape(key)}"]`) : null);
    const candidates = [...keys.map(byKey), this.handEl.querySelector(".mt-tile"), this.barEl.querySelector("button:not(:disabled)"), this.tableEl.querySelector("button")];
    const el = candidates.find((x) => x && !x.disabled && x.matches("button"));
    if (el && el !== document.activeElement) el.focus({ preventScroll: true });
  }

  name(code) {
    return this.opts.tileName ? this.opts.tileName(code) : code;
  }

  drawMeld(meld, index, info, picked, pending) {
    const live = Boolean(this.opts.interactive);
    const codes = meld.tiles.map((tile) => tile.code);
    const parts = [];
    const gap = (at) =>
      live && picked
        ? h("button", {
            type: "button",
            class: "mt-gap mt-target",
            "aria-label": this.text("put_here", { tile: this.name(picked.tile.code), n: at + 1, meld: index + 1 }),
            dataset: { drop: "gap", meld: meld.id, index: at, focus: `gap:${meld.id}:${at}`, testid: "gap" },
            onclick: () => this.moveTile(picked.tile.id, { kind: "meld", meldId: meld.id, index: at }),
          })
        : null;
    meld.tiles.forEach((tile, i) => {
      parts.push(gap(i));
      parts.push(this.drawTile(tile, "table", picked));
    });
    parts.push(gap(meld.tiles.length));
    const state = info ? (info.valid ? "valid" : "invalid") : pending ? "pending" : "plain";
    const showBadge = info && (info.changed !== false || !info.valid);
    const label = this.opts.meldLabel ? this.opts.meldLabel(info, codes, index) : null;
    const choice = live && info && info.valid && info.ambiguous ? this.kindChoice(meld, info, index) : null;
    return h(
      "div",
      {
        class: ["mt-meld", `mt-${state}`, info && info.changed === false ? "mt-kept" : null],
        role: "group",
        "aria-label": this.text("meld_name", { n: index + 1 }),
        dataset: { drop: "meld", meld: meld.id, testid: "meld", state, index },
      },
      h("div", { class: "mt-tiles" }, parts),
      label ? h("div", { class: "mt-label" }, label) : null,
      choice,
      showBadge ? this.badge(info) : pending ? h("div", { class: "mt-badge mt-wait", "aria-hidden": "true" }, "…") : null,
    );
  }

  /** Run or group, for a meld that reads both ways (one tile and two jokers). */
  kindChoice(meld, info, index) {
    return h(
      "div",
      { class: "mt-kind", role: "group", "aria-label": this.text("read_as", { n: index + 1 }), dataset: { testid: "meld-kind" } },
      ["run", "group"].map((kind) =>
        h(
          "button",
          {
            type: "button",
            class: ["mt-kind-choice", info.kind === kind ? "mt-kind-on" : null],
            "aria-pressed": String(info.kind === kind),
            dataset: { testid: `meld-kind-${kind}`, focus: `kind:${meld.id}:${kind}` },
            onclick: () => info.kind !== kind && this.setKind(meld.id, kind),
          },
          this.text(`kind.${kind}`),
        ),
      ),
    );
  }

  badge(info) {
    if (info.valid) {
      const kind = info.kind ? this.text(`kind.${info.kind}`) : "";
      const text = info.value !== undefined && info.value !== null ? this.text("valid_value", { kind, value: info.value }) : this.text("valid", { kind });
      return h("div", { class: "mt-badge mt-ok", dataset: { testid: "meld-badge" } }, h("span", { "aria-hidden": "true" }, "✓ "), text);
    }
    const why = info.reason ? this.text(`why.${info.reason}`) : "";
    const text = why && !why.startsWith("meld.") ? why : info.message || "";
    return h("div", { class: "mt-badge mt-bad", dataset: { testid: "meld-badge" } }, h("span", { "aria-hidden": "true" }, "✗ "), this.text("invalid", { why: text }));
  }

  drawTile(tile, where, picked) {
    const live = Boolean(this.opts.interactive);
    const face = this.opts.drawTile(tile.code, { where, fromHand: tile.fromHand });
    const selected = picked && picked.tile.id === tile.id;
    const choice = live && this.choosing && where === "hand";
    const chosen = choice && this.chosen.has(tile.id);
    const el = h(
      live ? "button" : "div",
      {
        type: live ? "button" : null,
        class: ["mt-tile", tile.fromHand && where === "table" ? "mt-from-hand" : null, selected ? "mt-selected" : null, chosen ? "mt-chosen" : null],
        "aria-label": this.name(tile.code),
        "aria-pressed": live ? String(Boolean(choice ? chosen : selected)) : null,
        role: live ? null : "img",
        dataset: { tile: tile.id, code: tile.code, where, focus: `tile:${tile.id}`, testid: where === "hand" ? "hand-tile" : "table-tile" },
      },
      face,
      chosen ? h("span", { class: "mt-check", "aria-hidden": "true" }, "✓") : null,
    );
    if (live) {
      el.addEventListener("pointerdown", (event) => this.pointerDown(event, tile.id));
      // touch events keep going to the tile the finger went down on (even if a render has
      // replaced it), so the listeners that stop scrolling during a touch drag live on tiles
      el.addEventListener("touchmove", (event) => this.touchMove(event), { passive: false });
      el.addEventListener("contextmenu", (event) => this.drag && this.drag.touch && event.preventDefault());
      const d = this.drag;
      if (d && d.tileId === tile.id) {
        // a render during a drag: the new element stands for the dragged tile
        d.el = el;
        if (d.active) el.classList.add("mt-dragging");
        else if (d.held) el.classList.add("mt-lifted");
      }
    }
    return el;
  }

  pick(tileId) {
    this.selected = tileId && this.selected !== tileId ? tileId : null;
    this.message = "";
    this.render();
    if (this.selected) {
      const first = this.tableEl.querySelector(".mt-gap") || this.tableEl.querySelector(".mt-new");
      const tile = document.querySelector(`[data-focus="tile:${this.selected}"]`);
      if (tile) tile.focus({ preventScroll: true });
      else if (first) first.focus({ preventScroll: true });
    }
    if (this.opts.onChange) this.opts.onChange(this);
  }

  // -- pointer and keyboard -------------------------------------------------------------------

  wire() {
    for (const zone of [this.tableEl, this.handEl]) {
      zone.addEventListener("click", (event) => this.click(event));
      zone.addEventListener("keydown", (event) => this.onKey(event));
    }
  }

  click(event) {
    if (!this.opts.interactive) return;
    const tileEl = event.target.closest(".mt-tile");
    if (this.choosing) {
      // marking hand tiles: a tap (or Space/Enter) marks or unmarks one; nothing else moves
      if (tileEl && tileEl.dataset.where === "hand") this.toggleChosen(tileEl.dataset.tile);
      return;
    }
    if (tileEl) {
      if (this.suppressClick) {
        this.suppressClick = false; // only the one click that follows the drag
        return;
      }
      // a tile in a meld while one is picked: put the picked tile in front of it
      const picked = this.selected ? this.find(this.selected) : null;
      const here = this.find(tileEl.dataset.tile);
      if (picked && here && here.where === "meld" && picked.tile.id !== here.tile.id && event.detail !== 0) {
        this.moveTile(picked.tile.id, { kind: "meld", meldId: here.meld.id, index: here.index });
        return;
      }
      this.pick(tileEl.dataset.tile);
      return;
    }
    const meldEl = event.target.closest(".mt-meld");
    if (meldEl && this.selected && !event.target.closest("button")) {
      this.moveTile(this.selected, { kind: "meld", meldId: meldEl.dataset.meld });
      return;
    }
    if (event.currentTarget === this.handEl && this.selected && !event.target.closest("button")) {
      const picked = this.find(this.selected);
      if (picked && picked.where === "meld") this.moveTile(this.selected, { kind: "hand" });
    }
  }

  onKey(event) {
    if (!this.opts.interactive) return;
    if (event.key === "Escape" && this.selected) {
      const id = this.selected;
      this.pick(null);
      const tile = document.querySelector(`[data-focus="tile:${id}"]`);
      if (tile) tile.focus();
      event.preventDefault();
      return;
    }
    const arrows = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -2, ArrowDown: 2 };
    if (!(event.key in arrows)) return;
    const focusables = [...this.tableEl.querySelectorAll("button"), ...this.handEl.querySelectorAll("button")];
    const at = focusables.indexOf(document.activeElement);
    if (at < 0) return;
    event.preventDefault();
    const step = arrows[event.key];
    if (Math.abs(step) === 1) {
      const next = focusables[at + step];
      if (next) next.focus();
      return;
    }
    // up/down: the first focusable of the previous/next row (a meld, "new meld", the hand)
    const rowOf = (el) => el.closest(".mt-meld") || el.closest(".mt-new") || el.closest(".mt-hand");
    const rows = [];
    for (const el of focusables) if (!rows.includes(rowOf(el))) rows.push(rowOf(el));
    const row = rows.indexOf(rowOf(document.activeElement));
    const target = rows[row + Math.sign(step)];
    if (target) focusables.find((el) => rowOf(el) === target).focus();
  }

  pointerDown(event, tileId) {
    if (!this.opts.interactive || this.choosing || (event.pointerType === "mouse" && event.button !== 0)) return;
    if (!event.isPrimary) return; // a second finger (a pinch) never drags
    this.endDrag();
    const el = event.currentTarget;
    const touch = event.pointerType === "touch";
    // touch: nothing is dragged until a long press lifts the tile (`held`); mouse, pen: at once
    this.drag = { tileId, el, x: event.clientX, y: event.clientY, id: event.pointerId, ghost: null, over: null, active: false, touch, held: !touch };
    const move = (e) => this.pointerMove(e);
    const up = (e) => this.pointerUp(e);
    const cancel = (e) => e.pointerId === this.drag?.id && this.endDrag();
    const away = () => this.endDrag();
    this.drag.listeners = { move, up, cancel, away };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", cancel);
    window.addEventListener("blur", away);
    if (touch) this.drag.timer = setTimeout(() => this.lift(), LONG_PRESS_MS);
  }

  /** Touch: the long press picked the tile up; from now on the finger drags it. */
  lift() {
    const d = this.drag;
    if (!d || d.held) return;
    d.held = true;
    d.el.classList.add("mt-lifted");
    try {
      // a short buzz where it is allowed (browsers refuse it before the page was ever tapped)
      if (typeof navigator.vibrate === "function" && (!navigator.userActivation || navigator.userActivation.hasBeenActive)) navigator.vibrate(12);
    } catch {
      // no vibration: the lifted tile is the feedback
    }
  }

  touchMove(event) {
    // the browser must not scroll (or zoom) while a lifted tile follows the finger (or a pen,
    // where the browser sends touch events for a stylus)
    if (this.drag && this.drag.held && event.cancelable) event.preventDefault();
  }

  pointerMove(event) {
    const d = this.drag;
    if (!d || event.pointerId !== d.id) return;
    if (!d.held) {
      // touch before the long press: moving is a scroll (the browser then cancels the pointer)
      if (Math.hypot(event.clientX - d.x, event.clientY - d.y) > TOUCH_SLOP_PX) this.endDrag();
      return;
    }
    if (!d.active) {
      if (Math.hypot(event.clientX - d.x, event.clientY - d.y) < DRAG_START_PX) return;
      d.active = true;
      d.el.classList.remove("mt-lifted");
      const rect = d.el.getBoundingClientRect();
      d.dx = d.x - rect.left;
      d.dy = d.y - rect.top;
      d.ghost = d.el.cloneNode(true);
      d.ghost.classList.add("mt-ghost");
      d.ghost.removeAttribute("data-testid");
      d.ghost.style.width = `${rect.width}px`;
      d.ghost.style.height = `${rect.height}px`;
      document.body.append(d.ghost);
      d.el.classList.add("mt-dragging");
      document.body.classList.add("mt-drag-on");
    }
    event.preventDefault();
    d.ghost.style.transform = `translate(${event.clientX - d.dx}px, ${event.clientY - d.dy}px)`;
    const target = this.targetAt(event.clientX, event.clientY);
    const zone = target ? target.el : null;
    if (zone !== d.over) {
      if (d.over) d.over.classList.remove("mt-over");
      if (zone) zone.classList.add("mt-over");
      d.over = zone;
    }
  }

  pointerUp(event) {
    const d = this.drag;
    if (!d || event.pointerId !== d.id) return;
    if (!d.active) {
      this.endDrag();
      if (d.touch && d.held) {
        // lifted by a long press and let go in place: the tile stays picked up, as after a tap
        this.quietClick(true);
        if (this.selected !== d.tileId) this.pick(d.tileId);
      }
      return; // a tap: the click handler picks the tile up
    }
    const target = this.targetAt(event.clientX, event.clientY);
    this.endDrag();
    // the click that follows a drag must not pick the tile up
    this.quietClick(d.touch);
    if (target) this.moveTile(d.tileId, target.target);
  }

  /** Ignore the click the browser may send after a drag: at once (mouse, pen) or a tap's (touch). */
  quietClick(touch) {
    this.suppressClick = true;
    clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => (this.suppressClick = false), touch ? TOUCH_CLICK_MS : 0);
  }

  endDrag() {
    const d = this.drag;
    if (!d) return;
    clearTimeout(d.timer);
    window.removeEventListener("pointermove", d.listeners.move);
    window.removeEventListener("pointerup", d.listeners.up);
    window.removeEventListener("pointercancel", d.listeners.cancel);
    window.removeEventListener("blur", d.listeners.away);
    if (d.ghost) d.ghost.remove();
    if (d.over) d.over.classList.remove("mt-over");
    d.el.classList.remove("mt-dragging", "mt-lifted");
    document.body.classList.remove("mt-drag-on");
    this.drag = null;
  }

  /** The drop target under a point: {el, target} or null. */
  targetAt(x, y) {
    const hit = document.elementFromPoint(x, y);
    const zone = hit && hit.closest("[data-drop]");
    if (!zone || !(this.tableEl.contains(zone) || this.handEl.contains(zone))) return null;
    const kind = zone.dataset.drop;
    if (kind === "new") return { el: zone, target: { kind: "new" } };
    if (kind === "gap") return { el: zone.closest(".mt-meld"), target: { kind: "meld", meldId: zone.dataset.meld, index: Number(zone.dataset.index) } };
    if (kind === "meld") {
      const tiles = [...zone.querySelectorAll(".mt-tile")];
      return { el: zone, target: { kind: "meld", meldId: zone.dataset.meld, index: insertionIndex(tiles, x, y) } };
    }
    if (kind === "hand") {
      const tiles = [...this.handEl.querySelectorAll(".mt-tile")];
      return { el: this.handEl, target: { kind: "hand", index: insertionIndex(tiles, x, y) } };
    }
    return null;
  }
}

/** Where a tile dropped at (x, y) goes among `tiles` (which may wrap onto several lines). */
function insertionIndex(tiles, x, y) {
  let index = tiles.length;
  for (let i = 0; i < tiles.length; i++) {
    const r = tiles[i].getBoundingClientRect();
    if (y < r.top) return i; // a line above this tile's line
    if (y <= r.bottom && x < r.left + r.width / 2) return i;
    index = i + 1;
  }
  return index;
}

/** A meld as given: a list of codes, {tiles, kind?}, or {"group": [...]} / {"run": [...]}. */
function meldEntry(item) {
  if (Array.isArray(item)) return { codes: item, kind: null };
  if (item && Array.isArray(item.tiles)) return { codes: item.tiles, kind: item.kind || null };
  if (item && typeof item === "object") {
    const [kind, codes] = Object.entries(item)[0] || [];
    if (Array.isArray(codes)) return { codes, kind };
  }
  return { codes: [], kind: null };
}

/** Declare how a meld reads, for exactly the tiles it has now (a changed meld drops it). */
function withKind(meld, kind) {
  if (kind) meld.declared = { kind, codes: meld.tiles.map((tile) => tile.code).join(" ") };
  else delete meld.declared;
  return meld;
}

/** The declared kind of a meld, if it still has the tiles it was declared with. */
function declaredKind(meld) {
  const d = meld.declared;
  return d && d.codes === meld.tiles.map((tile) => tile.code).join(" ") ? d.kind : null;
}

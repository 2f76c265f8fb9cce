// "Games in progress" on the home screen: every unfinished game (newest first) with its
// opponents, where it stands and when it was last played; Continue, and Delete after one
// question. A link to "My games" counts the finished ones.

import { h, sleep } from "../dom.js";
import { has, t } from "../i18n.js";
import { listKept, summarizePending } from "../saves/keeper.js";
import { deleteGame, listAside, markReported } from "../saves/saves.js";
import { needsSummary } from "../saves/summary.js";
import { errorText } from "./messages.js";
import { showOverlay } from "./overlay.js";
import { opponentsText, progressText, whenText } from "./saved-text.js";

/** Ask once before deleting a saved game; resolves true to delete. */
export function confirmDelete(entry) {
  return showOverlay(
    (close) =>
      h(
        "div",
        { class: "panel", dataset: { testid: "delete-dialog-panel" } },
        h("h2", null, t("saves.delete.title")),
        h("p", null, t("saves.delete.body", {
          game: t(`game.${entry.record.game}.name`),
          progress: progressText(entry),
          when: whenText(entry.updated),
        })),
        h(
          "div",
          { class: "panel-actions", onkeydown: (event) => { if (event.key === "Escape") close(false); } },
          h("button", { type: "button", class: "ghost", autofocus: true, dataset: { testid: "cancel-delete" }, onclick: () => close(false) }, t("saves.delete.keep")),
          h("button", { type: "button", class: "danger", dataset: { testid: "confirm-delete" }, onclick: () => close(true) }, t("saves.delete.confirm")),
        ),
      ),
    { testid: "delete-dialog" },
  ).then(Boolean);
}

/**
 * @param {{playing: object[], finished: number, onDelete: (entry: object) => void}} p
 * @returns {HTMLElement | null}
 */
export function renderKeptGames(p) {
  if (!p.playing.length && !p.finished) return null;
  const rows = p.playing.map((entry) =>
    h(
      "li",
      { class: "kept-row", dataset: { testid: "kept-game", id: entry.id, game: entry.record.game } },
      h(
        "div",
        { class: "kept-what" },
        h("span", { class: "kept-name" }, t(`game.${entry.record.game}.name`)),
        h("span", { class: "kept-vs" }, opponentsText(entry.record)),
        h(
          "span",
          { class: "kept-meta" },
          h("span", { dataset: { testid: "kept-progress" } }, progressText(entry)),
          " · ",
          h("span", { dataset: { testid: "kept-when" } }, t("saves.last_played", { when: whenText(entry.updated) })),
        ),
      ),
      h(
        "div",
        { class: "kept-actions" },
        h("a", { class: "button primary", href: `#/play/${entry.id}`, dataset: { testid: "continue" }, "aria-label": t("saves.continue.aria", { game: t(`game.${entry.record.game}.name`), progress: progressText(entry) }) }, t("home.continue")),
        h("button", { type: "button", class: "ghost", dataset: { testid: "delete-game" }, "aria-label": t("saves.delete.aria", { game: t(`game.${entry.record.game}.name`), progress: progressText(entry) }), onclick: () => p.onDelete(entry) }, t("saves.delete")),
      ),
    ),
  );
  return h(
    "section",
    { class: "kept panel", dataset: { testid: "kept-panel" } },
    h(
      "div",
      { class: "kept-head" },
      h("h2", null, p.playing.length ? t("saves.in_progress", { n: p.playing.length }) : t("saves.none_in_progress")),
      h("a", { class: "button ghost", href: "#/games", dataset: { testid: "my-games-link" } }, t("saves.my_games_count", { n: p.finished })),
    ),
    rows.length ? h("ul", { class: "kept-list" }, rows) : null,
  );
}

// -- the home screen's data -------------------------------------------------------------------

let summarizing = false;

/** What the aside record was, in words: "Wizard, last played today, 14:05" or "a saved game". */
function asideWhat(aside) {
  const value = aside.value;
  const record = value && typeof value === "object" ? value.record : null;
  if (record && typeof record.game === "string" && has(`game.${record.game}.name`)) {
    const name = t(`game.${record.game}.name`);
    return Number.isFinite(value.updated) ? t("saves.aside.what_when", { game: name, when: whenText(value.updated) }) : name;
  }
  return t("saves.aside.what");
}

/** Why a record was set aside, in the player's language. */
export function reasonText(kind, reason) {
  if (kind === "engine") return reason;
  if (kind === "legacy") return t("saves.reason.legacy");
  return t("saves.reason.shape", { detail: reason });
}

/** One record set aside, as My games lists it: what it was, and why. */
export function asideLine(aside) {
  const text = t("aside.item", { what: asideWhat(aside), reason: reasonText(aside.kind, aside.reason) });
  return text.charAt(0).toLocaleUpperCase() + text.slice(1);
}

/** The message for one record set aside. */
export function asideMessage(aside) {
  return t("saves.set_aside.report", { what: asideWhat(aside), reason: reasonText(aside.kind, aside.reason) });
}

/** The id of the most recently played unfinished game, or null. */
export async function mostRecentPlaying() {
  const { entries } = await listKept().catch(() => ({ entries: [] }));
  return entries.find((entry) => entry.status === "playing")?.id || null;
}

/**
 * The home screen's saved games: the "Games in progress" panel and one message per record set
 * aside since the player was last told. Summaries missing (migrated, imported) are made by the
 * engine in the background, and `redraw()` is called when they change the list.
 */
export async function homeGames({ app, engine, games, redraw }) {
  let listed;
  try {
    listed = await Promise.race([listKept(), sleep(3000).then(() => { throw new Error("storage is slow"); })]);
  } catch (error) {
    console.warn("tapete: the saved games could not be listed:", error);
    return { panel: null, messages: [] };
  }
  const aside = (await listAside().catch(() => [])).filter((a) => !a.reported);
  const messages = aside.map(asideMessage);
  if (aside.length) await markReported(aside.map((a) => a.id)).catch(() => {});
  const entries = listed.entries.filter((entry) => games.includes(entry.record.game));
  // a game the storage refused (full) still goes on in memory: list it too
  const current = app.game;
  if (current && current.entry && !app.over && !entries.some((e) => e.id === current.id)) entries.unshift(current.entry);
  const pending = entries.filter(needsSummary);
  if (pending.length && !summarizing) {
    const run = () => {
      summarizing = true;
      summarizePending(engine, pending, { errorText: refusalText })
        .then((result) => { if (result.updated || result.setAside.length) redraw(); })
        .catch((error) => console.warn("tapete: summaries:", error))
        .finally(() => { summarizing = false; });
    };
    if (engine.status === "ready") run();
    else engine.addEventListener("ready", run, { once: true });
  }
  const playing = entries.filter((entry) => entry.status === "playing");
  const finished = entries.filter((entry) => entry.status === "finished").length;
  const panel = renderKeptGames({
    playing,
    finished,
    onDelete: async (entry) => {
      if (!(await confirmDelete(entry))) return;
      await deleteGame(entry.id).catch((error) => console.warn("tapete: delete:", error));
      if (app.game && app.game.id === entry.id) app.game = null;
      redraw();
    },
  });
  return { panel, messages };
}

/**
 * Fill the home screen's slot with the saved games, and show a message for each record set
 * aside (above the list; kept when the list is drawn again), unless the player has left the
 * screen (`active()` false).
 */
export async function fillKeptGames(slot, { active, ...options }) {
  const shown = [];
  const fill = async () => {
    const kept = await homeGames({ ...options, redraw: () => { if (active() && slot.isConnected) fill(); } });
    if (!active() || !slot.isConnected) return;
    shown.push(...kept.messages.map((text) => h("div", { class: "notice", role: "alert", dataset: { testid: "home-message" } }, text)));
    slot.replaceChildren(...shown, ...(kept.panel ? [kept.panel] : []));
  };
  await fill();
}

/** Why the engine refused a saved record, in the player's language, with the move it names. */
export function refusalText(error, game) {
  const text = errorText(error, game);
  const path = String(error?.info?.path || error?.path || "");
  const move = /^\$\.moves\[(\d+)\]/.exec(path);
  return move ? `${text} ${t("saves.reason.move", { n: Number(move[1]) + 1 })}` : text;
}

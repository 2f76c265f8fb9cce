// Tapete's controller: loads build.json and the strings, starts the engine worker, routes the
// hash (#/, #/new/<game>, #/play/<id>, #/games, #/replay/<id>, deal links #/<game>?seed=...),
// and owns the current game. Every game is kept (web/saves/): a new one never replaces another.

import { EngineClient } from "./engine-client.js";
import { h, mount } from "./dom.js";
import { applyTranslations, language, preferredLanguage, setLanguage, t } from "./i18n.js";
import { parseDealLink } from "./deal-link.js";
import * as lobo from "./render/lobo.js";
import * as rummikub from "./render/rummikub.js";
import * as willie from "./render/willie.js";
import * as wizard from "./render/wizard.js";
import { loadSettings, saveSettings } from "./store.js";
import { applyMotion } from "./motion.js";
import { keepFinished, keepNewGame, loadKept, setAsideKept, startSaves } from "./saves/keeper.js";
import * as saves from "./saves/saves.js";
import { redrawStorageProblem } from "./saves/notice.js";
import { fillKeptGames, mostRecentPlaying, reasonText, refusalText } from "./ui/games.js";
import { applyUpdateIfIdle, activateWaiting, registerServiceWorker } from "./sw-update.js";
import { renderGameOver } from "./ui/game-over.js";
import { renderHome } from "./ui/home.js";
import { renderLab } from "./ui/lab.js";
import { renderMyGames } from "./ui/my-games.js";
import { ReplayScreen, addGameOverLink, addReplayExtension, gameOverLinks } from "./ui/replay.js";
import "./ui/review.js"; // "Review my play": a replay extension (registers itself)
import { LAB_GAMES } from "./ui/lab-link.js";
import { errorText, registerExplainer } from "./ui/messages.js";
import { renderNewGame } from "./ui/new-game.js";
import { closeOverlay, showOverlay } from "./ui/overlay.js";
import { PlayScreen } from "./ui/play.js";
import { dealUrl, shareDeal } from "./ui/share.js";
import { openJoin } from "./ui/join.js";
import { leaveTable, openTable, savedTable, startTable } from "./ui/table.js";

/** Games the page can draw. A game in build.json without a renderer is not offered. */
const RENDERERS = { lobo, rummikub, willie, wizard };
for (const [id, renderer] of Object.entries(RENDERERS)) {
  if (renderer.explainError) registerExplainer(id, renderer.explainError);
}

/** Renderers that ask the engine more than moves (Rummikub's `inspect` while the player builds a
 * turn, its auto-arrange) get `ask(op, fields)`: the game, state and seat on view are filled in. */
function askEngine(op, fields = {}) {
  if (app.session) return app.session.ask(op, fields); // on a guest's device, its host answers
  const game = app.game;
  return app.engine.call(op, { game: game.record.game, state: game.snap.state, seat: game.viewer, ...fields });
}
for (const renderer of Object.values(RENDERERS)) if (renderer.connect) renderer.connect(askEngine);

/** A stuck engine is replaced this many times in one visit before the page gives up. */
const MAX_RECOVERIES = 3;

/** Errors that mean "this input is wrong", not "the engine is broken". */
const INPUT_ERRORS = ["bad_option", "unknown_game", "bad_request", "bad_state", "invalid_move", "illegal_move"];

const app = {
  /** @type {any} */ build: null,
  /** @type {EngineClient} */ engine: null,
  settings: loadSettings(),
  /** @type {import("./ui/play.js").Game | null} */ game: null,
  /** @type {PlayScreen | null} */ session: null,
  over: false,
  /** Messages waiting for the home screen. @type {string[]} */ messages: [],
  updateReady: false,
  screen: "",
  /** Bumped by every navigation: an answer that comes back after the player left is dropped. */
  visit: 0,
};

/** A check that the screen that started some async work is still the one shown. */
function stillOn(visit) {
  return visit === app.visit;
}

const root = () => document.getElementById("app");

function setEngineStatus(status) {
  // How the worker started: "snapshot" (restored from a memory snapshot) or "plain".
  if (status === "ready") document.documentElement.dataset.start = app.engine.info.start || "plain";
  document.documentElement.dataset.engine = status;
}

function catalogues() {
  return (app.build?.games || []).filter((game) => game.id in RENDERERS);
}

// -- header: engine status, settings, update banner ------------------------------------------

function drawEngineStatus() {
  const el = document.getElementById("engine-status");
  const { status, bootStage } = app.engine;
  el.dataset.state = status;
  if (status === "ready") {
    el.textContent = t("engine.ready");
    el.title = t("engine.versions", app.engine.info);
  } else if (status === "fatal") {
    el.textContent = t("engine.fatal.short");
  } else {
    const total = Math.max(1, bootStage.total);
    el.replaceChildren(
      h("span", { class: "spinner", "aria-hidden": "true" }),
      h("span", null, t(`engine.boot.${bootStage.stage}`, { done: bootStage.done, total })),
      h("progress", { max: total, value: bootStage.done }),
    );
  }
}

function drawSettings() {
  const fast = document.getElementById("fast-bots");
  fast.checked = app.settings.fastBots;
  document.getElementById("show-hints").checked = app.settings.showHints;
  document.getElementById("motion-select").value = app.settings.motion;
  const lang = document.getElementById("lang-select");
  lang.value = language();
}

function drawUpdateBanner() {
  const banner = document.getElementById("update-banner");
  banner.hidden = !app.updateReady;
  if (!app.updateReady) return;
  mount(
    banner,
    h("span", null, t(inGame() ? "update.ready_in_game" : "update.ready")),
    inGame() ? null : h("button", { type: "button", class: "ghost", dataset: { testid: "update-now" }, onclick: () => activateWaiting() }, t("update.now")),
  );
}

function wireHeader() {
  document.getElementById("fast-bots").addEventListener("change", (event) => {
    app.settings.fastBots = event.target.checked;
    saveSettings(app.settings);
    app.session?.render?.(); // the table bar's pace switch follows
  });
  document.addEventListener("tapete-settings", () => drawSettings()); // changed on the table
  document.getElementById("show-hints").addEventListener("change", (event) => {
    app.settings.showHints = event.target.checked;
    saveSettings(app.settings);
    app.session?.settingsChanged?.();
  });
  document.getElementById("motion-select").addEventListener("change", (event) => {
    app.settings.motion = event.target.value;
    saveSettings(app.settings);
    applyMotion(app.settings.motion);
  });
  document.getElementById("lang-select").addEventListener("change", (event) => changeLanguage(event.target.value));
}

async function changeLanguage(lang) {
  await setLanguage(lang, { save: true });
  drawSettings();
  drawEngineStatus();
  drawUpdateBanner();
  redrawStorageProblem();
  if (app.replay) app.resumeReplay = { id: app.replay.entry.id, step: app.replay.step };
  if (app.session) app.session.render();
  else route();
}

// -- screens ----------------------------------------------------------------------------------

/** What the several-devices screens (ui/table.js on the host, ui/join.js on a guest) use. */
function tableContext() {
  return {
    app, root: root(), renderers: RENDERERS, PlayScreen, goHome, showFatal, showLoading, stillOn, errorText, isInputError, stopSession,
    catalogue: (id) => catalogues().find((c) => c.id === id) || null,
    share: (record) => shareDeal(record),
    hotSeat: (setup) => {
      app.lastSetup = { ...setup, seed: "" };
      location.hash = `#/new/${setup.game}`;
    },
  };
}

function inGame() {
  return app.screen === "play" && !app.over;
}

function goHome(message) {
  if (message) app.messages.push(message);
  if (location.hash && location.hash !== "#/" && location.hash !== "#") history.replaceState(null, "", "#/");
  showHome();
}

function showHome() {
  app.screen = "home";
  const visit = app.visit;
  document.title = t("app.name");
  // the saved games (ui/games.js) fill their slot as soon as IndexedDB lists them
  const kept = h("div", { class: "kept-slot" });
  renderHome(root(), {
    games: catalogues(),
    art: (id) => RENDERERS[id]?.homeArt?.(t) || null,
    kept,
    messages: app.messages,
    onLanguage: (lang) => changeLanguage(lang),
  });
  app.messages = [];
  fillKeptGames(kept, { app, engine: app.engine, games: Object.keys(RENDERERS), active: () => stillOn(visit) });
  const table = savedTable();
  if (table) {
    root().querySelector("[data-testid=home]")?.prepend(h(
      "section",
      { class: "continue panel", dataset: { testid: "continue-table" } },
      h("div", null, h("h2", null, t("table.continue.title")), h("p", null, t("table.continue.body", { game: t(`game.${table.setup.game}.name`), n: table.record.moves.length }))),
      h("a", { class: "button primary", href: "#/table" }, t("home.continue")),
    ));
  }
  drawUpdateBanner();
  applyUpdateIfIdle();
}

function showNewGame(id) {
  app.screen = "new";
  const catalogue = catalogues().find((c) => c.id === id);
  if (!catalogue) return goHome(t("link.unknown_game", { game: id.slice(0, 24) }));
  document.title = `${t("newgame.title", { game: t(`game.${id}.name`) })} · ${t("app.name")}`;
  renderNewGame(root(), catalogue, {
    initial: app.lastSetup && app.lastSetup.game === id ? app.lastSetup : null,
    engineReady: () => app.engine.status === "ready",
    onHost: (setup) => {
      app.lastSetup = setup;
      startTable(tableContext(), setup).catch(showFatal);
    },
    onStart: async (setup) => {
      const visit = app.visit;
      app.lastSetup = setup;
      let snap;
      try {
        snap = await newGame(setup);
      } catch (error) {
        if (isInputError(error)) return errorText(error, setup.game);
        showFatal(error);
        return null;
      }
      if (!stillOn(visit)) return null;
      adoptGame(setup, snap);
      location.hash = `#/play/${app.game.id}`;
      return null;
    },
  });
}

function showLoading(text) {
  mount(root(), h("div", { class: "loading panel", dataset: { testid: "loading" } }, h("span", { class: "spinner big", "aria-hidden": "true" }), h("p", null, text)));
}

function isInputError(error) {
  return error && INPUT_ERRORS.includes(error.code);
}

function firstHuman(seats) {
  return Math.max(0, seats.findIndex((s) => s.kind === "human"));
}

/** Ask the engine for a new game (nothing is saved yet). */
function newGame(setup) {
  return app.engine.call("new_game", {
    game: setup.game,
    seed: setup.seed,
    options: setup.options,
    players: setup.players,
    view_seat: firstHuman(setup.seats),
  });
}

/** A new game accepted by the engine becomes the current game, saved as a new entry. */
function adoptGame(setup, snap) {
  const record = {
    game: setup.game,
    engine_version: app.engine.info?.engine_version || app.build.engine_version,
    seed: setup.seed,
    options: snap.view.options || setup.options,
    players: setup.players,
    seats: setup.seats,
    moves: [],
  };
  stopSession();
  app.game = { record, snap, viewer: firstHuman(setup.seats), shown: null };
  app.over = false;
  keepNewGame(app.game);
}

function stopSession() {
  if (app.session) app.session.stop();
  app.session = null;
}

/** A saved game (`#/play/<id>`; `#/play` alone: the last one played), rebuilt by the engine. */
async function showPlay(id) {
  app.screen = "play";
  const visit = app.visit;
  if (!id) {
    const recent = app.game?.id || (await mostRecentPlaying());
    if (!stillOn(visit)) return;
    if (!recent) return goHome();
    history.replaceState(null, "", `#/play/${recent}`);
    id = recent;
  }
  if (!app.game || app.game.id !== id) {
    stopSession();
    app.game = null;
    const found = await loadKept(id).catch(() => null);
    if (!stillOn(visit)) return;
    if (!found) return goHome(t("saves.not_found"));
    if (found.error) return goHome(t("saves.set_aside.one", { reason: reasonText("shape", found.error) }));
    const { entry } = found;
    const record = entry.record;
    if (!(record.game in RENDERERS)) {
      const reason = t("link.unknown_game", { game: record.game.slice(0, 24) });
      await setAsideKept(id, reason);
      return goHome(t("saves.set_aside.one", { reason }));
    }
    showLoading(app.engine.status === "ready" ? t("play.restoring") : t("play.restoring_wait"));
    const viewer = firstHuman(record.seats);
    let snap;
    try {
      snap = await app.engine.call("replay", { record, view_seat: viewer }, { timeout: 90_000 });
    } catch (error) {
      if (isInputError(error)) {
        const reason = refusalText(error, record.game);
        await setAsideKept(id, reason);
        return goHome(t("saves.set_aside.one", { reason }));
      }
      return showFatal(error);
    }
    if (!stillOn(visit)) return;
    app.game = { id, entry, record, snap, viewer, shown: null };
    app.over = Boolean(snap.outcome);
  }
  if (app.game.snap.outcome) return showOver(app.game);
  document.title = `${t(`game.${app.game.record.game}.name`)} · ${t("app.name")}`;
  stopSession();
  app.session = new PlayScreen(
    {
      engine: app.engine,
      root: root(),
      renderer: RENDERERS[app.game.record.game],
      settings: app.settings,
      share: (record) => shareDeal(record),
      onOver: (game) => showOver(game),
      onFatal: (error) => {
        if (error && error.code === "stuck" && app.engine.restarts <= MAX_RECOVERIES) return app.session?.recover();
        if (isInputError(error)) return app.session?.showError(errorText(error, app.game.record.game));
        return showFatal(error);
      },
    },
    app.game,
  );
  app.session.start();
  drawUpdateBanner();
}

function showOver(game) {
  stopSession();
  app.over = true;
  keepFinished(game);
  const record = game.record;
  const names = new PlayScreen({}, game).names();
  const setupOf = (seed) => ({ game: record.game, seed, players: record.players, seats: record.seats, options: record.options });
  const restart = async (seed) => {
    const visit = app.visit;
    const setup = setupOf(seed);
    showLoading(t("newgame.starting"));
    let snap;
    try {
      snap = await newGame(setup);
    } catch (error) {
      return isInputError(error) ? goHome(errorText(error, record.game)) : showFatal(error);
    }
    if (!stillOn(visit)) return;
    adoptGame(setup, snap);
    location.hash = `#/play/${app.game.id}`;
  };
  renderGameOver(root(), {
    renderer: RENDERERS[record.game],
    snap: game.snap,
    names,
    onAgain: () => restart(record.seed),
    onNewDeal: () => restart(randomSeedFor()),
    onShare: () => shareDeal(record),
    engine: app.engine,
    links: [...gameOverLinks(game.id), h("a", { class: "button ghost", href: "#/games", dataset: { testid: "my-games-link" } }, t("stats.my_games"))],
  });
  drawUpdateBanner();
}

function randomSeedFor() {
  const alphabet = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
  const bytes = new Uint8Array(6);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
}

/** A deal link: check it, let the engine start it, and keep it as a new game (the others stay). */
async function openDealLink(path) {
  app.screen = "link";
  const visit = app.visit;
  const parsed = parseDealLink(path, catalogues());
  if ("error" in parsed) {
    let why = "";
    if (parsed.setup) {
      // no deal code: the engine still says what is wrong with the rest (a bad option)
      showLoading(t("link.checking"));
      why = await linkProblem(parsed.setup);
      if (!stillOn(visit)) return;
    }
    return goHome([t(parsed.error, parsed.params || {}), why].filter(Boolean).join(" "));
  }
  const setup = parsed.setup;
  showLoading(app.engine.status === "ready" ? t("link.dealing") : t("link.dealing_wait"));
  let snap;
  try {
    // The engine checks the deal first: a refused link saves nothing.
    snap = await newGame(setup);
  } catch (error) {
    if (!stillOn(visit)) return;
    if (isInputError(error)) return goHome(errorText(error, setup.game));
    return showFatal(error);
  }
  if (!stillOn(visit)) return;
  adoptGame(setup, snap);
  history.replaceState(null, "", `#/play/${app.game.id}`);
  showPlay(app.game.id);
}

/** What the engine refuses in a link's setup other than its seed (a stand-in one is valid), in
 * the player's language; "" when it would deal it. */
async function linkProblem(setup) {
  try {
    await newGame({ ...setup, seed: "LINKCHECK" });
    return "";
  } catch (error) {
    if (isInputError(error)) return errorText(error, setup.game);
    return "";
  }
}

/** "My games": history, statistics, export and import (web/ui/my-games.js). */
function showMyGames() {
  app.screen = "games";
  const visit = app.visit;
  document.title = `${t("stats.my_games")} · ${t("app.name")}`;
  renderMyGames(root(), {
    engine: app.engine,
    games: Object.keys(RENDERERS),
    active: () => stillOn(visit),
    engineVersion: app.engine.info?.engine_version || app.build.engine_version,
    onDeleted: (id) => { if (app.game && app.game.id === id) app.game = null; },
    extraActions: (entry) => [h("a", { class: "button ghost small", href: `#/replay/${entry.id}`, dataset: { testid: "replay-game" } }, t("replay.open"))],
  });
}

/** The replay of a saved game (web/ui/replay.js): `#/replay/<id>[?query]`. */
async function showReplay(path) {
  app.screen = "replay";
  const visit = app.visit;
  const mark = path.indexOf("?");
  const id = mark < 0 ? path : path.slice(0, mark);
  showLoading(t("replay.loading"));
  const found = await loadKept(id).catch(() => null);
  if (!stillOn(visit)) return;
  if (!found) return goHome(t("saves.not_found"));
  if (found.error) return goHome(t("saves.set_aside.one", { reason: reasonText("shape", found.error) }));
  const renderer = RENDERERS[found.entry.record.game];
  if (!renderer) return goHome(t("link.unknown_game", { game: found.entry.record.game.slice(0, 24) }));
  document.title = `${t("replay.title", { game: t(`game.${found.entry.record.game}.name`) })} · ${t("app.name")}`;
  // a redraw (the language changed) comes back to the same position
  const params = new URLSearchParams(mark < 0 ? "" : path.slice(mark + 1));
  if (!params.has("step") && app.resumeReplay?.id === id) params.set("step", String(app.resumeReplay.step));
  app.resumeReplay = null;
  app.replay = new ReplayScreen({
    root: root(),
    engine: app.engine,
    entry: found.entry,
    renderer,
    params,
    errorText: (error) => (isInputError(error) ? refusalText(error, found.entry.record.game) : errorText(error, found.entry.record.game)),
    onError: (error) => { if (!isInputError(error)) showFatal(error); },
  });
  app.replay.start();
}

/** The playtest lab of a game (its catalogue straight from build.json: it needs no renderer). */
function showLab(path) {
  app.screen = "lab";
  const visit = app.visit;
  const mark = path.indexOf("?");
  const id = mark < 0 ? path : path.slice(0, mark);
  const catalogue = (app.build?.games || []).find((c) => c.id === id && LAB_GAMES.includes(c.id));
  if (!catalogue) return goHome(t("lab.error.game", { game: id.slice(0, 24) }));
  document.title = `${t("lab.home_link")} · ${t("app.name")}`;
  renderLab(root(), catalogue, { engine: app.engine, query: mark < 0 ? null : path.slice(mark + 1), active: () => stillOn(visit) });
}

/** A short message over whatever screen is shown (it goes by itself). */
function showNotice(text) {
  const notice = h("div", { class: "toast notice", role: "status", dataset: { testid: "engine-notice" } }, text);
  document.body.append(notice);
  setTimeout(() => notice.remove(), 8000);
}

/** A bug of the page itself (its own code threw), not the engine's: said as such. */
const PAGE_ERRORS = ["TypeError", "ReferenceError", "RangeError", "SyntaxError"];

function showFatal(error) {
  const message = (error && error.message) || String(error);
  console.error("tapete:", error);
  const kind = error instanceof Error && PAGE_ERRORS.includes(error.name) ? "page" : "engine";
  closeOverlay();
  showOverlay(
    () =>
      h(
        "div",
        { class: "panel", dataset: { testid: "fatal", kind } },
        h("h2", null, t(kind === "page" ? "page.fatal.title" : "engine.fatal.title")),
        h("p", null, t(kind === "page" ? "page.fatal.body" : "engine.fatal.body")),
        h("pre", { class: "small" }, message.slice(0, 400)),
        h("div", { class: "panel-actions" }, h("button", { type: "button", class: "primary", onclick: () => location.reload() }, t("engine.reload"))),
      ),
    { testid: "fatal-dialog", escape: false },
  );
}

// -- routing ----------------------------------------------------------------------------------

const APP_ROUTES = ["play", "new", "games"]; // the pages that take no query (replay and lab do)

function route() {
  app.visit += 1;
  // another screen starts at its top, not where the last one was scrolled to (the Start button
  // at the foot of a long form)
  window.scrollTo(0, 0);
  const hash = location.hash.replace(/^#\/?/, "");
  if (hash !== "play" && !hash.startsWith("play/")) stopSession();
  if (hash !== "table") leaveTable();
  app.replay?.close();
  app.replay = null;
  closeOverlay();
  if (hash === "" ) return showHome();
  // the app's own pages take no query: "#/play?x=1" is a bad address, not a game called "play"
  const page = hash.split("?")[0].split("/")[0];
  if (hash.includes("?") && APP_ROUTES.includes(page)) return goHome(t("link.route_params", { route: page }));
  if (hash === "play" || hash.startsWith("play/")) return showPlay(hash.slice(5));
  if (hash === "table") return openTable(tableContext()).catch(showFatal);
  if (hash.startsWith("join/")) return openJoin(tableContext(), hash.slice(5)).catch(showFatal);
  if (hash.startsWith("new/")) return showNewGame(hash.slice(4));
  if (hash === "games") return showMyGames();
  if (hash.startsWith("replay/")) return showReplay(hash.slice(7));
  if (hash === "lab" || hash.startsWith("lab/")) return showLab(hash.slice(4) || "willie");
  return openDealLink(hash);
}

async function main() {
  applyMotion(app.settings.motion);
  setEngineStatus("booting");
  // Python boots in the worker while the page loads its strings and build.json.
  app.engine = new EngineClient();
  app.engine.start();
  // for debugging in the console (and the e2e tests); the built page is one module (build.py),
  // so code from outside reaches the replay's extension points here, not by importing ui/replay.js
  const replay = { addReplayExtension, addGameOverLink };
  window.tapete = { app, dealUrl, saves, replay };
  await setLanguage(preferredLanguage());
  try {
    const response = await fetch("build.json", { cache: "no-cache" });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    app.build = await response.json();
  } catch (error) {
    mount(root(), h("div", { class: "panel notice", role: "alert", dataset: { testid: "no-build" } }, t("app.no_build", { error: String(error.message || error) })));
    setEngineStatus("fatal");
    return;
  }
  app.engine.addEventListener("boot", drawEngineStatus);
  app.engine.addEventListener("ready", () => {
    setEngineStatus("ready");
    drawEngineStatus();
  });
  app.engine.addEventListener("snapshot", (event) => {
    document.documentElement.dataset.snapshot = event.detail.ok ? "saved" : "failed";
  });
  app.engine.addEventListener("restart", () => {
    setEngineStatus("booting");
    drawEngineStatus();
    showNotice(t("engine.restarted"));
  });
  app.engine.addEventListener("fatal", (event) => {
    setEngineStatus("fatal");
    drawEngineStatus();
    showFatal(new Error(event.detail.message));
  });
  if (app.engine.status !== "booting") setEngineStatus(app.engine.status);
  if (app.engine.status === "fatal") showFatal(new Error(app.engine.fatalMessage));
  drawEngineStatus();
  wireHeader();
  drawSettings();
  applyTranslations(document);
  await startSaves(); // the single-slot saves of earlier versions move in first
  window.addEventListener("hashchange", route);
  route();
  // The service worker precaches the whole build (about 15 MB) on its first install: it is
  // registered once the engine is ready (or has failed), so those downloads and cache writes
  // do not compete with Python's start on a first visit.
  app.engine.whenReady().catch(() => {}).then(() =>
    registerServiceWorker({
      inGame,
      beforeTakeover: () => app.engine.quiet(),
      onUpdateReady: (ready) => {
        app.updateReady = ready;
        drawUpdateBanner();
      },
    }),
  );
}

main();

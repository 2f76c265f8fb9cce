// The host's screens of a game on several devices: the pairing screen (a QR code and a link
// per remote seat, the guest's answer scanned with the camera or pasted, the deal's
// commitment, what a missing player's seat does, an optional STUN/TURN server), then the
// table itself (the PlayScreen with the HostSession as its driver) and the devices panel.

import { h, mount } from "../dom.js";
import { language, t } from "../i18n.js";
import { clearTable, HostSession, loadTable } from "../net/host.js";
import { PairingError } from "../net/pairing.js";
import { drawQr, readQrFromImage, startCameraScan } from "../net/qr.js";
import { canPair } from "../net/transport.js";
import { defaultBotLevel } from "../deal-link.js";
import { moveAside } from "../saves/saves.js";
import { renderGameOver } from "./game-over.js";
import { closeOverlay, showOverlay } from "./overlay.js";

const ICE_KEY = "tapete.ice";
/** The table of this page (it outlives screens: the host may look at the rules and come back). */
let current = null;

/** The player's own STUN/TURN server, if they set one (off by default). */
export function loadIceServer() {
  try {
    const saved = JSON.parse(localStorage.getItem(ICE_KEY) || "null");
    return saved && typeof saved.urls === "string" && /^(stun|turns?):/.test(saved.urls) ? saved : null;
  } catch {
    return null;
  }
}

function saveIceServer(server) {
  try {
    if (server) localStorage.setItem(ICE_KEY, JSON.stringify(server));
    else localStorage.removeItem(ICE_KEY);
  } catch { /* ignore */ }
}

/** Whether a table game is saved on this device (the home screen offers to go back to it). */
export function savedTable() {
  const saved = loadTable();
  return saved && saved.record ? saved : null;
}

function setCurrent(host) {
  current = host;
  window.tapete = { ...(window.tapete || {}), host }; // for debugging in the console, and tests
}

function firstLocal(seats) {
  const index = seats.findIndex((s) => s.kind === "human" && !s.remote);
  return index < 0 ? null : index;
}

function seatName(host, index) {
  const seat = host.setup.seats[index];
  const remote = host.remote.get(index);
  const name = (remote && remote.name) || seat.name;
  if (name) return name;
  return seat.kind === "bot" ? t("seat.bot", { n: index + 1 }) : t("seat.player", { n: index + 1 });
}

/** The new-game form chose seats on other devices: make the table and show its pairing screen. */
export async function startTable(ctx, setup) {
  if (current) current.stop();
  const catalogue = ctx.catalogue(setup.game);
  const host = new HostSession({
    engine: ctx.app.engine,
    setup: {
      game: setup.game, options: setup.options, players: setup.players, seats: setup.seats,
      policy: { missing: "wait", timeout_s: 30, bot_level: defaultBotLevel(catalogue) },
      ice_server: loadIceServer(),
    },
  });
  await host.init();
  setCurrent(host);
  host.save();
  location.hash = "#/table";
}

/** Another screen than #/table is shown: the table lives on, its screen may lock (host.js). */
export function leaveTable() {
  current?.setAway(true);
}

/** #/table: the current table, or the one saved on this device (a reload resumes it). */
export async function openTable(ctx) {
  ctx.app.screen = "table";
  if (!current) {
    const saved = loadTable();
    if (!saved || !ctx.catalogue(saved.setup.game)) return ctx.goHome();
    setCurrent(await new HostSession({ engine: ctx.app.engine, setup: saved.setup, saved }).init());
    current.resumed = true;
    if (saved.record) {
      ctx.showLoading(t("play.restoring"));
      const viewer = firstLocal(saved.setup.seats);
      try {
        const snap = await ctx.app.engine.call("replay", { record: saved.record, ...(viewer === null ? { view_public: true } : { view_seat: viewer }) }, { timeout: 90_000 });
        current.attach({ record: saved.record, snap, viewer, shown: null });
      } catch (error) {
        // The saved table is set aside (My games lists it), never dropped.
        const reason = ctx.errorText(error, saved.setup.game);
        try {
          await moveAside(saved, reason, "table", "engine");
        } catch { /* storage blocked: the message still says why */ }
        clearTable();
        current = null;
        return ctx.goHome(t("saves.set_aside.one", { reason }));
      }
    }
  }
  const host = current;
  host.setAway(false);
  if (!host.game) return showLobby(ctx, host);
  return showTablePlay(ctx, host);
}

// -- the pairing screen ---------------------------------------------------------------------------

function statusBadge(seat) {
  const status = seat.failed ? "failed" : seat.status;
  return h("span", { class: ["seat-status", `status-${status}`], dataset: { testid: `seat-status-${seat.seat}`, status } }, t(`table.status.${status}`));
}

/** A remote seat's QR code, link, and the answer box. */
function pairPanel(host, seat, redraw) {
  const canvas = h("canvas", { class: "qr", dataset: { testid: `qr-${seat.seat}` }, "aria-label": t("table.qr.label", { name: seatName(host, seat.seat) }) });
  let version = null;
  if (seat.joinUrl) version = drawQr(canvas, seat.joinUrl).version;
  if (version) canvas.dataset.drawn = "true";
  const link = h("input", { type: "text", readonly: true, class: "link-text", value: seat.joinUrl || "", "aria-label": t("table.link.label", { name: seatName(host, seat.seat) }), dataset: { testid: `join-link-${seat.seat}` }, onfocus: (event) => event.target.select() });
  const message = h("p", { class: "form-error", role: "alert", dataset: { testid: `pair-error-${seat.seat}` } });
  // what was typed survives a redraw (another seat connecting redraws the screen)
  const answer = h("textarea", { rows: "2", class: "answer-text", placeholder: t("table.answer.placeholder"), "aria-label": t("table.answer.label", { name: seatName(host, seat.seat) }), dataset: { testid: `answer-${seat.seat}` }, spellcheck: "false", autocomplete: "off", oninput: () => { seat.draft = answer.value; } });
  answer.value = seat.draft || "";
  const video = h("video", { class: "scan-video", hidden: true, dataset: { testid: `scan-video-${seat.seat}` } });
  let stopScan = null;
  const take = async (text) => {
    message.textContent = "";
    try {
      await host.acceptAnswer(text);
      seat.draft = "";
      message.textContent = t("table.answer.connecting");
      return true;
    } catch (error) {
      message.textContent = error instanceof PairingError ? t(`net.pair.${error.code}`) : t("net.pair.failed", { message: String(error.message || error).slice(0, 120) });
      return false;
    }
  };
  const scan = h("button", { type: "button", class: "ghost", dataset: { testid: `scan-${seat.seat}` }, onclick: async () => {
    if (stopScan) {
      stopScan();
      stopScan = null;
      video.hidden = true;
      return;
    }
    try {
      video.hidden = false;
      stopScan = await startCameraScan(video, (text) => {
        if (!/^[A-Za-z2-7\s]+$/.test(text)) return false;
        take(text);
        video.hidden = true;
        return true;
      });
    } catch {
      video.hidden = true;
      message.textContent = t("table.scan.no_camera");
    }
  } }, t("table.scan"));
  const photo = h("input", { type: "file", accept: "image/*", capture: "environment", hidden: true, dataset: { testid: `photo-${seat.seat}` }, onchange: async (event) => {
    const file = event.target.files && event.target.files[0];
    if (!file) return;
    const bitmap = await createImageBitmap(file).catch(() => null);
    const text = bitmap ? await readQrFromImage(bitmap) : null;
    if (text) take(text);
    else message.textContent = t("table.scan.none");
  } });
  return h(
    "div",
    { class: "pair-panel", dataset: { testid: `pair-${seat.seat}` } },
    h("div", { class: "pair-qr" }, canvas, version ? h("p", { class: "small" }, t("table.qr.version", { version })) : h("p", { class: "small" }, t("table.qr.making"))),
    h(
      "div",
      { class: "pair-steps" },
      h("p", null, t("table.step.scan", { name: seatName(host, seat.seat) })),
      h("div", { class: "copy-row" }, link, h("button", { type: "button", class: "ghost", dataset: { testid: `copy-${seat.seat}` }, onclick: () => {
        link.select();
        navigator.clipboard?.writeText(link.value).catch(() => {});
      } }, t("table.copy"))),
      h("p", null, t("table.step.answer")),
      h("div", { class: "copy-row" }, scan, h("button", { type: "button", class: "ghost", onclick: () => photo.click() }, t("table.scan.photo")), photo),
      video,
      answer,
      h("div", { class: "copy-row" }, h("button", { type: "button", class: "primary", dataset: { testid: `connect-${seat.seat}` }, onclick: () => take(answer.value) }, t("table.connect")),
        h("button", { type: "button", class: "ghost", dataset: { testid: `new-link-${seat.seat}` }, onclick: async () => {
          await host.pairSeat(seat.seat);
          redraw();
        } }, t("table.new_link"))),
      message,
    ),
  );
}

function seatRows(host, redraw, { inGame = false } = {}) {
  return host.setup.seats.map((seat, index) => {
    const remote = host.remote.get(index);
    const kind = remote ? t("table.kind.remote") : seat.kind === "bot" ? t("table.kind.bot") : t("table.kind.local");
    const row = h("div", { class: "table-seat", dataset: { testid: `table-seat-${index}` } },
      h("div", { class: "table-seat-head" }, h("strong", null, seatName(host, index)), h("span", { class: "small" }, kind), remote ? statusBadge(remote) : null,
        inGame && remote && remote.status !== "connected" ? h("button", { type: "button", class: "ghost", dataset: { testid: `bot-now-${index}` }, onclick: () => host.letBotPlay(index) }, t("table.bot_now")) : null),
    );
    if (remote && remote.status !== "connected") row.append(pairPanel(host, remote, redraw));
    return row;
  });
}

function policyControls(host) {
  const policy = host.setup.policy;
  const missing = h("select", { "aria-labelledby": "missing-policy-label", dataset: { testid: "missing-policy" }, onchange: () => {
    policy.missing = missing.value;
    host.save();
  } }, h("option", { value: "wait" }, t("table.policy.wait")), h("option", { value: "bot" }, t("table.policy.bot")));
  missing.value = policy.missing;
  const timeout = h("select", { "aria-label": t("table.policy.timeout"), dataset: { testid: "missing-timeout" }, onchange: () => {
    policy.timeout_s = Number(timeout.value);
    host.save();
  } }, [10, 30, 60, 120].map((s) => h("option", { value: String(s) }, t("table.policy.seconds", { s }))));
  timeout.value = String(policy.timeout_s);
  return h("div", { class: "option-row" }, h("span", { id: "missing-policy-label", class: "option-label" }, t("table.policy.label")), h("div", { class: "copy-row" }, missing, timeout));
}

function iceControls(host, repair) {
  const server = host.setup.ice_server;
  const on = h("input", { type: "checkbox", dataset: { testid: "ice-on" } });
  on.checked = Boolean(server);
  const urls = h("input", { type: "text", placeholder: "stun:stun.example.org:3478", value: server?.urls || "", "aria-label": t("table.ice.urls"), dataset: { testid: "ice-urls" } });
  const user = h("input", { type: "text", placeholder: t("table.ice.user"), "aria-label": t("table.ice.user"), value: server?.username || "" });
  const pass = h("input", { type: "password", placeholder: t("table.ice.password"), "aria-label": t("table.ice.password"), value: server?.credential || "" });
  const error = h("p", { class: "form-error", role: "alert" });
  const apply = h("button", { type: "button", class: "ghost", onclick: async () => {
    error.textContent = "";
    let next = null;
    if (on.checked) {
      if (!/^(stun|turns?):[^\s]{3,200}$/.test(urls.value.trim())) {
        error.textContent = t("table.ice.bad");
        return;
      }
      next = { urls: urls.value.trim() };
      if (user.value) next.username = user.value;
      if (pass.value) next.credential = pass.value;
    }
    host.setup.ice_server = next;
    saveIceServer(next);
    host.save();
    await repair();
  } }, t("table.ice.apply"));
  return h("details", { class: "ice-settings", dataset: { testid: "ice-settings" } },
    h("summary", null, t("table.ice.title")),
    h("p", { class: "hint" }, t("table.ice.note")),
    h("label", { class: "setting-check" }, on, h("span", null, t("table.ice.use"))),
    urls, user, pass, apply, error);
}

async function showLobby(ctx, host) {
  const root = ctx.root;
  const visit = ctx.app.visit;
  document.title = `${t("table.title", { game: t(`game.${host.setup.game}.name`) })} · ${t("app.name")}`;
  if (!canPair()) {
    mount(root, h("div", { class: "panel notice", role: "alert", dataset: { testid: "no-webrtc" } }, t("table.no_webrtc"), hotSeatButton(ctx, host)));
    return;
  }
  const redraw = () => {
    if (!ctx.stillOn(visit)) return;
    const start = h("button", { type: "button", class: "primary big", dataset: { testid: "table-start" }, disabled: !host.readyToDeal(), onclick: async () => {
      start.disabled = true;
      try {
        await dealAndPlay(ctx, host);
      } catch (error) {
        start.disabled = false;
        ctx.showFatal(error);
      }
    } }, t("table.start"));
    const anyFailed = [...host.remote.values()].some((seat) => seat.failed);
    mount(
      root,
      h(
        "div",
        { class: "panel wide table-lobby", dataset: { testid: "table-lobby" } },
        h("h2", null, t("table.title", { game: t(`game.${host.setup.game}.name`) })),
        h("p", null, t("table.intro"), " ", h("a", { href: `rules/devices.${language()}.html`, target: "_blank", rel: "noopener", dataset: { testid: "devices-help" } }, t("table.help"))),
        h("p", { class: "small commitment", dataset: { testid: "commitment" } }, t("table.commitment", { hash: host.commitment.slice(0, 16) })),
        anyFailed ? h("div", { class: "notice", role: "alert", dataset: { testid: "pair-failed" } }, t("table.failed"), hotSeatButton(ctx, host)) : null,
        h("div", { class: "table-seats" }, seatRows(host, redraw)),
        h("fieldset", null, h("legend", null, t("table.settings")), policyControls(host), iceControls(host, async () => {
          for (const seat of host.remote.values()) if (seat.status !== "connected") await host.pairSeat(seat.seat);
          redraw();
        })),
        h("p", { class: "hint" }, t("table.host_sees")),
        h("div", { class: "panel-actions" }, h("a", { class: "button ghost", href: "#/" }, t("common.back")), start),
      ),
    );
  };
  // the first QR code drawn on this visit comes whole into view once (a phone held sideways
  // shows 390 px: it is what the other device scans), not again at each redraw
  let qrShown = false;
  const showQr = () => {
    const qr = qrShown ? null : root.querySelector("canvas.qr[data-drawn]");
    if (!qr) return;
    qrShown = true;
    qr.scrollIntoView({ block: "nearest", inline: "nearest" });
  };
  host.onchange = () => {
    // redraw on a change of who is connected, not while someone types an answer
    const key = [...host.remote.values()].map((s) => `${s.status}:${s.failed}:${s.code}:${s.part ? 1 : 0}:${s.name}`).join("|");
    if (key !== host.lastKey) {
      host.lastKey = key;
      redraw();
      showQr();
    }
  };
  if (!host.listening) {
    host.listening = true;
    host.addEventListener("change", () => host.onchange && host.onchange());
  }
  redraw();
  showQr();
  for (const seat of host.remote.values()) if (!seat.code && seat.status !== "connected") await host.pairSeat(seat.seat);
}

function hotSeatButton(ctx, host) {
  return h("button", { type: "button", class: "primary", dataset: { testid: "hot-seat" }, onclick: () => {
    const seats = host.setup.seats.map(({ remote: _remote, ...seat }) => seat);
    host.stop();
    clearTable();
    current = null;
    ctx.hotSeat({ game: host.setup.game, options: host.setup.options, players: host.setup.players, seats });
  } }, t("table.hot_seat"));
}

async function dealAndPlay(ctx, host) {
  const seed = await host.deal();
  const viewer = firstLocal(host.setup.seats);
  const snap = await ctx.app.engine.call("new_game", {
    game: host.setup.game, seed, options: host.setup.options, players: host.setup.players,
    ...(viewer === null ? { view_public: true } : { view_seat: viewer }),
  });
  const record = {
    game: host.setup.game,
    engine_version: ctx.app.engine.info?.engine_version || ctx.app.build.engine_version,
    seed, options: snap.view.options || host.setup.options, players: host.setup.players,
    seats: host.setup.seats.map((seat, i) => {
      const name = host.remote.get(i)?.name || seat.name;
      return name ? { ...seat, name } : { ...seat };
    }),
    moves: [],
  };
  host.attach({ record, snap, viewer, shown: null });
  showTablePlay(ctx, host);
}

// -- the table ------------------------------------------------------------------------------------

function devicesButton(host, ctx) {
  const missing = [...host.remote.values()].filter((seat) => seat.status !== "connected").length;
  return h("button", { type: "button", class: ["ghost", missing ? "attention" : null], dataset: { testid: "devices", missing }, onclick: () => showDevices(ctx, host) },
    missing ? t("table.devices.missing", { n: missing }) : t("table.devices"));
}

function showDevices(ctx, host) {
  const body = h("div", { class: "table-seats" });
  const draw = () => body.replaceChildren(...seatRows(host, draw, { inGame: true }));
  draw();
  const listener = () => draw();
  host.addEventListener("change", listener);
  showOverlay((close) => h("div", { class: "panel wide" },
    h("h2", null, t("table.devices")),
    host.dealCode ? h("p", { class: "small", dataset: { testid: "deal-code" } }, t("table.deal_code", { code: host.dealCode })) : null,
    body,
    policyControls(host),
    h("div", { class: "panel-actions" }, h("button", { type: "button", class: "primary", dataset: { testid: "close-devices" }, onclick: () => close() }, t("common.close")))), { testid: "devices-panel" })
    .then(() => host.removeEventListener("change", listener));
  for (const seat of host.remote.values()) if (seat.status !== "connected" && !seat.code) host.pairSeat(seat.seat);
}

function showTablePlay(ctx, host) {
  ctx.app.screen = "play";
  const game = host.game;
  document.title = `${t(`game.${game.record.game}.name`)} · ${t("app.name")}`;
  ctx.stopSession();
  const renderer = ctx.renderers[game.record.game];
  const session = new ctx.PlayScreen(
    {
      engine: ctx.app.engine,
      root: ctx.root,
      renderer,
      settings: ctx.app.settings,
      share: null, // the seed stays secret until the end
      driver: host,
      barExtra: () => devicesButton(host, ctx),
      onOver: (over) => showTableOver(ctx, host, over),
      onFatal: (error) => (ctx.isInputError(error) ? ctx.app.session?.showError(ctx.errorText(error, game.record.game)) : ctx.showFatal(error)),
    },
    game,
  );
  ctx.app.session = session;
  ctx.app.game = null;
  host.onchange = () => {
    const key = [...host.remote.values()].map((s) => s.status).join("|");
    if (key !== host.lastKey) {
      host.lastKey = key;
      if (!session.stopped) session.render();
    }
  };
  if (!host.listening) {
    host.listening = true;
    host.addEventListener("change", () => host.onchange && host.onchange());
  }
  session.start();
  if (host.resumed) {
    host.resumed = false;
    for (const seat of host.remote.values()) if (!seat.code) host.pairSeat(seat.seat);
    if (host.remote.size) showDevices(ctx, host);
  }
}

function showTableOver(ctx, host, game) {
  ctx.stopSession();
  closeOverlay();
  ctx.app.over = true;
  host.save(); // a finished game is no longer resumed
  const names = game.record.seats.map((seat, i) => seatName(host, i));
  renderGameOver(ctx.root, {
    renderer: ctx.renderers[game.record.game],
    snap: game.snap,
    names,
    onAgain: () => {
      location.hash = `#/new/${game.record.game}`;
    },
    onNewDeal: () => {
      location.hash = `#/new/${game.record.game}`;
    },
    onShare: () => ctx.share(game.record),
    engine: ctx.app.engine,
  });
  const over = ctx.root.querySelector("[data-testid=game-over] .panel");
  if (over) over.append(h("p", { class: "small", dataset: { testid: "host-reveal" } }, t("table.revealed", { seed: host.seed, code: host.dealCode || "" })));
}


// A guest's screens: the join link opens here (#/join/<code>, the host's offer in the hash); the
// page answers it and shows the answer as a QR code and as text for the host, then the table
// (the PlayScreen with the GuestSession as its driver: the host's engine decides, this page
// only shows the views it gets), and at the end the check of the host's seed and of every move.

import { h, mount } from "../dom.js";
import { announce } from "./announce.js";
import { has, language, t } from "../i18n.js";
import { GuestSession } from "../net/guest.js";
import { decodeCode, PairingError } from "../net/pairing.js";
import { drawQr } from "../net/qr.js";
import { canPair } from "../net/transport.js";
import { verifyGame } from "../net/verify.js";
import { loadIceServer } from "./table.js";
import { renderGameOver } from "./game-over.js";
import { closeOverlay, showOverlay } from "./overlay.js";

const NAME_KEY = "tapete.guest.name";
/** The guest session of this page: a new join link for the same seat replaces it. */
let current = null;

/** A refusal or a link problem in the player's language. */
export function netErrorText(error, ctx, game) {
  const info = (error && error.info) || error || {};
  if (has(`net.error.${info.code}`)) return t(`net.error.${info.code}`, info);
  return ctx.errorText(error, game);
}

function savedName() {
  try {
    return localStorage.getItem(NAME_KEY) || "";
  } catch {
    return "";
  }
}

function problem(ctx, text) {
  mount(ctx.root, h("div", { class: "panel join", dataset: { testid: "join-problem" } },
    h("h2", null, t("join.title")), h("p", { role: "alert", class: "notice" }, text),
    h("div", { class: "panel-actions" }, h("a", { class: "button primary", href: "#/" }, t("common.home")))));
}

/** #/join/<code>: answer the host's offer for one seat. */
export async function openJoin(ctx, code) {
  ctx.app.screen = "join";
  const visit = ctx.app.visit;
  let decoded;
  try {
    decoded = decodeCode(code);
  } catch (error) {
    return problem(ctx, error instanceof PairingError ? t(`net.pair.${error.code}`) : String(error));
  }
  if (decoded.kind !== "offer") return problem(ctx, t("net.pair.not_offer"));
  if (!canPair()) return problem(ctx, t("table.no_webrtc"));
  if (current) current.stop();
  const { cleanName, NAME_MAX } = await import("../store.js");
  const name = h("input", { type: "text", maxlength: String(NAME_MAX), value: savedName(), placeholder: t("join.name.placeholder"), dataset: { testid: "join-name" }, autocomplete: "nickname" });
  const guest = new GuestSession({ offer: decoded.offer, name: cleanName(name.value), lang: language(), iceServer: loadIceServer() });
  current = guest;
  window.tapete = { ...(window.tapete || {}), guest };
  name.addEventListener("change", () => {
    name.value = cleanName(name.value);
    guest.name = name.value;
    try {
      localStorage.setItem(NAME_KEY, name.value);
    } catch { /* ignore */ }
  });
  const canvas = h("canvas", { class: "qr", dataset: { testid: "answer-qr" } });
  const text = h("textarea", { readonly: true, rows: "3", class: "answer-text", "aria-label": t("join.answer"), dataset: { testid: "answer-code" }, onfocus: (event) => event.target.select() });
  const status = h("p", { class: "join-status", role: "status", dataset: { testid: "join-status" } }, t("join.making"));
  mount(ctx.root, h("div", { class: "panel join", dataset: { testid: "join" } },
    h("h2", null, t("join.title")),
    h("p", null, t("join.seat", { n: decoded.offer.seat + 1 })),
    h("label", { class: "option-row" }, h("span", null, t("join.name")), name),
    h("p", null, t("join.show")),
    h("div", { class: "pair-qr" }, canvas),
    text,
    h("div", { class: "copy-row" }, h("button", { type: "button", class: "ghost", dataset: { testid: "copy-answer" }, onclick: () => {
      text.select();
      navigator.clipboard?.writeText(text.value).catch(() => {});
    } }, t("table.copy"))),
    status,
    h("p", { class: "hint" }, t("join.hint"), " ", h("a", { href: `rules/devices.${language()}.html`, target: "_blank", rel: "noopener", dataset: { testid: "devices-help" } }, t("table.help")))));
  let answer;
  try {
    answer = await guest.answer();
  } catch (error) {
    status.textContent = t("join.failed");
    return;
  }
  if (!ctx.stillOn(visit) || current !== guest) return;
  const { version } = drawQr(canvas, answer);
  canvas.after(h("p", { class: "small", dataset: { testid: "answer-qr-version" } }, t("table.qr.version", { version })));
  text.value = answer;
  status.textContent = t("join.waiting");
  const timer = setTimeout(() => {
    if (guest.status === "waiting" && ctx.stillOn(visit)) status.textContent = t("join.slow");
  }, 25_000);
  guest.addEventListener("change", () => {
    if (guest.status === "connected" && !guest.table) status.textContent = t("join.connected");
  });
  guest.addEventListener("welcome", () => {
    clearTimeout(timer);
    if (current === guest) showGuestTable(ctx, guest);
  });
  guest.addEventListener("resync", () => current === guest && guest.table?.started && showGuestTable(ctx, guest));
  guest.addEventListener("table", () => {
    if (current === guest && !ctx.app.session && ctx.app.screen === "join" && guest.table) showWaiting(ctx, guest);
  });
  guest.addEventListener("change", () => {
    if (guest.status === "lost" && current === guest) showLost(ctx, guest);
  });
  guest.addEventListener("silence", () => {
    if (current === guest && !ctx.app.session && ctx.app.screen === "join" && guest.table) showWaiting(ctx, guest);
  });
}

function showWaiting(ctx, guest) {
  const table = guest.table;
  if (table.started) return;
  mount(ctx.root, h("div", { class: "panel join", dataset: { testid: "join-waiting" } },
    h("h2", null, t(`game.${table.game}.name`)),
    h("p", null, t("join.in", { n: guest.seat + 1 })),
    h("ul", { class: "join-seats" }, table.seats.map((seat, i) => h("li", null, seatLabel(table, i, guest.seat), seat.remote ? ` · ${t(seat.present ? "table.status.connected" : "table.status.pairing")}` : ""))),
    h("p", { class: "small", dataset: { testid: "guest-commitment" } }, t("table.commitment", { hash: (guest.commitment || "").slice(0, 16) })),
    h("p", { class: "hint" }, t("join.part_sent")),
    h("p", { class: "join-status", role: "status", dataset: { testid: guest.hostSilent ? "host-silent" : "join-status" } }, t(guest.hostSilent ? "join.host_silent" : "join.wait_start"))));
}

function seatLabel(table, index, mine) {
  const seat = table.seats[index];
  if (seat.name) return index === mine ? `${seat.name} (${t("seat.you")})` : seat.name;
  if (index === mine) return t("seat.you");
  return seat.kind === "bot" ? t("seat.bot", { n: index + 1 }) : t("seat.player", { n: index + 1 });
}

function guestRecord(guest) {
  const table = guest.table;
  return {
    game: table.game,
    seed: table.id,
    options: table.options,
    players: table.players,
    seats: table.seats.map((seat, i) => {
      const out = i === guest.seat ? { kind: "human" } : { kind: seat.kind, remote: true };
      if (seat.level) out.level = seat.level;
      if (seat.name) out.name = seat.name;
      return out;
    }),
    moves: Array.from({ length: guest.n }, () => ({ seat: null, move: null })),
  };
}

function showGuestTable(ctx, guest) {
  const table = guest.table;
  if (!table.started || !guest.snap) return showWaiting(ctx, guest);
  ctx.stopSession();
  closeOverlay();
  ctx.app.screen = "play";
  ctx.app.over = false;
  document.title = `${t(`game.${table.game}.name`)} · ${t("app.name")}`;
  const game = { record: guestRecord(guest), snap: guest.snap, viewer: guest.seat, shown: guest.seat };
  const session = new ctx.PlayScreen(
    {
      engine: ctx.app.engine,
      root: ctx.root,
      renderer: ctx.renderers[table.game],
      settings: ctx.app.settings,
      share: null,
      driver: guest,
      barExtra: () => h("span", { class: "deal-chip small", dataset: { testid: "guest-deal-code" }, title: t("table.deal_code.hint") }, t("table.deal_code", { code: guest.dealCode || "…" })),
      notice: () => (guest.hostSilent ? h("p", { class: "play-notice", dataset: { testid: "host-silent" } }, t("join.host_silent")) : null),
      onOver: (over) => showGuestOver(ctx, guest, over),
      onFatal: (error) => session.showError(netErrorText(error, ctx, table.game)),
    },
    game,
  );
  ctx.app.session = session;
  session.start();
  guest.addEventListener("error", () => {
    if (ctx.app.session === session && guest.lastError) session.showError(netErrorText(guest.lastError, ctx, table.game));
  });
  guest.addEventListener("silence", () => {
    if (ctx.app.session !== session) return;
    session.render();
    announce(t(guest.hostSilent ? "join.host_silent" : "join.host_back"));
  });
}

function showLost(ctx, guest) {
  if (ctx.app.screen === "over") return;
  showOverlay((close) => h("div", { class: "panel", dataset: { testid: "host-lost" } },
    h("h2", null, t("join.lost.title")),
    h("p", null, t("join.lost.body")),
    h("div", { class: "panel-actions" }, h("button", { type: "button", class: "primary", onclick: () => close() }, t("common.close")))), { testid: "lost-dialog" });
}

async function showGuestOver(ctx, guest, game) {
  ctx.stopSession();
  ctx.app.screen = "over";
  ctx.app.over = true;
  const names = game.record.seats.map((_, i) => seatLabel(guest.table, i, guest.seat));
  renderGameOver(ctx.root, {
    renderer: ctx.renderers[guest.table.game],
    snap: game.snap,
    names,
    onAgain: () => ctx.goHome(),
    onNewDeal: () => ctx.goHome(),
    onShare: () => {},
    engine: ctx.app.engine,
  });
  for (const id of ["share", "again"]) ctx.root.querySelector(`[data-testid=game-over] [data-testid=${id}]`)?.remove();
  const result = h("p", { class: "verify", role: "status", dataset: { testid: "verify", state: "checking" } }, t("verify.waiting"));
  const panel = h("section", { class: "panel wide", dataset: { testid: "verify-panel" } }, h("h2", null, t("verify.title")), result);
  ctx.root.querySelector("[data-testid=game-over]")?.prepend(panel);
  if (!guest.reveal) await new Promise((resolve) => guest.addEventListener("reveal", resolve, { once: true }));
  result.textContent = t("verify.checking");
  const outcome = await verifyGame({ engine: ctx.app.engine, guest, onProgress: (done, total) => {
    result.textContent = t("verify.progress", { done, total });
  } });
  result.dataset.state = outcome.ok ? "ok" : "failed";
  result.textContent = outcome.ok
    ? t("verify.ok", { n: outcome.moves, views: t("verify.views", { n: outcome.views }), seed: guest.reveal.seed })
    : t(`verify.failed.${outcome.why}`, { at: outcome.at ?? "" });
}

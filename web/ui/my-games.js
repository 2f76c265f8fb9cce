// "My games" (#/games): finished games per game type with date, seats, result and score; the
// statistics per opponent level and a chart of the last scores; the games in progress; the
// records set aside; export of every game to a file and import of one (merged, checked).

import { h, mount } from "../dom.js";
import { t } from "../i18n.js";
import { listKept, summarizePending } from "../saves/keeper.js";
import { needsSummary } from "../saves/summary.js";
import { deleteAside, deleteGame, listAside } from "../saves/saves.js";
import { download, exportFile, importGames, readImport } from "../saves/transfer.js";
import { asideLine, confirmDelete, reasonText, refusalText } from "./games.js";
import { showOverlay } from "./overlay.js";
import { dateText, levelText, opponentsText, progressText, seatNames, whenText } from "./saved-text.js";
import { renderScoreChart, renderStatsTable } from "./stats.js";

const HISTORY_PAGE = 15;

/** The chosen game type, kept while the page is redrawn. */
let chosen = null;

/** "Won", "Place 2 of 4", "Lost" (Lobo). */
function resultText(entry) {
  const stats = entry.summary?.stats;
  if (!stats) return "–";
  if (stats.won) return t("stats.result.won");
  if (entry.record.game === "lobo" || !stats.rank) return t("stats.result.lost");
  return t("stats.result.place", { rank: stats.rank, n: entry.record.players });
}

function scoreText(entry) {
  const score = entry.summary?.stats?.score;
  return Number.isFinite(score) ? String(Math.round(score)) : "–";
}

/** "Ana, Bot 2 (hard), Bot 3 (normal)". */
function seatsText(record) {
  const names = seatNames(record);
  return record.seats.map((seat, i) => (seat.kind === "bot" ? `${names[i]} (${levelText(seat.level)})` : names[i])).join(", ");
}

function historyTable(entries, actions, label) {
  return h(
    "div",
    // a phone scrolls it sideways: a keyboard must reach it too
    { class: "table-scroll", tabindex: "0", role: "region", "aria-label": label },
    h(
      "table",
      { class: "history-table", dataset: { testid: "history-table" } },
      h("thead", null, h("tr", null, [t("stats.col.date"), t("stats.col.seats"), t("stats.col.result"), t("stats.col.score"), ""].map((text, i) => h("th", { scope: "col", class: i === 3 ? "num" : null }, text)))),
      h(
        "tbody",
        null,
        entries.map((entry) =>
          h(
            "tr",
            { dataset: { testid: "history-row", id: entry.id, won: String(Boolean(entry.summary?.stats?.won)) } },
            h("td", { class: "nowrap" }, dateText(entry.updated)),
            h("td", null, entry.record.game === "lobo" ? opponentsText(entry.record) : seatsText(entry.record)),
            h("td", { dataset: { testid: "history-result" } }, resultText(entry)),
            h("td", { class: "num", dataset: { testid: "history-score", label: t("stats.col.score") } }, scoreText(entry)),
            h("td", { class: "row-actions" }, actions(entry)),
          ),
        ),
      ),
    ),
  );
}

/**
 * @param {HTMLElement} root
 * @param {{engine: object, games: string[], active: () => boolean, engineVersion: string}} p
 */
export async function renderMyGames(root, p) {
  const [{ entries }, aside] = await Promise.all([listKept(), listAside().catch(() => [])]);
  if (!p.active()) return;
  const known = entries.filter((entry) => p.games.includes(entry.record.game));
  const finished = known.filter((entry) => entry.status === "finished" && entry.summary?.stats);
  const playing = known.filter((entry) => entry.status === "playing");
  const types = p.games.filter((game) => finished.some((entry) => entry.record.game === game));
  if (!types.includes(chosen)) chosen = types.length ? [...finished].sort((a, b) => b.updated - a.updated)[0].record.game : null;
  const redraw = (notice = null) => renderMyGames(root, { ...p, notice });
  // records without a summary yet (migrated, or from an older version): the engine makes them
  const pending = known.filter(needsSummary);
  if (pending.length && !p.summarizing) {
    const run = () => summarizePending(p.engine, pending, { errorText: refusalText })
      .then((result) => { if (p.active() && (result.updated || result.setAside.length)) renderMyGames(root, { ...p, summarizing: true }); })
      .catch((error) => console.warn("tapete: summaries:", error));
    if (p.engine.status === "ready") run();
    else p.engine.addEventListener("ready", run, { once: true });
  }

  const remove = async (entry) => {
    if (!(await confirmDelete(entry))) return;
    await deleteGame(entry.id).catch((error) => console.warn("tapete: delete:", error));
    p.onDeleted?.(entry.id);
    redraw();
  };
  const openLink = (entry) => h("a", { class: "button ghost small", href: `#/play/${entry.id}`, dataset: { testid: "open-game" } }, entry.status === "finished" ? t("stats.open") : t("home.continue"));
  const deleteButton = (entry) => h("button", { type: "button", class: "ghost small", dataset: { testid: "delete-game" }, "aria-label": t("saves.delete.aria", { game: t(`game.${entry.record.game}.name`), progress: progressText(entry) }), onclick: () => remove(entry) }, t("saves.delete"));
  const actions = (entry) => [openLink(entry), ...(p.extraActions ? p.extraActions(entry) : []), deleteButton(entry)];

  const status = h("div", { class: "transfer-status", role: "status", "aria-live": "polite", dataset: { testid: "transfer-status" } }, p.notice || null);
  const fileInput = h("input", { type: "file", accept: "application/json,.json", class: "visually-hidden", tabindex: "-1", "aria-label": t("transfer.import"), dataset: { testid: "import-file" } });
  fileInput.addEventListener("change", () => {
    const file = fileInput.files && fileInput.files[0];
    fileInput.value = "";
    if (file) importFile(file, { engine: p.engine, games: p.games, status, done: redraw });
  });
  const toolbar = h(
    "div",
    { class: "mygames-tools" },
    h("button", { type: "button", class: "primary", disabled: !known.length, dataset: { testid: "export" }, onclick: async () => {
      download(await exportFile(p.engineVersion));
      status.textContent = t("transfer.exported", { n: known.length });
    } }, t("transfer.export")),
    h("button", { type: "button", class: "ghost", dataset: { testid: "import" }, onclick: () => fileInput.click() }, t("transfer.import")),
    fileInput,
    h("a", { class: "button ghost", href: "#/", dataset: { testid: "home-link" } }, t("common.home")),
  );

  let section;
  if (!types.length) {
    section = h("section", { class: "panel wide", dataset: { testid: "no-finished" } }, h("p", null, t("stats.none")));
  } else {
    const ofType = finished.filter((entry) => entry.record.game === chosen).sort((a, b) => b.updated - a.updated);
    const tabs = h(
      "div",
      { class: "game-tabs", role: "group", "aria-label": t("stats.choose_game") },
      types.map((game) =>
        h("button", {
          type: "button", class: ["ghost", game === chosen ? "active" : null], "aria-pressed": String(game === chosen),
          dataset: { testid: `tab-${game}` },
          onclick: () => { chosen = game; redraw(); },
        }, `${t(`game.${game}.name`)} (${finished.filter((e) => e.record.game === game).length})`),
      ),
    );
    let shown = HISTORY_PAGE;
    const history = h("div", { class: "history" });
    const drawHistory = () => {
      mount(
        history,
        historyTable(ofType.slice(0, shown), actions, t("stats.history", { n: ofType.length })),
        ofType.length > shown
          ? h("button", { type: "button", class: "ghost", dataset: { testid: "show-more" }, onclick: () => { shown += HISTORY_PAGE * 4; drawHistory(); } }, t("stats.show_more", { n: ofType.length - shown }))
          : null,
      );
    };
    drawHistory();
    section = h(
      "section",
      { class: "panel wide", dataset: { testid: "finished-panel", game: chosen } },
      tabs,
      h("h2", null, t("stats.title", { game: t(`game.${chosen}.name`) })),
      renderStatsTable(chosen, ofType),
      renderScoreChart(ofType),
      h("p", { class: "small" }, t("stats.note")),
      h("h3", null, t("stats.history", { n: ofType.length })),
      history,
    );
  }

  const inProgress = playing.length
    ? h(
        "section",
        { class: "panel wide", dataset: { testid: "playing-panel" } },
        h("h2", null, t("saves.in_progress", { n: playing.length })),
        h("ul", { class: "kept-list" }, playing.map((entry) =>
          h("li", { class: "kept-row", dataset: { testid: "kept-game", id: entry.id } },
            h("div", { class: "kept-what" },
              h("span", { class: "kept-name" }, t(`game.${entry.record.game}.name`)),
              h("span", { class: "kept-vs" }, opponentsText(entry.record)),
              h("span", { class: "kept-meta" }, progressText(entry), " · ", t("saves.last_played", { when: whenText(entry.updated) }))),
            h("div", { class: "kept-actions" }, actions(entry))))),
      )
    : null;

  const setAside = aside.length
    ? h(
        "section",
        { class: "panel wide", dataset: { testid: "aside-panel" } },
        h("h2", null, t("aside.title", { n: aside.length })),
        h("p", { class: "small" }, t("aside.body")),
        h("ul", { class: "aside-list" }, aside.map((item) =>
          h("li", { class: "aside-row", dataset: { testid: "aside-row", id: item.id } },
            h("div", null, h("div", null, asideLine(item)), h("div", { class: "small" }, t("aside.when", { when: whenText(item.at) }))),
            h("div", { class: "kept-actions" },
              h("button", { type: "button", class: "ghost small", dataset: { testid: "aside-download" }, onclick: () => downloadAside(item) }, t("aside.download")),
              h("button", { type: "button", class: "ghost small", dataset: { testid: "aside-delete" }, onclick: async () => {
                if (await confirmDeleteAside(item)) { await deleteAside(item.id).catch(() => {}); redraw(); }
              } }, t("saves.delete")))))),
      )
    : null;

  mount(
    root,
    h(
      "div",
      { class: "mygames", dataset: { testid: "my-games" } },
      h("div", { class: "mygames-head" }, h("h1", null, t("stats.my_games")), toolbar),
      status,
      section,
      inProgress,
      setAside,
    ),
  );
}

function downloadAside(item) {
  const text = typeof item.value === "string" ? item.value : JSON.stringify(item.value, null, 1);
  const blob = new Blob([text], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const link = h("a", { href: url, download: `tapete-set-aside-${item.id}.json` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function confirmDeleteAside(item) {
  return showOverlay(
    (close) =>
      h(
        "div",
        { class: "panel" },
        h("h2", null, t("aside.delete.title")),
        h("p", null, reasonText(item.kind, item.reason)),
        h("div", { class: "panel-actions", onkeydown: (event) => { if (event.key === "Escape") close(false); } },
          h("button", { type: "button", class: "ghost", autofocus: true, dataset: { testid: "cancel-delete" }, onclick: () => close(false) }, t("saves.delete.keep")),
          h("button", { type: "button", class: "danger", dataset: { testid: "confirm-delete" }, onclick: () => close(true) }, t("aside.delete.confirm"))),
      ),
    { testid: "delete-dialog" },
  ).then(Boolean);
}

/** Read, check and merge an import file, with a progress bar and Stop; the result is said. */
async function importFile(file, { engine, games, status, done }) {
  let stop = false;
  const bar = h("progress", { max: 1, value: 0, dataset: { testid: "import-progress" } });
  const label = h("span", null, t("transfer.reading"));
  mount(status, h("div", { class: "import-run" }, label, bar, h("button", { type: "button", class: "ghost small", dataset: { testid: "import-stop" }, onclick: () => { stop = true; } }, t("transfer.stop"))));
  let text = "";
  try {
    if (file.size > 20 * 1024 * 1024) throw Object.assign(new Error("big"), { tooBig: true });
    text = await file.text();
  } catch (error) {
    mount(status, h("p", { class: "notice", role: "alert", dataset: { testid: "import-result" } }, t(error.tooBig ? "transfer.error.too_big" : "transfer.error.unreadable", { mb: 20 })));
    return;
  }
  const read = readImport(text, file.size);
  if (read.error) {
    mount(status, h("p", { class: "notice", role: "alert", dataset: { testid: "import-result" } }, t(`transfer.error.${read.error}`, read.params || {})));
    return;
  }
  let result;
  try {
    result = await importGames(engine, read.games, {
      refused: read.refused,
      games,
      stopped: () => stop,
      errorText: refusalText,
      onProgress: (n, total) => {
        bar.max = Math.max(1, total);
        bar.value = n;
        label.textContent = t("transfer.checking", { n, total });
      },
    });
  } catch (error) {
    mount(status, h("p", { class: "notice", role: "alert", dataset: { testid: "import-result" } }, t("transfer.error.engine", { message: String(error.message || error).slice(0, 200) })));
    return;
  }
  const lines = [t("transfer.result", { added: result.added, updated: result.updated, duplicates: result.duplicates })];
  if (result.stopped) lines.push(t("transfer.stopped"));
  const refused = result.refused.sort((a, b) => a.index - b.index);
  const shown = refused.slice(0, 12).map((item) => h("li", { dataset: { testid: "import-refused" } }, t("transfer.refused.item", { n: item.index + 1, why: refusedText(item) })));
  if (refused.length > shown.length) shown.push(h("li", null, t("transfer.refused.more", { n: refused.length - shown.length })));
  done(
    h(
      "div",
      { class: ["notice", refused.length ? "warn" : null], role: "alert", dataset: { testid: "import-result", added: result.added, updated: result.updated, duplicates: result.duplicates, refused: refused.length } },
      lines.map((line) => h("p", null, line)),
      refused.length ? h("p", null, t("transfer.refused", { n: refused.length })) : null,
      refused.length ? h("ul", null, shown) : null,
    ),
  );
}

function refusedText(item) {
  if (item.reason === "engine") return item.params.detail;
  if (item.reason === "shape") return reasonText("shape", item.params.detail);
  return t(`transfer.why.${item.reason}`, item.params || {});
}

// The new-game form, drawn from the game's catalogue in build.json (before Python has booted).
// Players 3-6, a human or a bot (with level) per seat, every option, an optional seed.

import { h, mount } from "../dom.js";
import { t } from "../i18n.js";
import { coerceOption, defaultBotLevel, randomSeed } from "../deal-link.js";
import { optionLabel, optionValueLabel } from "./messages.js";

const SEED_RE = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * @param {HTMLElement} root
 * @param {object} catalogue one game of build.json's `games`
 * @param {{initial?: object, onStart: (setup: object) => Promise<string | null>, engineReady: () => boolean}} p
 *        onStart resolves with an error text (the form stays as it is) or null
 */
export function renderNewGame(root, catalogue, p) {
  const game = catalogue.id;
  const initial = p.initial || {};
  let seats = initial.seats ? initial.seats.map((s) => ({ ...s })) : [];

  const players = h(
    "select",
    { name: "players", id: "players", dataset: { testid: "players" } },
    range(catalogue.min_players, catalogue.max_players).map((n) => h("option", { value: String(n) }, String(n))),
  );
  players.value = String(initial.players || catalogue.default_players);

  const seatList = h("div", { class: "seat-list", dataset: { testid: "seats" } });
  const seatChoices = [["human", t("newgame.human")], ...(catalogue.bot_levels || []).map((level) => [`bot:${level}`, t("newgame.bot", { level: levelLabel(level) })])];

  function drawSeats() {
    const n = Number(players.value);
    while (seats.length < n) seats.push(seats.length === 0 ? { kind: "human" } : { kind: "bot", level: defaultBotLevel(catalogue) });
    seats = seats.slice(0, n);
    seatList.replaceChildren(
      ...seats.map((seat, i) => {
        const select = h(
          "select",
          { id: `seat-${i}`, dataset: { testid: `seat-kind-${i}` }, onchange: () => {
            const [kind, level] = select.value.split(":");
            seats[i] = kind === "bot" ? { kind, level } : { kind: "human" };
          } },
          seatChoices.map(([value, label]) => h("option", { value }, label)),
        );
        select.value = seat.kind === "bot" ? `bot:${seat.level}` : "human";
        return h("div", { class: "seat-row" }, h("label", { for: `seat-${i}` }, t("seat.player", { n: i + 1 })), select);
      }),
    );
  }
  players.addEventListener("change", drawSeats);
  drawSeats();

  const optionInputs = (catalogue.options || []).map((spec) => {
    const id = `opt-${spec.name}`;
    const value = initial.options && spec.name in initial.options ? initial.options[spec.name] : spec.default;
    let input;
    if (spec.kind === "enum") {
      input = h("select", { id, dataset: { testid: id } }, spec.choices.map((choice) => h("option", { value: choice }, optionValueLabel(game, spec.name, choice))));
      input.value = String(value);
    } else if (spec.kind === "bool") {
      input = h("input", { id, type: "checkbox", dataset: { testid: id } });
      input.checked = value === true;
    } else {
      input = h("input", { id, type: "number", step: "1", min: spec.min ?? null, max: spec.max ?? null, dataset: { testid: id } });
      input.value = String(value);
    }
    const hintKey = `opt.${game}.${spec.name}.hint`;
    const hint = t(hintKey);
    const row = h(
      "div",
      { class: ["option-row", spec.kind === "bool" ? "option-bool" : null] },
      h("label", { for: id }, optionLabel(game, spec.name)),
      input,
      hint !== hintKey ? h("p", { class: "hint" }, hint) : null,
    );
    return { spec, input, row };
  });

  const seed = h("input", {
    id: "seed", name: "seed", type: "text", maxlength: "32", autocomplete: "off", spellcheck: "false",
    placeholder: t("newgame.seed.placeholder"), dataset: { testid: "seed" },
  });
  seed.value = initial.seed || "";
  const error = h("div", { class: "form-error", role: "alert", dataset: { testid: "form-error" } });
  const start = h("button", { type: "submit", class: "primary big", dataset: { testid: "start" } }, t("newgame.start"));

  const form = h(
    "form",
    { class: "panel newgame", dataset: { testid: "new-game-form" }, novalidate: true },
    h("h2", null, t("newgame.title", { game: t(`game.${game}.name`) })),
    h("div", { class: "form-grid" },
      catalogue.max_players > 1 // a solo game has no seats to choose
        ? h("fieldset", null, h("legend", null, t("newgame.players")),
          h("div", { class: "option-row" }, h("label", { for: "players" }, t("newgame.players.count")), players),
          seatList)
        : null,
      h("fieldset", null, h("legend", null, t("newgame.options")), optionInputs.map((o) => o.row),
        h("div", { class: "option-row" }, h("label", { for: "seed" }, t("newgame.seed")), seed),
        h("p", { class: "hint" }, t("newgame.seed.hint"))),
    ),
    error,
    h("div", { class: "panel-actions" }, h("a", { class: "button ghost", href: "#/" }, t("common.back")), start),
  );

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const seedText = seed.value.trim();
    if (seedText && !SEED_RE.test(seedText)) {
      error.textContent = t("newgame.error.seed");
      return;
    }
    if (!seats.some((s) => s.kind === "human")) {
      error.textContent = t("newgame.error.no_human");
      return;
    }
    const options = {};
    for (const { spec, input } of optionInputs) {
      options[spec.name] = spec.kind === "bool" ? input.checked : spec.kind === "int" ? coerceOption(spec, input.value.trim()) : input.value;
    }
    const setup = { game, seed: seedText || randomSeed(), players: Number(players.value), seats: seats.map((s) => ({ ...s })), options };
    start.disabled = true;
    start.textContent = p.engineReady() ? t("newgame.starting") : t("newgame.waiting_engine");
    const problem = await p.onStart(setup);
    if (problem !== null && form.isConnected) {
      error.textContent = problem;
      start.disabled = false;
      start.textContent = t("newgame.start");
    }
  });

  mount(root, form);
}

function levelLabel(level) {
  const key = `bot.level.${level}`;
  const text = t(key);
  return text === key ? level : text;
}

function range(a, b) {
  const out = [];
  for (let i = a; i <= b; i++) out.push(i);
  return out;
}

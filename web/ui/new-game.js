// The new-game form, drawn from the game's catalogue in build.json (before Python has booted).
// Players 3-6, a human or a bot (with level) and an optional name per seat, every option, an
// optional seed.

import { h, mount } from "../dom.js";
import { t } from "../i18n.js";
import { coerceOption, defaultBotLevel, randomSeed } from "../deal-link.js";
import { optionLabel, optionValueLabel } from "./messages.js";
import { defaultName } from "./play.js";
import { cleanName, NAME_MAX } from "../store.js";

const SEED_RE = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * @param {HTMLElement} root
 * @param {object} catalogue one game of build.json's `games`
 * @param {{initial?: object, onStart: (setup: object) => Promise<string | null>, onHost?: (setup: object) => void, engineReady: () => boolean}} p
 *        onStart resolves with an error text (the form stays as it is) or null; a setup with a
 *        seat on another device goes to onHost instead (the table's pairing screen)
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
  const devices = Boolean(p.onHost) && catalogue.max_players > 1;
  const seatChoices = [["human", t("newgame.human")], ...(devices ? [["remote", t("newgame.remote")]] : []), ...(catalogue.bot_levels || []).map((level) => [`bot:${level}`, t("newgame.bot", { level: levelLabel(level) })])];

  /** Each empty name shows what the table would call that seat ("You", "Player 2", "Bot 3"). */
  function showDefaultNames() {
    const humans = seats.filter((s) => s.kind === "human").length;
    seatList.querySelectorAll("input[data-testid^=seat-name-]").forEach((input, i) => {
      input.placeholder = defaultName(seats[i], i, humans);
    });
  }

  function drawSeats() {
    const n = Number(players.value);
    while (seats.length < n) seats.push(seats.length === 0 ? { kind: "human" } : { kind: "bot", level: defaultBotLevel(catalogue) });
    seats = seats.slice(0, n);
    seatList.replaceChildren(
      ...seats.map((seat, i) => {
        const name = h("input", {
          id: `seat-name-${i}`, type: "text", maxlength: String(NAME_MAX), autocomplete: "off", spellcheck: "false",
          "aria-label": t("newgame.name.label", { n: i + 1 }), dataset: { testid: `seat-name-${i}` },
          oninput: () => { seats[i].name = name.value; },
          onchange: () => { name.value = seats[i].name = cleanName(name.value); }, // shown as it is kept
        });
        name.value = seat.name || "";
        const select = h(
          "select",
          { id: `seat-${i}`, dataset: { testid: `seat-kind-${i}` }, onchange: () => {
            const [kind, level] = select.value.split(":");
            seats[i] = kind === "bot" ? { kind, level, name: seats[i].name } : kind === "remote" ? { kind: "human", remote: true, name: seats[i].name } : { kind: "human", name: seats[i].name };
            showDefaultNames();
            showStartLabel();
          } },
          seatChoices.map(([value, label]) => h("option", { value }, label)),
        );
        select.value = seat.kind === "bot" ? `bot:${seat.level}` : seat.remote && devices ? "remote" : "human";
        return h(
          "div",
          { class: "seat-row" },
          h("label", { for: `seat-${i}` }, t("seat.player", { n: i + 1 })),
          h("div", { class: "seat-fields", style: { display: "grid", "grid-template-columns": "repeat(auto-fit, minmax(112px, 1fr))", gap: "6px" } }, name, select),
        );
      }),
    );
    showDefaultNames();
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

  // A knob that only matters for some values of another (applies_when) is hidden otherwise.
  const inputOf = (name) => optionInputs.find((o) => o.spec.name === name)?.input;
  const applies = ({ spec }) => {
    if (!spec.applies_when) return true;
    const control = inputOf(spec.applies_when.option);
    return !control || spec.applies_when.values.includes(control.value);
  };
  const showApplicable = () => {
    for (const option of optionInputs) option.row.hidden = !applies(option);
  };
  for (const option of optionInputs) {
    if (option.spec.applies_when) inputOf(option.spec.applies_when.option)?.addEventListener("change", showApplicable);
  }
  showApplicable();

  const seed = h("input", {
    id: "seed", name: "seed", type: "text", maxlength: "32", autocomplete: "off", spellcheck: "false",
    placeholder: t("newgame.seed.placeholder"), dataset: { testid: "seed" },
  });
  seed.value = initial.seed || "";
  const error = h("div", { class: "form-error", role: "alert", dataset: { testid: "form-error" } });
  const start = h("button", { type: "submit", class: "primary big", dataset: { testid: "start" } }, t("newgame.start"));
  const hosting = () => devices && seats.some((s) => s.remote);
  function showStartLabel() {
    start.textContent = t(hosting() ? "newgame.start_devices" : "newgame.start");
  }
  showStartLabel();
  // "Play on several devices": every seat but the first becomes a seat on another device
  const severalDevices = devices
    ? h("button", { type: "button", class: "ghost", dataset: { testid: "several-devices" }, onclick: () => {
      seats = seats.map((seat, i) => (i === 0 ? seat : { kind: "human", remote: true, name: seat.name }));
      drawSeats();
      showStartLabel();
    } }, t("newgame.several_devices"))
    : null;

  const form = h(
    "form",
    { class: "panel newgame", dataset: { testid: "new-game-form" }, novalidate: true },
    h("h2", null, t("newgame.title", { game: t(`game.${game}.name`) })),
    h("div", { class: "form-grid" },
      catalogue.max_players > 1 // a solo game has no seats to choose
        ? h("fieldset", null, h("legend", null, t("newgame.players")),
          h("div", { class: "option-row" }, h("label", { for: "players" }, t("newgame.players.count")), players),
          seatList,
          h("p", { class: "hint" }, t("newgame.names.hint")),
          devices ? h("div", { class: "devices-row" }, severalDevices, h("p", { class: "hint" }, t("newgame.devices.hint"))) : null)
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
    for (const option of optionInputs) {
      const { spec, input } = option;
      if (!applies(option)) options[spec.name] = spec.default;
      else options[spec.name] = spec.kind === "bool" ? input.checked : spec.kind === "int" ? coerceOption(spec, input.value.trim()) : input.value;
    }
    // Names are kept clean (see store.js) and only when given; an empty one means the default.
    const named = seats.map(({ name, ...seat }) => {
      const clean = cleanName(name);
      return clean ? { ...seat, name: clean } : seat;
    });
    const setup = { game, seed: seedText || randomSeed(), players: Number(players.value), seats: named, options };
    if (hosting()) {
      p.onHost(setup); // the seed comes from every device's part (web/net/commit.js)
      return;
    }
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

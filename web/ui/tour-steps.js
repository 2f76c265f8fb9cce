// The guided tour of each game's table, as data (web/ui/tour.js shows it): each step names the
// element it explains by test id (the first of `target` that is on the table and visible; a
// step whose element is not there is left out) and the i18n key of its text (`<key>.title`,
// `<key>.body`; web/i18n/*/tour.json). `variants` swap a step's text when an element is there
// (the pace switch, a table with bots). `skipWhen`: an element that means the tour must not
// open by itself now (a turn timer is running: the tour would eat the player's time). `tight`:
// light only what the element holds (a wide row with a few cards or plates in it).

/** @typedef {{target: string[], key: string, tight?: boolean, variants?: {when: string, key: string}[]}} TourStep */
/** @typedef {{steps: TourStep[], skipWhen?: string}} TourPlan */

const id = (testid) => `[data-testid="${testid}"]`;

/** The table bar (score sheet, share, the bots' pace, the rules), the same in every game. */
const BAR = { target: [id("table-bar")], key: "tour.bar", variants: [{ when: id("pace-toggle"), key: "tour.bar.bots" }] };

/** @type {Record<string, TourPlan>} */
export const TOURS = {
  wizard: {
    steps: [
      { target: [id("hand")], key: "tour.wizard.hand", tight: true },
      { target: [id("felt")], key: "tour.wizard.table" },
      { target: [id("trump")], key: "tour.wizard.trump" },
      { target: [id("actions")], key: "tour.wizard.move", tight: true },
      BAR,
      { target: [`${id("settings")} > summary`], key: "tour.wizard.hints" },
    ],
  },
  rummikub: {
    skipWhen: id("timer"),
    steps: [
      { target: [id("hand-zone")], key: "tour.rummikub.rack" },
      { target: [id("meld-table")], key: "tour.rummikub.table" },
      { target: [id("rk-players")], key: "tour.rummikub.players" },
      { target: [id("rk-controls")], key: "tour.rummikub.move" },
      { target: [id("hint")], key: "tour.rummikub.hint" },
      BAR,
    ],
  },
  willie: {
    steps: [
      { target: [id("hand")], key: "tour.willie.hand" },
      { target: [id("felt")], key: "tour.willie.table" },
      { target: [id("willie-seats")], key: "tour.willie.players", tight: true },
      { target: [id("actions")], key: "tour.willie.move", tight: true },
      BAR,
    ],
  },
  lobo: {
    steps: [
      { target: [id("wolf")], key: "tour.lobo.wolf" },
      { target: [id("hand")], key: "tour.lobo.hand" },
      { target: [id("party")], key: "tour.lobo.party" },
      { target: [id("move-panel")], key: "tour.lobo.move" },
      { target: [id("hint")], key: "tour.lobo.hint" },
      BAR,
    ],
  },
};

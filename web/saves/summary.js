// What the lists and the statistics read from a saved game, taken from a snapshot once (after
// each move, or after a replay) so that listing games never asks the engine. Only public facts
// and the outcome: a hot-seat game's summary is the same whichever seat's view it came from.
//
// summary: {v, moves, over, you, progress: {round?, rounds?, turn?, game_no?, games?},
//           outcome: {scores, winners} | null, stats: {...} | null}

export const SUMMARY_VERSION = 1;

/** "You": the first human seat; statistics are this seat's. */
export function youSeat(record) {
  return Math.max(0, record.seats.findIndex((seat) => seat.kind === "human"));
}

const num = (value) => (Number.isFinite(value) ? value : null);

/** Where a game is: the fields its home line shows. */
function progressOf(game, view) {
  if (game === "wizard") return { round: num(view.round), rounds: num(view.rounds) };
  if (game === "rummikub") return { turn: num(view.turn), game_no: num(view.game_no), games: num(view.games) };
  return { round: num(view.round) };
}

/** The per-game facts of a finished game for seat `you`. */
function statsOf(record, view, outcome, you) {
  const scores = Array.isArray(outcome.scores) ? outcome.scores.map(Number) : [];
  const mine = scores[you];
  const stats = {
    won: Array.isArray(outcome.winners) && outcome.winners.includes(you),
    score: Number.isFinite(mine) ? mine : null,
    rank: Number.isFinite(mine) ? 1 + scores.filter((s) => s > mine).length : null,
  };
  if (record.game === "wizard") {
    const rows = Array.isArray(view.history) ? view.history : [];
    stats.rounds = rows.length;
    stats.bids_made = rows.filter((row) => Array.isArray(row.bids) && Array.isArray(row.tricks) && row.bids[you] === row.tricks[you]).length;
  } else if (record.game === "rummikub") {
    const results = Array.isArray(view.results) && view.results.length ? view.results : [outcome];
    const racks = results.map((r) => (Array.isArray(r.racks) ? r.racks[you] : null)).filter(Number.isFinite);
    stats.games = results.length;
    stats.rack_points = racks.length ? racks.reduce((a, b) => a + b, 0) / racks.length : null;
  } else if (record.game === "willie") {
    stats.rounds = num(outcome.rounds);
    stats.rounds_won = Array.isArray(outcome.rounds_won) ? num(outcome.rounds_won[you]) : null;
  } else if (record.game === "lobo") {
    // the engine's options (every knob, defaults filled in), not the record's as sent
    const options = view.options || record.options || {};
    stats.difficulty = String(options.difficulty ?? "");
    stats.mode = String(options.mode ?? "");
    stats.won = outcome.result === "won";
  }
  return stats;
}

/** The summary of a record from a snapshot {view, outcome} of its last position. */
export function summarize(record, snap) {
  const view = (snap && snap.view) || {};
  const outcome = snap && snap.outcome ? snap.outcome : null;
  const you = youSeat(record);
  return {
    v: SUMMARY_VERSION,
    moves: record.moves.length,
    over: Boolean(outcome),
    you,
    progress: progressOf(record.game, view),
    outcome: outcome ? { scores: [...(outcome.scores || [])], winners: [...(outcome.winners || [])] } : null,
    stats: outcome ? statsOf(record, view, outcome, you) : null,
  };
}

/** Whether an entry's summary is missing or from another version (it is then made again). */
export function needsSummary(entry) {
  return !entry.summary || entry.summary.v !== SUMMARY_VERSION || entry.summary.moves !== entry.record.moves.length;
}

/**
 * Who "you" played against, as a key for statistics: Lobo's difficulty, else the bots' levels
 * ("hard", "easy+normal"), with "people" for other human seats.
 */
export function opponentsKey(record, summary = null) {
  if (record.game === "lobo") return `difficulty:${summary?.stats?.difficulty || record.options?.difficulty || "STANDARD"}`;
  const you = youSeat(record);
  const levels = new Set();
  let people = false;
  record.seats.forEach((seat, i) => {
    if (i === you) return;
    if (seat.kind === "bot") levels.add(seat.level);
    else people = true;
  });
  const parts = [...levels].sort();
  if (people) parts.push("people");
  return parts.join("+") || "solo";
}

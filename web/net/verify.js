// A guest's check at the end of a game: the host's revealed secret matches its commitment, the
// guest's own part is in the parts, the seed follows from them, and the guest's own engine,
// replaying the deal and every move, shows the guest exactly the views the host sent and ends
// with the same result. Offline: the guest's engine is the same wheel as the host's.

import { checkReveal } from "./commit.js";
import { canonical, viewDigest } from "./guest.js";

/**
 * @param {{engine: any, guest: import("./guest.js").GuestSession, onProgress?: (done: number, total: number) => void}} p
 * @returns {Promise<{ok: true, moves: number, views: number} | {ok: false, why: string, at?: number}>}
 */
export async function verifyGame({ engine, guest, onProgress = () => {} }) {
  const reveal = guest.reveal;
  if (!reveal) return { ok: false, why: "no_reveal" };
  const problem = await checkReveal({ commitment: guest.commitment, parts: guest.parts, seat: guest.seat, part: guest.part }, reveal);
  if (problem) return { ok: false, why: problem };
  const table = guest.table;
  const moves = Array.isArray(reveal.moves) ? reveal.moves : [];
  if (moves.length !== guest.n) return { ok: false, why: "moves" };
  let snap;
  let views = 0;
  const seen = async (n, view) => {
    const expected = guest.views.get(n);
    if (expected === undefined) return true;
    views += 1;
    return (await viewDigest(view)) === (await expected);
  };
  try {
    snap = await engine.call("new_game", { game: table.game, seed: reveal.seed, options: table.options, players: table.players, view_seat: guest.seat });
    if (!(await seen(0, snap.view))) return { ok: false, why: "views", at: 0 };
    for (const [index, entry] of moves.entries()) {
      if (!entry || typeof entry !== "object" || !Number.isInteger(entry.seat)) return { ok: false, why: "moves", at: index };
      snap = await engine.call("apply", { game: table.game, state: snap.state, seat: entry.seat, move: entry.move, view_seat: guest.seat });
      if (!(await seen(index + 1, snap.view))) return { ok: false, why: "views", at: index + 1 };
      if (index % 20 === 0) onProgress(index + 1, moves.length);
    }
  } catch {
    return { ok: false, why: "replay" };
  }
  onProgress(moves.length, moves.length);
  if (canonical(snap.outcome) !== canonical(guest.latest?.outcome ?? null)) return { ok: false, why: "outcome" };
  return { ok: true, moves: moves.length, views };
}

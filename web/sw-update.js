// Service worker registration and the update policy: a new version never takes over in the
// middle of a game. It is activated (skipWaiting) only when no game runs; otherwise the page
// shows "update ready" and waits.

let registration = null;
let requested = false;
let reloading = false;
// After skipWaiting, the browser may hold the new version back while the old one still has
// work in flight for this page (seen in CI, now and then: it never took over). Reloading the
// page, which is on the home screen with nothing to lose, ends that work and lets it take over.
const TAKEOVER_MS = 10_000;
// How long the page waits for its engine to be quiet (hooks.beforeTakeover) before it lets a
// new version take over all the same.
const QUIET_MS = 20_000;
/** registerServiceWorker's hooks. */
let pageHooks = { inGame: () => false, onUpdateReady: () => {}, beforeTakeover: () => Promise.resolve() };

/**
 * @param {{inGame: () => boolean, onUpdateReady: (ready: boolean) => void,
 *   beforeTakeover?: () => Promise<void>}} hooks  beforeTakeover: settles once the page's
 *   own Cache API writes are done (the engine's memory snapshot), so that the reload does not
 *   cut one short while the new version deletes the old caches
 */
export async function registerServiceWorker(hooks) {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  pageHooks = { ...pageHooks, ...hooks };
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    // The first install claims the page: nothing to reload. Later, only an update we asked for,
    // once it is activated (see reloadWhenActivated).
    if (requested) reloadWhenActivated(navigator.serviceWorker.controller);
  });
  try {
    registration = (await navigator.serviceWorker.register("sw.js")) || null;
  } catch (error) {
    console.warn("service worker not registered:", error);
    registration = null;
  }
  // Blocked (some browsers' settings, test browsers) or refused: the app works on without
  // offline play or updates, quietly.
  if (!registration || typeof registration.addEventListener !== "function") {
    registration = null;
    return;
  }
  const check = () => {
    if (registration.waiting && navigator.serviceWorker.controller) {
      if (!hooks.inGame()) activateWaiting();
      else hooks.onUpdateReady(true);
    }
  };
  registration.addEventListener("updatefound", () => {
    const worker = registration.installing;
    if (!worker) return;
    worker.addEventListener("statechange", () => {
      if (worker.state === "installed") check();
    });
  });
  check();
}

/** Tell a waiting worker to take over, once the page is quiet; the page reloads once it is activated. */
export async function activateWaiting() {
  if (!registration) return false;
  // Ask the browser afresh: the registration's state may have moved since the last event.
  let current = registration;
  try {
    current = (await navigator.serviceWorker.getRegistration()) || registration;
  } catch { /* keep the one we have */ }
  if (!current.waiting || !navigator.serviceWorker.controller || requested) return false;
  requested = true;
  await Promise.race([pageHooks.beforeTakeover().catch(() => {}), new Promise((resolve) => setTimeout(resolve, QUIET_MS))]);
  const waiting = current.waiting;
  if (!waiting || pageHooks.inGame()) {
    // gone meanwhile, or a game started while the engine finished its snapshot: later
    requested = false;
    if (waiting) pageHooks.onUpdateReady(true);
    return false;
  }
  reloadWhenActivated(waiting);
  waiting.postMessage({ type: "skipWaiting" });
  setTimeout(reloadOnce, TAKEOVER_MS);
  return true;
}

/**
 * Reload once ``worker`` is activated. The page is handed to the new version (controllerchange)
 * as soon as it starts activating, before its activate event has run (old caches deleted, the
 * page claimed). A reload then sends its navigation to a worker still activating, which the
 * browser holds until activation ends; now and then in CI it never ended, and the page stayed
 * blank. Waiting for "activated" sends the reload to a worker that is ready.
 */
function reloadWhenActivated(worker) {
  if (!worker || worker.state === "activated") {
    reloadOnce();
    return;
  }
  worker.addEventListener("statechange", () => {
    if (worker.state === "activated") reloadOnce();
  });
}

function reloadOnce() {
  if (reloading) return;
  reloading = true;
  location.reload();
}

/** Called when no game is running (home screen): take a waiting update now. */
export function applyUpdateIfIdle() {
  return activateWaiting();
}

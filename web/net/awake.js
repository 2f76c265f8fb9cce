// The screen kept on while this device is part of a table on several devices. A phone that
// locks its screen stops its page (no timer runs, no message is answered) and the whole table
// waits for it; the host's phone above all. The Screen Wake Lock API holds the screen on while
// the page is visible; the browser drops the lock whenever the page is hidden, so it is asked
// for again each time the page shows. Where the API is missing (an older browser, a page that
// is not a secure context) or the browser refuses (battery saver), nothing else changes: the
// sessions still wait for a device that went quiet (host.js, guest.js).

export class ScreenAwake {
  /** @param {{navigator?: any, document?: any}} [env] the page's, unless a test gives others */
  constructor({ navigator = globalThis.navigator, document = globalThis.document } = {}) {
    this.navigator = navigator;
    this.document = document;
    this.wanted = false;
    this.sentinel = null;
    this.asking = null;
    this.onVisibility = () => this.ask();
  }

  /** Keep the screen on from now until release(). */
  hold() {
    if (this.wanted) return;
    this.wanted = true;
    this.document?.addEventListener?.("visibilitychange", this.onVisibility);
    this.ask();
  }

  /** Let the screen lock again (the table is over, or left). */
  release() {
    this.wanted = false;
    this.document?.removeEventListener?.("visibilitychange", this.onVisibility);
    const sentinel = this.sentinel;
    this.sentinel = null;
    sentinel?.release().catch(() => {});
  }

  /** Whether the screen is held on now. */
  get held() {
    return Boolean(this.sentinel);
  }

  /** Ask the browser for the lock, if wanted, visible, not held and not already being asked. */
  ask() {
    const lock = this.navigator?.wakeLock;
    if (!this.wanted || this.sentinel || this.asking || !lock || this.document?.visibilityState !== "visible") return this.asking;
    this.asking = (async () => {
      try {
        const sentinel = await lock.request("screen");
        if (!this.wanted) return sentinel.release().catch(() => {});
        this.sentinel = sentinel;
        sentinel.addEventListener?.("release", () => {
          if (this.sentinel === sentinel) this.sentinel = null;
        });
      } catch {
        // refused (battery saver, a policy): the screen may lock; the table waits for it
      } finally {
        this.asking = null;
      }
    })();
    return this.asking;
  }
}

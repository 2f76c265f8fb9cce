// The screen kept on during a table on several devices (web/net/awake.js), with a fake
// browser: the lock is asked for while the page is visible, asked for again when the page shows
// after the browser dropped it, never asked for twice at once, and let go at the end. A browser
// without the API, or one that refuses, changes nothing.
import assert from "node:assert/strict";
import { test } from "node:test";

const { ScreenAwake } = await import("../../web/net/awake.js");

class FakeSentinel extends EventTarget {
  constructor(log) {
    super();
    this.log = log;
    this.released = false;
  }
  async release() {
    this.released = true;
    this.log.push("release");
    this.dispatchEvent(new Event("release"));
  }
}

function browser({ refuse = false } = {}) {
  const log = [];
  const document = new EventTarget();
  document.visibilityState = "visible";
  const navigator = {
    wakeLock: {
      request: async (type) => {
        log.push(`request ${type}`);
        if (refuse) throw new Error("NotAllowedError");
        return new FakeSentinel(log);
      },
    },
  };
  const show = (state) => {
    document.visibilityState = state;
    document.dispatchEvent(new Event("visibilitychange"));
  };
  return { log, env: { navigator, document }, show };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test("held while visible, asked for again when the page shows, let go at the end", async () => {
  const { log, env, show } = browser();
  const awake = new ScreenAwake(env);
  awake.hold();
  awake.hold(); // twice: one request
  await settle();
  assert.deepEqual(log, ["request screen"]);
  assert.equal(awake.held, true);
  // the page is hidden: the browser drops the lock; nothing is asked while hidden
  show("hidden");
  await awake.sentinel.release();
  await settle();
  assert.equal(awake.held, false);
  assert.deepEqual(log, ["request screen", "release"]);
  show("visible");
  await settle();
  assert.deepEqual(log, ["request screen", "release", "request screen"]);
  assert.equal(awake.held, true);
  awake.release();
  await settle();
  assert.equal(awake.held, false);
  assert.deepEqual(log.slice(-1), ["release"]);
  // after the end, a page shown again asks for nothing
  show("hidden");
  show("visible");
  await settle();
  assert.equal(log.filter((line) => line === "request screen").length, 2);
});

test("released while the request is out: the lock that comes back is let go at once", async () => {
  const { log, env } = browser();
  const awake = new ScreenAwake(env);
  awake.hold();
  awake.release();
  await settle();
  assert.deepEqual(log, ["request screen", "release"]);
  assert.equal(awake.held, false);
});

test("a browser that refuses, or has no wake lock, changes nothing", async () => {
  const refusing = browser({ refuse: true });
  const awake = new ScreenAwake(refusing.env);
  awake.hold();
  await settle();
  assert.equal(awake.held, false);
  assert.deepEqual(refusing.log, ["request screen"]);
  awake.release();
  const bare = new ScreenAwake({ navigator: {}, document: undefined });
  bare.hold();
  assert.equal(bare.held, false);
  bare.release();
});

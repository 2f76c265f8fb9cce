// Starts the engine worker the moment the page's head is read, before the page's own modules
// (app.js and everything it imports) have loaded: Python's start is the longest wait of a
// first visit, and it no longer queues behind them. Messages the worker sends before the page
// takes it over (EngineClient.start) are kept here, in order, and replayed.
// A classic script on purpose: it needs no module graph of its own. build.py inlines it into
// dist/index.html (its hash in the page's CSP), so it runs as the head is parsed, without a
// request of its own queued behind the stylesheets and modules.
// build.py also writes in START what the worker needs of build.json before Python can start
// (the wheel, the standard library, the snapshot's key, the engine's version); it travels as
// the worker's name, so the worker need not wait for build.json (docs/CONTRACTS.md). Not in
// the URL: a worker served by the service worker takes the cached response's URL.
(() => {
  const START = /* build.json's start fields */ null;
  try {
    const options = START ? { type: "module", name: JSON.stringify(START) } : { type: "module" };
    const early = { worker: new Worker("worker.js", options), messages: [], error: null };
    early.worker.onmessage = (event) => early.messages.push(event.data);
    early.worker.onerror = (event) => {
      if (event.preventDefault) event.preventDefault();
      early.error = event.message || "script failed to load";
    };
    self.tapeteEarlyWorker = early;
  } catch (error) {
    // No worker here (an old browser, a refused script): the page starts one itself, and
    // reports why it cannot.
  }
})();

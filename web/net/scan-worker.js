// Reads QR codes from camera frames (or a picture) off the main thread with jsQR, the pinned
// npm library build.py puts in vendor/jsqr/. Classic worker: {id, width, height, data} in,
// {id, text: string | null} out.

/* global jsQR */
importScripts("../vendor/jsqr/jsQR.js");

self.onmessage = (event) => {
  const { id, width, height, data } = event.data || {};
  let text = null;
  try {
    if (Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0 && width * height <= 4_000_000 && data && data.length === width * height * 4) {
      const found = jsQR(data, width, height, { inversionAttempts: "attemptBoth" });
      text = found ? found.data : null;
    }
  } catch {
    text = null;
  }
  self.postMessage({ id, text });
};

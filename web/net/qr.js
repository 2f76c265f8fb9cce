// QR codes: drawn with lean-qr and read with jsQR (pinned npm packages that build.py fetches
// with `npm pack` into vendor/, served from this origin). A join link is written in two
// segments: its address in byte mode and the pairing code in the compact alphanumeric mode.

import { correction, generate, mode } from "../vendor/lean-qr/index.mjs";

const ALPHANUMERIC = /^[0-9A-Z $%*+\-./:]*$/;

/**
 * Draw `text` as a QR code into `canvas` (one pixel per module; CSS scales it up).
 * @returns {{version: number, modules: number}}
 */
export function drawQr(canvas, text) {
  const mark = text.lastIndexOf("/join/");
  const tail = mark >= 0 ? text.slice(mark + 6) : text;
  const head = mark >= 0 ? text.slice(0, mark + 6) : "";
  const data = ALPHANUMERIC.test(tail) ? mode.multi(...(head ? [mode.bytes(new TextEncoder().encode(head))] : []), mode.alphaNumeric(tail)) : text;
  const code = generate(data, { minCorrectionLevel: correction.M });
  code.toCanvas(canvas, { pad: 4 });
  return { version: (code.size - 17) / 4, modules: code.size };
}

let worker = null;
let nextId = 1;
const pending = new Map();

function scanWorker() {
  if (!worker) {
    // from the page's address, not the module's: the built page folds this module into app.js
    worker = new Worker(new URL("net/scan-worker.js", document.baseURI));
    worker.onmessage = (event) => {
      const { id, text } = event.data || {};
      const resolve = pending.get(id);
      pending.delete(id);
      if (resolve) resolve(text);
    };
  }
  return worker;
}

/** The text of the QR code in an ImageData, or null. */
export function readQr(image) {
  const id = nextId++;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    const copy = new Uint8ClampedArray(image.data);
    scanWorker().postMessage({ id, width: image.width, height: image.height, data: copy }, [copy.buffer]);
  });
}

/** The text of the QR code in a picture (an <img>, a bitmap, a canvas), or null. */
export function readQrFromImage(source) {
  const width = source.naturalWidth || source.videoWidth || source.width;
  const height = source.naturalHeight || source.videoHeight || source.height;
  const scale = Math.min(1, 1280 / Math.max(width, height));
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const context = canvas.getContext("2d", { willReadFrequently: true });
  context.drawImage(source, 0, 0, canvas.width, canvas.height);
  return readQr(context.getImageData(0, 0, canvas.width, canvas.height));
}

/**
 * Scan with the camera into `video` until `accept(text)` returns true or `stop()` is called.
 * Resolves with a stop function; rejects when there is no camera or permission is refused.
 */
export async function startCameraScan(video, accept) {
  if (!navigator.mediaDevices?.getUserMedia) throw Object.assign(new Error("no camera"), { code: "no_camera" });
  const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
  video.srcObject = stream;
  video.setAttribute("playsinline", "");
  video.muted = true;
  await video.play();
  let running = true;
  const stop = () => {
    running = false;
    for (const track of stream.getTracks()) track.stop();
    video.srcObject = null;
  };
  (async () => {
    while (running) {
      if (video.readyState >= 2) {
        const text = await readQrFromImage(video);
        if (running && text && accept(text)) {
          stop();
          return;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  return stop;
}

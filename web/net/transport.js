// One WebRTC data channel between the host and one guest, paired by hand (no signalling
// server): the host makes an offer, the guest answers it, each half travels as a pairing code
// (pairing.js). With no STUN/TURN server set, `iceServers` is empty: only the devices' own
// (host) candidates, so nothing is sent to any other machine; a player may set a server of
// their own for play across networks (settings, off by default).
//
// Events: "open", "message" (detail: the text received), "close". A channel that does not open
// in time fails with code "no_connection".

import { buildSdp, parseSdp } from "./pairing.js";

const GATHER_TIMEOUT_MS = 4_000;
const CONNECT_TIMEOUT_MS = 20_000;

/** The RTCPeerConnection configuration: no ICE server unless the player set one. */
export function rtcConfig(iceServer) {
  if (!iceServer || !iceServer.urls) return { iceServers: [] };
  const server = { urls: iceServer.urls };
  if (iceServer.username) server.username = iceServer.username;
  if (iceServer.credential) server.credential = iceServer.credential;
  return { iceServers: [server] };
}

/** Whether this browser can pair at all. */
export function canPair() {
  return typeof RTCPeerConnection === "function";
}

export class PeerLink extends EventTarget {
  /** @param {RTCConfiguration} config */
  constructor(config) {
    super();
    this.pc = new RTCPeerConnection(config);
    // negotiated: both sides open channel 0 themselves, no in-band set-up message
    this.channel = this.pc.createDataChannel("tapete", { negotiated: true, id: 0, ordered: true });
    this.state = "new"; // new | open | closed
    this.born = Date.now();
    /** What happened to this connection, in order: "<ms since made> <what>" (for a diagnosis). */
    this.log = [];
    const note = (what) => this.log.length < 64 && this.log.push(`${Date.now() - this.born} ${what}`);
    this.note = note;
    for (const [event, field] of [["signalingstatechange", "signalingState"], ["icegatheringstatechange", "iceGatheringState"], ["iceconnectionstatechange", "iceConnectionState"], ["connectionstatechange", "connectionState"]]) {
      this.pc.addEventListener(event, () => note(`${field}=${this.pc[field]}`));
    }
    this.channel.onopen = () => {
      note("channel=open");
      this.state = "open";
      this.dispatchEvent(new Event("open"));
    };
    this.channel.onmessage = (event) => this.dispatchEvent(new CustomEvent("message", { detail: event.data }));
    this.channel.onclose = () => {
      note("channel=closed");
      this.closed();
    };
    this.pc.onconnectionstatechange = () => {
      if (["failed", "closed"].includes(this.pc.connectionState)) this.closed();
    };
  }

  /** Every state of the connection now, in one line (signaling, ICE, DTLS, channel). */
  states() {
    const pc = this.pc;
    const dtls = pc.sctp?.transport?.state ?? "-";
    return `signaling=${pc.signalingState} gathering=${pc.iceGatheringState} ice=${pc.iceConnectionState} connection=${pc.connectionState} dtls=${dtls} channel=${this.channel.readyState} link=${this.state} age=${Date.now() - this.born}`;
  }

  closed() {
    if (this.state === "closed") return;
    const wasOpen = this.state === "open";
    this.state = "closed";
    this.dispatchEvent(new CustomEvent("close", { detail: { wasOpen } }));
  }

  /** The local description once every candidate is gathered (or after a time limit). */
  async gathered() {
    const pc = this.pc;
    if (pc.iceGatheringState !== "complete") {
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, GATHER_TIMEOUT_MS);
        pc.addEventListener("icegatheringstatechange", () => {
          if (pc.iceGatheringState === "complete") {
            clearTimeout(timer);
            resolve();
          }
        });
      });
    }
    const transport = parseSdp(pc.localDescription.sdp);
    if (!transport.candidates.length) throw Object.assign(new Error("no network address to offer"), { code: "no_candidates" });
    return transport;
  }

  /** The host's half: the offer's transport (for encodeOffer). */
  async offer() {
    await this.pc.setLocalDescription(await this.pc.createOffer());
    return this.gathered();
  }

  /** The guest's half: take the host's offer, return the answer's transport. */
  async answer(offerTransport) {
    await this.pc.setRemoteDescription({ type: "offer", sdp: buildSdp(offerTransport) });
    await this.pc.setLocalDescription(await this.pc.createAnswer());
    return this.gathered();
  }

  /** The host takes the guest's answer. */
  async accept(answerTransport) {
    await this.pc.setRemoteDescription({ type: "answer", sdp: buildSdp(answerTransport) });
  }

  /** Resolves when the channel opens; rejects with code no_connection after a time limit. */
  opened(timeout = CONNECT_TIMEOUT_MS) {
    if (this.state === "open") return Promise.resolve();
    return new Promise((resolve, reject) => {
      const fail = () => reject(Object.assign(new Error("the devices could not reach each other"), { code: "no_connection" }));
      const timer = setTimeout(fail, timeout);
      this.addEventListener("open", () => {
        clearTimeout(timer);
        resolve();
      }, { once: true });
      this.addEventListener("close", () => {
        clearTimeout(timer);
        fail();
      }, { once: true });
    });
  }

  /** Send a message object as JSON text; false when the channel is not open. */
  send(message) {
    if (this.channel.readyState !== "open") return false;
    try {
      this.channel.send(typeof message === "string" ? message : JSON.stringify(message));
      return true;
    } catch {
      return false;
    }
  }

  close() {
    try {
      this.channel.close();
      this.pc.close();
    } catch { /* already closed */ }
    this.closed();
  }
}

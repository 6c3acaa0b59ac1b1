// One WebSocket to one room that comes back by itself: reconnects with exponential
// backoff and jitter, notices a dead line within seconds with application pings (the
// heartbeat of docs/protocol.md: after 1.5 s without a word from the server it sends
// `ping`, and a server that then says nothing for 1.5 s more counts as gone, so a silent
// drop shows in about three seconds), gives up on an opening that hangs, drops the
// line as soon as the browser says it went offline (and, rather than knocking on a closed
// door, waits for it to come back online), and reports its state plainly. It knows nothing
// of rooms or moves (see session.js).

import { FATAL_CLOSE_CODES } from "./protocol.js";

// Half a second more of quiet before a ping costs the server a third of the pings of an
// idle line (each 80–90 µs of its CPU: docs/performance.md, Heartbeat).
export const HEARTBEAT_MS = 1500; // a ping after this long without a word from the server
export const DEAD_MS = 1500; // then gone if nothing at all comes back within this: about 3 s in all
const OPEN_MS = 5000; // an opening (TCP, TLS, the upgrade) that takes longer is given up
const TICK_MS = 250;

/**
 * Delay before reconnect attempt `attempt` (0-based): exponential, capped, with "equal
 * jitter" (half fixed, half random) so a crowd of clients dropped together does not
 * come back in lockstep.
 */
export function backoffDelay(attempt, { base = 500, max = 15000, random = Math.random } = {}) {
  const cap = Math.min(max, base * 2 ** Math.min(attempt, 16));
  return Math.round(cap / 2 + random() * (cap / 2));
}

/** The room's socket; `watch`: its spectators' path, which a balancer may spread over
 *  every server while it keeps the room's players on one (docs/protocol.md). */
export function roomSocketUrl(roomId, loc = window.location, { watch = false } = {}) {
  const scheme = loc.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${loc.host}/ws/${encodeURIComponent(roomId)}${watch ? "/watch" : ""}`;
}

/**
 * Status objects passed to `onStatus`:
 *   {state: "connecting", attempt}
 *   {state: "open"}
 *   {state: "waiting", attempt, retryAt, code, reason}   – dropped, retrying at retryAt
 *   {state: "waiting", attempt, offline: true, code, reason} – dropped, the browser is
 *                                                          offline: retrying once online
 *   {state: "stopped", code, reason}                     – gave up (fatal close or stop())
 */
export class Connection {
  constructor(url, {
    onOpen, onMessage, onStatus, ping, heartbeatMs = HEARTBEAT_MS, deadMs = DEAD_MS, openMs = OPEN_MS,
  } = {}) {
    this.url = url;
    this.onOpen = onOpen || (() => {});
    this.onMessage = onMessage || (() => {});
    this.onStatus = onStatus || (() => {});
    this.ping = ping || (() => null);
    this.heartbeatMs = heartbeatMs;
    this.deadMs = deadMs;
    this.openMs = openMs;
    this.opening = null; // the timer that gives up on an opening that hangs
    this.ws = null;
    this.attempt = 0;
    this.timer = null;
    this.heartbeat = null;
    this.stopped = false;
    this.lastRx = 0;
    this.pingSentAt = 0; // the first ping still unanswered (nothing received since)
    this.lastPing = 0;
    this.enrolled = false; // whether this socket has sent its first ping (see _startHeartbeat)
    this._online = () => this.reconnectNow();
    // Offline, a socket can look open for many seconds before a ping times out: say so now.
    this._offline = () => {
      if (!this.stopped && this.ws) this._dropped(1006, "the browser is offline");
    };
    this._listen(true);
  }

  _listen(on) {
    const method = on ? "addEventListener" : "removeEventListener";
    window[method]("online", this._online);
    window[method]("offline", this._offline);
  }

  start() {
    this.stopped = false;
    this._listen(false);
    this._listen(true);
    this._open();
  }

  /** The session calls this once the server welcomed us: the next drop starts fresh. */
  healthy() {
    this.attempt = 0;
  }

  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  get isOpen() {
    return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN);
  }

  /** Skip the rest of the backoff (the "Reconnect now" button, the browser going online). */
  reconnectNow() {
    if (this.stopped || this.isOpen || (this.ws && this.ws.readyState === WebSocket.CONNECTING)) return;
    clearTimeout(this.timer);
    this._open();
  }

  stop(reason = "closed") {
    this.stopped = true;
    clearTimeout(this.timer);
    this._detach(1000);
    this._listen(false);
    this.onStatus({ state: "stopped", code: 1000, reason });
  }

  _open() {
    if (navigator.onLine === false) {
      this._dropped(1006, "the browser is offline");
      return;
    }
    this.onStatus({ state: "connecting", attempt: this.attempt });
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch (err) {
      this._dropped(1006, String(err));
      return;
    }
    this.ws = ws;
    clearTimeout(this.opening);
    // A blackholed network takes the handshake and never answers: try again, not wait forever
    this.opening = setTimeout(() => {
      if (this.ws === ws && ws.readyState === WebSocket.CONNECTING) this._dropped(1006, "the connection did not open in time");
    }, this.openMs);
    ws.onopen = () => {
      clearTimeout(this.opening);
      this.lastRx = Date.now();
      this.pingSentAt = 0;
      this.enrolled = false; // this socket has not pinged yet
      this._startHeartbeat();
      this.onStatus({ state: "open" });
      this.onOpen();
    };
    ws.onmessage = (event) => {
      this.lastRx = Date.now();
      this.pingSentAt = 0;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return; // not ours to interpret; the server only sends JSON objects
      }
      if (message && typeof message.type === "string") this.onMessage(message);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this._dropped(event.code, event.reason);
    };
    ws.onerror = () => {}; // a close event always follows
  }

  _dropped(code, reason) {
    this._detach();
    if (this.stopped) return;
    if (FATAL_CLOSE_CODES.has(code)) {
      this.stopped = true;
      this.onStatus({ state: "stopped", code, reason });
      return;
    }
    clearTimeout(this.timer);
    if (navigator.onLine === false) { // the "online" event reconnects
      this.onStatus({ state: "waiting", attempt: this.attempt, offline: true, code, reason });
      return;
    }
    const delay = backoffDelay(this.attempt);
    this.attempt += 1;
    this.onStatus({ state: "waiting", attempt: this.attempt, retryAt: Date.now() + delay, code, reason });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this._open(), delay);
  }

  _detach(code) {
    clearTimeout(this.opening);
    clearInterval(this.heartbeat);
    this.heartbeat = null;
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.onopen = ws.onmessage = ws.onclose = null;
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) {
        try { ws.close(code || 1000); } catch { /* already closing */ }
      }
    }
  }

  _startHeartbeat() {
    clearInterval(this.heartbeat);
    this.heartbeat = setInterval(() => {
      const now = Date.now();
      if (this.pingSentAt && now - this.pingSentAt > this.deadMs) {
        this._dropped(1006, "the server stopped answering");
        return;
      }
      // One ping as soon as the page may send one (once joined): the server keeps the
      // heartbeat only for a connection that has pinged, and a line cut within 1.5 s of the
      // last message would otherwise never be noticed by the server (docs/protocol.md)
      if (!this.enrolled) {
        const message = this.ping();
        if (message && this.send(message)) {
          this.enrolled = true;
          this.lastPing = now;
        }
        return;
      }
      // After heartbeatMs without a word, a ping each heartbeatMs until something comes back
      if (now - this.lastRx >= this.heartbeatMs && now - this.lastPing >= this.heartbeatMs) {
        const message = this.ping();
        if (message && this.send(message)) {
          this.lastPing = now;
          if (!this.pingSentAt) this.pingSentAt = now;
        }
      }
    }, TICK_MS);
  }
}

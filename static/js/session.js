// A seat (or a spectator's chair) in one room: joins on every (re)connection, resumes
// the seat with the stored token and the last version seen, keeps the room up to date
// from events, re-syncs on a version gap, and sends moves with version and move_id
// (retried with the same move_id after a reconnect, so a move lands at most once).
// All page state lives in the store; rendering happens elsewhere.

import { Connection, roomSocketUrl } from "./net.js";
import { joinMessage, moveMessage, newId, pingMessage, syncMessage, errorTitle } from "./protocol.js";
import { applyEvent, fromSnapshot } from "./room-state.js";
import { forgetSeat, loadName, loadSeat, saveSeat } from "./storage.js";
import { eventText } from "./text.js";

const MOVE_RETRY_MS = 8000;
const ACK_EVENT_MS = 1500;

/** Errors that answer a `join`: the page shows them in place of the game. */
const JOIN_ERRORS = new Set([
  "room_not_found", "room_full", "bad_token", "unsupported_protocol", "already_joined",
]);

export function initialGameState(roomId, want) {
  return {
    roomId,
    want,                 // "player" or "spectator": what the URL asked for
    role: null,           // what the server granted
    mark: null,
    joined: false,
    conn: { state: "connecting", attempt: 0 },
    everConnected: false,
    room: null,
    syncing: false,
    pending: null,        // {message, cell, ackVersion}
    moveError: null,      // {code, title, message}
    notice: null,         // {code, title, message, tone}
    offerWatch: false,
    replay: null,         // a ply being reviewed, or null for the live position
  };
}

export function createSession(store, { announce = () => {}, url } = {}) {
  const { roomId } = store.get();
  let joinedOnce = false;

  const conn = new Connection(url || roomSocketUrl(roomId), {
    onOpen: sendJoin,
    onMessage: handle,
    onStatus: (status) => {
      store.update((s) => ({
        ...s, conn: status,
        joined: status.state === "open" ? s.joined : false,
        everConnected: s.everConnected || status.state === "open",
        notice: status.state === "stopped" && status.code === 4004 && !s.notice
          ? notice("room_not_found", "this game does not exist (or has expired)") : s.notice,
      }));
      if (status.state === "waiting" && joinedOnce) announce("Connection lost. Reconnecting…");
    },
    ping: () => (store.get().joined ? pingMessage(newId("p")) : null),
  });

  function notice(code, message, tone = "error") {
    return { code, title: errorTitle(code), message, tone };
  }

  function sendJoin() {
    const s = store.get();
    const asPlayer = s.want === "player";
    const seat = asPlayer ? loadSeat(roomId) : null;
    conn.send(joinMessage({
      as: s.want,
      name: asPlayer && !seat ? loadName() : undefined,
      token: seat?.token,
      lastVersion: s.room ? s.room.version : undefined,
    }));
  }

  function handle(msg) {
    switch (msg.type) {
      case "welcome": return onWelcome(msg);
      case "state": return onState(msg);
      case "move_ok": return onMoveOk(msg);
      case "error": return onError(msg);
      case "pong": return undefined;
      default: return onEvent(msg);
    }
  }

  function onWelcome(msg) {
    if (msg.role === "player" && msg.token) saveSeat(roomId, { token: msg.token, mark: msg.mark });
    conn.healthy();
    const wasJoined = joinedOnce;
    joinedOnce = true;
    store.update((s) => settle({
      ...s,
      role: msg.role, mark: msg.mark, joined: true, syncing: false, offerWatch: false,
      room: fromSnapshot(msg.state),
      notice: s.notice && s.notice.tone === "info" ? s.notice : null,
    }));
    if (wasJoined) announce("Reconnected.");
    const pending = store.get().pending;
    if (pending) conn.send(pending.message); // same move_id: applied at most once
  }

  function onState(msg) {
    store.update((s) => {
      if (s.room && msg.version < s.room.version) return { ...s, syncing: false };
      return settle({ ...s, room: fromSnapshot(msg.state), syncing: false });
    });
  }

  function onEvent(ev) {
    const s = store.get();
    if (!s.room || !Number.isInteger(ev.version)) return; // not for us: ignore (protocol.md)
    if (s.syncing) return; // the coming `state` replaces everything
    const { room, result } = applyEvent(s.room, ev);
    if (result === "gap" || result === "unknown") {
      store.update({ room, syncing: true });
      conn.send(syncMessage(newId("s")));
      return;
    }
    if (result !== "applied") return;
    const moveError = ev.type === "moved" ? null : s.moveError;
    store.update(settle({ ...s, room, moveError }));
    const sentence = eventText(ev, s.room, room, s.role === "player" ? s.mark : null);
    if (sentence) announce(sentence);
  }

  function onMoveOk(msg) {
    store.update((s) => {
      if (!s.pending || s.pending.message.move_id !== msg.move_id) return s;
      return settle({ ...s, pending: { ...s.pending, ackVersion: msg.version } });
    });
    // move_ok names the version the move landed at; if its `moved` event does not follow
    // soon, the room is behind that version: a gap like any other, repaired with sync.
    setTimeout(() => {
      const s = store.get();
      if (s.pending && s.pending.message.move_id === msg.move_id && !s.syncing && s.joined) {
        store.update({ syncing: true });
        conn.send(syncMessage(newId("s")));
      }
    }, ACK_EVENT_MS);
  }

  function onError(msg) {
    const s = store.get();
    const error = notice(msg.code, msg.message);
    if (s.pending && msg.ref && msg.ref === s.pending.message.move_id) {
      store.update({ pending: null, moveError: error });
      announce(`${error.title}: ${msg.message}`);
      if (msg.code === "stale_version") conn.send(syncMessage(newId("s")));
      return;
    }
    if (!s.joined && msg.code === "bad_token") {
      // The seat is gone (the token no longer matches): forget it and join afresh.
      forgetSeat(roomId);
      store.update({ notice: { ...error, tone: "info" } });
      sendJoin();
      return;
    }
    if (!s.joined && msg.code === "room_full") {
      store.update({ offerWatch: true, notice: error });
      announce(`${error.title}. You can watch the game.`);
      return;
    }
    if (!s.joined && JOIN_ERRORS.has(msg.code)) {
      store.update({ notice: error });
      announce(`${error.title}: ${msg.message}`);
      return;
    }
    store.update({ notice: error });
    announce(`${error.title}: ${msg.message}`);
  }

  /** A move still unanswered after a while on an open line is sent again, same move_id
   *  (the server applies it at most once and answers the retry). */
  function retryUnanswered(moveId, delay = MOVE_RETRY_MS) {
    setTimeout(() => {
      const p = store.get().pending;
      if (!p || p.message.move_id !== moveId || p.ackVersion !== undefined) return;
      if (store.get().joined) conn.send(p.message);
      retryUnanswered(moveId, Math.min(delay * 2, 30000));
    }, delay);
  }

  /** A pending move is done once it was acknowledged and its event is on the board. */
  function settle(s) {
    const p = s.pending;
    if (p && p.ackVersion !== undefined && s.room && s.room.version >= p.ackVersion) {
      return { ...s, pending: null };
    }
    return s;
  }

  return {
    start: () => conn.start(),
    stop: () => conn.stop(),
    reconnectNow: () => conn.reconnectNow(),

    /** Ask the server to play `cell` (`shown`: where the preview put it, for the pending
     *  hint only); only the server's answer changes the board. */
    play(cell, shown) {
      const s = store.get();
      if (s.role !== "player" || !s.room || s.pending) return false;
      const message = moveMessage(cell, s.room.rules, s.room.version, newId("m"));
      store.update({ pending: { message, cell, shown }, moveError: null, notice: null });
      conn.send(message); // when closed, it goes out again after the next welcome
      retryUnanswered(message.move_id);
      return true;
    },

    /** After `room_full`: watch instead, on the same connection. */
    watch() {
      history.replaceState(null, "", `/r/${encodeURIComponent(roomId)}/watch`);
      store.update({ want: "spectator", offerWatch: false, notice: null });
      if (!conn.send(joinMessage({ as: "spectator" }))) conn.reconnectNow();
    },

    /** Send a message as it is (the registry's plug-in actions). */
    send: (message) => conn.send(message),

    dismissNotice: () => store.update({ notice: null, moveError: null }),
  };
}

// A seat (or a spectator's chair) in one room: joins on every (re)connection, resumes
// the seat with the stored token and the last version seen, keeps the room up to date
// from events, re-syncs on a version gap, and sends moves with version and move_id
// (retried with the same move_id after a reconnect, so a move lands at most once).
// A move is drawn at once as a prediction (`pending`) and rolled back if the server
// refuses it; a move made while the line is down waits in `pending` and goes out after
// the next welcome; a premove waits in `premove` and is played when the turn comes.
// All page state lives in the store; rendering happens elsewhere.

import { Connection, roomSocketUrl } from "./socket.js";
import {
  commandMessage, errorTitle, guessMessage, joinMessage, moveMessage, newId, pingMessage, syncMessage,
} from "./protocol.js";
import { landing } from "../model/board.js";
import { afterEvent } from "../model/page-memo.js";
import { applyEvent, fromSnapshot } from "../model/room-state.js";
import { serverTime } from "../model/clock.js";
import { forgetSeat, joinKeyFor, loadIdentity, loadName, loadSeat, saveSeat } from "../browser/storage.js";
import { refusedMove } from "../model/error-text.js";
import { cellName } from "../model/rules.js";
import { eventText } from "../model/text.js";

const MOVE_RETRY_MS = 8000;
const ACK_EVENT_MS = 1500;
const CHAT_KEEP = 200;
const JOIN_WAIT_MS = 3000; // the longest a join waits for the identity: then it goes without

/** Errors that answer a `join`: the page shows them in place of the game. */
const JOIN_ERRORS = new Set([
  "room_not_found", "room_full", "bad_token", "unsupported_protocol", "already_joined",
]);

/** The page's state before the session starts; `shown`, the room the page was served
 *  with (page-room.js), is drawn until the `welcome` replaces it. */
export function initialGameState(roomId, want, shown = null) {
  return {
    roomId,
    want,                 // "player" or "spectator": what the URL asked for
    role: null,           // what the server granted
    mark: null,
    joined: false,
    conn: { state: "connecting", attempt: 0 },
    everConnected: false,
    everJoined: false,    // a welcome came once: a later loss of the line is a reconnect
    room: shown ? fromSnapshot(shown) : null,
    syncing: false,
    pending: null,        // {message, cell, shown, ackVersion}: own move, drawn until confirmed
    premove: null,        // {cell}: a move queued during someone else's turn
    moveError: null,      // {code, title, message}
    notice: null,         // {code, title, message, tone}
    offerWatch: false,
    replay: null,         // a ply being reviewed, or null for the live position
    offset: shown && typeof shown.now === "number" ? Date.now() / 1000 - shown.now : 0, // local − server seconds, from the last snapshot's `now`
    now: Date.now(),      // local ms of the last clock tick (clocks, grace countdowns)
    inflight: {},         // id → {type, place}: lifecycle commands not yet answered
    actionError: null,    // {place, code, title, message}: a refused command, where it was asked
    confirming: null,     // the id of an action waiting for "yes" (resign)
    memo: {},             // what the snapshot does not say (lifecycle.js): own draw offers, backoff
    chat: [],             // [{channel, from, text, at}] as the server sent them
    chatError: null,      // {code, title, message, text}
    guesses: null,        // the last `guesses` message: the crowd's split after a move
    myGuess: null,        // {cell, ply, id}: this spectator's guess of the move after `ply`
    guessError: null,     // {code, title, message}: the last guess refused
  };
}

/** `beforeJoin()`, when given, is awaited (at most JOIN_WAIT_MS) before each join: the
 *  page's guest identity being made (identity.js), so that the seat links to it. */
export function createSession(store, { announce = () => {}, url, beforeJoin } = {}) {
  const { roomId } = store.get();
  let joinedOnce = false;
  let chatSeq = 0;
  let opens = 0; // which opening of the socket a delayed join belongs to

  function onOpen() {
    const opening = ++opens;
    const ready = beforeJoin ? beforeJoin() : null;
    if (!ready) return sendJoin();
    const waited = new Promise((resolve) => setTimeout(resolve, JOIN_WAIT_MS));
    const join = () => { if (opening === opens) sendJoin(); }; // not on a later socket
    return Promise.race([ready, waited]).then(join, join);
  }

  const watching = () => roomSocketUrl(roomId, window.location, { watch: true });
  const conn = new Connection(url || (store.get().want === "spectator" ? watching() : roomSocketUrl(roomId)), {
    onOpen,
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
      name: seat ? undefined : loadName() || undefined, // a resumed seat keeps its name
      token: seat?.token,
      joinKey: asPlayer && !seat ? joinKeyFor(roomId) : undefined, // kept until a token is
      player: asPlayer && !seat ? loadIdentity() || undefined : undefined,
      lastVersion: s.room ? s.room.version : undefined,
    }));
  }

  function handle(msg) {
    switch (msg.type) {
      case "welcome": return onWelcome(msg);
      case "state": return onState(msg);
      case "move_ok": return onMoveOk(msg);
      case "ack": return onAck(msg);
      case "chat": return onChat(msg);
      case "guesses": return onGuesses(msg);
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
      role: msg.role, mark: msg.mark, joined: true, everJoined: true, syncing: false, offerWatch: false,
      room: fromSnapshot(msg.state), offset: offsetOf(msg.state, s.offset), inflight: {},
      notice: s.notice && s.notice.tone === "info" ? s.notice : null,
    }));
    if (wasJoined) announce("Reconnected.");
    const pending = store.get().pending;
    if (pending) conn.send(pending.message); // same move_id: applied at most once
    playPremove();
  }

  function onState(msg) {
    store.update((s) => {
      if (s.room && msg.version < s.room.version) return { ...s, syncing: false };
      return settle({ ...s, room: fromSnapshot(msg.state), syncing: false, offset: offsetOf(msg.state, s.offset) });
    });
    playPremove();
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
    const moveError = ev.type === "moved" || ev.type === "new_game" ? null : s.moveError;
    const change = afterEvent(s, ev, room, serverTime(Date.now(), s.offset));
    if (change.mark) { // a rematch gave this seat a new mark: the stored seat follows
      const seat = loadSeat(roomId);
      if (seat) saveSeat(roomId, { ...seat, mark: change.mark });
    }
    // a takeback or a new game changes what the queued premove was meant for
    const premove = ev.type === "undone" || ev.type === "new_game" ? null : s.premove;
    store.update(settle({ ...s, room, moveError, premove, ...change }));
    const sentence = eventText(ev, s.room, room, s.role === "player" ? s.mark : null);
    if (sentence) announce(sentence);
    playPremove();
  }

  function offsetOf(snapshot, previous) {
    return typeof snapshot.now === "number" ? Date.now() / 1000 - snapshot.now : previous;
  }

  function onAck(msg) {
    const sent = msg.ref && store.get().inflight[msg.ref];
    if (!sent) return;
    store.update((s) => {
      const inflight = { ...s.inflight };
      delete inflight[msg.ref];
      return { ...s, inflight, chatError: sent.type === "chat" ? null : s.chatError };
    });
  }

  function onChat(msg) {
    if (typeof msg.text !== "string" || !msg.from) return;
    chatSeq += 1;
    const line = { seq: chatSeq, channel: msg.channel, from: msg.from, text: msg.text, at: msg.at };
    store.update((s) => ({ ...s, chat: [...s.chat, line].slice(-CHAT_KEEP) }));
    const s = store.get();
    const mine = s.role === "player" ? msg.from.mark === s.mark && msg.from.role === "player" : false;
    if (!mine) announce(`${msg.from.name} says: ${msg.text}`);
  }

  function onGuesses(msg) {
    if (!Number.isInteger(msg.ply) || !Array.isArray(msg.split) || !msg.you) return;
    store.update({ guesses: msg });
    const share = msg.total ? Math.round((100 * msg.right) / msg.total) : 0;
    const you = msg.you.right === null ? "" : msg.you.right ? " You guessed it!" : " You missed it.";
    announce(`${share}% of the crowd guessed that move.${you} Your streak: ${msg.you.streak}.`);
  }

  function onMoveOk(msg) {
    store.update((s) => {
      if (!s.pending || s.pending.message.move_id !== msg.move_id) return s;
      return settle({ ...s, pending: { ...s.pending, ackVersion: msg.version } });
    });
    playPremove();
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
    if (s.myGuess && msg.ref && msg.ref === s.myGuess.id) { // a guess refused: it does not count
      store.update({ myGuess: null, guessError: error });
      announce(`${error.title}: ${msg.message}`);
      return;
    }
    const sent = msg.ref ? s.inflight[msg.ref] : null;
    if (sent) {
      const inflight = { ...s.inflight };
      delete inflight[msg.ref];
      const wait = typeof msg.retry_after === "number" ? msg.retry_after : null;
      const message = wait ? `${msg.message} (try again in ${Math.ceil(wait)} s)` : msg.message;
      if (sent.type === "chat") {
        store.update({ inflight, chatError: { ...error, message, text: sent.text } });
      } else {
        let memo = s.memo;
        if (sent.type === "takeback" && wait) memo = { ...memo, takebackRetryAt: serverTime(Date.now(), s.offset) + wait };
        if (sent.type === "offer_draw" && msg.code === "too_soon" && s.room) {
          memo = { ...memo, drawOfferedAt: s.room.moves.filter((m) => m.mark === s.mark).length };
        }
        store.update({ inflight, memo, confirming: null, actionError: { ...error, message, place: sent.place } });
      }
      announce(`${error.title}: ${message}`);
      return;
    }
    if (s.pending && msg.ref && msg.ref === s.pending.message.move_id) {
      // the prediction is rolled back; a premove queued behind it is dropped with it
      const where = s.room ? cellName(s.pending.shown || s.pending.cell, s.room.rules) : "Your move";
      const refused = { ...error, ...refusedMove(msg.code, where, msg.message) };
      store.update({ pending: null, premove: null, moveError: refused });
      announce(`${refused.title}. ${refused.message}`);
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

  /** The queued premove, played once it is this seat's turn and nothing is in flight;
   *  dropped with a note when the game ended or its cell was taken meanwhile. */
  function playPremove() {
    const s = store.get();
    const queued = s.premove;
    if (!queued) return;
    const room = s.room;
    if (!room || room.status !== "playing") {
      store.update({ premove: null });
      return;
    }
    if (room.turn !== s.mark || s.pending) return;
    const target = landing(room.position, room.rules, queued.cell);
    store.update({ premove: null });
    if (!target) {
      const where = cellName(queued.cell, room.rules);
      const note = { code: "premove_cancelled", tone: "hint", title: "Premove cancelled", message: `${where} was taken.` };
      store.update({ moveError: note });
      announce(`${note.title}: ${note.message}`);
      return;
    }
    api.play(queued.cell, target);
  }

  /** A pending move is done once it was acknowledged and its event is on the board. */
  function settle(s) {
    const p = s.pending;
    if (p && p.ackVersion !== undefined && s.room && s.room.version >= p.ackVersion) {
      return { ...s, pending: null };
    }
    return s;
  }

  const api = {
    start: () => conn.start(),
    stop: () => conn.stop(),
    reconnectNow: () => conn.reconnectNow(),

    /** Ask the server to play `cell`; `shown` (where the rules put the piece, from
     *  move-check.js) is drawn at once as a prediction until the server confirms the move
     *  or refuses it (then the board rolls back). Offline, the move waits for the line. */
    play(cell, shown) {
      const s = store.get();
      if (s.role !== "player" || !s.room || s.pending) return false;
      const message = moveMessage(cell, s.room.rules, s.room.version, newId("m"));
      store.update({ pending: { message, cell, shown: shown || cell }, premove: null, moveError: null, notice: null });
      if (s.joined) conn.send(message); // otherwise it goes out after the next welcome
      retryUnanswered(message.move_id);
      return true;
    },

    /** A spectator's guess that the next move is `cell` (changeable until the move lands). */
    guess(cell) {
      const s = store.get();
      if (s.role !== "spectator" || !s.room || !s.joined) return false;
      const id = newId("g");
      conn.send(guessMessage(cell, s.room.rules, s.room.version, id));
      store.update({ myGuess: { cell, ply: s.room.moves.length, id }, guessError: null });
      return true;
    },

    /** Queue `cell` to be played when this seat's turn comes (null: forget it). */
    premove(cell) {
      store.update({ premove: cell ? { cell } : null, moveError: null });
      playPremove(); // the turn may already be here (the click raced an event)
    },

    /** After `room_full`: watch instead, on the same connection (a reconnect opens the
     *  spectators' path). */
    watch() {
      history.replaceState(null, "", `/r/${encodeURIComponent(roomId)}/watch`);
      store.update({ want: "spectator", offerWatch: false, notice: null });
      if (!url) conn.url = watching();
      if (!conn.send(joinMessage({ as: "spectator", name: loadName() || undefined }))) conn.reconnectNow();
    },

    /** Send a lifecycle command (`place`: where its button was, for its error). */
    command(type, extra = {}, place = "bar") {
      const id = newId(type.slice(0, 2));
      const message = commandMessage(type, id, extra);
      if (!store.get().joined || !conn.send(message)) {
        const error = { code: "offline", title: "Not connected", message: "wait for the connection to come back, then try again" };
        if (type === "chat") store.update({ chatError: { ...error, text: extra.text } });
        else store.update({ actionError: { ...error, place } });
        return false;
      }
      store.update((s) => ({
        ...s, confirming: null, actionError: null,
        inflight: { ...s.inflight, [id]: { type, place, text: extra.text } },
      }));
      return true;
    },

    /** "I am leaving on purpose" (the tab closes): the opponent may claim sooner. */
    leave() {
      if (!store.get().joined) return;
      conn.send(commandMessage("leave", newId("l")));
      conn.stop("left"); // no reconnecting from a page that is going away
    },

    /** Send a message as it is. */
    send: (message) => conn.send(message),

    dismissNotice: () => store.update({ notice: null, moveError: null }),
  };
  return api;
}

// What draws a person back to the game: a sound for each move, the win, low time and the
// game end (sound.js); while the tab is hidden and it is this player's move, a blinking
// "Your move" in the tab title and, if the player turned them on, a browser notification.
// The cues come from comparing two page states (cuesFor, pure), so a reconnect's snapshot
// or a re-render never sounds twice; nothing here is played before the first snapshot.

import { clockView, serverTime } from "../model/clock.js";
import { loadPref, savePref } from "../browser/storage.js";
import { cellName } from "../model/rules.js";
import { outcomeText, playerName } from "../model/text.js";

const BLINK_MS = 1000;

/** It is this seat's move in a game being played, and its move is not already on the way. */
export function yourMove(s) {
  const room = s.room;
  return Boolean(room && s.role === "player" && room.status === "playing" && room.turn === s.mark && !s.pending);
}

function myClockLow(s) {
  if (!s.room || s.role !== "player" || !s.room.clock) return false;
  const clocks = clockView(s.room, serverTime(s.now ?? Date.now(), s.offset));
  const mine = clocks && clocks.clocks.find((c) => c.mark === s.mark);
  return Boolean(mine && mine.running && mine.low && !mine.out);
}

/**
 * The cues between page states `before` and `after`, in order: "move" (this player's own
 * move, on the click), "opponent" (anyone else's move), "win", "loss", "end" (a draw, an
 * abort, or any result for a spectator; instead of the move's cue), "low" (this player's
 * running clock fell into its last seconds).
 */
export function cuesFor(before, after) {
  const a = before.room;
  const b = after.room;
  if (!a || !b || (a.game_number || 1) !== (b.game_number || 1)) return [];
  const me = after.role === "player" ? after.mark : null;
  const cues = [];
  const newPending = after.pending && (!before.pending || before.pending.message.move_id !== after.pending.message.move_id);
  if (newPending) cues.push("move");
  if (b.moves.length > a.moves.length && !newPending) {
    const last = b.moves[b.moves.length - 1];
    // the own move sounded on the click; one made in another tab of this seat sounds now
    if (last.mark !== me) cues.push("opponent");
    else if (!before.pending) cues.push("move");
  }
  if (a.status === "playing" && b.status === "finished") {
    const tone = outcomeText(b.outcome, b, me)?.tone;
    const end = tone === "win" ? "win" : tone === "loss" ? "loss" : "end";
    const mine = cues.indexOf("move");
    return mine >= 0 ? ["move", end] : [end]; // the end speaks for the last move
  }
  if (myClockLow(after) && !myClockLow(before) && before.room.clock) cues.push("low");
  return cues;
}

export function createAttention(store, { sound, roomId }) {
  let notify = loadPref("notify", false) && notificationsGranted();
  let baseTitle = document.title;
  let blink = null;
  let blinkOn = false;
  let previous = store.get();
  const changed = new Set();

  function notificationsGranted() {
    return typeof Notification !== "undefined" && Notification.permission === "granted";
  }

  const hidden = () => document.visibilityState === "hidden";

  function applyTitle() {
    const waiting = hidden() && yourMove(store.get());
    if (waiting && !blink) {
      blink = setInterval(() => { blinkOn = !blinkOn; applyTitle(); }, BLINK_MS);
    } else if (!waiting && blink) {
      clearInterval(blink);
      blink = null;
      blinkOn = false;
    }
    const title = waiting ? `${blinkOn ? "◉" : "○"} Your move · ${baseTitle}` : baseTitle;
    if (document.title !== title) document.title = title;
  }

  function tell(title, body) {
    if (!notify || !hidden() || !notificationsGranted()) return;
    try {
      const note = new Notification(title, { body, tag: `ttt-${roomId}`, icon: "/favicon.svg" });
      note.onclick = () => { window.focus(); note.close(); };
    } catch { /* a browser that allows notifications only from a service worker */ }
  }

  function onState(s) {
    for (const cue of cuesFor(previous, s)) sound.play(cue);
    const room = s.room;
    if (room && yourMove(s) && !yourMove(previous) && previous.room) {
      const last = room.moves[room.moves.length - 1];
      const body = last ? `${playerName(room.players, last.mark)} played ${cellName(last, room.rules)}.` : "The game has started.";
      tell("Your move", body);
    }
    if (room && previous.room && previous.room.status === "playing" && room.status === "finished") {
      const result = outcomeText(room.outcome, room, s.role === "player" ? s.mark : null);
      if (result && s.role === "player") tell(result.title, result.detail);
    }
    previous = s;
    applyTitle();
    for (const listener of changed) listener();
  }

  store.subscribe(onState);
  document.addEventListener("visibilitychange", applyTitle);

  return {
    /** The page's own title (from the view); shown as is unless the tab waits for a move. */
    setTitle(title) {
      baseTitle = title;
      applyTitle();
    },
    /** {sound, notify, notifyState}: what the switches show. notifyState: "unsupported",
     *  "denied" (the browser blocks them) or "ok". */
    switches() {
      const supported = typeof Notification !== "undefined";
      return {
        sound: sound.on,
        notify,
        notifyState: !supported ? "unsupported" : Notification.permission === "denied" ? "denied" : "ok",
      };
    },
    setSound(on) {
      sound.set(on);
      for (const listener of changed) listener();
    },
    /** Notifications are asked for only here, when the player turns them on. */
    async setNotify(on) {
      if (on && typeof Notification !== "undefined" && Notification.permission === "default") {
        try { await Notification.requestPermission(); } catch { /* dismissed */ }
      }
      notify = Boolean(on) && notificationsGranted();
      savePref("notify", notify);
      for (const listener of changed) listener();
      return notify;
    },
    onChange(listener) {
      changed.add(listener);
    },
  };
}

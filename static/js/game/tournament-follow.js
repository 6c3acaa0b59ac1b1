// A tournament game's page follows its tournament once the game is over, for the player who
// played it, and moves to their next game by itself, as the tournament's page does: an arena
// pairs them again a few seconds after a game, a round robin once the round's other games end.
// Each room is gone to once (model/tournament.js's movedTo), so coming back to a game stays there.
// The page stays at least SHOW_RESULT_MS on the finished game first: a round robin's next
// round may open the moment this game ends, and a person wants to see how it ended.

import { announce } from "../browser/announce.js";
import { loadIdentity } from "../browser/storage.js";
import { newId, pingMessage } from "../net/protocol.js";
import { Connection } from "../net/socket.js";
import { markMoved, movedTo } from "../model/tournament.js";

export const SHOW_RESULT_MS = 3000;

/** The live socket of tournament `id`, carrying `playerId`'s next game. */
export function tournamentSocketUrl(id, playerId, loc = window.location) {
  const scheme = loc.protocol === "https:" ? "wss:" : "ws:";
  const query = playerId ? `?player=${encodeURIComponent(playerId)}` : "";
  return `${scheme}//${loc.host}/ws/t/${encodeURIComponent(id)}${query}`;
}

/** The room to go to from `roomId` in view `t` of the tournament: the player's game under way
 *  when it is another room not gone to yet, else null. */
export function nextRoom(t, tournamentId, roomId) {
  const game = t && t.your_game;
  if (!game || !game.room_id || game.room_id === roomId) return null;
  return movedTo(tournamentId) === game.room_id ? null : game.room_id;
}

/** Follow tournament `id` for `playerId` from the finished game in `roomId`; `onNext(roomId)`
 *  is told when the next game is ready, and the page goes there once the finished game has
 *  shown for `showResultMs`. Stops at the move or once the tournament finished;
 *  returns a function that stops it. */
export function followToNextGame(id, playerId, roomId, {
  onNext = () => announce("Your next game is ready: going to it."),
  go = (path) => location.assign(path),
  showResultMs = SHOW_RESULT_MS,
} = {}) {
  const leaveAt = Date.now() + showResultMs; // the game just ended: its result shows first
  const socket = new Connection(tournamentSocketUrl(id, playerId), {
    ping: () => pingMessage(newId("p")), // the heartbeat: the socket answers pong
    onMessage(msg) {
      if (msg.type !== "tournament") return;
      socket.healthy();
      const next = nextRoom(msg, id, roomId);
      if (next) {
        socket.stop("moved");
        markMoved(id, next);
        onNext(next); // says so (by default to a screen reader)
        setTimeout(() => go(`/r/${encodeURIComponent(next)}`), Math.max(0, leaveAt - Date.now()));
      } else if (msg.status === "finished") {
        socket.stop("finished");
      }
    },
  });
  socket.start();
  return () => socket.stop("left");
}

/** On a game's page (`store`, `view()` its current view, model/view.js): once a tournament
 *  game is over, its player's page follows the tournament, once, and goes on to their next
 *  game by itself; `onNext` is told when that game is ready. */
export function followWhenOver(store, view, roomId, onNext) {
  let following = false;
  store.subscribe((state) => {
    const mine = loadIdentity()?.id;
    const { tournament, me } = view();
    if (following || !tournament || !me || !mine || state.room?.status !== "finished") return;
    following = true;
    followToNextGame(tournament, mine, roomId, { onNext });
  });
}

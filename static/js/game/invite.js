// A play link opened by someone with no seat there (an invite): the page shows, over the
// board, who invites, the game's rules and clock and the seat offered, with the name to
// show (render/name-form.js, prefilled with the stored one, else a neutral guest name),
// before taking the seat, so the others see who they play, and the guest identity goes by
// that name. Not asked: a seat already held (a reload resumes it), a room this browser just
// created (its name was given in the lobby), a spectator. A room that is missing or full is
// left to the session to explain (no seat to name).

import { createdHere, loadIdentity, loadName, loadSeat, saveName } from "../browser/storage.js";
import { timeControlText } from "../model/clock.js";
import { guestName } from "../model/names.js";
import { describe, variantName } from "../model/rules.js";
import { getRoom } from "../net/api.js";
import { ensureIdentity, renameIdentity } from "../net/identity.js";
import { renderNameForm } from "../render/name-form.js";

const MARKS = ["X", "O", "A", "B"];

/** Starts `session` at once, or once an invitee gave their name in `el.nameCard`; `shown` is
 *  the room served with the page (net/page-room.js: undefined when it carries none). */
export function joinOrAskName({ el, store, session, roomId, want, shown }) {
  if (want === "player" && !loadSeat(roomId) && !createdHere(roomId)) askName({ el, store, session, roomId, shown });
  else session.start();
}

/** What the invite card says of `room`: who invites, the game, its facts, the seat offered. */
export function invitation(room) {
  const players = Array.isArray(room.players) ? room.players : [];
  const seats = room.seats || 2;
  const people = players.filter((p) => !p.bot).map((p) => p.name);
  const mark = MARKS.slice(0, seats).find((m) => !players.some((p) => p.mark === m)) || null;
  const rules = room.rules || null;
  const facts = [];
  if (rules) facts.push(["Rules", describe(rules)]);
  facts.push(["Clock", room.clock ? clockWords(room.clock) : "No clock"]);
  if (mark) facts.push(["You play", `${mark}${mark === "X" ? ", moving first" : ""}`]);
  return {
    from: people.length ? people.join(" and ") : null,
    title: rules ? variantName(rules) : "Tic-Tac-Toe",
    facts,
    mark,
  };
}

/** "5 + 3: 5 minutes each, 3 s more a move". */
function clockWords(tc) {
  const each = tc.initial >= 60 ? `${Math.round((tc.initial / 60) * 100) / 100} minutes` : `${tc.initial} seconds`;
  return `${timeControlText(tc)}: ${each} each${tc.increment ? `, ${tc.increment} s more a move` : ""}`;
}

async function askName({ el, store, session, roomId, shown }) {
  let room = shown; // served with the page: no round trip before the question
  if (room === undefined) { // a page from another file server: ask the API
    try {
      room = await getRoom(roomId);
    } catch {
      room = null;
    }
  }
  if (!room) {
    session.start();
    return;
  }
  const players = Array.isArray(room.players) ? room.players : [];
  if (players.length >= (room.seats || 2)) {
    session.start();
    return;
  }
  const invite = invitation(room);
  store.update({ askName: true, invitedBy: invite.from });
  renderNameForm(el.nameCard, {
    ...invite,
    value: loadName() || guestName(),
    onName(name) {
      saveName(name);
      // the identity goes by the name chosen now; a first one is made while the socket opens
      if (loadIdentity()) renameIdentity(name);
      else ensureIdentity(name);
      el.nameCard.hidden = true;
      store.update({ askName: false });
      session.start();
    },
  });
}

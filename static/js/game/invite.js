// A play link opened by someone with no seat there (an invite): the page asks for the name
// to show (render/name-form.js, prefilled with the stored one, else a neutral guest name)
// before taking the seat, so the others see who they play, and the guest identity goes by
// that name. Not asked: a seat already held (a reload resumes it), a room this browser just
// created (its name was given in the lobby), a spectator. A room that is missing or full is
// left to the session to explain (no seat to name).

import { createdHere, loadIdentity, loadName, loadSeat, saveName } from "../browser/storage.js";
import { guestName } from "../model/names.js";
import { variantName } from "../model/rules.js";
import { getRoom } from "../net/api.js";
import { ensureIdentity, renameIdentity } from "../net/identity.js";
import { renderNameForm } from "../render/name-form.js";

/** Starts `session` at once, or once an invitee gave their name in `el.nameCard`; `shown` is
 *  the room served with the page (net/page-room.js: undefined when it carries none). */
export function joinOrAskName({ el, store, session, roomId, want, shown }) {
  if (want === "player" && !loadSeat(roomId) && !createdHere(roomId)) askName({ el, store, session, roomId, shown });
  else session.start();
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
  const waiting = players.filter((p) => !p.bot).map((p) => p.name);
  store.update({ askName: true });
  renderNameForm(el.nameCard, {
    title: `You are invited to play ${room.rules ? variantName(room.rules) : "Tic-Tac-Toe"}`,
    detail: waiting.length ? `${waiting.join(" and ")} ${waiting.length === 1 ? "is" : "are"} waiting.` : null,
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

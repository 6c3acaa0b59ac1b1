// What the browser keeps between visits: the seat token of each room (so a reload or a
// reconnect resumes the seat), the join key of a room until a token is held there (so a
// seat-taking join whose answer was lost takes the same seat again), a mark on a room this
// browser just created until it holds a seat there (its creator is not asked for a name
// again), the player's display name, the player's guest identity (its id and secret: the
// identity itself, lost with this storage), and the on/off switches of the page (sound,
// notifications). localStorage only; a token, a key or a secret never goes into a URL
// (an identity's link for another device puts it in the fragment, which is never sent).

import { cleanName } from "../model/names.js";

const SEAT = (roomId) => `ttt.seat.${roomId}`;
const JOIN_KEY = (roomId) => `ttt.joinkey.${roomId}`;
const CREATED = (roomId) => `ttt.created.${roomId}`;
const NAME = "ttt.name";
const IDENTITY = "ttt.identity";
const IDENTITY_PART = /^[A-Za-z0-9_-]{1,128}$/; // protocol.md: a player id, a secret
const KEY_SHAPE = /^[A-Za-z0-9_-]{22,128}$/; // protocol.md: a join_key

function read(key) {
  try {
    return JSON.parse(localStorage.getItem(key));
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* private mode or full storage: the seat lasts as long as the page */
  }
}

/** {token, mark} of the seat this browser holds in `roomId`, or null. */
export function loadSeat(roomId) {
  const seat = read(SEAT(roomId));
  return seat && typeof seat.token === "string" ? seat : null;
}

/** Keep the seat of `roomId`; holding its token, the room's join key and the mark of its
 *  creation have served. */
export function saveSeat(roomId, seat) {
  write(SEAT(roomId), { ...seat, saved: Date.now() });
  write(JOIN_KEY(roomId), null);
  write(CREATED(roomId), null);
}

export const forgetSeat = (roomId) => write(SEAT(roomId), null);

/** `roomId` was created in this browser (the lobby, a new game from a game page): its
 *  creator gave a name there, so the game page seats them without asking. */
export const markCreated = (roomId) => write(CREATED(roomId), true);

export const createdHere = (roomId) => read(CREATED(roomId)) === true;

/** A new join key: 128 random bits, URL-safe base64 (22 characters). */
export function newJoinKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The join key for taking a seat in `roomId`: the one kept, else a new one, kept. */
export function joinKeyFor(roomId) {
  const kept = read(JOIN_KEY(roomId));
  if (typeof kept === "string" && KEY_SHAPE.test(kept)) return kept;
  const key = newJoinKey();
  write(JOIN_KEY(roomId), key);
  return key;
}

/** The stored name, cleaned as the server would take it (names.js): a name stored by an
 *  older page, or edited by hand, never breaks a join. "" when none is usable. */
export function loadName() {
  return cleanName(read(NAME));
}

export const saveName = (name) => write(NAME, cleanName(name) || null);

const PREF = (name) => `ttt.pref.${name}`;

/** A remembered on/off choice of the page (sound, notifications); `fallback` when none. */
export function loadPref(name, fallback) {
  const value = read(PREF(name));
  return typeof value === "boolean" ? value : fallback;
}

export const savePref = (name, value) => write(PREF(name), Boolean(value));

/** {id, secret} of this browser's guest identity, or null (none, or not of the right shape). */
export function loadIdentity() {
  const kept = read(IDENTITY);
  const fits = kept && IDENTITY_PART.test(kept.id) && IDENTITY_PART.test(kept.secret);
  return fits ? { id: kept.id, secret: kept.secret } : null;
}

export const saveIdentity = ({ id, secret }) => write(IDENTITY, { id, secret });
export const forgetIdentity = () => write(IDENTITY, null);

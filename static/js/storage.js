// What the browser keeps between visits: the seat token of each room (so a reload or a
// reconnect resumes the seat) and the player's display name. localStorage only; a token
// never goes into a URL.

const SEAT = (roomId) => `ttt.seat.${roomId}`;
const NAME = "ttt.name";

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

export const saveSeat = (roomId, seat) => write(SEAT(roomId), { ...seat, saved: Date.now() });
export const forgetSeat = (roomId) => write(SEAT(roomId), null);

export function loadName() {
  const name = read(NAME);
  return typeof name === "string" ? name : "";
}

export const saveName = (name) => write(NAME, name ? name.slice(0, 32) : null);

// Display names as the server accepts them (docs/protocol.md, `join`): 1 to 32 characters,
// no control characters, spaces around trimmed. A name read from storage or typed in is
// cleaned the same way, so a stored name can never make a join fail; a player who gives
// none is a neutral guest ("Guest 4821"), never named after a mark (marks change hands).

export const MAX_NAME = 32;
const CONTROL = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu;

/** The name as the server would take it ("" when nothing usable is left). */
export function cleanName(value) {
  if (typeof value !== "string") return "";
  const chars = Array.from(value.replace(CONTROL, "").trim()); // code points, as the server counts
  return chars.slice(0, MAX_NAME).join("").trim();
}

/** A fresh neutral name: "Guest " and four digits. */
export function guestName(random = Math.random) {
  return `Guest ${1000 + Math.floor(random() * 9000)}`;
}

// The room as the server put it into the page (server/web/room_page.py): a JSON data block,
// read once, so that the page draws the room and asks an invitee's name before its
// socket is open (behind a long link, a second or more sooner).

/** undefined: the page carries no block (served by another file server: ask the API);
 *  null: the server found no such room; else the room's snapshot. */
export function pageSnapshot(roomId) {
  const block = document.getElementById("room-snapshot");
  if (!block) return undefined;
  try {
    const snapshot = JSON.parse(block.textContent);
    if (snapshot === null) return null;
    const fits = snapshot && snapshot.room_id === roomId && Number.isInteger(snapshot.version);
    return fits ? snapshot : undefined;
  } catch {
    return undefined; // unreadable: behave as if the page had none
  }
}

/** The game record the viewer's page carries (server/web/embed_page.py): the record, or
 *  {error} when the server found no such room or game; null when the page has no block. */
export function pageEmbed() {
  const block = document.getElementById("embed-game");
  if (!block) return null;
  try {
    const game = JSON.parse(block.textContent);
    return game && typeof game === "object" ? game : { error: "unreadable" };
  } catch {
    return { error: "unreadable" };
  }
}

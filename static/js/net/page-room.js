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

// The lobby's list of public rooms: waiting for a player first, then games in
// progress, each with its players and spectator count. Pure: rooms → DOM.

import { fill, h } from "../browser/dom.js";
import { timeControlText } from "../model/clock.js";
import { describe, variantName } from "../model/rules.js";
import { icon } from "./icons.js";
import { botMark } from "./bot-mark.js";
import { piece } from "./pieces.js";

export function renderRoomList(root, { rooms, error, loaded }) {
  const waiting = rooms.filter((r) => r.status === "waiting");
  const playing = rooms.filter((r) => r.status === "playing");
  fill(root,
    error ? h("p", { class: "list-error", role: "alert" },
      h("strong", {}, "Could not load the games: "), error, " Retrying…") : null,
    section("Waiting for a player", "open-rooms", waiting, loaded
      ? "No open games right now. Create one and it shows up here." : "Loading…"),
    section("Playing now", "live-rooms", playing, loaded ? "No games in progress." : ""));
}

function section(title, id, rooms, empty) {
  return h("section", { class: "room-section", "aria-labelledby": `${id}-title`, dataset: { list: id } },
    h("h3", { id: `${id}-title` }, title, h("span", { class: "count-badge" }, String(rooms.length))),
    rooms.length
      ? h("ul", { class: "room-list" }, rooms.map(roomItem))
      : h("p", { class: "empty-note" }, empty));
}

function roomItem(room) {
  const id = encodeURIComponent(room.room_id);
  const free = room.seats - room.players.length;
  const players = Array.from({ length: room.seats }, (_, i) => {
    const mark = ["X", "O", "A", "B"][i];
    const p = room.players.find((x) => x.mark === mark);
    return h("span", { class: `room-player mark-${mark}${p ? "" : " free"}${p && !p.connected ? " offline" : ""}` },
      piece(mark), p ? p.name : "open seat", botMark(p && p.bot_account));
  });
  return h("li", { class: "room-item", dataset: { roomId: room.room_id, status: room.status } },
    h("div", { class: "room-variant" },
      h("strong", {}, variantName(room.rules)),
      h("span", { class: "room-rules" }, [describe(room.rules),
        room.time_control ? timeControlText(room.time_control) : null,
        room.bot ? `vs bot (${room.bot})` : null].filter(Boolean).join(" · "))),
    h("div", { class: "room-players" }, players),
    h("div", { class: "room-watchers", "aria-label": `${room.spectators} watching`, title: `${room.spectators} watching` },
      icon("eye"), h("span", { class: "count" }, String(room.spectators))),
    h("div", { class: "room-actions" },
      free > 0 ? h("a", { class: "button primary small", href: `/r/${id}` , "aria-label": `Join ${variantName(room.rules)} game ${room.room_id}` }, "Join") : null,
      h("a", { class: "button small", href: `/r/${id}/watch`, "aria-label": `Watch ${variantName(room.rules)} game ${room.room_id}` }, "Watch")));
}

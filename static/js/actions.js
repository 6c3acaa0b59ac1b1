// The registry of what a player or spectator can do right now. Each entry says where
// its button goes (`place`: "invite" card, action "bar", result "banner"), when it is
// available (from the view, i.e. from what the server reported) and what it does.
// Only actions the server supports are listed: no dead buttons.
//
// Lifecycle commands (resign, draw offers, takebacks, rematch, abort, claim) plug in
// here by message type once the server speaks them, e.g.
//   {id: "resign", place: "bar", label: "Resign", tone: "danger", send: {type: "resign"},
//    when: (v) => v.me && v.status === "playing"}
// (entries with `send` are sent as they are by the page), and their events get an
// entry in room-state.js's APPLY table.

export const ACTIONS = [
  {
    id: "invite",
    place: "invite",
    label: "Copy invite link",
    tone: "primary",
    done: "Copied",
    when: (v) => v.status === "waiting",
    run: (v, ctx) => ctx.copy(ctx.links.play),
  },
  {
    id: "watch-link",
    place: "bar",
    label: "Copy spectator link",
    done: "Spectator link copied",
    when: (v) => Boolean(v.room),
    run: (v, ctx) => ctx.copy(ctx.links.watch),
  },
  {
    id: "new-room",
    place: "banner",
    label: "New game, same rules",
    tone: "primary",
    when: (v) => v.status === "finished",
    run: (v, ctx) => ctx.newRoom(v.room.rules, v.room.public),
  },
  {
    id: "lobby",
    place: "banner",
    label: "Back to the lobby",
    when: (v) => v.status === "finished",
    run: (v, ctx) => ctx.goLobby(),
  },
];

export const available = (place, view) => ACTIONS.filter((a) => a.place === place && a.when(view));

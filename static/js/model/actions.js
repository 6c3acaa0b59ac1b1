// The registry of what a player or spectator can do right now. Each entry says where
// its button goes (`place`: "invite" card, action "bar", "offers" strip above the board,
// result "banner"), when it is available (from the view, i.e. from what the server
// reported; see lifecycle.js) and what it does: `send` names a lifecycle command the page
// sends as it is, `run` does something local. `confirm` asks once more before sending.
// Only actions the server supports are listed, and only when possible: no dead buttons.

const command = (type, extra) => ({ type, extra });

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
  // -- the game in progress (side card) ---------------------------------------------------
  {
    id: "abort",
    place: "bar",
    label: "Abort game",
    hint: "No result: possible until both players have moved",
    when: (v) => v.can.abort, // never in a tournament game (lifecycle.js)
    send: () => command("abort"),
  },
  {
    id: "offer-draw",
    place: "bar",
    label: "Offer a draw",
    when: (v) => v.can.offerDraw,
    send: () => command("offer_draw"),
  },
  {
    id: "takeback",
    place: "bar",
    label: "Take back",
    label2: (v) => (v.vsBot ? "Take back" : "Ask to take back"),
    when: (v) => v.can.takeback,
    send: () => command("takeback"),
  },
  {
    id: "resign",
    place: "bar",
    label: "Resign",
    tone: "danger",
    confirm: { prompt: "Resign this game?", yes: "Yes, resign", no: "Cancel" },
    when: (v) => v.can.resign,
    send: () => command("resign"),
  },
  {
    id: "watch-link",
    place: "bar",
    label: "Copy spectator link",
    done: "Spectator link copied",
    when: (v) => Boolean(v.room),
    run: (v, ctx) => ctx.copy(ctx.links.watch),
  },
  // -- answers and claims (the strip above the board) ----------------------------------------
  {
    id: "accept-draw",
    place: "offers",
    label: "Accept draw",
    tone: "primary",
    when: (v) => v.can.answerDraw,
    send: () => command("accept_draw"),
  },
  {
    id: "decline-draw",
    place: "offers",
    label: "Decline",
    aria: "Decline the draw",
    when: (v) => v.can.answerDraw,
    send: () => command("decline_draw"),
  },
  {
    id: "accept-takeback",
    place: "offers",
    label: "Allow takeback",
    tone: "primary",
    when: (v) => v.can.answerTakeback,
    send: () => command("accept_takeback"),
  },
  {
    id: "decline-takeback",
    place: "offers",
    label: "Decline",
    aria: "Decline the takeback",
    when: (v) => v.can.answerTakeback,
    send: () => command("decline_takeback"),
  },
  {
    id: "claim-win",
    place: "offers",
    label: "Claim the win",
    tone: "primary",
    when: (v) => v.can.claimWin,
    send: (v) => command("claim", { result: "win", mark: v.absence.mark }),
  },
  {
    id: "claim-draw",
    place: "offers",
    label: "Call it a draw",
    when: (v) => v.can.claimDraw,
    send: (v) => command("claim", { result: "draw", mark: v.absence.mark }),
  },
  {
    id: "claim-time",
    place: "offers",
    label: "Claim the win on time",
    tone: "primary",
    when: (v) => v.can.claimOnTime && !v.can.claimWin,
    send: () => command("claim", { result: "win" }),
  },
  // -- after the game (result banner) -------------------------------------------------------
  {
    id: "tournament",
    place: "banner",
    label: "Back to the tournament",
    tone: "primary",
    when: (v) => v.status === "finished" && Boolean(v.tournament),
    run: (v, ctx) => ctx.goTournament(v.tournament),
  },
  {
    id: "rematch",
    place: "banner",
    label: "Rematch",
    tone: "primary",
    label2: (v) => (v.rematchFrom ? "Accept rematch" : "Rematch"),
    when: (v) => v.can.rematch, // never in a tournament game (lifecycle.js)
    send: () => command("rematch"),
  },
  {
    id: "new-room",
    place: "banner",
    label: "New game, same rules",
    when: (v) => v.status === "finished" && !v.tournament,
    run: (v, ctx) => ctx.newRoom(v.room),
  },
  {
    id: "lobby",
    place: "banner",
    label: "Back to the lobby",
    when: (v) => v.status === "finished",
    run: (v, ctx) => ctx.goLobby(),
  },
];

/** The entries of `place` available in `view`, with their labels for this view. */
export const available = (place, view) => ACTIONS
  .filter((a) => a.place === place && a.when(view))
  .map((a) => (a.label2 ? { ...a, label: a.label2(view) } : a));

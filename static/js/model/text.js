// Human sentences for what the server reports: results, whose turn, what just happened.
// Pure functions of server data (they never decide anything themselves).

import { cellName } from "./rules.js";

export function playerName(players, mark) {
  const p = (players || []).find((x) => x.mark === mark);
  return p ? p.name : `Player ${mark}`;
}

/** "Ada (X)", or just "Player X" when the player kept the default name. */
export function nameWithMark(players, mark) {
  const name = playerName(players, mark);
  return name === `Player ${mark}` ? name : `${name} (${mark})`;
}

const REASONS = {
  line: (o, n, rules) => (rules.misere
    ? `${n(o.loser)} completed ${rules.k} in a row (misère)`
    : `${rules.k} in a row`),
  board_full: () => "The board is full",
  no_line_left: () => "Nobody can complete a line any more",
  resignation: (o, n) => `${n(o.loser)} resigned`,
  timeout: (o, n) => `${n(o.loser)} ran out of time`,
  abandonment: (o, n) => (o.loser ? `${n(o.loser)} left the game` : "Drawn: a player left the game"),
  agreement: () => "By agreement",
  aborted: () => "The game was aborted",
};

/** {title, detail, tone} for a finished game; tone is "win", "loss", "draw" or "neutral". */
export function outcomeText(outcome, room, me) {
  if (!outcome) return null;
  const n = (mark) => playerName(room.players, mark);
  const detail = (REASONS[outcome.reason] || (() => outcome.reason))(outcome, n, room.rules);
  if (outcome.reason === "aborted") return { title: "Game aborted", detail, tone: "neutral" };
  if (!outcome.winner) return { title: "Draw", detail, tone: "draw" };
  if (me && outcome.winner === me) return { title: "You won!", detail, tone: "win" };
  // the loser reads it from their seat; the winner's name goes into the detail
  if (me) return { title: "You lost", detail: `${n(outcome.winner)} won · ${detail}`, tone: "loss" };
  return { title: `${nameWithMark(room.players, outcome.winner)} won`, detail, tone: "neutral" };
}

/** The one-line status above the board. */
export function statusLine(room, me) {
  if (!room) return "";
  if (room.status === "finished") return outcomeText(room.outcome, room, me)?.title || "Game over";
  if (room.status === "waiting") {
    const free = room.seats - room.players.length;
    return free === 1 ? "Waiting for an opponent to join" : `Waiting for ${free} more players`;
  }
  if (me && room.turn === me) return "Your move";
  return `${nameWithMark(room.players, room.turn)} to move`;
}

/** A sentence for the live region about one event (null: nothing worth saying). */
export function eventText(ev, before, after, me) {
  const n = (mark) => playerName(after.players, mark);
  switch (ev.type) {
    case "moved": {
      const who = ev.mark === me ? "You" : nameWithMark(after.players, ev.mark);
      let sentence = `${who} played ${cellName(ev, after.rules)}.`; // as the board labels it
      const result = outcomeText(ev.outcome, after, me);
      if (result) sentence += ` ${result.title}. ${result.detail}.`;
      else if (me && ev.turn === me) sentence += " Your move.";
      return sentence;
    }
    case "player_joined":
      return `${ev.player.name} joined as ${ev.player.mark}.` +
        (ev.status === "playing" && before.status === "waiting" ? " The game begins." : "");
    case "presence":
      return `${n(ev.mark)} ${ev.connected ? "is back" : ev.left ? "left the game" : "disconnected"}.`;
    case "game_over": {
      const result = outcomeText(ev.outcome, after, me);
      return result ? `${result.title}. ${result.detail}.` : null;
    }
    case "draw_offered":
      return ev.by === me ? "You offered a draw." : `${n(ev.by)} offers a draw.`;
    case "draw_declined":
      return ev.by === me ? "You declined the draw." : `${n(ev.by)} declined the draw.`;
    case "takeback_offered":
      return ev.by === me ? "You asked to take back your move." : `${n(ev.by)} asks to take back a move.`;
    case "takeback_declined":
      return ev.by === me ? "You declined the takeback." : `${n(ev.by)} declined the takeback.`;
    case "undone": {
      const count = Array.isArray(ev.moves) ? ev.moves.length : 1;
      return `${count === 1 ? "One move" : `${count} moves`} taken back. ${statusLine(after, me)}.`;
    }
    case "rematch_offered":
      return ev.by === me ? "You asked for a rematch." : `${n(ev.by)} wants a rematch.`;
    case "new_game": {
      const mine = me && ev.marks ? ev.marks[me] : null;
      return `Game ${ev.game_number} begins.${mine ? ` You play ${mine}.` : ""}`;
    }
    default:
      return null;
  }
}

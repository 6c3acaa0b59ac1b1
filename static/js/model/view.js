// The game page's view model: everything the renderers show, derived from the page
// state in one pure function. The live board is the server's, with the player's own
// move drawn on it while the server has not yet answered (a prediction); a replayed
// position is rebuilt from the server's move history; what a player may do comes from
// lifecycle.js, clocks from clock.js (counted down from the server's deadline, between
// events only).

import { boardText, cellKey, landing, positionAt } from "./board.js";
import { clockView, serverTime, timeControlText, waitText } from "./clock.js";
import { poolName, ratingNote } from "./ratings.js";
import { analysisAllowed, evalMap, summary } from "./evaluation.js";
import { absence, opponents, possible } from "./lifecycle.js";
import { nextMark, predictedPosition } from "./move-check.js";
import { cellName, cellSpoken, describe, is3d, shape, variantName } from "./rules.js";
import { nameWithMark, outcomeText, playerName, statusLine } from "./text.js";

export function gameView(s) {
  const room = s.room;
  const me = s.role === "player" ? s.mark : null;
  const base = {
    roomId: s.roomId, role: s.role, me, joined: s.joined, conn: s.conn,
    notice: s.notice, offerWatch: s.offerWatch, moveError: s.moveError,
    ready: Boolean(room),
    tournament: (room && room.tournament) || null, // the snapshot's: the tournament whose game this is
    can: possible(null, null, 0),
  };
  if (!room) return base;
  const rules = room.rules;
  const now = serverTime(s.now ?? Date.now(), s.offset);
  const total = room.moves.length;
  const ply = s.replay === null || s.replay === undefined ? total : Math.max(0, Math.min(total, s.replay));
  const live = ply === total;
  const predicted = me && live ? predictedPosition({ position: room.position, pending: s.pending, me }) : room.position;
  const predicting = predicted !== room.position; // own move drawn, not yet confirmed
  const position = live ? predicted : positionAt(room.moves, rules, ply);
  const last = ply > 0 ? room.moves[ply - 1] : null;
  const lastKey = last ? cellKey(last) : null;
  const line = live && room.outcome && Array.isArray(room.outcome.line) ? room.outcome.line : [];
  const winKeys = new Map(line.map((c, i) => [cellKey(c), i])); // key → place along the line
  const pendingKey = predicting ? cellKey(pendingCell(s.pending)) : null;
  const turnShown = predicting ? nextMark(me, room.seats) : room.turn; // after the own move
  const playing = room.status === "playing";
  // Moves are taken offline too (they wait for the line); premoves while others move.
  const seatedLive = Boolean(me && live && playing);
  const myTurn = seatedLive && room.turn === me && !s.pending;
  const interactive = seatedLive;
  const premove = seatedLive && s.premove ? s.premove.cell : null;
  const premoveAt = premove ? landing(position, rules, premove) || premove : null;
  const premoveKey = premoveAt ? cellKey(premoveAt) : null;
  const can = possible(room, me, now, s.memo);
  const clocks = clockView(room, now);
  const gone = absence(room, me, now);
  const names = (mark) => playerName(room.players, mark);

  const analysis = analysisView(s, room, position, (mark) => nameWithMark(room.players, mark));
  const crowd = crowdView(s, room, total, live, playing);

  const layers = position.map((grid, layer) => ({
    layer,
    label: is3d(rules) ? `Layer ${layer + 1}${layer === 0 ? " (bottom)" : layer === rules.layers - 1 ? " (top)" : ""}` : "Board",
    rows: grid.map((cells, row) => cells.map((mark, col) => {
      const where = { row, col, layer };
      const key = cellKey(where);
      const isLast = key === lastKey;
      const isWin = winKeys.has(key);
      const evaluation = !mark && analysis.cells ? analysis.cells.get(key) || null : null;
      const playable = myTurn && landing(position, rules, where) !== null;
      const queued = key === premoveKey && !mark;
      const guessed = key === crowd.guessKey && !mark;
      const guessable = crowd.guessing && landing(position, rules, where) !== null;
      const share = crowd.shares.get(key) || null;
      let label = `${cellSpoken(where, rules)}, ${mark || "empty"}`;
      if (isLast) label += ", last move";
      if (isWin) label += ", winning line";
      if (queued) label += ", premove";
      if (evaluation) label += `, analysis: ${evaluation.spoken}`;
      if (guessed) label += ", your guess";
      if (share) label += `, guessed by ${share}`;
      return {
        key, row, col, layer, mark, last: isLast, win: isWin, winStep: isWin ? winKeys.get(key) : null,
        pending: key === pendingKey,
        playable, premove: queued, label, evaluation, guessed, guessable, share,
      };
    })),
  }));

  const twoPlayers = room.seats === 2;
  const players = Array.from({ length: room.seats }, (_, i) => {
    const mark = ["X", "O", "A", "B"][i];
    const p = room.players.find((x) => x.mark === mark);
    const clock = clocks ? clocks.clocks.find((c) => c.mark === mark) || null : null;
    const first = clocks && clocks.firstMove && clocks.firstMove.mark === mark ? clocks.firstMove : null;
    return {
      mark,
      name: p ? p.name : null,
      seated: Boolean(p),
      connected: Boolean(p && p.connected),
      bot: p ? p.bot || null : null,
      botAccount: Boolean(p && p.bot_account),
      left: Boolean(p && p.left),
      you: mark === me,
      toMove: room.status === "playing" && turnShown === mark,
      winner: room.outcome && room.outcome.winner === mark,
      clock: clock && { text: clock.text, running: clock.running, low: clock.low, out: clock.out },
      firstMove: first ? Math.ceil(first.seconds) : null,
      score: p ? scoreText(p, twoPlayers) : null,
    };
  });

  // Each card keeps its side across rematches, though the marks rotate: a rematch moves
  // every seat one place round (rooms/room/rematch.py), so the seat's place in the first
  // game is its mark's index plus the games played since.
  const games = (room.game_number || 1) - 1;
  const firstPlace = (p) => (["X", "O", "A", "B"].indexOf(p.mark) + games) % room.seats;
  players.sort((a, b) => firstPlace(a) - firstPlace(b));

  const rematchFrom = (room.offers.rematch || []).filter((m) => m !== me);
  return {
    ...base,
    room, rules, me, live, ply, total, position, myTurn, interactive, can, now,
    status: room.status,
    turn: room.turn,
    vsBot: opponents(room, me).some((p) => p.bot),
    absence: gone,
    gameNumber: room.game_number || 1,
    series: (room.game_number || 1) > 1 || room.players.some((p) => p.wins || p.draws),
    variant: variantName(rules),
    // the board's size once: under a title that already says "4×4×4", only "4 in a row"
    rulesText: describe(rules, { size: !variantName(rules).includes(shape(rules)) }),
    timeControl: room.clock ? timeControlText(room.clock) : null,
    bots: room.players.filter((p) => p.bot).map((p) => (p.name.includes(p.bot) ? p.name : `${p.name} (${p.bot})`)),
    statusText: statusLine({ ...room, turn: turnShown }, me),
    result: room.status === "finished" ? outcomeText(room.outcome, room, me) : null,
    rematchNote: rematchNote(room, me, rematchFrom, names),
    ratingNote: room.status === "finished" ? ratingNote(room, names) : null,
    rated: room.rated ? poolName(room.pool) : null,
    rematchFrom: rematchFrom.length > 0,
    spectators: room.spectators,
    players,
    clocks,
    ticking: playing && Boolean(room.clock || gone || (s.memo && s.memo.takebackRetryAt > now)),
    fastTick: Boolean(playing && clocks && clocks.clocks.some((c) => c.running && c.seconds < 10)),
    prompts: prompts(room, me, can, gone, clocks, names, now),
    chat: chatView(s, me, opponents(room, me).some((p) => p.bot)),
    line: {
      down: lineDown(s),
      back: Boolean(s.lineBack),
      queued: predicting && !s.joined ? cellName(pendingCell(s.pending), rules) : null,
      offline: typeof navigator !== "undefined" && navigator.onLine === false,
      first: !s.everJoined, // never seated yet: "Connecting…", not "Reconnecting…"
    },
    analysis,
    crowd,
    moves: room.moves.map((m, i) => ({
      ply: i + 1, mark: m.mark, name: cellName(m, rules),
      label: `${playerName(room.players, m.mark)} (${m.mark}): ${cellSpoken(m, rules)}` +
        (m.unproven ? ", unproven: the bot found no proof in time" : ""),
      current: i + 1 === ply,
      unproven: Boolean(m.unproven),
    })),
    board: {
      shapeKey: `${rules.rows}x${rules.cols}x${rules.layers || 1}`,
      rules, layers,
      interactive,
      guessing: crowd.guessing,
      myTurn,
      me,
      finished: room.status === "finished" && live,
      hasLine: winKeys.size > 0,
      animate: live,
      busy: Boolean(s.pending),
      analysis: Boolean(analysis.cells),
      focusKey: s.focus && layers.some((l) => l.layer === s.focus.layer) ? cellKey(s.focus) : defaultFocus(rules),
    },
  };
}

/** "1½" for two players (a draw is half a point), else "2 wins · 1 draw". */
function scoreText(p, twoPlayers) {
  const wins = p.wins || 0;
  const draws = p.draws || 0;
  if (twoPlayers) {
    const whole = wins + Math.floor(draws / 2);
    const half = draws % 2 === 1;
    return whole === 0 && half ? "½" : `${whole}${half ? "½" : ""}`;
  }
  return `${wins} win${wins === 1 ? "" : "s"} · ${draws} draw${draws === 1 ? "" : "s"}`;
}

function rematchNote(room, me, from, names) {
  if (room.status !== "finished") return null;
  const votes = room.offers.rematch || [];
  if (from.length) return `${from.map(names).join(" and ")} ${from.length === 1 ? "wants" : "want"} a rematch.`;
  if (me && votes.includes(me)) return "Rematch offered — waiting for the other side.";
  return null;
}

/** The strip above the board: offers to answer, waits, absences, first-move limits. */
function prompts(room, me, can, gone, clocks, names, now) {
  const out = [];
  const who = names; // the person, by name: the cards beside the board show the marks
  const offers = room.offers || {};
  if (room.status === "playing" && offers.draw) {
    if (offers.draw === me) out.push({ id: "draw", tone: "info", text: "You offered a draw. Waiting for an answer…" });
    else out.push({ id: "draw", tone: "ask", text: `${who(offers.draw)} offers a draw.`, actions: ["accept-draw", "decline-draw"] });
  }
  if (room.status === "playing" && offers.takeback) {
    if (offers.takeback === me) out.push({ id: "takeback", tone: "info", text: "You asked to take back your move. Waiting for an answer…" });
    else out.push({ id: "takeback", tone: "ask", text: `${who(offers.takeback)} asks to take back a move.`, actions: ["accept-takeback", "decline-takeback"] });
  }
  if (gone) {
    const left = gone.left ? "left the game" : "disconnected";
    if (gone.now) {
      out.push({ id: "claim", tone: "ask", text: `${names(gone.mark)} ${left}. Claim the win, call it a draw, or wait for them to come back.`, actions: ["claim-win", "claim-draw"] });
    } else {
      const secs = Math.max(1, Math.ceil(gone.at - now));
      out.push({ id: "claim", tone: "info", text: `${names(gone.mark)} ${left}. If they do not come back, you can claim the win in ${waitText(secs)}.` });
    }
  } else if (can.claimOnTime) {
    out.push({ id: "claim", tone: "ask", text: `${names(room.clock.running)} is out of time.`, actions: ["claim-time"] });
  }
  if (clocks && clocks.firstMove) {
    const { mark, seconds } = clocks.firstMove;
    const secs = Math.ceil(seconds);
    const subject = mark === me ? "Make your first move" : `${who(mark)} must make a first move`;
    out.push({ id: "first-move", tone: secs <= 10 ? "warn" : "info", text: `${subject} within ${waitText(secs)}, or the game is aborted.` });
  }
  return out;
}

function chatView(s, me, vsBot) {
  const channel = s.role === "player" ? "players" : "spectators";
  return {
    shown: Boolean(s.role) && !(channel === "players" && vsBot), // bots do not chat
    channel,
    title: channel === "players" ? "Players' chat" : "Spectators' chat",
    hint: channel === "players" ? "" : "The players cannot see it.", // the title names who reads it
    lines: (s.chat || []).filter((l) => l.channel === channel).map((l) => ({
      ...l,
      mine: channel === "players" ? l.from.mark === me : false,
    })),
    error: s.chatError,
    enabled: Boolean(s.joined),
  };
}

function analysisView(s, room, position, names) {
  const allowed = analysisAllowed(s.role, room.status);
  const state = s.analysis || { on: false };
  const key = `${JSON.stringify(room.rules)}|${boardText(position)}`;
  const on = allowed && state.on;
  const fresh = on && state.key === key;
  const ready = fresh && state.status === "ready";
  return {
    allowed,
    on,
    key,
    request: { rules: room.rules, board: boardText(position) },
    playerLocked: s.role === "player" && !allowed,
    loading: on && (!fresh || state.status === "loading"),
    error: fresh && state.status === "error" ? state.error : null,
    summary: ready ? summary(state.result, names) : "",
    proven: ready ? state.result.proven : null,
    cells: ready ? evalMap(state.result) : null,
  };
}

/** The line to the server is down: the page had the room, and has not got the seat (or
 *  chair) back yet; not when the page gave up on purpose (stopped), and not while the first
 *  connection of a page served with its room is still on its way (nothing was lost). */
export function lineDown(s) {
  if (!s.room || s.joined || s.conn.state === "stopped") return false;
  return s.everJoined || s.conn.state === "waiting";
}

/** Where the pending move is shown: the previewed landing cell, else the clicked one. */
function pendingCell(pending) {
  const cell = pending.shown || pending.cell;
  return { row: cell.row, col: cell.col, layer: cell.layer || 0 };
}

function defaultFocus(rules) {
  return cellKey({
    row: rules.gravity && !is3d(rules) ? rules.rows - 1 : Math.floor((rules.rows - 1) / 2),
    col: Math.floor((rules.cols - 1) / 2),
    layer: 0,
  });
}

/** What a spectator sees of the crowd's guesses (protocol.md, `guess` and `guesses`):
 *  whether a click on the board guesses now, their open guess, and after a move the share of
 *  the crowd on each cell, until the next move. Players see none of it (they get none). */
function crowdView(s, room, total, live, playing) {
  const spectator = s.role === "spectator";
  const delayed = Boolean(room.settings && room.settings.watch_delay > 0);
  const open = s.myGuess && s.myGuess.ply === total ? s.myGuess.cell : null;
  const g = s.guesses && s.guesses.ply === total ? s.guesses : null; // the split of the last move
  const shares = new Map();
  if (g && g.total > 0) {
    for (const c of g.split) shares.set(cellKey(c), `${Math.round((100 * c.count) / g.total)}%`);
  }
  return {
    shown: spectator && !delayed && (playing || Boolean(g)),
    guessing: spectator && !delayed && Boolean(s.joined) && live && playing,
    guessKey: open ? cellKey(open) : null,
    guess: open ? cellName(open, room.rules) : null,
    shares,
    last: g && {
      move: cellName(g.move, room.rules),
      total: g.total,
      right: g.right,
      percent: g.total ? Math.round((100 * g.right) / g.total) : 0,
      yours: g.you.guess ? cellName(g.you.guess, room.rules) : null,
      youRight: g.you.right,
    },
    streak: s.guesses ? s.guesses.you.streak : 0,
    error: s.guessError,
    toMove: room.turn,
  };
}

// Clocks as the server keeps them (protocol.md, "Clocks"): the client only counts down
// between events, for display, from the server's `deadline`; the server decides when a
// flag falls (a `game_over` event says so). Pure functions of the room and a server time.

/** The server's time now, from the local clock and the offset measured on the last
 *  snapshot (`offset` = local seconds − server seconds). */
export const serverTime = (localMs, offset) => localMs / 1000 - (offset || 0);

/** "4:59", "1:02:03"; under 10 seconds with tenths, "0:09.4"; a day or more (a
 *  correspondence game's), "2d 03h". */
export function formatClock(seconds) {
  const s = Math.max(0, seconds);
  if (s >= 86400) {
    const days = Math.floor(s / 86400);
    return `${days}d ${String(Math.floor((s % 86400) / 3600)).padStart(2, "0")}h`;
  }
  if (s < 10) {
    const tenths = Math.floor(s * 10) / 10;
    return `0:0${tenths.toFixed(1)}`;
  }
  const whole = Math.floor(s);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const sec = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** A wait as a sentence says it: "45 s" under two minutes, else as a clock ("23:59:59",
 *  "2d 03h": a correspondence game's waits are days). */
export const waitText = (seconds) => (seconds < 120 ? `${Math.ceil(seconds)} s` : formatClock(seconds));

/** "5 + 2" (minutes + seconds of increment), "30 s + 0", "no clock", "3 days a move". */
export function timeControlText(tc) {
  if (!tc) return "No clock";
  if (tc.days) return `${tc.days} day${tc.days === 1 ? "" : "s"} a move`;
  const initial = tc.initial >= 60 && tc.initial % 60 === 0 ? `${tc.initial / 60}` : `${tc.initial} s`;
  return `${initial} + ${tc.increment || 0}`;
}

/**
 * Per mark: {mark, seconds, text, running, low, out}; plus `firstMove`: the mark that must
 * make its first move and the seconds left for it ({mark, seconds}), or null.
 * Returns null for a room without a time control.
 */
export function clockView(room, now) {
  const clock = room && room.clock;
  if (!clock) return null;
  const playing = room.status === "playing";
  const running = playing ? clock.running : null;
  const marks = Object.keys(clock.remaining || {});
  const clocks = marks.map((mark) => {
    let seconds = clock.remaining[mark];
    const isRunning = mark === running;
    if (isRunning && typeof clock.deadline === "number") seconds = clock.deadline - now;
    seconds = Math.max(0, seconds);
    return {
      mark, seconds, text: formatClock(seconds), running: isRunning,
      low: seconds < Math.min(20, clock.initial / 5), out: seconds <= 0,
    };
  });
  const firstMove = playing && !running && typeof clock.deadline === "number" && room.turn
    ? { mark: room.turn, seconds: Math.max(0, clock.deadline - now) }
    : null;
  return { clocks, firstMove, initial: clock.initial, increment: clock.increment };
}

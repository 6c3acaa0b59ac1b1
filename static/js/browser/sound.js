// Short sounds, synthesized with the Web Audio API: no audio file is fetched. Each cue is a
// few notes (an oscillator through a gain envelope). The AudioContext is made only once the
// page has had a user gesture (browsers refuse to start one before) and only while sound is
// on; the switch is kept in localStorage (storage.js). Making (or waking) it can hold the
// page for tens of milliseconds, so it is done after the frame that shows the move: the
// first cue of a visit waits for the paint instead of holding back the piece; once the
// context runs, a cue plays at once. Every cue asked for is also
// dispatched as a `ttt:cue` event on window ({cue, sounded}), which tests observe.

import { loadPref, savePref } from "./storage.js";

/** cue → notes [frequency Hz, start s, length s, waveform]. Own move and the opponent's
 *  differ (a dry tick, a rounder two-note knock), so the ear tells them apart. */
export const CUES = {
  move: [[660, 0, 0.06, "triangle"]],
  opponent: [[523.25, 0, 0.08, "sine"], [783.99, 0.07, 0.1, "sine"]],
  win: [[523.25, 0, 0.11, "triangle"], [659.25, 0.1, 0.11, "triangle"], [783.99, 0.2, 0.11, "triangle"], [1046.5, 0.3, 0.32, "triangle"]],
  loss: [[392, 0, 0.18, "sine"], [311.13, 0.17, 0.34, "sine"]],
  end: [[587.33, 0, 0.14, "sine"], [587.33, 0.2, 0.24, "sine"]],
  low: [[880, 0, 0.05, "square"], [880, 0.13, 0.05, "square"]],
};

const VOLUME = 0.18;

export function createSound() {
  let on = loadPref("sound", true);
  let context = null;
  // The page's own record of a gesture (a real pointer or key press on this page), not
  // navigator.userActivation: script run by tools counts as activation there.
  let gestured = false;
  const mark = (event) => { if (event.isTrusted) gestured = true; };
  for (const type of ["pointerdown", "keydown", "touchend"]) {
    document.addEventListener(type, mark, { capture: true, passive: true });
  }
  const hadGesture = () => gestured;

  function audio() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    if (!context) context = new Context();
    if (context.state === "suspended") context.resume().catch(() => {});
    return context;
  }

  /** `then` after the current frame is painted (in a hidden tab, where no frame comes:
   *  after this task). */
  function afterPaint(then) {
    if (document.visibilityState === "hidden") setTimeout(then, 0);
    else requestAnimationFrame(() => setTimeout(then, 0));
  }

  const supported = () => Boolean(window.AudioContext || window.webkitAudioContext);

  function sound(cue) {
    const ctx = audio();
    if (!ctx) return false;
    const t0 = ctx.currentTime + 0.01;
    for (const [freq, start, length, wave] of CUES[cue]) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = wave;
      osc.frequency.value = freq;
      // a fast attack and an exponential fall: a click-free, percussive note
      gain.gain.setValueAtTime(0.0001, t0 + start);
      gain.gain.exponentialRampToValueAtTime(VOLUME, t0 + start + 0.008);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + start + length);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t0 + start);
      osc.stop(t0 + start + length + 0.02);
    }
    return true;
  }

  return {
    get on() { return on; },
    /** Turn sound on or off (remembered). Turning it on is a gesture: a short tick confirms. */
    set(value) {
      on = Boolean(value);
      savePref("sound", on);
      if (on) this.play("move");
      else if (context) context.suspend().catch(() => {});
    },
    /** Play a cue from CUES, if sound is on and the page has had a user gesture. */
    play(cue) {
      if (!(cue in CUES)) return false;
      const sounded = on && hadGesture() && supported();
      if (sounded && context && context.state === "running") sound(cue);
      else if (sounded) afterPaint(() => { if (on) sound(cue); });
      window.dispatchEvent(new CustomEvent("ttt:cue", { detail: { cue, sounded } }));
      return sounded;
    },
  };
}

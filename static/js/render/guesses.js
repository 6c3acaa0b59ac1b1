// The spectators' guessing card: "guess the next move", the open guess, and after each
// move the crowd's split (how many guessed it, a bar) with this spectator's own result and
// streak. Only a spectator's page shows it; the cells carry the per-cell shares
// (render/board.js).

import { fill, h } from "../browser/dom.js";

/** crowd = model/view.js's crowdView. */
export function renderGuesses(root, crowd) {
  root.hidden = !crowd.shown;
  if (!crowd.shown) return;
  const parts = [h("h2", {}, "Guess the next move")];
  if (crowd.guessing) {
    parts.push(h("p", { class: "guess-hint" }, crowd.guess
      ? `Your guess: ${crowd.guess}. Click another cell to change it before ${crowd.toMove} moves.`
      : `Click a cell to guess ${crowd.toMove}'s next move. The players never see guesses.`));
  }
  if (crowd.error) {
    parts.push(h("p", { class: "guess-error", role: "alert" }, `${crowd.error.title}.`));
  }
  const last = crowd.last;
  if (last) {
    const result = last.youRight === null ? "You did not guess it."
      : last.youRight ? `You guessed ${last.yours}: right!` : `You guessed ${last.yours}: not this time.`;
    const fillEl = h("span", { class: "guess-bar-fill" });
    fillEl.style.width = `${last.percent}%`; // through the CSSOM: the CSP allows no style attribute
    parts.push(
      h("p", { class: "guess-split" },
        `${last.move}: ${last.right} of ${last.total} guessed it (${last.percent}%). ${result}`),
      h("div", { class: "guess-bar", role: "img", "aria-label": `${last.percent}% guessed right` }, fillEl),
    );
  }
  parts.push(h("p", { class: "guess-streak" }, `Your streak: ${crowd.streak}`));
  fill(root, ...parts);
}

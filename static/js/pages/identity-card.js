// The lobby's card about the player's guest identity: who this browser plays as, that the
// identity lives in this browser only, a link that carries it to another device, and the
// switch for notifications ("your move", "game over" while the player is elsewhere). A
// page opened from such a link (`/#identity=ID.SECRET`) asks first whether to use it here.

import { copyText } from "../browser/clipboard.js";
import { fill, h } from "../browser/dom.js";
import { adoptIdentity, identityFromHash, identityLink } from "../net/identity.js";
import { disablePush, enablePush, pushState } from "../net/push.js";
import { loadIdentity, loadName } from "../browser/storage.js";

const LOST_WARNING =
  "Your identity lives in this browser only: if its storage is cleared, the identity and its " +
  "games' link to you are lost. To play as yourself on another device, open your link there.";

/** The card; it redraws itself when the identity changes (`refresh`). */
export function identityCard() {
  const root = h("section", { class: "card identity-card", "aria-labelledby": "identity-title" });
  let offered = identityFromHash(location.hash);
  let status = null; // {tone, text}: the last action's outcome
  let push = "unsupported"; // pushState(): known after the first look, below

  let asking = false; // a toggle in flight: the switch waits, the card says what for

  async function togglePush() {
    const kept = loadIdentity();
    if (!kept || asking) return;
    asking = true;
    status = { tone: "pending", text: push === "on" ? "Turning notifications off…" : "Asking this browser for notifications…" };
    draw();
    try {
      push = push === "on" ? await disablePush(kept) : await enablePush(kept);
      status = push === "on"
        ? { tone: "ok", text: "Notifications on: you hear of your move when you are not watching the game." }
        : push === "denied"
          ? { tone: "error", text: "This browser blocks notifications from this site: allow them in its settings." }
          : { tone: "ok", text: "Notifications off." };
    } catch (err) {
      status = { tone: "error", text: `Notifications could not be turned on: ${err.message}.` };
    }
    asking = false;
    draw();
  }

  function forgetLink() {
    offered = null;
    history.replaceState(null, "", location.pathname + location.search); // the secret leaves the address bar
  }

  async function useOffered() {
    const identity = offered;
    forgetLink();
    try {
      const player = await adoptIdentity(identity);
      status = { tone: "ok", text: `This browser now plays as ${player.name}.` };
      const field = document.querySelector('.create-card input[name="name"]'); // the lobby's name
      if (field) field.value = player.name;
    } catch (err) {
      status = { tone: "error", text: `That link's identity cannot be used: ${err.message}.` };
    }
    draw();
  }

  async function copyLink() {
    const link = identityLink(location.origin);
    const copied = link ? await copyText(link) : false;
    status = copied
      ? { tone: "ok", text: "Link copied. Keep it private: whoever opens it plays as you." }
      : { tone: "error", text: "Could not copy: select the link and copy it by hand." };
    draw(copied ? null : link);
  }

  function draw(shownLink = null) {
    const kept = loadIdentity();
    const parts = [h("h2", { id: "identity-title" }, "Your identity")];
    if (offered) {
      parts.push(
        h("p", { class: "identity-offer" },
          "This link carries a player identity. Use it in this browser?",
          kept ? " It replaces the one this browser has now, which is lost unless you kept its link." : ""),
        h("div", { class: "button-row" },
          h("button", { type: "button", class: "button primary", onclick: useOffered }, "Use this identity"),
          h("button", { type: "button", class: "button", onclick: () => { forgetLink(); draw(); } }, "Not now")));
    } else if (kept) {
      parts.push(
        h("p", { class: "identity-who" }, "You play as ", h("strong", {}, loadName() || "a guest"),
          " ", h("a", { class: "identity-id", href: `/p/${encodeURIComponent(kept.id)}` }, "your ratings")),
        h("p", { class: "hint" }, LOST_WARNING),
        h("button", { type: "button", class: "button", onclick: copyLink }, "Copy link for another device"));
      if (push === "on" || push === "off") {
        parts.push(h("button", { type: "button", class: "button push-toggle", "aria-pressed": String(push === "on"), disabled: asking, onclick: togglePush },
          push === "on" ? "Stop notifications" : "Notify me when it is my move"));
      }
      if (shownLink) parts.push(h("input", { class: "identity-link", readonly: true, value: shownLink, "aria-label": "Your identity's link" }));
    } else {
      parts.push(h("p", { class: "hint" },
        "No identity yet: this browser gets one when you take your first seat, so that your games stay yours. ",
        "No account and no password."));
    }
    if (status) parts.push(h("p", { class: `identity-status ${status.tone}`, role: "status" }, status.text));
    fill(root, ...parts);
  }

  draw();
  pushState().then((state) => { push = state; draw(); }).catch(() => {});
  return { root, refresh: () => draw() };
}

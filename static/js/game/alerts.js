// The header's Sound and Notify switches (render/alerts.js) over game/attention.js, each
// change said aloud; a Notify the browser refuses leaves a notice saying where to allow it.
//
// Notify also follows Web Push (net/push.js) for a seated player with an identity: turned
// on, this browser subscribes, so "your move" reaches it once the page is closed too (the
// server pushes only to a seat with no open page, so the two never tell one move twice);
// turned off, the subscription goes. A browser that cannot subscribe (no Push API, a private
// window, no reachable push service) keeps the in-page notifications and is told nothing
// more: it lost nothing it had, and the lobby's switch says why if the player asks there.

import { announce } from "../browser/announce.js";
import { memo } from "../browser/dom.js";
import { loadIdentity } from "../browser/storage.js";
import { disablePush, enablePush, pushState, pushSupported } from "../net/push.js";
import { renderAlerts } from "../render/alerts.js";

/** Subscribe this browser for pushes (`on`) or stop them, quietly: the outcome is only a
 *  hint for the switch's title, never an error on the page. */
async function followPush(on, store) {
  const identity = loadIdentity();
  if (!identity || !pushSupported() || store.get().role !== "player") return "unsupported";
  try {
    return on ? await enablePush(identity) : await disablePush(identity);
  } catch {
    return "unsupported";
  }
}

/** The switches in `el.alerts` (render/game.js's gameLayout), kept drawn as `attention`
 *  changes. */
export function showAlerts({ el, store, attention }) {
  let push = "unsupported"; // "on" once Notify also subscribed this browser for pushes
  const state = () => ({ ...attention.switches(), push: push === "on" });
  const switches = {
    sound: (on) => {
      attention.setSound(on);
      announce(on ? "Sounds on." : "Sounds off.");
    },
    async notify(on) {
      const now = await attention.setNotify(on);
      if (on && !now) {
        store.update({
          notice: { code: "notifications_blocked", title: "Notifications are blocked", message: "allow them for this site in the browser's settings", tone: "info" },
        });
      }
      announce(now ? "Notifications on." : "Notifications off.");
      if (on && !now) return;
      push = await followPush(now, store);
      redraw();
    },
  };
  const draw = () => renderAlerts(el.alerts, state(), switches);
  const redraw = () => memo(el.alerts, JSON.stringify(state()), draw);
  attention.onChange(redraw);
  draw();
  if (attention.switches().notify) {
    pushState().then((now) => { push = now; redraw(); }).catch(() => {});
  }
}

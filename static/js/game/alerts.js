// The header's Sound and Notify switches (render/alerts.js) over game/attention.js, each
// change said aloud; a Notify the browser refuses leaves a notice saying where to allow it.

import { announce } from "../browser/announce.js";
import { memo } from "../browser/dom.js";
import { renderAlerts } from "../render/alerts.js";

/** The switches in `el.alerts` (render/game.js's gameLayout), kept drawn as `attention`
 *  changes. */
export function showAlerts({ el, store, attention }) {
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
    },
  };
  const draw = () => renderAlerts(el.alerts, attention.switches(), switches);
  attention.onChange(() => memo(el.alerts, JSON.stringify(attention.switches()), draw));
  draw();
}

// What the game page's buttons and fields do, as render/game.js is told (its `on`): an
// action of the registry (model/actions.js) asks once more when it must, then is sent as a
// command over the session or run here (copy a link, a new game with the same options, the
// lobby, the tournament), its "done" flashed in place; the notices dismissed, the chat
// sent, the analysis toggled, the replay stepped (game/replay.js).

import { announce } from "../browser/announce.js";
import { copyText } from "../browser/clipboard.js";
import { markCreated } from "../browser/storage.js";
import { tournamentPath } from "../model/tournament.js";
import { createRoom } from "../net/api.js";

const FLASH_MS = 1800; // how long a button's "done" (e.g. "Copied") stays

/** The handlers of room `roomId`'s page in `el`, for `session`; `view()` is the page's
 *  current view. Returns {handlers} for render/game.js and flash(id, message), which shows
 *  `message` in the place of the button `id` for a moment and says it. */
export function createControls({ el, store, session, analysis, attention, roomId, goReplay, view }) {
  const links = {
    play: `${location.origin}/r/${encodeURIComponent(roomId)}`,
    watch: `${location.origin}/r/${encodeURIComponent(roomId)}/watch`,
  };

  const ctx = {
    links,
    async copy(value) {
      return copyText(value);
    },
    async newRoom(old) {
      const bot = old.players.find((p) => p.bot);
      const options = {};
      if (bot) Object.assign(options, { bot: `bot:${bot.bot}`, bot_mark: bot.mark });
      if (old.clock) options.time_control = { initial: old.clock.initial, increment: old.clock.increment };
      try {
        const room = await createRoom(old.rules, old.public, options);
        markCreated(room.room_id); // this player asked for it: seated there without a question
        location.assign(`/r/${encodeURIComponent(room.room_id)}`);
      } catch (err) {
        store.update({
          notice: { code: err.code, title: "Could not create a new game", message: err.message, tone: "error" },
        });
      }
    },
    goLobby: () => location.assign("/"),
    goTournament: (tournamentId) => location.assign(tournamentPath(tournamentId)),
  };

  async function runAction(action, confirmed) {
    if (action.confirm && !confirmed) {
      store.update({ confirming: action.id });
      // the question replaces the button: keep the keyboard there, on the safe answer
      setTimeout(() => {
        const no = el.page.querySelector(`.confirm[data-action="${action.id}"] [data-confirm="no"]`);
        if (no) no.focus();
      }, 0);
      return;
    }
    if (action.send) {
      const { type, extra } = action.send(view());
      session.command(type, extra, action.place);
      return;
    }
    const result = await action.run(view(), ctx);
    if (result === true && action.done) flash(action.id, action.done);
    else if (result === false) {
      store.update({
        notice: { code: "copy_failed", title: "Could not copy", message: "select the link and copy it by hand", tone: "error" },
      });
    }
  }

  let flashTimer = null;
  function flash(id, message) {
    store.update({ flash: { id, text: message } });
    announce(message);
    clearTimeout(flashTimer);
    flashTimer = setTimeout(() => store.update({ flash: null }), FLASH_MS);
  }

  const handlers = {
    links,
    runAction,
    goReplay,
    watch: () => session.watch(),
    retry: () => session.reconnectNow(),
    dismissNotice: () => store.update({ notice: null }),
    dismissMoveError: () => store.update({ moveError: null }),
    dismissActionError: () => store.update({ actionError: null }),
    cancelConfirm: () => store.update({ confirming: null }),
    toggleAnalysis: (on) => analysis.toggle(on),
    sendChat: (text) => session.command("chat", { text }, "chat"),
    setTitle: (title) => attention.setTitle(title),
  };

  return { handlers, flash };
}

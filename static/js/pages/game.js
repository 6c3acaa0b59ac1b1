// The game page (/r/{id} to play, /r/{id}/watch to watch): one store holds the page's state,
// moved by the session's events (net/session.js); every change renders the page through
// the view (model/view.js). The parts in game/ own its listeners and timers: the board's
// input and a phone's board tools, the buttons, the replay, the clocks, the line, the
// invitee's name.

import { createStore } from "../browser/store.js";
import { createSound } from "../browser/sound.js";
import { showAlerts } from "../game/alerts.js";
import { createAttention } from "../game/attention.js";
import { createBoardInput } from "../game/board-input.js";
import { createBoardTools } from "../game/board-tools.js";
import { tickClocks } from "../game/clocks.js";
import { keepConnection, openSession } from "../game/connection.js";
import { createControls } from "../game/controls.js";
import { joinOrAskName } from "../game/invite.js";
import { createReplay } from "../game/replay.js";
import { followWhenOver } from "../game/tournament-follow.js";
import { gameView } from "../model/view.js";
import { createAnalysis } from "../net/analysis.js";
import { pageSnapshot } from "../net/page-room.js";
import { initialGameState } from "../net/session.js";
import { gameLayout, renderGame } from "../render/game.js";

export function startGame(app, roomId, want) {
  const shown = pageSnapshot(roomId); // the room as served with the page, drawn at once
  const store = createStore({ ...initialGameState(roomId, want, shown), focus: null, flash: null });
  const session = openSession(store, roomId, want);
  const analysis = createAnalysis(store);
  const attention = createAttention(store, { sound: createSound(), roomId });

  const el = gameLayout(app);
  let view = gameView(store.get());
  const current = () => view; // the parts read the view of the last render

  const goReplay = createReplay({ el, store, view: current });
  const { handlers, flash } = createControls({ el, store, session, analysis, attention, roomId, goReplay, view: current });
  showAlerts({ el, store, attention });
  const tools = createBoardTools(el, current);
  const board = createBoardInput({ el, store, session, tools, view: current });

  function render(state) {
    view = gameView(state);
    renderGame(el, state, view, handlers);
    tools.render();
    board.refresh();
    analysis.refresh(view.analysis);
  }

  store.subscribe(render); // first: the parts below read the view it makes
  followWhenOver(store, current, roomId, () => flash("tournament", "Your next game is ready: going to it…"));
  keepConnection({ el, store, session });
  tickClocks(store, current);
  render(store.get());
  joinOrAskName({ el, store, session, roomId, want, shown });
  return { store, session };
}

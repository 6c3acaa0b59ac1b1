// The BOT mark: shown beside the name of every bot account (docs/protocol.md, "Bots"),
// wherever players are listed (seats, the lobby's games and bots, tournaments, leaderboards),
// so that nobody takes a program for a person.

import { h } from "../browser/dom.js";

/** The mark, or null for a person. */
export const botMark = (isBot) =>
  isBot ? h("span", { class: "bot-mark", title: "A bot account: a program plays here" }, "BOT") : null;

// The tournaments' page (/tournaments): the public tournaments still open or running (kept up
// to date, each with its kind), and the form that creates one: a round robin, an arena (and
// its length), a Swiss (and its rounds) or a knockout (and how it settles a drawn game) of one
// rated family's game, with a clock, a maximum of players, a start by its
// creator or at a time, public or private. The creator enters with this browser's guest
// identity (made now when there is none) and goes to the tournament's page.

import { createTournament, listTournaments, serverNow } from "../net/api.js";
import { announce } from "../browser/announce.js";
import { timeControlText } from "../model/clock.js";
import { fill, h } from "../browser/dom.js";
import { ensureIdentity, renameIdentity } from "../net/identity.js";
import { TIME_CONTROLS } from "./lobby-options.js";
import { cleanName, guestName } from "../model/names.js";
import { PRESETS, variantName } from "../model/rules.js";
import { loadIdentity, loadName, saveName } from "../browser/storage.js";
import { kindText, summaryText, takesEntrants, tournamentPath } from "../model/tournament.js";

const POLL_MS = 3000;
const FAMILIES = ["classic", "connect4", "gomoku", "cube"]; // the rated families (ratings.js)
const CLOCKS = TIME_CONTROLS.filter((t) => t.tc && !t.tc.days); // always a live clock
const DEFAULT_CLOCK = "3+2";
const MAX_PLAYERS = 32;
const ARENA_MINUTES = [3, 5, 10, 15, 30, 60];
const DEFAULT_MINUTES = 5;
const DEFAULT_SWISS_ROUNDS = 3;
const INTRO = {
  round_robin: "A round robin: everyone plays everyone once, 3 points a win, 1 a draw.",
  arena: "An arena: for a fixed time, whoever finishes a game meets the next free player; 3 points a win, 1 a draw.",
  swiss: "A Swiss: a set number of rounds, each pairing players of equal score who have not met; 3 points a win, 1 a draw, 3 a bye.",
  knockout: "A knockout: a bracket seeded by rating, the loser of each match is out, the last one standing wins.",
};
// which of the kind-specific fieldsets each kind shows
const KIND_FIELDS = { round_robin: "cycle-fields", arena: "duration-fields", swiss: "swiss-fields", knockout: "draw-fields" };

export function startTournaments(app) {
  const list = h("div", { class: "tournament-list", "aria-live": "off" }, h("p", { class: "empty-note" }, "Loading…"));
  fill(app, h("div", { class: "lobby tournaments" },
    h("section", { class: "card create-card", "aria-labelledby": "new-title" },
      h("h1", { id: "new-title" }, "New tournament"),
      h("p", { class: "hint intro" }, INTRO.round_robin),
      createForm()),
    h("section", { class: "card rooms-card", "aria-labelledby": "list-title" },
      h("div", { class: "card-head" },
        h("h2", { id: "list-title" }, "Open and running tournaments"),
        h("span", { class: "live-tag", title: "Updated every few seconds" }, h("span", { class: "dot", "aria-hidden": "true" }), "live")),
      list)));
  poll(list);
}

function poll(root) {
  let timer = null;
  async function tick() {
    clearTimeout(timer);
    if (document.visibilityState !== "hidden") {
      try {
        renderList(root, await listTournaments());
      } catch (err) {
        fill(root, h("p", { class: "list-error", role: "alert" }, h("strong", {}, "Could not load the tournaments: "), err.message, " Retrying…"));
      }
    }
    timer = setTimeout(tick, POLL_MS);
  }
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") tick(); });
  tick();
}

function renderList(root, tournaments) {
  if (!tournaments.length) {
    fill(root, h("p", { class: "empty-note" }, "No public tournaments right now. Create one and it shows up here."));
    return;
  }
  const now = serverNow();
  fill(root, h("ul", { class: "room-list" }, tournaments.map((t) => {
    const open = takesEntrants(t, now);
    return h("li", { class: "room-item tournament-item", dataset: { tournamentId: t.tournament_id, status: t.status, kind: t.kind } },
      h("div", { class: "room-variant" },
        h("strong", {}, t.name),
        h("span", { class: "room-rules" }, `${kindText(t)} · ${variantName(t.rules)} · ${timeControlText(t.time_control)}`)),
      h("div", { class: "room-players" }, summaryText(t)),
      h("div", { class: "room-actions" },
        h("a", {
          class: `button small${open ? " primary" : ""}`,
          href: tournamentPath(t.tournament_id),
          "aria-label": `${open ? "Join" : "Watch"} ${t.name}`,
        }, open ? "Join" : "Watch")));
  })));
}

function chip(name, value, label, hint, checked) {
  return h("label", { class: "chip" },
    h("input", { type: "radio", name, value, checked }),
    h("span", { class: "chip-body" }, h("strong", {}, label), hint ? h("small", {}, hint) : null));
}

function radio(name, value, label, hint, checked) {
  return h("label", { class: "radio" }, h("input", { type: "radio", name, value, checked }),
    h("span", {}, h("strong", {}, label), h("small", {}, hint)));
}

function createForm() {
  const error = h("div", { class: "form-error", id: "tournament-error", role: "alert", hidden: true });
  const presets = PRESETS.filter((p) => FAMILIES.includes(p.id));
  const form = h("form", { class: "create-form", novalidate: true },
    h("div", { class: "field-row two" },
      h("label", { class: "field" },
        h("span", { class: "field-label" }, "Your name"),
        h("input", { name: "name", maxlength: 32, autocomplete: "nickname", placeholder: "Guest", value: loadName() })),
      h("label", { class: "field", dataset: { field: "name" } },
        h("span", { class: "field-label" }, "Tournament name"),
        h("input", { name: "tournament_name", maxlength: 32, autocomplete: "off", placeholder: "Club night" }))),
    h("fieldset", { class: "kinds", dataset: { field: "kind" } }, h("legend", {}, "Kind"),
      h("div", { class: "chips" },
        chip("kind", "round_robin", "Round robin", "everyone meets everyone once", true),
        chip("kind", "arena", "Arena", "for a set time, the next free player", false),
        chip("kind", "swiss", "Swiss", "set rounds, equal scores meet", false),
        chip("kind", "knockout", "Knockout", "a bracket: lose once and you are out", false))),
    h("fieldset", { class: "cycle-fields", dataset: { field: "double" } }, h("legend", {}, "Rounds"),
      h("div", { class: "chips tc-chips", role: "radiogroup", "aria-label": "Rounds" },
        [["single", "Once each", false], ["double", "Twice each (colours swapped)", true]].map(([value, label]) =>
          h("label", { class: "chip small-chip" },
            h("input", { type: "radio", name: "cycles", value, checked: value === "single" }),
            h("span", { class: "chip-body" }, h("strong", {}, label)))))),
    h("fieldset", { class: "duration-fields", dataset: { field: "duration" }, hidden: true }, h("legend", {}, "Duration"),
      h("div", { class: "chips tc-chips arena-durations", role: "radiogroup", "aria-label": "Duration" },
        ARENA_MINUTES.map((m) => h("label", { class: "chip small-chip" },
          h("input", { type: "radio", name: "duration", value: m, checked: m === DEFAULT_MINUTES }),
          h("span", { class: "chip-body" }, h("strong", {}, `${m} min`)))))),
    h("fieldset", { class: "swiss-fields", dataset: { field: "rounds" }, hidden: true }, h("legend", {}, "Swiss rounds"),
      h("label", { class: "field" },
        h("span", { class: "field-label" }, "Rounds (fewer than the players)"),
        h("input", { type: "number", name: "rounds", value: DEFAULT_SWISS_ROUNDS, min: 1, max: MAX_PLAYERS - 1, step: 1, inputmode: "numeric" }))),
    h("fieldset", { class: "draw-fields", dataset: { field: "draw_rule" }, hidden: true }, h("legend", {}, "A drawn game"),
      radio("draw_rule", "replay", "Replay", "again with colours swapped, up to 4 games, then the higher seed", true),
      radio("draw_rule", "higher_seed", "Higher seed", "the higher seed goes through at once", false)),
    h("fieldset", { class: "presets" }, h("legend", {}, "Game"),
      h("div", { class: "chips" }, presets.map((p, i) => chip("preset", p.id, p.label, p.hint, i === 0)))),
    h("fieldset", { class: "clock-fields", dataset: { field: "time_control" } }, h("legend", {}, "Time control"),
      h("div", { class: "chips tc-chips tournament-clocks", role: "radiogroup", "aria-label": "Time control" },
        CLOCKS.map((t) => h("label", { class: "chip small-chip" },
          h("input", { type: "radio", name: "clock", value: t.id, checked: t.id === DEFAULT_CLOCK }),
          h("span", { class: "chip-body" }, h("strong", {}, t.label)))))),
    h("div", { class: "field-row two players-start" },
      h("label", { class: "field", dataset: { field: "max_players" } },
        h("span", { class: "field-label" }, "Most players"),
        h("input", { type: "number", name: "max_players", value: 8, min: 2, max: MAX_PLAYERS, step: 1, inputmode: "numeric" })),
      h("label", { class: "field", dataset: { field: "starts_at" } },
        h("span", { class: "field-label" }, "Start at (empty: when I start it)"),
        h("input", { type: "datetime-local", name: "starts_at" }))),
    h("fieldset", { class: "visibility" }, h("legend", {}, "Who can join"),
      radio("public", "yes", "Public", "listed here", true),
      radio("public", "no", "Private", "only people with the link", false)),
    error,
    h("button", { type: "submit", class: "button primary big" }, "Create tournament"));

  const el = form.elements;
  form.addEventListener("change", (event) => {
    if (event.target.name === "kind") {
      // an arena's length, a round robin's once or twice, a Swiss's rounds, a knockout's draw rule
      for (const [kind, fields] of Object.entries(KIND_FIELDS)) {
        form.querySelector(`.${fields}`).hidden = kind !== el.kind.value;
      }
      form.closest(".create-card").querySelector(".intro").textContent = INTRO[el.kind.value];
      return;
    }
    if (event.target.name !== "name") return;
    saveName(event.target.value);
    const chosen = cleanName(event.target.value);
    if (chosen && loadIdentity()) renameIdentity(chosen); // the entrant's name is the identity's
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.hidden = true;
    const submit = form.querySelector("button[type=submit]");
    submit.disabled = true;
    submit.textContent = "Creating…";
    try {
      const name = cleanName(el.name.value) || loadName() || guestName();
      saveName(name);
      const had = loadIdentity();
      const player = await ensureIdentity(name);
      if (!player) throw new Error("your player identity could not be made: try again in a moment");
      if (had) await renameIdentity(name);
      const made = await createTournament(readOptions(el), player);
      location.assign(tournamentPath(made.tournament_id));
    } catch (err) {
      error.hidden = false;
      fill(error, h("strong", {}, "Could not create the tournament: "), err.message);
      const input = err.field && form.querySelector(`[data-field="${err.field}"] input`);
      if (input) input.setAttribute("aria-invalid", "true");
      announce(err.message);
      submit.disabled = false;
      submit.textContent = "Create tournament";
    }
  });
  return form;
}

/** The body of POST /api/tournaments (the server judges the values). */
function readOptions(el) {
  const preset = PRESETS.find((p) => p.id === el.preset.value) || PRESETS[0];
  const clock = CLOCKS.find((t) => t.id === el.clock.value) || CLOCKS[0];
  const startsAt = el.starts_at.value ? Date.parse(el.starts_at.value) / 1000 : null;
  const title = cleanName(el.tournament_name.value);
  const kind = el.kind.value;
  const extra = {
    round_robin: () => ({ double: el.cycles.value === "double" }),
    arena: () => ({ duration: Number(el.duration.value) * 60 }),
    swiss: () => ({ rounds: Number(el.rounds.value) }),
    knockout: () => ({ draw_rule: el.draw_rule.value }),
  }[kind];
  return {
    ...(title ? { name: title } : {}),
    kind,
    ...extra(),
    rules: { ...preset.rules },
    time_control: { ...clock.tc },
    max_players: Number(el.max_players.value),
    public: el.public.value === "yes",
    starts_at: Number.isFinite(startsAt) ? startsAt : null,
  };
}

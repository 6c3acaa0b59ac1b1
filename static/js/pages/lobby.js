// The lobby (/): one click on a pairing (lobby-pairings.js) seats the player by quick
// play; the custom game's form, one click away, creates a game (against a person or a
// bot, with or without a clock) or quick-plays its own rules; the open and live public
// games (kept up to date); the player's correspondence games, their move first ("Your
// turn", lobby-turns.js); join by code or link; a link to the tournaments.

import { createRoom, getRoom, listRooms } from "../net/api.js";
import { announce } from "../browser/announce.js";
import { fill, h } from "../browser/dom.js";
import { identityCard } from "./identity-card.js";
import { pairingGrid, quickSeat } from "./lobby-pairings.js";
import { turnsCard } from "./lobby-turns.js";
import { botsCard } from "./lobby-bots.js";
import { ensureIdentity, renameIdentity } from "../net/identity.js";
import { renderRoomList } from "../render/lobby.js";
import { clockFieldset, OPTION_FIELDS, opponentFieldset, readOptions, readTimeControl, syncOptions } from "./lobby-options.js";
import { MAX_LAYERS, MAX_SIDE, PRESETS } from "../model/rules.js";
import { cleanName, guestName } from "../model/names.js";
import { loadName, markCreated, newJoinKey, saveName } from "../browser/storage.js";

const POLL_MS = 1500;

export function startLobby(app) {
  const identity = identityCard();
  const name = nameField(identity);
  const form = createForm(name);
  const list = h("div", { class: "rooms", "aria-live": "off" });
  const join = joinForm();
  // the name is given here (none: a neutral guest), so the game page does not ask again
  const chosenName = () => cleanName(name.value) || loadName() || guestName();
  fill(app, h("div", { class: "lobby" },
    h("section", { class: "card create-card", "aria-labelledby": "create-title" },
      h("div", { class: "play-head" },
        h("h1", { id: "create-title" }, "Play now"),
        h("label", { class: "field name-field" }, h("span", { class: "field-label" }, "Your name"), name)),
      h("p", { class: "hint pairing-hint" }, "One click seats you with the next player who picks the same game and clock."),
      pairingGrid({ name: chosenName }),
      h("details", { class: "custom-game" },
        h("summary", {}, h("span", { class: "summary-title" }, "Custom game"),
          h("small", {}, "other rules, a bot, a clock of your own, a private room")),
        form),
      h("p", { class: "hint tournament-hint" }, "Or ", h("a", { href: "/tournaments" }, "run a tournament"),
        ": a round robin, an arena, a Swiss or a knockout.")),
    h("div", { class: "lobby-side" },
      turnsCard(),
      botsCard({ name: chosenName }),
      h("section", { class: "card rooms-card", "aria-labelledby": "rooms-title" },
        h("div", { class: "card-head" },
          h("h2", { id: "rooms-title" }, "Public games"),
          h("span", { class: "live-tag", title: "Updated every few seconds" }, h("span", { class: "dot", "aria-hidden": "true" }), "live")),
        list),
      h("section", { class: "card join-card", "aria-labelledby": "join-title" },
        h("h2", { id: "join-title" }, "Join by code or link"), join),
      identity.root)));
  pollRooms(list);
}

/** The player's name, shared by the pairings and the custom form: kept, and given to the
 *  guest identity, as it changes. */
function nameField(identity) {
  const input = h("input", { name: "name", maxlength: 32, autocomplete: "nickname", placeholder: "Guest", value: loadName() });
  input.addEventListener("change", () => {
    saveName(input.value);
    const chosen = cleanName(input.value);
    if (chosen) renameIdentity(chosen).then(() => identity.refresh()); // the identity's name too
  });
  return input;
}

// -- the room list ------------------------------------------------------------------------

function pollRooms(root) {
  const state = { rooms: [], error: null, loaded: false };
  let timer = null;
  let inFlight = false;
  renderRoomList(root, state);
  async function tick() {
    clearTimeout(timer);
    if (!inFlight && document.visibilityState !== "hidden") {
      inFlight = true;
      try {
        state.rooms = await listRooms();
        state.error = null;
        state.loaded = true;
      } catch (err) {
        state.error = err.message;
      } finally {
        inFlight = false;
      }
      renderRoomList(root, state);
    }
    timer = setTimeout(tick, POLL_MS);
  }
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") tick(); });
  tick();
}

// -- creating a room ----------------------------------------------------------------------

function numberField(name, label, value, min, max) {
  return h("label", { class: "field", dataset: { field: name } },
    h("span", { class: "field-label" }, label),
    h("input", { type: "number", name, value, min, max, step: 1, inputmode: "numeric", required: true }));
}

function checkField(name, label, hint) {
  return h("label", { class: "check", dataset: { field: name } },
    h("input", { type: "checkbox", name }),
    h("span", {}, h("span", { class: "check-label" }, label), hint ? h("small", {}, hint) : null));
}

function createForm(nameInput) {
  const error = h("div", { class: "form-error", role: "alert", hidden: true });
  const presetChips = PRESETS.map((p, i) => h("label", { class: "chip" },
    h("input", { type: "radio", name: "preset", value: p.id, checked: i === 0 }),
    h("span", { class: "chip-body" }, h("strong", {}, p.label), h("small", {}, p.hint))));
  presetChips.push(h("label", { class: "chip" },
    h("input", { type: "radio", name: "preset", value: "custom" }),
    h("span", { class: "chip-body" }, h("strong", {}, "Custom"), h("small", {}, "your own rules"))));

  const form = h("form", { class: "create-form", novalidate: true },
    h("fieldset", { class: "presets" }, h("legend", {}, "Game"), h("div", { class: "chips" }, presetChips)),
    h("fieldset", { class: "rules-fields" }, h("legend", {}, "Rules"),
      h("div", { class: "field-row" },
        numberField("rows", "Rows", 3, 1, MAX_SIDE),
        numberField("cols", "Columns", 3, 1, MAX_SIDE),
        numberField("k", "In a row", 3, 1, MAX_SIDE)),
      h("div", { class: "field-row checks" },
        checkField("gravity", "Gravity", "pieces drop"),
        checkField("misere", "Misère", "a line loses"),
        checkField("three_d", "3D", "stacked layers")),
      h("div", { class: "field-row" },
        numberField("layers", "Layers", 4, 2, MAX_LAYERS),
        h("label", { class: "field", dataset: { field: "players" } },
          h("span", { class: "field-label" }, "Players"),
          h("select", { name: "players" }, [2, 3, 4].map((n) => h("option", { value: n }, String(n))))))),
    opponentFieldset(),
    clockFieldset(),
    h("fieldset", { class: "visibility" }, h("legend", {}, "Who can join"),
      h("label", { class: "radio" }, h("input", { type: "radio", name: "public", value: "yes", checked: true }),
        h("span", {}, h("strong", {}, "Public"), h("small", {}, "listed in the lobby"))),
      h("label", { class: "radio" }, h("input", { type: "radio", name: "public", value: "no" }),
        h("span", {}, h("strong", {}, "Private"), h("small", {}, "only people with the link"))),
      checkField("rated", "Rated", "the result changes both ratings; no takebacks"),
      checkField("bots", "Bots welcome", "bot accounts (programs people run) may take a seat")),
    error,
    h("div", { class: "submit-row" },
      h("button", { type: "submit", class: "button primary big", value: "create" }, "Create game"),
      h("button", { type: "submit", class: "button big quick", value: "quick", dataset: { quick: "" } },
        "Quick play")),
    h("p", { class: "hint quick-hint" }, "Quick play seats you with the next person who wants the same game and clock."));

  const el = form.elements;
  const syncLayers = () => {
    const on = el.three_d.checked;
    el.layers.disabled = !on;
    el.layers.closest(".field").classList.toggle("off", !on);
  };
  const applyPreset = (id) => {
    const preset = PRESETS.find((p) => p.id === id);
    if (!preset) return;
    const r = preset.rules;
    el.rows.value = r.rows;
    el.cols.value = r.cols;
    el.k.value = r.k;
    el.gravity.checked = r.gravity;
    el.misere.checked = r.misere;
    el.three_d.checked = r.layers > 1;
    el.layers.value = r.layers > 1 ? r.layers : 4;
    el.players.value = String(r.players);
    syncLayers();
  };
  // A preset fills the rules; "Custom" shows them to edit (starting from the last preset).
  const rulesBox = form.querySelector(".rules-fields");
  const showRules = () => {
    rulesBox.hidden = el.preset.value !== "custom";
  };
  applyPreset("classic");
  showRules();
  syncOptions(form);

  form.addEventListener("change", (event) => {
    const name = event.target.name;
    if (name === "preset") {
      applyPreset(event.target.value);
      showRules();
    } else syncLayers();
    syncOptions(form);
    clearError(form, error);
  });

  let quickKey = null; // the join key of the quick play being tried, until it seats us
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearError(form, error);
    // the name is given here (none: a neutral guest), so the game page does not ask again
    const name = cleanName(nameInput.value) || loadName() || guestName();
    saveName(name);
    const quick = Boolean(event.submitter && event.submitter.value === "quick");
    const submit = event.submitter || form.querySelector("button[type=submit]");
    const label = submit.textContent;
    for (const b of form.querySelectorAll("button[type=submit]")) b.disabled = true;
    submit.textContent = quick ? "Finding a game…" : "Creating…";
    try {
      let roomId;
      if (quick) {
        // one key for this request and its retries: an answer lost on the way gives no second seat
        quickKey = quickKey || newJoinKey();
        roomId = await quickSeat(readRules(el), readTimeControl(el), name, quickKey);
        quickKey = null;
      } else {
        // the identity is made (the first time) while the room is: the seat will link to it
        const [room] = await Promise.all([
          createRoom(readRules(el), el.public.value === "yes", readOptions(el)), ensureIdentity(name),
        ]);
        roomId = room.room_id;
        markCreated(roomId); // its creator: seated on arrival, not asked for a name
      }
      location.assign(`/r/${encodeURIComponent(roomId)}`);
    } catch (err) {
      if (err.status >= 400 && err.status < 500) quickKey = null; // refused: nothing was seated
      showError(form, error, err);
      for (const b of form.querySelectorAll("button[type=submit]")) b.disabled = false;
      submit.textContent = label;
    }
  });
  return form;
}

function readRules(el) {
  const num = (input) => (input.value.trim() === "" ? input.value : Number(input.value));
  const threeD = el.three_d.checked;
  return {
    rows: num(el.rows),
    cols: num(el.cols),
    k: num(el.k),
    gravity: el.gravity.checked,
    misere: el.misere.checked,
    layers: threeD ? num(el.layers) : 1,
    players: Number(el.players.value),
  };
}

function clearError(form, error) {
  error.hidden = true;
  error.replaceChildren();
  for (const f of form.querySelectorAll("[aria-invalid]")) f.removeAttribute("aria-invalid");
}

/** The server's refusal, next to the field it names (invalid_rules carries `field`). */
function showError(form, error, err) {
  error.hidden = false;
  const lead = { invalid_rules: "Those rules cannot be played: ", invalid_options: "Those options cannot be used: " }[err.code];
  fill(error, h("strong", {}, lead || "Could not create the game: "), err.message);
  const input = err.field && form.elements[OPTION_FIELDS[err.field] || err.field];
  if (input && input.setAttribute) {
    const box = input.closest("[hidden]");
    if (box) box.hidden = false; // the rules of a preset were refused: show them
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", "create-error");
    input.focus();
  }
  error.id = "create-error";
  announce(err.message);
}

// -- joining by code or link --------------------------------------------------------------

/** A room id from what was typed: a code, or a /r/{id} or /r/{id}/watch link. */
export function parseRoomRef(value) {
  const raw = value.trim();
  if (!raw) return null;
  const m = raw.match(/\/r\/([^/?#\s]+)(\/watch)?/);
  if (m) return { roomId: decodeURIComponent(m[1]), watch: Boolean(m[2]) };
  if (/^[A-Za-z0-9_-]{1,64}$/.test(raw)) return { roomId: raw, watch: false };
  return null;
}

function joinForm() {
  const error = h("div", { class: "form-error", role: "alert", hidden: true });
  const input = h("input", {
    name: "code", placeholder: "room code or link", autocomplete: "off", spellcheck: "false",
    autocapitalize: "none", "aria-label": "Room code or link",
  });
  const form = h("form", { class: "join-form", novalidate: true },
    h("div", { class: "share-row" }, input,
      h("button", { type: "submit", class: "button primary", value: "play" }, "Join"),
      h("button", { type: "submit", class: "button", value: "watch" }, "Watch")),
    error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.hidden = true;
    const ref = parseRoomRef(input.value);
    const watch = event.submitter ? event.submitter.value === "watch" : false;
    if (!ref) {
      error.hidden = false;
      fill(error, "Type a room code (like ", h("code", {}, "q7m2kx9c"), ") or paste a game link.");
      return;
    }
    try {
      await getRoom(ref.roomId); // the server says whether it exists
      location.assign(`/r/${encodeURIComponent(ref.roomId)}${watch || ref.watch ? "/watch" : ""}`);
    } catch (err) {
      error.hidden = false;
      fill(error, h("strong", {}, err.code === "room_not_found" ? "No such game: " : "Could not check that game: "), err.message);
    }
  });
  return form;
}

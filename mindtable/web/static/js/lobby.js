// The lobby: create a room for any playable game (options form built from the game's option schema),
// join by code, watch, and list public rooms. Nothing game-specific: everything comes from GET /api/games.

import { $, api, fill, forgetSeat, h, normalizeCode, rememberName, saveHereSeats, saveSeat, savedName, savedSeats, toast } from "./common.js";
import { loadGame } from "./games.js";
import { has, initI18n, lang, languageSwitch, loadGameStrings, makeT, t } from "./i18n.js";

// games: every game of GET /api/games (those with `available: false` are announced: listed, not creatable);
// forms: a game module's optional `lobby` export ({shown(name, values, players), choiceShown(name, value, values,
// players), toServer(name, value), fromServer(name, value) for pages that show stored options, e.g. the replay
// summary}).
const lobby = { games: [], strings: new Map(), forms: new Map() };

const playable = (g) => g.available !== false;
// The seat choice "a person on this device" (hot-seat): the lobby takes the seat for them after creating the room.
const HERE = "@here";

/** The bots' paces a room may choose (mindtable.core.pace.PACE_NAMES). */
const BOT_PACES = ["off", "normal", "slow"];

function notice(text) {
  const box = $("#notice");
  box.hidden = !text;
  fill(box, text || "");
}

/** The translator of a game (its own strings, then the shell's). */
function gt(game) {
  return lobby.strings.get(game.id) || t;
}

function label(tr, key, fallbackText) {
  return tr.has?.(key) ? tr(key) : fallbackText;
}

function gameTitle(game) {
  return label(gt(game), "game.title", game.title);
}

function selectedGame() {
  return lobby.games.find((g) => g.id === $("#game-select").value && playable(g));
}

/** Ask for a name in words, next to the field (the server's code for an empty name is name_required). */
function nameMissing(input, error) {
  const missing = !input.value.trim();
  error.hidden = !missing;
  error.textContent = missing ? t("join.name_required") : "";
  if (missing) {
    input.setAttribute("aria-invalid", "true");
    input.focus();
  } else input.removeAttribute("aria-invalid");
  return missing;
}

/** The values of the options form as typed so far (for showing only the options that apply). */
function currentValues() {
  const values = {};
  for (const el of document.querySelectorAll("#options-fields [data-option]")) values[el.dataset.option] = el.dataset.type === "boolean" ? el.checked : el.value;
  return values;
}

/** Show only the options that apply to the choices made (a game module may say which, e.g. per mode). */
function applyOptionVisibility() {
  const game = selectedGame();
  const form = game && lobby.forms.get(game.id);
  if (!form?.shown && !form?.choiceShown) return;
  const values = currentValues();
  const players = Number($("#players-select").value);
  for (const el of document.querySelectorAll("#options-fields [data-option]")) {
    const field = el.closest("label");
    const shown = !form.shown || form.shown(el.dataset.option, values, players) !== false;
    field.hidden = !shown;
    el.disabled = !shown;
    // The choices that apply to the form as filled (e.g. only the seats there are): a hidden choice that was
    // selected falls back to the first one left.
    if (form.choiceShown && el.tagName === "SELECT") {
      for (const choice of el.querySelectorAll("option[data-choice]")) {
        const keep = form.choiceShown(el.dataset.option, choice.value, values, players) !== false;
        choice.hidden = !keep;
        choice.disabled = !keep;
      }
      if (el.selectedOptions[0]?.disabled) el.value = [...el.options].find((o) => !o.disabled)?.value ?? "";
    }
  }
}

function renderGameForm() {
  const game = selectedGame();
  if (!game) return;
  const tr = gt(game);
  $("#game-blurb").textContent = label(tr, "game.blurb", "");
  const players = $("#players-select");
  const previous = Number(players.value) || game.min_players;
  fill(players, range(game.min_players, game.max_players).map((n) => h("option", { value: n, selected: n === Math.min(Math.max(previous, game.min_players), game.max_players) }, n)));
  renderSeats();
  renderOptions(game, tr);
  applyOptionVisibility();
  fitPlaceholders();
}

function range(a, b) {
  return Array.from({ length: b - a + 1 }, (_, i) => a + i);
}

function renderSeats() {
  const game = selectedGame();
  const tr = gt(game);
  const count = Number($("#players-select").value);
  // A seat is a person who joins with the code, a person on this device (hot-seat: turn-based games only,
  // one page passes from hand to hand), or a bot.
  const fields = range(1, count - 1).map((seat) => {
    const select = h(
      "select",
      { name: `seat-${seat}`, "data-seat": seat, "data-testid": `seat-${seat}` },
      h("option", { value: "" }, t("seat.human")),
      game.realtime ? null : h("option", { value: HERE }, t("seat.here")),
      game.bots.map((bot) => h("option", { value: bot }, `${t("seat.bot")}: ${label(tr, `bot.${bot}`, bot)}`)),
    );
    const name = h("input", { type: "text", maxlength: 24, autocomplete: "off", placeholder: t("seat.here_name"), "aria-label": `${t("seat.n", { n: seat + 1 })}: ${t("seat.here_name")}`, "data-seat-name": seat, "data-testid": `seat-name-${seat}`, hidden: true });
    select.addEventListener("change", () => {
      name.hidden = select.value !== HERE;
      if (!name.hidden && !name.value) name.value = t("seat.n", { n: seat + 1 });
    });
    return h("label", {}, h("span", { id: `seat-label-${seat}` }, t("seat.n", { n: seat + 1 })), select, name);
  });
  fill($("#seats-fields"), count > 1 ? h("p", { class: "muted span-all" }, t("lobby.you_take_seat")) : h("p", { class: "muted span-all" }, t("lobby.solo")), fields,
    h("div", { id: "bot-params", class: "grid-form span-all", "data-testid": "bot-params" }), botPaceField(game));
  renderBotParams();
}

/** The room's bots' pace (turn-based games): at once, like a person, slowly; the game's default chosen. */
function botPaceField(game) {
  if (game.realtime) return null;
  const chosen = game.room_bot_pace || "off";
  const select = h("select", { id: "bot-pace", name: "bot_pace", "data-testid": "bot-pace" },
    BOT_PACES.map((pace) => h("option", { value: pace, selected: pace === chosen }, t(`bot_pace.${pace}`))));
  return h("label", { for: "bot-pace", title: t("field.bot_pace.help") }, h("span", {}, t("field.bot_pace")), select,
    h("small", { class: "muted help" }, t("field.bot_pace.help")));
}

/** The room's parameters of the bots chosen (the game's `room_bot_params`, e.g. a think time in ms): one
 * number field per bot and parameter, prefilled with the room's default; what was typed is kept. */
function renderBotParams() {
  const game = selectedGame();
  const box = $("#bot-params");
  if (!game || !box) return;
  const tr = gt(game);
  const typed = new Map([...box.querySelectorAll("input[data-bot-param]")].map((el) => [el.dataset.botParam, el.value]));
  const chosen = new Set([...document.querySelectorAll("#seats-fields select[data-seat]")].map((el) => el.value).filter((v) => v && v !== HERE));
  const defaults = game.room_bot_params || {};
  const fields = [];
  for (const bot of [...chosen].sort()) {
    for (const [param, value] of Object.entries(defaults[bot] || {})) {
      const key = `${bot}.${param}`;
      const id = `bot-param-${bot}-${param}`;
      fields.push(h("label", { for: id },
        h("span", {}, `${t("seat.bot")}: ${label(tr, `bot.${bot}`, bot)} · ${label(tr, `bot_param.${param}`, param.replaceAll("_", " "))}`),
        h("input", { type: "number", id, min: 0, max: 1000000, step: 1, inputmode: "numeric", value: typed.get(key) ?? value, "data-bot-param": key, "data-testid": id })));
    }
  }
  fill(box, fields);
  box.hidden = fields.length === 0;
}

/** seat -> {param: value} for every bot seat whose bot has room parameters (as typed in the lobby). */
function collectBotParams(bots) {
  const out = {};
  for (const el of document.querySelectorAll("#bot-params input[data-bot-param]")) {
    const [bot, param] = el.dataset.botParam.split(".");
    if (el.value === "") continue;
    const value = Number(el.value);
    if (!Number.isFinite(value) || value < 0) {
      el.focus();
      throw new Error(t("lobby.bad_option", { name: param, min: 0, max: 1000000 }));
    }
    for (const [seat, name] of Object.entries(bots)) if (name === bot) out[seat] = { ...(out[seat] || {}), [param]: value };
  }
  return out;
}

/** The same words but for case, spaces and a closing full stop (an option's help that only repeats its label). */
function sameWords(a, b) {
  const plain = (text) => text.trim().replace(/[.\s]+$/, "").replace(/\s+/g, " ").toLocaleLowerCase();
  return plain(a) === plain(b);
}

/** The value a room starts an option at: the game's room default for it (`room_default`, e.g. a few seconds to
 * take a verdict back) if it gives one, else the option's default. */
function roomDefault(option) {
  return "room_default" in option ? option.room_default : option.default;
}

function optionField(declared, tr) {
  const option = { ...declared, default: roomDefault(declared) };
  const name = `option.${option.name}`;
  const title = label(tr, name, option.name.replaceAll("_", " "));
  // A help line that says the label again ("Stones to the far bank" over "stones to the far bank") is left out:
  // the option would read twice.
  const given = label(tr, `${name}.help`, option.help || "");
  const help = sameWords(given, title) ? "" : given;
  const id = `opt-${option.name}`;
  // What an empty field means: the game's own words for this option, else the shell's "default".
  const empty = label(tr, `${name}.default`, t("option.default"));
  let input;
  if (option.file) return fileOptionField(option, tr, title, help);
  if (option.json_type === "boolean") {
    input = h("input", { type: "checkbox", id, name: option.name, checked: option.default === true, "data-option": option.name, "data-type": "boolean" });
    return h("label", { class: "check", title: help }, input, h("span", {}, title), help ? h("small", { class: "muted help" }, help) : null);
  }
  // An integer option whose every value has a label of the game's (`option.<name>.<value>`, e.g. a seat shown
  // from 1, or -1 as "at random") is a choice among those labels, not a bare number field.
  const labelled = option.json_type === "integer" && option.minimum != null && option.maximum != null && option.maximum - option.minimum <= 50
    && range(option.minimum, option.maximum).every((v) => tr.has?.(`${name}.${v}`));
  const choices = option.choices || (labelled ? range(option.minimum, option.maximum) : null);
  if (choices) {
    // A game that asks its questions in several languages asks them in the page's, when it has it.
    const chosen = option.name === "language" && choices.includes(lang()) ? lang() : option.default;
    input = h(
      "select",
      { id, name: option.name, "data-option": option.name, "data-type": option.json_type },
      option.default === null ? h("option", { value: "" }, empty) : null,
      choices.map((c) => h("option", { value: String(c), selected: c === chosen, "data-choice": String(c) }, label(tr, `${name}.${c}`, String(c)))),
    );
  } else if (option.json_type === "integer" || option.json_type === "number") {
    input = h("input", {
      type: "number",
      id,
      name: option.name,
      inputmode: "numeric",
      min: option.minimum ?? undefined,
      max: option.maximum ?? undefined,
      step: option.json_type === "integer" ? 1 : "any",
      value: option.default ?? "",
      placeholder: option.default === null ? empty : "",
      "data-placeholder": option.default === null ? empty : undefined,
      "data-option": option.name,
      "data-type": option.json_type,
    });
  } else {
    input = h("input", { type: "text", id, name: option.name, value: option.default ?? "", placeholder: option.default === null ? empty : "", "data-placeholder": option.default === null ? empty : undefined, "data-option": option.name, "data-type": "string" });
  }
  return h("label", { title: help }, h("span", {}, title), input, help ? h("small", { class: "muted help" }, help) : null);
}

/**
 * An option that names a file: the game's own content, a file the host offers (by name), or a file of the
 * group's own, sent to the server at once (it is checked there; problems come back with line and field).
 * The page never sends a path.
 */
function fileOptionField(option, tr, title, help) {
  const id = `opt-${option.name}`;
  const select = h(
    "select",
    { id, name: option.name, "data-option": option.name, "data-type": "string" },
    h("option", { value: "", selected: true }, t("option.file_builtin")),
    (option.offered || []).map((value) => h("option", { value }, value.replace(/^host:/, ""))),
  );
  const status = h("small", { class: "muted help", "data-upload-status": option.name, role: "status" });
  const file = h("input", {
    type: "file",
    "data-upload": option.name,
    "aria-label": `${title}: ${t("option.file_upload")}`,
    accept: option.file === "board" ? ".yaml,.yml" : ".yaml,.yml,.csv,.gift,.json,.txt",
  });
  file.addEventListener("change", async () => {
    const chosen = file.files && file.files[0];
    if (!chosen) return;
    const game = selectedGame();
    fill(status, t("upload.sending", { name: chosen.name }));
    try {
      const query = new URLSearchParams({ game: game.id, option: option.name, name: chosen.name });
      const answer = await api("POST", `/api/uploads?${query}`, chosen);
      select.append(h("option", { value: answer.value }, t("upload.mine", { name: answer.name })));
      select.value = answer.value;
      fill(status, t("upload.ok", { name: answer.name, warnings: (answer.warnings || []).length }));
    } catch (err) {
      const problems = err.params?.problems || [];
      const lines = problems.slice(0, 5).map((p) => h("li", {}, p.line ? t("upload.problem_line", p) : p.message));
      const words = has(`error.${err.code}`) ? t(`error.${err.code}`, err.params || {}) : err.message;
      fill(status, words, lines.length ? h("ul", {}, lines) : null);
      file.value = "";
    }
  });
  return h("label", { title: help }, h("span", {}, title), select, file, help ? h("small", { class: "muted help" }, help) : null, status);
}

/** The room Chrome keeps for a number field's spin buttons (the text stops short of them). */
const SPIN_PX = 16;
let measurer = null;

/**
 * A placeholder too long for its field would be cut off ("as the rulebook says (one per pla", on a desktop as on
 * a phone): it then loses its closing parenthesis (the help line under the field says the same), and if that is
 * still too long it becomes the shell's "default". The field's title keeps the whole words. Fields not shown
 * are fitted when they are.
 */
function fitPlaceholders() {
  measurer ||= document.createElement("canvas").getContext("2d");
  for (const input of document.querySelectorAll("#options-fields input[data-placeholder]")) {
    if (!input.offsetParent) continue;
    const style = getComputedStyle(input);
    measurer.font = style.font;
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - (input.type === "number" ? SPIN_PX : 0);
    const whole = input.dataset.placeholder;
    const fits = (words) => measurer.measureText(words).width <= room;
    const shorter = whole.replace(/\s*\([^()]*\)\s*$/, "");
    input.placeholder = fits(whole) ? whole : shorter && fits(shorter) ? shorter : t("option.default");
    if (input.placeholder !== whole) input.title = whole;
    else input.removeAttribute("title");
  }
}

function renderOptions(game, tr) {
  const fields = game.options.map((option) => optionField(option, tr));
  fill($("#options-fields"), fields.length ? fields : h("p", { class: "muted" }, t("lobby.no_options")));
  $("#options-fieldset").hidden = false;
}

/** The options the player changed from the defaults, typed as the schema says; throws with a message if invalid. */
function collectOptions(game) {
  const options = {};
  for (const el of document.querySelectorAll("#options-fields [data-option]")) {
    const option = game.options.find((o) => o.name === el.dataset.option);
    if (!option || el.disabled) continue;
    let value;
    if (el.dataset.type === "boolean") value = el.checked;
    else if (el.value === "") continue;
    else if (el.dataset.type === "integer" || el.dataset.type === "number") {
      value = Number(el.value);
      const bad = !Number.isFinite(value) || (el.dataset.type === "integer" && !Number.isInteger(value)) || (option.minimum !== null && value < option.minimum) || (option.maximum !== null && value > option.maximum);
      if (bad) {
        el.focus();
        throw new Error(t("lobby.bad_option", { name: label(gt(game), `option.${option.name}`, option.name), min: option.minimum ?? "", max: option.maximum ?? "" }));
      }
    } else value = el.value;
    const toServer = lobby.forms.get(game.id)?.toServer;
    if (toServer) value = toServer(option.name, value);
    if (value !== roomDefault(option)) options[option.name] = value;
  }
  return options;
}

async function createRoom(event) {
  event.preventDefault();
  const game = selectedGame();
  if (!game) return;
  notice("");
  let options;
  try {
    options = collectOptions(game);
  } catch (err) {
    notice(err.message);
    return;
  }
  const bots = {};
  const here = []; // [{seat, name}]: people on this device, seated by this page once the room exists
  for (const el of document.querySelectorAll("#seats-fields select[data-seat]")) {
    if (el.value === HERE) {
      const field = document.querySelector(`#seats-fields [data-seat-name="${el.dataset.seat}"]`);
      here.push({ seat: Number(el.dataset.seat), name: field.value.trim() || t("seat.n", { n: Number(el.dataset.seat) + 1 }) });
    } else if (el.value) bots[el.dataset.seat] = el.value;
  }
  let botParams;
  try {
    botParams = collectBotParams(bots);
  } catch (err) {
    notice(err.message);
    return;
  }
  if (nameMissing($("#create-name"), $("#create-name-error"))) return;
  const name = $("#create-name").value.trim();
  rememberName(name);
  const body = { game: game.id, players: Number($("#players-select").value), options, bots, bot_params: botParams, public: $("#public-check").checked, name };
  if ($("#bot-pace")) body.bot_pace = $("#bot-pace").value;
  const button = $("#create-button");
  button.disabled = true;
  try {
    const answer = await api("POST", "/api/rooms", body);
    if (answer.token) saveSeat(answer.code, answer.seat, answer.token, name, game.id);
    if (here.length) {
      const seated = [];
      for (const person of here) {
        const joined = await api("POST", `/api/rooms/${answer.code}/join`, { name: person.name, seat: person.seat });
        seated.push({ seat: joined.seat, token: joined.token, name: person.name });
      }
      saveHereSeats(answer.code, seated);
    }
    location.href = `room.html?code=${encodeURIComponent(answer.code)}${answer.token ? "" : "&spectate=1"}`;
  } catch (err) {
    if (err.code === "name_required") nameMissing($("#create-name"), $("#create-name-error"));
    else notice(`${t("error.create_failed")}: ${has(`error.${err.code}`) ? t(`error.${err.code}`, err.params) : err.message}`);
    button.disabled = false;
  }
}

async function joinRoom(event) {
  event.preventDefault();
  const code = normalizeCode($("#join-code").value);
  if (!code) {
    notice(t("error.no_code"));
    return;
  }
  if (nameMissing($("#join-name"), $("#join-name-error"))) return;
  const name = $("#join-name").value.trim();
  rememberName(name);
  try {
    const answer = await api("POST", `/api/rooms/${code}/join`, { name });
    saveSeat(code, answer.seat, answer.token, name, answer.room?.game);
    location.href = `room.html?code=${encodeURIComponent(code)}`;
  } catch (err) {
    if (err.code === "name_required") nameMissing($("#join-name"), $("#join-name-error"));
    else if (err.code === "game_over" || err.code === "room_over") {
      const box = $("#notice");
      box.hidden = false;
      fill(box, t("error.game_over"), " ", h("a", { href: `replay.html?code=${code}`, "data-testid": "finished-replay-link" }, t("over.replay")));
    } else if (err.status === 404) notice(t("error.unknown_room"));
    else if (err.status === 409) notice(t("join.full_watch"));
    else notice(`${t("error.join_failed")}: ${err.message}`);
  }
}

function watchRoom() {
  const code = normalizeCode($("#join-code").value);
  if (!code) {
    notice(t("error.no_code"));
    return;
  }
  location.href = `room.html?code=${encodeURIComponent(code)}&spectate=1`;
}

function roomItem(room) {
  const game = lobby.games.find((g) => g.id === room.game);
  const seats = room.seats || [];
  const taken = seats.filter((s) => s.kind !== "open").length;
  const open = room.status === "waiting" && taken < room.players;
  const names = seats.filter((s) => s.kind !== "open").map((s) => botLabel(s));
  return h(
    "li",
    { class: "room-item", "data-code": room.code },
    h("div", { class: "room-main-line" }, h("strong", { class: "code" }, room.code), h("span", {}, game ? gameTitle(game) : room.game), h("span", { class: `status status-${room.status}` }, t(`status.${room.status}`))),
    h("div", { class: "muted" }, `${taken}/${room.players} · ${names.join(", ")}`),
    h(
      "div",
      { class: "actions" },
      open ? h("button", { type: "button", class: "btn-primary btn-small", onclick: () => quickJoin(room.code) }, t("join.join")) : null,
      room.status !== "over" ? h("a", { class: "btn btn-small", href: `room.html?code=${room.code}&spectate=1` }, t("join.watch")) : null,
      room.status !== "over" ? tableLink(room.code) : null,
      room.status === "over" ? h("a", { class: "btn btn-small", href: `replay.html?code=${room.code}` }, t("over.replay")) : null,
    ),
  );
}

/** The room on a big screen everyone at the table sees (table.html: a spectator, with a QR code to join). */
function tableLink(code) {
  return h("a", { class: "btn btn-small", href: `table.html?code=${code}`, title: t("table.link_help"), "data-testid": "table-link" }, t("table.link"));
}

/** A seat's name as the table shows it: a bot's name as the server sends it, marked "(bot)" once. */
function botLabel(s) {
  if (s.kind !== "bot") return s.name || "?";
  const name = s.name || t("seat.bot");
  return /\(bot\)\s*$/i.test(name) ? name : t("seat.bot_name", { name });
}

function quickJoin(code) {
  $("#join-code").value = code;
  if (!$("#join-name").value) $("#join-name").value = savedName();
  $("#join-form").requestSubmit();
}

async function refreshRooms() {
  try {
    const rooms = await api("GET", "/api/rooms");
    const list = $("#rooms-list");
    fill(list, rooms.length ? rooms.map(roomItem) : h("li", { class: "muted" }, t("lobby.no_rooms")));
  } catch (err) {
    fill($("#rooms-list"), h("li", { class: "muted" }, `${t("error.server")}: ${err.message}`));
  }
}

function savedGameTitle(id) {
  const game = lobby.games.find((g) => g.id === id);
  return game ? gameTitle(game) : id || "";
}

function renderMine() {
  const mine = savedSeats().slice(0, 8);
  $("#mine-panel").hidden = mine.length === 0;
  fill(
    $("#mine-list"),
    mine.map((s) =>
      h(
        "li",
        { class: "room-item" },
        h("div", { class: "room-main-line" }, h("strong", { class: "code" }, s.code), h("span", {}, savedGameTitle(s.game)), h("span", { class: "muted" }, t("seat.n", { n: s.seat + 1 }))),
        h(
          "div",
          { class: "actions" },
          h("a", { class: "btn btn-small btn-primary", href: `room.html?code=${s.code}` }, t("lobby.rejoin")),
          tableLink(s.code),
          h("button", { type: "button", class: "btn-small", onclick: () => { forgetSeat(s.code); renderMine(); } }, t("lobby.forget")),
        ),
      ),
    ),
  );
}

async function main() {
  await initI18n();
  $("#lang-slot").append(languageSwitch());
  $("#create-name").value = savedName();
  $("#join-name").value = savedName();
  $("#create-form").addEventListener("submit", createRoom);
  $("#join-form").addEventListener("submit", joinRoom);
  $("#watch-code").addEventListener("click", watchRoom);
  $("#refresh-rooms").addEventListener("click", refreshRooms);
  $("#join-code").addEventListener("input", (e) => (e.target.value = normalizeCode(e.target.value)));
  const pre = new URLSearchParams(location.search).get("code");
  if (pre) $("#join-code").value = normalizeCode(pre);
  renderMine();
  try {
    lobby.games = await api("GET", "/api/games");
  } catch (err) {
    notice(`${t("error.server")}: ${err.message}`);
    return;
  }
  await Promise.all(
    lobby.games.map(async (g) => {
      lobby.strings.set(g.id, makeT(await loadGameStrings(g.web_module)));
      if (!playable(g) || !g.web_module) return;
      try {
        const loaded = await loadGame(g.web_module);
        if (loaded?.module.lobby) lobby.forms.set(g.id, loaded.module.lobby);
      } catch {
        // the form then shows every option
      }
    }),
  );
  renderMine(); // again, now with the games' titles
  const select = $("#game-select");
  const ready = lobby.games.filter(playable);
  const coming = lobby.games.filter((g) => !playable(g));
  fill(
    select,
    ready.map((g) => h("option", { value: g.id }, gameTitle(g))),
    coming.length ? h("optgroup", { label: t("lobby.coming") }, coming.map((g) => h("option", { value: g.id, disabled: true, "data-coming": "true" }, t("lobby.game_coming", { game: gameTitle(g) })))) : null,
  );
  const comingBox = $("#coming-games");
  comingBox.hidden = coming.length === 0;
  fill(comingBox, t("lobby.coming_note", { games: coming.map(gameTitle).join(", ") }));
  comingBox.dataset.games = coming.map((g) => g.id).join(",");
  select.addEventListener("change", renderGameForm);
  $("#players-select").addEventListener("change", () => {
    renderSeats();
    applyOptionVisibility();
    fitPlaceholders();
  });
  $("#options-fields").addEventListener("change", () => {
    applyOptionVisibility();
    fitPlaceholders();
  });
  window.addEventListener("resize", fitPlaceholders);
  $("#seats-fields").addEventListener("change", (event) => {
    if (event.target.matches("select[data-seat]")) renderBotParams();
  });
  if (!ready.length) notice(t("lobby.no_games"));
  renderGameForm();
  refreshRooms();
  setInterval(() => document.visibilityState === "visible" && refreshRooms(), 5000);
}

main().catch((err) => toast(String(err), "error"));

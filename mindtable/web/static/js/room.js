// The table shell: joins or watches a room, keeps the WebSocket, shows presence and errors, and hands
// every state/events message to the game's own module (games/<web_module>/index.js). No game rules here.

import { $, announce, api, fill, forgetSeat, h, loadHereSeats, loadSeat, normalizeCode, rememberName, saveHereSeats, saveSeat, savedName, setText, settings, toast } from "./common.js";
import { Connection } from "./connection.js";
import { errorWords, labelWords, seatWords } from "./reasons.js";
import { loadGame, overWords, seatLabel } from "./games.js";
import { has, initI18n, lang, languageSwitch, t } from "./i18n.js";
import { cue } from "./sound.js";

const params = new URLSearchParams(location.search);
const code = normalizeCode(params.get("code"));
const FATAL = new Set(["unknown_room", "bad_token", "not_a_seat"]);
/** Refusals of a move the page offered, whose {action} is that move: said as "this move". */
const WORDED_ACTION = new Set(["not_now", "system_action"]);

const shell = {
  room: null,
  game: null,
  seat: null,
  token: null,
  conn: null,
  mounted: null, // the game module's handle {update, events, presence, over, destroy}
  gameT: t,
  queue: [],
  mounting: null,
  lastStateSeq: -1,
  lastState: null,
  status: "connecting",
  away: new Map(), // seat -> performance.now() when we saw it go away
  result: null,
  games: null,
  // Hot-seat (several people on this device): seat -> {seat, token, name, conn, status, state, over}, every
  // seat this page holds; `seat` is then the one whose hands the page is in, `passTo` the one it goes to next.
  here: null,
  passTo: null,
  primary: null,
  generation: 0, // bumped when the table is taken down, so a mount still loading is dropped
};

function notice(text, kind = "error") {
  const box = $("#notice");
  box.hidden = !text;
  box.className = `notice notice-${kind}`;
  fill(box, text || "");
}

/** The connection's status in the top bar. "idle": the page has not tried to connect (the join form, an unknown
 * room): no pill at all, rather than a grey "not connected" before anything was attempted. */
function setStatus(status) {
  const pill = $("#conn-status");
  const before = shell.status;
  shell.status = status;
  pill.dataset.status = status;
  pill.hidden = status === "idle";
  pill.textContent = status === "idle" ? "" : t(`conn.${status}`);
  pill.title = pill.textContent;
  document.body.dataset.conn = status;
  // While the connection is down the table's controls wait (they would send into the void).
  const down = status === "reconnecting" || (status === "closed" && shell.mounted);
  const game = $("#game");
  if (down) game.setAttribute("aria-disabled", "true");
  else game.removeAttribute("aria-disabled");
  for (const button of game.querySelectorAll("button")) {
    if (down) button.dataset.connDisabled = button.disabled ? "was" : "now";
    if (down) button.disabled = true;
    else if (button.dataset.connDisabled === "now") button.disabled = false;
    if (!down) delete button.dataset.connDisabled;
  }
  const banner = $("#conn-banner");
  banner.hidden = !down || status === "closed";
  setText(banner, down ? t("conn.banner_reconnecting") : "");
  // Heard, not only seen: a change of connection is announced (the first "connecting" is not news, nor is
  // going from or to "idle": nothing was tried yet).
  const quiet = (before === "connecting" && status === "open") || before === "idle" || status === "idle";
  if (before !== status && !quiet) announce(t(`conn.said.${status}`));
}

function renderPresence() {
  const seats = shell.room?.seats || [];
  const box = $("#presence");
  const watching = shell.room?.spectators ?? 0;
  fill(
    box,
    seats.map((s) => {
      const you = s.seat === shell.seat;
      const state = s.kind === "open" ? "open" : s.kind === "bot" || s.connected ? "online" : "offline";
      return h(
        "div",
        { class: `seat-chip seat-${state}${you ? " seat-you" : ""}`, "data-seat": s.seat, "data-testid": `presence-${s.seat}`, "data-connected": String(Boolean(s.connected)) },
        h("span", { class: "dot", "aria-hidden": "true" }),
        h("span", { class: "seat-name" }, s.kind === "open" ? t("seat.open") : seatLabel(t, seats, s.seat)),
        s.kind === "bot" && !s.replaced ? h("span", { class: "badge" }, t("seat.bot")) : null,
        s.replaced ? h("span", { class: "badge", title: t("seat.replaced_help") }, t("seat.replaced")) : null,
        shell.here?.has(s.seat) && !you ? h("span", { class: "badge badge-here" }, t("seat.here_badge")) : null,
        state === "offline" ? h("span", { class: "badge badge-offline" }, t("presence.offline_badge")) : null,
        you ? h("span", { class: "badge badge-you" }, t("seat.you")) : null,
        state !== "offline" ? h("span", { class: "sr-only" }, t(`presence.${state}`)) : null,
      );
    }),
    h("span", { class: "seat-chip spectators", "data-testid": "spectators", "data-count": watching, hidden: !watching }, h("span", { "aria-hidden": "true" }, "👁"), " ", t("room.spectators", { n: watching })),
  );
  box.hidden = seats.length === 0;
  renderAway();
  const waiting = shell.room?.status === "waiting";
  $("#waiting-panel").hidden = !waiting;
  $("#game").hidden = waiting; // the table shows once every seat is taken
}

/** "Bob is away — a bot takes over in 42 s": one line per human seat whose player is not connected while
 * the game runs (the server hands such a seat to a bot after the room's grace period). */
let awayTimer = null;
function renderAway() {
  const seats = shell.room?.seats || [];
  const playing = shell.room?.status === "playing";
  const now = performance.now();
  const lines = [];
  for (const s of seats) {
    const away = playing && s.kind === "human" && !s.connected && s.seat !== shell.seat;
    if (!away) {
      shell.away.delete(s.seat);
      continue;
    }
    if (!shell.away.has(s.seat)) shell.away.set(s.seat, now);
    const name = seatLabel(shell.gameT, seats, s.seat);
    const grace = shell.room?.grace_s ?? 60;
    const left = Math.max(0, Math.ceil(grace - (now - shell.away.get(s.seat)) / 1000));
    const takeover = shell.room?.replace_with_bot !== false;
    lines.push({ seat: s.seat, text: takeover ? (left > 0 ? t("away.takeover", { name, s: left }) : t("away.takeover_now", { name })) : t("away.waiting", { name }) });
  }
  const banner = $("#away-banner");
  banner.hidden = lines.length === 0;
  // The visible countdown ticks; screen readers hear the line once (it is not a live region).
  const sig = lines.map((l) => l.seat).join(",");
  if (banner.dataset.seats !== sig) {
    banner.dataset.seats = sig;
    for (const l of lines) announce(l.text);
  }
  fill(banner, lines.map((l) => h("p", { "data-seat": l.seat }, l.text)));
  clearTimeout(awayTimer);
  if (lines.length) awayTimer = setTimeout(renderAway, 1000);
}

/** The spectator count is in the room, not in presence messages: ask now and then while the game runs. */
async function refreshRoom() {
  if (document.visibilityState !== "visible" || !shell.room || shell.room.status === "over") return;
  try {
    const room = await api("GET", `/api/rooms/${code}`);
    if (shell.room) {
      shell.room.spectators = room.spectators;
      shell.room.grace_s = room.grace_s;
      shell.room.replace_with_bot = room.replace_with_bot;
    }
    renderPresence();
  } catch {
    // the next try will do
  }
}

function gameTitle() {
  const title = shell.game ? shell.gameT("game.title") : "";
  return title && title !== "game.title" ? title : shell.game?.title || shell.room?.game || "";
}

function renderHeader() {
  $("#room-code-box").hidden = false;
  $("#room-code").textContent = code;
  $("#share-code").textContent = code;
  $("#share-url").textContent = location.href.split("&")[0];
  $("#table-link").href = `table.html?code=${code}`;
  $("#game-title").textContent = gameTitle() || "mindtable";
  document.title = `${gameTitle() || "mindtable"} · ${code}`;
}

async function mountGame() {
  if (shell.mounting) return shell.mounting;
  const generation = shell.generation;
  shell.mounting = (async () => {
    const root = $("#game");
    let loaded = null;
    try {
      loaded = await loadGame(shell.game?.web_module);
    } catch (err) {
      console.error(err);
      notice(t("error.module_failed", { name: shell.game?.web_module }));
    }
    if (generation !== shell.generation) return; // the device was passed meanwhile: this table is not wanted
    if (!loaded) {
      shell.mounted = genericView(root);
    } else {
      shell.gameT = loaded.t;
      renderHeader();
      const ctx = {
        code,
        seat: shell.seat,
        spectator: shell.seat === null || shell.seat === undefined,
        lang: lang(),
        t: loaded.t,
        game: shell.game,
        replay: false,
        send: (action) => sendAction(action),
        seats: () => shell.room?.seats || [],
        seatName: (seat) => seatLabel(loaded.t, shell.room?.seats, seat),
        notify: (text, kind) => toast(text, kind),
        announce: (text) => announce(text),
        sound: (kind) => cue(kind),
        shortcuts: () => settings.shortcuts,
        online: () => shell.status === "open",
      };
      shell.mounted = loaded.module.mount(root, ctx);
    }
    document.body.classList.add("in-game");
    const queued = shell.queue;
    shell.queue = [];
    for (const [msg, info] of queued) dispatch(msg, info);
  })();
  return shell.mounting;
}

/** The generic table, for games without a web module: whose turn it is, the view as a table, and the legal
 * actions as buttons; an action that asks for typed inputs (an answer, a number) shows a small form. */
function genericView(root) {
  const turn = h("p", { class: "generic-turn", "data-testid": "generic-turn", "aria-live": "polite" });
  const actions = h("div", { class: "actions generic-actions", "data-testid": "generic-actions" });
  const table = h("table", { class: "generic-view", "data-testid": "generic-view" });
  const log = h("ul", { class: "generic-log", role: "log", "aria-label": t("room.events") });
  fill(root, h("p", { class: "muted" }, t("room.no_module")), turn, actions, table, log);
  const show = (value) => (value !== null && typeof value === "object" ? JSON.stringify(value) : String(value));
  return {
    update(msg) {
      const view = msg.view || {};
      const toAct = view.to_act || [];
      turn.textContent = toAct.includes(shell.seat) ? t("room.your_turn") : toAct.length ? t("room.waiting_for", { seats: toAct.map((s) => seatLabel(t, shell.room?.seats, s)).join(", ") }) : "";
      fill(table, Object.entries(view).filter(([key]) => key !== "to_act").map(([key, value]) => h("tr", {}, h("th", { scope: "row" }, key), h("td", {}, show(value)))));
      fill(actions, (msg.legal || []).map((action) => actionControl(action)));
    },
    events(events) {
      for (const ev of events || []) {
        const { type, ...data } = ev;
        log.prepend(h("li", {}, `${type} ${Object.keys(data).length ? JSON.stringify(data) : ""}`));
      }
    },
    destroy() {},
  };
}

/** One legal action: a button, or a form with a field per typed input (text, number, checkbox). */
function actionControl(action) {
  const { inputs, seat: _seat, ...fixed } = action;
  const label = [fixed.type.replaceAll("_", " "), ...Object.entries(fixed).filter(([k]) => k !== "type").map(([, v]) => String(v))].join(" ");
  if (!inputs || !inputs.length) return h("button", { type: "button", onclick: () => sendAction(fixed).catch(() => {}) }, label);
  const fields = inputs.map((spec) => {
    const id = `input-${fixed.type}-${spec.name}`;
    const attrs = { id, name: spec.name, "data-testid": id };
    let input;
    if (spec.kind === "int") input = h("input", { ...attrs, type: "number", min: spec.minimum, max: spec.maximum, step: 1, required: !spec.optional });
    else if (spec.kind === "bool") input = h("input", { ...attrs, type: "checkbox" });
    else input = h("input", { ...attrs, type: "text", maxlength: spec.max_length, required: !spec.optional, autocomplete: "off" });
    return h("label", { for: id }, `${spec.name} `, input);
  });
  const form = h("form", { class: "generic-form", "data-testid": `form-${fixed.type}` }, ...fields, h("button", { type: "submit" }, label));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const filled = { ...fixed };
    inputs.forEach((spec, index) => {
      const input = fields[index].querySelector("input");
      if (spec.kind === "int") filled[spec.name] = input.value === "" ? undefined : Number(input.value);
      else if (spec.kind === "bool") filled[spec.name] = input.checked;
      else filled[spec.name] = input.value;
      if (filled[spec.name] === undefined) delete filled[spec.name];
    });
    sendAction(filled).catch(() => {});
  });
  return form;
}

/** A refusal in words: the code with its parameters, translated (game strings first, then the shell's). */
function reasonText(err) {
  const key = `error.${err.code}`;
  const known = shell.gameT.has ? shell.gameT.has(key) : has(key);
  if (!known) return err.message || err.code;
  const named = seatWords(err.params, err.seats, (seat) => seatLabel(shell.gameT, shell.room?.seats, seat));
  // The move the player just tried is "this move" in words, never its type.
  if (WORDED_ACTION.has(err.code) && typeof named.action === "string") named.action = t("error.this_action");
  return shell.gameT(key, labelWords(named, err.labels, shell.gameT));
}

function sendAction(action) {
  if (!shell.conn || shell.seat === null) return Promise.reject({ code: "not_a_seat", message: t("error.spectator") });
  if (shell.status !== "open") {
    toast(t("conn.wait"), "error");
    return Promise.reject({ code: "disconnected", message: t("conn.wait") });
  }
  const { seat: _seat, at: _at, ...clean } = action; // the server sets both
  return shell.conn.send(clean).catch((err) => {
    toast(t("error.rejected", { reason: reasonText(err) }), "error");
    throw err;
  });
}

function onMessage(msg, info) {
  if (msg.kind === "welcome") {
    if (!msg.resumed) shell.lastStateSeq = -1; // a fresh snapshot follows
    shell.seat = msg.seat ?? null;
    shell.room = msg.room || shell.room;
    shell.game = msg.game || shell.game;
    renderHeader();
    renderPresence();
    mountGame();
    return;
  }
  if (msg.kind === "error") {
    if (FATAL.has(msg.code)) {
      shell.conn.close();
      if (msg.code === "bad_token") {
        forgetSeat(code);
        shell.token = null;
        $("#leave-button").hidden = true;
        notice(t("error.bad_token"));
        showJoin();
      } else notice(errorWords(msg, t));
    } else toast(`${t("error.server")}: ${errorWords(msg, t)}`, "error");
    return;
  }
  if (msg.kind === "accepted" || msg.kind === "rejected") return; // handled by the promise in send()
  if (!shell.mounted) {
    shell.queue.push([msg, info]);
    return;
  }
  dispatch(msg, info);
}

function dispatch(msg, info) {
  const mod = shell.mounted;
  if (msg.kind === "state") {
    if (msg.seq !== undefined && msg.seq < shell.lastStateSeq) return; // an older state arrived late
    shell.lastStateSeq = msg.seq ?? shell.lastStateSeq;
    shell.lastState = msg;
    const status = msg.status || (shell.room?.status === "waiting" ? "playing" : shell.room?.status);
    if (shell.room && status !== shell.room.status) {
      shell.room.status = status;
      renderPresence();
    }
    mod.update(msg);
    showTurnTimer(msg);
  } else if (msg.kind === "events") {
    mod.events?.(msg.events || [], info);
  } else if (msg.kind === "presence") {
    if (shell.room) {
      shell.room.seats = msg.seats;
      if (msg.status) shell.room.status = msg.status;
      if (msg.rematch) shell.room.rematch = msg.rematch;
      if (typeof msg.spectators === "number") shell.room.spectators = msg.spectators;
    }
    renderPresence();
    if (msg.rematch) showRematch(msg.rematch);
    mod.presence?.(msg.seats);
  } else if (msg.kind === "over") {
    if (shell.room) shell.room.status = "over";
    renderPresence();
    mod.over?.(msg.result);
    showOver(msg.result, info);
  }
}

/** A generic countdown for turn-based games with a turn timer (turn_deadline is on the match clock). */
let turnTimer = null;
function showTurnTimer(msg) {
  clearInterval(turnTimer);
  const pill = $("#turn-timer");
  if (msg.turn_deadline === null || msg.turn_deadline === undefined || msg.status === "over") {
    pill.hidden = true;
    return;
  }
  const ends = performance.now() + (msg.turn_deadline - (msg.clock ?? 0));
  const tick = () => {
    const left = Math.max(0, Math.ceil((ends - performance.now()) / 1000));
    pill.textContent = t("room.turn_timer", { s: left });
    pill.classList.toggle("urgent", left <= 5);
    if (left <= 0) clearInterval(turnTimer);
  };
  pill.hidden = false;
  tick();
  turnTimer = setInterval(tick, 250);
}

/** The game-over overlay: on one screen, the headline and Rematch first, then the game's own summary (its
 * final table and a short account of the game, see docs/web.md). "See the table"
 * closes it; the result stays in a bar at the bottom. */
async function showOver(result, info = {}) {
  shell.result = result;
  const panel = $("#over-panel");
  const cooperative = Boolean(shell.game?.cooperative);
  // Hot-seat: the page is everyone's, so the headline is nobody's ("you won" would name whoever holds it); the
  // line under it names who won, or between whom the tie is, for every page.
  const words = overWords(result, {
    seat: shell.seat, here: Boolean(shell.here), cooperative, t, gameT: shell.gameT, language: lang(),
    nameOf: (s) => seatLabel(shell.gameT, shell.room?.seats, s),
  });
  const { headline, reason, mine } = words;
  const winners = result?.winners || [];
  const buttons = [h("a", { class: "btn", href: `replay.html?code=${code}`, "data-testid": "replay-link" }, t("over.replay")), h("a", { class: "btn", href: "index.html" }, t("nav.lobby"))];
  if (shell.token) {
    buttons.unshift(h("button", { type: "button", class: "btn-primary", onclick: rematch, "data-testid": "rematch-button" }, t("over.rematch")));
  }
  const close = h("button", { type: "button", class: "btn-small over-close", "data-testid": "over-close", onclick: () => hideOver(true) }, t("over.see_table"));
  const bots = result?.details?.bot_finished || [];
  const botLine = bots.length ? h("p", { class: "over-bots", "data-testid": "bot-finished" }, t("over.bot_finished", { names: bots.map((s) => seatLabel(shell.gameT, shell.room?.seats, s)).join(", "), n: bots.length })) : null;
  const summary = h("div", { class: "over-summary", "data-testid": "over-summary" });
  fill(
    panel,
    h("div", { class: "over-card" },
      h("div", { class: "over-head" }, h("h2", { id: "over-title", tabindex: "-1" }, headline), close),
      words.winners ? h("p", { class: "over-winners", "data-testid": "over-winners" }, words.winners) : null,
      reason ? h("p", { class: "over-reason" }, reason) : null,
      botLine,
      h("div", { class: "actions" }, buttons),
      h("p", { id: "rematch-line", hidden: true }),
      summary),
  );
  panel.hidden = false;
  $("#over-bar").hidden = true;
  document.body.classList.add("over-open");
  if (shell.room?.rematch) showRematch(shell.room.rematch);
  if (!info.replayed) {
    announce([headline, words.winners, reason].filter(Boolean).join(" "));
    if (settings.sound) cue(mine || (cooperative && winners.length) ? "win" : "mistake");
  }
  const focusTarget = panel.querySelector('[data-testid="rematch-button"]') || $("#over-title");
  focusTarget?.focus({ preventScroll: true });
  const mod = shell.mounted;
  if (mod?.summary) {
    let steps = null;
    try {
      const data = await api("GET", `/api/rooms/${code}/replay`);
      steps = Array.isArray(data) ? data : data?.steps || null;
    } catch {
      steps = null;
    }
    try {
      const node = mod.summary(result, { steps, view: shell.lastState?.view || null });
      if (node) fill(summary, node);
    } catch (err) {
      console.error(err);
    }
  }
}

function hideOver(keepBar) {
  $("#over-panel").hidden = true;
  document.body.classList.remove("over-open");
  const bar = $("#over-bar");
  if (keepBar && bar) {
    bar.hidden = false;
    bar.querySelector("button")?.focus();
  }
}

function showRematch(newCode) {
  const line = $("#rematch-line");
  if (!line || $("#over-panel").hidden) return;
  fill(line, t("over.rematch_ready"), " ", h("a", { href: `room.html?code=${encodeURIComponent(newCode)}`, onclick: rematch }, newCode));
  line.hidden = false;
}

async function rematch(event) {
  event?.preventDefault();
  if (!shell.token) {
    if (shell.room?.rematch) location.href = `room.html?code=${encodeURIComponent(shell.room.rematch)}`;
    return;
  }
  try {
    // Hot-seat: everyone at this device comes along — the device's own seat first (it names the new room's
    // seat in this browser), then each other person here, whose seats the server holds for them.
    const saved = loadSeat(code);
    const here = shell.here ? [...shell.here.values()] : [];
    const first = here.find((e) => e.seat === shell.primary) || { token: shell.token, name: saved?.name };
    const answer = await api("POST", `/api/rooms/${code}/rematch`, {}, first.token);
    if (answer.token) {
      saveSeat(answer.code, answer.seat, answer.token, first.name, shell.room?.game);
      const seated = [];
      for (const entry of here.filter((e) => e !== first)) {
        try {
          const joined = await api("POST", `/api/rooms/${code}/rematch`, {}, entry.token);
          if (joined.token && joined.code === answer.code) seated.push({ seat: joined.seat, token: joined.token, name: entry.name });
        } catch (err) {
          toast(`${entry.name}: ${errorWords(err, t)}`, "error");
        }
      }
      if (seated.length) saveHereSeats(answer.code, seated);
    }
    location.href = `room.html?code=${encodeURIComponent(answer.code)}${answer.token ? "" : "&spectate=1"}`;
  } catch (err) {
    toast(errorWords(err, t), "error");
  }
}

function connect() {
  if (shell.conn) shell.conn.close();
  shell.conn = new Connection({
    code,
    token: shell.token,
    onMessage,
    onStatus: (status, detail) => {
      setStatus(status);
      if (status === "closed" && detail?.code === 4000) notice(t("room.left"), "info");
    },
  });
  shell.conn.connect();
}

function showJoin() {
  const seats = shell.room?.seats || [];
  const open = seats.filter((s) => s.kind === "open").length;
  const panel = $("#join-panel");
  panel.hidden = false;
  $("#join-title").textContent = t("join.title_game", { game: gameTitle() });
  const names = seats.filter((s) => s.kind !== "open").map((s) => seatLabel(shell.gameT, seats, s.seat));
  $("#join-game").textContent = t("join.about", { game: gameTitle(), players: shell.room?.players ?? seats.length, names: names.join(", ") || "—", n: open });
  if (!$("#join-name").value) $("#join-name").value = savedName();
  $("#join-button").disabled = !open;
  if (!open) notice(t("join.full"), "info");
}

/** Ask for a name in words (an empty name is refused by the server too, with the code name_required). */
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

function joinError(err) {
  if (err.code === "name_required" || (err.status === 422 && err.fields.some((f) => (f.loc || []).includes("name")))) {
    $("#join-name").value = "";
    nameMissing($("#join-name"), $("#join-name-error"));
    return;
  }
  if (err.code === "game_over" || err.code === "room_over") return showFinished();
  if (err.status === 409) return notice(has(`error.${err.code}`) ? t(`error.${err.code}`) : t("join.full"));
  notice(has(`error.${err.code}`) ? t(`error.${err.code}`, err.params) : `${t("error.join_failed")}: ${errorWords(err, t)}`);
}

/** A finished room: say so, with the way to its replay, and show its final table. */
function showFinished() {
  $("#join-panel").hidden = true;
  const box = $("#notice");
  box.hidden = false;
  box.className = "notice notice-info";
  fill(box, t("join.game_over", { game: gameTitle() }), " ", h("a", { href: `replay.html?code=${code}`, "data-testid": "finished-replay-link" }, t("over.replay")));
  if (!shell.conn) watch(false);
}

async function join(event) {
  event.preventDefault();
  if (nameMissing($("#join-name"), $("#join-name-error"))) return;
  const name = $("#join-name").value.trim();
  rememberName(name);
  try {
    const answer = await api("POST", `/api/rooms/${code}/join`, { name });
    saveSeat(code, answer.seat, answer.token, name, answer.room?.game);
    shell.token = answer.token;
    shell.room = answer.room || shell.room;
    $("#join-panel").hidden = true;
    $("#leave-button").hidden = false;
    notice("");
    connect();
  } catch (err) {
    joinError(err);
  }
}

async function leave() {
  if (!shell.token || !confirm(t("room.leave_confirm"))) return;
  try {
    await api("POST", `/api/rooms/${code}/leave`, {}, shell.token);
  } catch (err) {
    toast(errorWords(err, t), "error");
    return;
  }
  for (const entry of shell.here?.values() || []) {
    if (entry.token === shell.token) continue;
    await api("POST", `/api/rooms/${code}/leave`, {}, entry.token).catch(() => {});
    entry.conn.close();
  }
  shell.conn?.close();
  forgetSeat(code);
  location.href = "index.html";
}

function watch(clear = true) {
  shell.token = null;
  $("#join-panel").hidden = true;
  if (clear) notice("");
  connect();
}

async function main() {
  await initI18n();
  $("#lang-slot").append(languageSwitch());
  initSettings();
  setStatus("connecting");
  if (!code) {
    notice(t("error.no_code"));
    setStatus("idle");
    return;
  }
  const copyLink = async () => {
    const url = `${location.origin}${location.pathname}?code=${code}`;
    try {
      await navigator.clipboard.writeText(url);
      toast(t("room.copied"), "ok");
    } catch {
      toast(url);
    }
  };
  for (const button of document.querySelectorAll(".copy-link")) button.addEventListener("click", copyLink);
  $("#join-form").addEventListener("submit", join);
  $("#watch-button").addEventListener("click", watch);
  $("#leave-button").addEventListener("click", leave);
  renderHeader();
  try {
    shell.room = await api("GET", `/api/rooms/${code}`);
  } catch (err) {
    setStatus("idle");
    notice(err.status === 404 ? t("error.unknown_room") : `${t("error.server")}: ${errorWords(err, t)}`);
    return;
  }
  try {
    const games = await api("GET", "/api/games");
    shell.game = games.find((g) => g.id === shell.room.game) || null;
    const loaded = await loadGame(shell.game?.web_module);
    if (loaded) shell.gameT = loaded.t;
  } catch {
    // the welcome brings the game; the title waits for it
  }
  renderHeader();
  renderPresence();
  setInterval(refreshRoom, 5000);
  const saved = loadSeat(code);
  const here = saved ? loadHereSeats(code).filter((s) => s.seat !== saved.seat) : [];
  if (params.has("spectate") || params.has("watch")) {
    watch();
  } else if (saved && here.length) {
    $("#leave-button").hidden = false;
    startHotSeat(saved, here);
  } else if (saved) {
    shell.token = saved.token;
    shell.seat = saved.seat;
    $("#leave-button").hidden = false;
    connect();
  } else if (shell.room.status === "waiting" && shell.room.seats.some((s) => s.kind === "open")) {
    setStatus("idle"); // not connected yet: the page connects once a seat is taken (or to watch)
    showJoin();
  } else if (shell.room.status === "over") {
    showFinished();
  } else {
    notice(t("room.watching"), "info");
    watch();
  }
}

function initSettings() {
  const sound = $("#sound-check");
  const keys = $("#keys-check");
  sound.checked = settings.sound;
  keys.checked = settings.shortcuts;
  sound.addEventListener("change", () => {
    settings.sound = sound.checked;
    if (sound.checked) cue("ready");
  });
  document.body.dataset.shortcuts = settings.shortcuts ? "on" : "off";
  keys.addEventListener("change", () => {
    settings.shortcuts = keys.checked;
    document.body.dataset.shortcuts = keys.checked ? "on" : "off"; // key hints hide with the shortcuts
  });
  const bar = h("div", { id: "over-bar", class: "over-bar", hidden: true, "data-testid": "over-bar" },
    h("button", { type: "button", class: "btn-primary btn-small", onclick: () => shell.result && showOver(shell.result, { replayed: true }) }, t("over.show_result")));
  document.body.append(bar);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !$("#over-panel").hidden) hideOver(true);
  });
}

// -- hot-seat: several people on one device ------------------------------------------------------------------
// The page holds a connection for each of their seats and shows one seat's table at a time: the seat whose
// hands it is in. When that seat has nothing to do and another seat of this device has (its `legal` is not
// empty), the table is taken down and the page says "pass the device to X"; X's table is drawn only once X
// says they hold it. So what only one seat may see (a hand, the card the asker reads) is on the screen only
// while that seat holds the device. Nothing here knows a game: it goes by each seat's legal actions.

function startHotSeat(saved, others) {
  shell.here = new Map();
  for (const person of [{ seat: saved.seat, token: saved.token, name: saved.name }, ...others]) {
    const entry = { seat: person.seat, token: person.token, name: person.name || `#${person.seat + 1}`, conn: null, status: "connecting", state: null, over: null };
    entry.conn = new Connection({
      code,
      token: entry.token,
      onMessage: localMessage(entry),
      onStatus: (status) => {
        entry.status = status;
        if (entry.seat === (shell.seat ?? shell.passTo)) setStatus(status);
      },
    });
    shell.here.set(entry.seat, entry);
  }
  shell.seat = null;
  shell.primary = saved.seat;
  for (const entry of shell.here.values()) entry.conn.connect();
}

function localMessage(entry) {
  return (msg, info) => {
    if (msg.kind === "state") entry.state = msg;
    if (msg.kind === "over") entry.over = msg;
    if (entry.seat === shell.seat && shell.passTo === null) {
      onMessage(msg, info); // the seat holding the device: its table as usual
    } else if (msg.kind === "welcome" || msg.kind === "presence") {
      shell.room = msg.room || shell.room;
      shell.game = msg.game || shell.game;
      if (msg.kind === "presence" && shell.room) {
        shell.room.seats = msg.seats;
        if (msg.status) shell.room.status = msg.status;
      }
      renderHeader();
      renderPresence();
    } else if (msg.kind === "error" && FATAL.has(msg.code)) {
      entry.conn.close();
      toast(`${entry.name}: ${t(`error.${msg.code}`)}`, "error");
    } else if (msg.kind === "over" && shell.passTo !== null) {
      takeDevice(shell.passTo); // the game is over: every table may be seen
      return;
    }
    if (msg.kind === "state") checkHolder();
  };
}

/** Keep the device with its holder while they have something to do; else pass it to the next seat of this
 * device (to the left of the holder) that has. At the start, once every seat's state is in, it is passed. */
function checkHolder() {
  const entries = [...shell.here.values()];
  if (entries.some((e) => !e.state)) return;
  const acting = (e) => (e.state.legal || []).length > 0;
  const holder = shell.passTo ?? shell.seat;
  if (holder !== null && acting(shell.here.get(holder))) return;
  const players = shell.room?.players || Math.max(...entries.map((e) => e.seat)) + 1;
  const from = holder ?? shell.primary;
  const next = entries.filter(acting).sort((a, b) => ((a.seat - from + players) % players) - ((b.seat - from + players) % players))[0];
  if (next) {
    if (next.seat !== holder) passDevice(next.seat);
  } else if (holder === null) passDevice(shell.primary);
}

/** Take the table down and ask for the device to go to `seat`. */
function passDevice(seat) {
  const entry = shell.here.get(seat);
  shell.passTo = seat;
  shell.generation += 1;
  try {
    shell.mounted?.destroy();
  } catch (err) {
    console.error(err);
  }
  shell.mounted = null;
  shell.mounting = null;
  shell.queue = [];
  shell.lastState = null;
  shell.lastStateSeq = -1;
  shell.seat = null;
  shell.conn = null;
  shell.token = entry.token;
  setStatus(entry.status);
  // A fresh root: nothing the last holder saw (classes, attributes, elements) stays in the page.
  const root = h("section", { id: "game", class: "game-root", "data-testid": "game-root", "data-passing": seat });
  $("#game").replaceWith(root);
  const ready = h("button", { type: "button", class: "btn-primary", "data-testid": "pass-ready", onclick: () => takeDevice(seat) }, t("hotseat.ready", { name: entry.name }));
  fill(root, h("div", { class: "panel pass-device", "data-testid": "pass-device", "data-seat": seat },
    h("h2", {}, t("hotseat.pass", { name: entry.name })),
    h("p", { class: "muted" }, t("hotseat.pass_help", { name: entry.name })),
    ready));
  renderPresence();
  announce(t("hotseat.pass", { name: entry.name }));
  ready.focus({ preventScroll: true });
}

/** `seat` holds the device: draw its table from its latest state. */
function takeDevice(seat) {
  const entry = shell.here.get(seat);
  if (shell.passTo !== seat) return;
  shell.passTo = null;
  shell.seat = seat;
  shell.token = entry.token;
  shell.conn = entry.conn;
  const root = $("#game");
  root.removeAttribute("data-passing");
  fill(root);
  setStatus(entry.status);
  renderPresence();
  if (entry.state) shell.queue.push([entry.state, { replayed: true }]);
  if (entry.over) shell.queue.push([entry.over, { replayed: true }]);
  mountGame();
  checkHolder(); // things may have moved on while the device was passed
}

window.addEventListener("beforeunload", () => {
  shell.conn?.close();
  for (const entry of shell.here?.values() || []) entry.conn.close();
});
// For debugging from the console (and the browser tests): the shell's state, e.g. mindtableShell.conn.reconnect().
window.mindtableShell = shell;
shell.send = sendAction;
main();

// The table screen (table.html?code=XXXXXX): a room on a big display everyone at the table can see — the game's
// own page drawn from the spectator's view (the board, the question being asked, the history of questions),
// whose turn it is, the time left, the players, the room code and a QR code that opens the room on a phone.
// It connects without a seat token: the server treats it as a spectator, so it never receives more than one
// (no hand, no card's answer). It sends nothing. No game rules here, and no game named.

import { $, announce, api, fill, h, normalizeCode, setText, settings } from "./common.js";
import { Connection } from "./connection.js";
import { loadGame, nameList, overWords, seatLabel } from "./games.js";
import { initI18n, lang, languageSwitch, t } from "./i18n.js";
import { mountHistory } from "./quiz.js";
import { cue } from "./sound.js";

const params = new URLSearchParams(location.search);
const code = normalizeCode(params.get("code"));
// How long the finished game stays on the screen before it follows the table to its rematch room.
const FOLLOW_REMATCH_MS = 15000;

const screen = {
  room: null,
  game: null,
  gameT: t,
  conn: null,
  mounted: null,
  mounting: null,
  queue: [],
  lastState: null,
  lastStateSeq: -1,
  result: null,
  timer: null,
  follow: null,
  history: null, // the table's history of questions (a quiz game's view.quiz_history), in the side column
};

function notice(text, kind = "error") {
  const box = $("#notice");
  box.hidden = !text;
  box.className = `notice notice-${kind}`;
  fill(box, text || "");
}

function setStatus(status) {
  const pill = $("#conn-status");
  pill.dataset.status = status;
  pill.textContent = t(`conn.${status}`);
  pill.title = pill.textContent;
  document.body.dataset.conn = status;
}

const nameOf = (seat) => seatLabel(screen.gameT, screen.room?.seats, seat);

function gameTitle() {
  const title = screen.game ? screen.gameT("game.title") : "";
  return title && title !== "game.title" ? title : screen.game?.title || screen.room?.game || "";
}

function renderHeader() {
  $("#room-code").textContent = code;
  $("#game-title").textContent = gameTitle() || "mindtable";
  document.title = `${gameTitle() || "mindtable"} · ${code} · ${t("table.link")}`;
  // The address a phone opens: the room page beside this one (the QR code encodes the same, made by the server).
  $("#join-url").textContent = new URL(`room.html?code=${code}`, location.href).href;
}

/** Who is to play now (view.to_act, every game's view), by name; the seats of the room marked the same way. */
function renderTurn() {
  const view = screen.lastState?.view;
  const over = screen.room?.status === "over" || screen.lastState?.status === "over";
  const waiting = screen.room?.status === "waiting"; // the match starts once every seat is taken
  const toAct = over || waiting ? [] : view?.to_act || [];
  setText($("#turn-names"), waiting ? t("room.waiting") : toAct.length ? nameList(toAct.map(nameOf), lang()) : t("table.no_turn"));
  $("#turn-names").dataset.seats = toAct.join(",");
  const seats = screen.room?.seats || [];
  fill(
    $("#seats"),
    seats.map((s) => {
      const state = s.kind === "open" ? "open" : s.kind === "bot" || s.connected ? "online" : "offline";
      return h(
        "li",
        { class: `table-seat table-seat-${state}${toAct.includes(s.seat) ? " table-seat-turn" : ""}`, "data-seat": s.seat, "data-testid": `table-seat-${s.seat}` },
        h("span", { class: "dot", "aria-hidden": "true" }),
        h("span", { class: "table-seat-name" }, s.kind === "open" ? t("seat.open") : nameOf(s.seat)),
        s.kind === "bot" && !s.replaced ? h("span", { class: "badge" }, t("seat.bot")) : null,
        s.replaced ? h("span", { class: "badge" }, t("seat.replaced")) : null,
        state === "offline" ? h("span", { class: "badge badge-offline" }, t("presence.offline_badge")) : null,
        toAct.includes(s.seat) ? h("span", { class: "sr-only" }, t("table.whose_turn")) : null,
      );
    }),
  );
  const watching = screen.room?.spectators ?? 0;
  setText($("#watching"), watching ? t("room.spectators", { n: watching }) : "");
}

/** The time left until the match's next deadline (an answer clock, a round), on the server's match clock. */
function renderTimer(msg) {
  clearInterval(screen.timer);
  const box = $("#timer-box");
  const deadline = msg.deadline ?? null;
  if (deadline === null || msg.status === "over") {
    box.hidden = true;
    return;
  }
  const ends = performance.now() + (deadline - (msg.clock ?? 0));
  const tick = () => {
    const left = Math.max(0, Math.ceil((ends - performance.now()) / 1000));
    setText($("#timer"), t("table.seconds", { s: left }));
    $("#timer").classList.toggle("urgent", left <= 5);
    $("#timer").dataset.left = String(left);
    if (left <= 0) clearInterval(screen.timer);
  };
  box.hidden = false;
  tick();
  screen.timer = setInterval(tick, 250);
}

/** The room's QR code, from the server (it builds the join address from the host this page came from). */
async function renderQr() {
  const box = $("#qr");
  try {
    const text = await api("GET", `/api/rooms/${code}/qr.svg`);
    const parsed = new DOMParser().parseFromString(String(text), "image/svg+xml").documentElement;
    if (parsed.namespaceURI !== "http://www.w3.org/2000/svg" || parsed.querySelector("script")) throw new Error("not a QR code");
    const svg = document.importNode(parsed, true);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", t("table.qr_label", { code }));
    svg.setAttribute("data-testid", "table-qr-svg");
    svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    fill(box, svg);
  } catch (err) {
    fill(box, h("p", { class: "muted", "data-testid": "table-qr-failed" }, err?.code ? t(`error.${err.code}`) : t("table.qr_failed")));
  }
}

async function mountGame() {
  if (screen.mounting) return screen.mounting;
  screen.mounting = (async () => {
    const root = $("#game");
    let loaded = null;
    try {
      loaded = await loadGame(screen.game?.web_module);
    } catch (err) {
      console.error(err);
      notice(t("error.module_failed", { name: screen.game?.web_module }));
    }
    if (loaded) {
      screen.gameT = loaded.t;
      renderHeader();
      screen.mounted = loaded.module.mount(root, {
        code,
        seat: null,
        spectator: true,
        lang: lang(),
        t: loaded.t,
        game: screen.game,
        replay: false,
        send: () => Promise.reject({ code: "not_a_seat", message: t("error.spectator") }),
        seats: () => screen.room?.seats || [],
        seatName: nameOf,
        notify: () => {},
        announce: (text) => announce(text),
        sound: (kind) => cue(kind),
        shortcuts: () => false,
        online: () => false,
      });
    } else {
      screen.mounted = plainView(root);
    }
    root.classList.add("table-mounted");
    new ResizeObserver(() => fitBoard()).observe(root);
    window.addEventListener("resize", fitBoard);
    // The history of questions (quiz games) is read from afar in the side column, drawn by the shared module.
    screen.history = mountHistory($("#history"), { t: screen.gameT, seat: null, seatName: nameOf });
    const queued = screen.queue;
    screen.queue = [];
    for (const [msg, info] of queued) dispatch(msg, info);
  })();
  return screen.mounting;
}

/** A game page in two parts that stacks them (its own style has no columns) is laid out side by side, so the
 * question stays in view beside the board; decided once the page's style sheet is in. */
function arrange() {
  const root = $("#game");
  if (root.dataset.arranged) return;
  const sheet = document.querySelector(`link[data-game-css="${screen.game?.web_module}"]`);
  if (sheet && !sheet.sheet) return;
  root.dataset.arranged = "1";
  const display = getComputedStyle(root).display;
  if (root.children.length === 2 && display !== "grid" && display !== "flex") root.classList.add("table-two");
}

/** The game's board as large as the screen allows, and no larger: the column of the game's page that holds it
 * ends on the screen (nobody scrolls a TV), the board keeping at least half the screen's height. Measured again
 * whenever the page's size changes (a new state, its style sheets arriving, the window resized). */
function fitBoard() {
  const root = $("#game");
  const board = root.querySelector(".mt-board");
  if (!board) return;
  board.style.maxHeight = "";
  let column = board;
  while (column.parentElement && column.parentElement !== root) column = column.parentElement;
  const gap = parseFloat(getComputedStyle(document.querySelector("main.table-grid") || root).paddingBottom) || 0;
  const over = column.getBoundingClientRect().bottom + window.scrollY - (window.innerHeight - gap);
  const height = board.getBoundingClientRect().height;
  if (over > 0) board.style.maxHeight = `${Math.floor(Math.max(height - over, window.innerHeight / 2))}px`;
}

/** A game without a page of its own: its view as a table (the room page's generic table, without buttons). */
function plainView(root) {
  const table = h("table", { class: "generic-view", "data-testid": "generic-view" });
  fill(root, table);
  const show = (value) => (value !== null && typeof value === "object" ? JSON.stringify(value) : String(value));
  return {
    update(msg) {
      fill(table, Object.entries(msg.view || {}).filter(([key]) => key !== "to_act").map(([key, value]) => h("tr", {}, h("th", { scope: "row" }, key), h("td", {}, show(value)))));
    },
    destroy() {},
  };
}

function onMessage(msg, info) {
  if (msg.kind === "welcome") {
    if (!msg.resumed) screen.lastStateSeq = -1;
    screen.room = msg.room || screen.room;
    screen.game = msg.game || screen.game;
    renderHeader();
    renderTurn();
    mountGame();
    return;
  }
  if (msg.kind === "error") {
    notice(t(`error.${msg.code}`));
    return;
  }
  if (!screen.mounted) {
    screen.queue.push([msg, info]);
    return;
  }
  dispatch(msg, info);
}

function dispatch(msg, info) {
  const mod = screen.mounted;
  if (msg.kind === "state") {
    if (msg.seq !== undefined && msg.seq < screen.lastStateSeq) return;
    screen.lastStateSeq = msg.seq ?? screen.lastStateSeq;
    screen.lastState = msg;
    if (screen.room && msg.status) screen.room.status = msg.status;
    mod.update(msg);
    arrange();
    fitBoard();
    screen.history?.update(msg);
    renderTurn();
    renderTimer(msg);
  } else if (msg.kind === "events") {
    mod.events?.(msg.events || [], info);
  } else if (msg.kind === "presence") {
    if (screen.room) {
      screen.room.seats = msg.seats;
      if (msg.status) screen.room.status = msg.status;
      if (typeof msg.spectators === "number") screen.room.spectators = msg.spectators;
    }
    mod.presence?.(msg.seats);
    renderTurn();
    if (msg.rematch) followRematch(msg.rematch);
  } else if (msg.kind === "over") {
    if (screen.room) screen.room.status = "over";
    mod.over?.(msg.result);
    showOver(msg.result, info);
    renderTurn();
  }
}

/** The end of the game, beside the final board: who won and why, and the game's own summary. */
function showOver(result, info = {}) {
  screen.result = result;
  clearInterval(screen.timer);
  $("#timer-box").hidden = true;
  const words = overWords(result, { seat: null, cooperative: Boolean(screen.game?.cooperative), t, gameT: screen.gameT, language: lang(), nameOf });
  const box = $("#over-box");
  let summary = null;
  try {
    summary = screen.mounted?.summary?.(result, { steps: null, view: screen.lastState?.view || null }) || null;
  } catch (err) {
    console.error(err);
  }
  fill(box,
    h("h2", { id: "over-title" }, words.headline),
    words.winners ? h("p", { class: "table-winners", "data-testid": "table-winners" }, words.winners) : null,
    words.reason ? h("p", { class: "muted" }, words.reason) : null,
    summary,
    h("p", { id: "rematch-line", "data-testid": "table-rematch", hidden: true }));
  box.hidden = false;
  if (!info.replayed) {
    announce([words.headline, words.winners, words.reason].filter(Boolean).join(" "));
    if (settings.sound) cue("win");
  }
  if (screen.room?.rematch) followRematch(screen.room.rematch);
}

/** The table plays again: say so, then show the new room (its own code and QR code) on this screen. */
function followRematch(next) {
  const line = $("#rematch-line");
  if (!next || next === code || screen.follow) return;
  const href = `table.html?code=${encodeURIComponent(next)}`;
  if (line) {
    fill(line, h("a", { href }, t("table.next_game", { code: next })));
    line.hidden = false;
  }
  screen.follow = setTimeout(() => location.assign(href), FOLLOW_REMATCH_MS);
}

/** The spectator count is in the room, not in presence messages: ask now and then while the game runs. */
async function refreshRoom() {
  if (document.visibilityState !== "visible" || !screen.room || screen.room.status === "over") return;
  try {
    const room = await api("GET", `/api/rooms/${code}`);
    if (screen.room) screen.room.spectators = room.spectators;
    renderTurn();
  } catch {
    // the next try will do
  }
}

async function main() {
  await initI18n();
  $("#lang-slot").append(languageSwitch());
  setStatus("connecting");
  if (!code) {
    notice(t("error.no_code"));
    setStatus("closed");
    return;
  }
  renderHeader();
  try {
    screen.room = await api("GET", `/api/rooms/${code}`);
  } catch (err) {
    setStatus("closed");
    notice(err.status === 404 ? t("error.unknown_room") : `${t("error.server")}: ${err.message}`);
    return;
  }
  renderQr();
  try {
    const games = await api("GET", "/api/games");
    screen.game = games.find((g) => g.id === screen.room.game) || null;
    const loaded = await loadGame(screen.game?.web_module);
    if (loaded) screen.gameT = loaded.t;
  } catch {
    // the welcome brings the game
  }
  renderHeader();
  renderTurn();
  setInterval(refreshRoom, 5000);
  screen.conn = new Connection({ code, token: null, onMessage, onStatus: (status) => setStatus(status) });
  screen.conn.connect();
}

window.addEventListener("beforeunload", () => screen.conn?.close());
// For the browser tests: the screen's state (its last state message, the room).
window.mindtableTable = screen;
main();

// The replay page: steps through a finished game's record (GET /api/rooms/{code}/record).
// The browser cannot run the rules engine, so it shows the recorded actions one by one; when the server
// offers per-step views (GET /api/rooms/{code}/replay, see docs/web.md) it also draws the table at each
// step through the game's own module: as a spectator, or (``?seat=N``, the "Seen by" choice) as one seat
// saw it, hand included — once a game is over every hand may be shown.

import { $, api, fill, h, normalizeCode, typingInField } from "./common.js";
import { loadGame, seatLabel } from "./games.js";
import { formatNumber, initI18n, languageSwitch, t } from "./i18n.js";
import { errorWords } from "./reasons.js";

const params = new URLSearchParams(location.search);
const code = normalizeCode(params.get("code"));
const rp = { record: null, room: null, game: null, steps: null, index: 0, timer: null, module: null, gameT: t, loaded: null, seat: null };

function notice(text, kind = "error") {
  const box = $("#notice");
  box.hidden = !text;
  box.className = `notice notice-${kind}`;
  fill(box, text || "");
}

function seatName(seat) {
  return seatLabel(rp.gameT, rp.room?.seats, seat);
}

function total() {
  return rp.record.actions.length;
}

/** A recorded action in the game's words; `index` is its place in the record (the table before it is step
 * `index`, when the server sent per-step views). */
function actionText(action, index) {
  const view = rp.steps?.[index]?.view ?? null;
  if (rp.loaded?.module.describeAction) return rp.loaded.module.describeAction(action, { t: rp.gameT, seatName, view });
  const who = action.seat === null || action.seat === undefined ? t("replay.system") : seatName(action.seat);
  const { type, seat: _s, at: _a, ...rest } = action;
  const extra = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : "";
  return `${who}: ${type}${extra}`;
}

function timeText(action) {
  return typeof action.at === "number" ? t("replay.seconds", { s: formatNumber(action.at / 1000, 1) }) : "";
}

/** "Last level: 2" with the game's own labels when it has them, and its values as its lobby form shows them. */
function optionText(name, stored) {
  const tr = rp.gameT;
  const form = rp.loaded?.module.lobby;
  const value = form?.fromServer ? form.fromServer(name, stored) : stored;
  const label = tr.has?.(`option.${name}`) ? tr(`option.${name}`) : name.replaceAll("_", " ");
  let shown = value === null ? t("option.default") : String(value);
  if (typeof value === "boolean") shown = t(value ? "yes" : "no");
  else if (tr.has?.(`option.${name}.${value}`)) shown = tr(`option.${name}.${value}`);
  return `${label}: ${shown}`;
}

/** The options that applied to this game (a game's lobby form may hide some, e.g. those of another mode). */
function shownOptions(record) {
  const form = rp.loaded?.module.lobby;
  const entries = Object.entries(record.options || {});
  return form?.shown ? entries.filter(([name]) => form.shown(name, record.options, record.players)) : entries;
}

function renderSummary() {
  const r = rp.record;
  const result = r.result;
  const reasonKey = `result.${result?.reason}`;
  const reason = result ? (rp.gameT.has?.(reasonKey) ? rp.gameT(reasonKey) : result.reason) : t("replay.no_result");
  const players = Array.from({ length: r.players }, (_, s) => seatName(s)).join(", ");
  const winners = result?.winners?.length ? result.winners.map(seatName).join(", ") : "—";
  fill(
    $("#summary"),
    h("h2", {}, t("replay.title")),
    h("dl", { class: "facts" },
      h("dt", {}, t("field.players")), h("dd", {}, players),
      h("dt", {}, t("replay.result")), h("dd", { "data-testid": "replay-result" }, reason),
      h("dt", {}, t("replay.winners")), h("dd", {}, winners),
      h("dt", {}, t("replay.actions_n")), h("dd", {}, String(total())),
      Object.keys(r.options || {}).length ? [h("dt", {}, t("lobby.options")), h("dd", { class: "muted", "data-testid": "replay-options" }, shownOptions(r).map(([k, v]) => optionText(k, v)).join(" · "))] : null),
  );
  $("#summary").hidden = false;
}

function renderSteps() {
  const list = $("#steps");
  // The numbers stand left of the list: it makes room for as many digits as the last one has (1000 and more).
  list.style.setProperty("--step-digits", String(String(total()).length));
  fill(
    list,
    h("li", { "data-step": 0, class: "replay-step" }, h("button", { type: "button", class: "linkish", onclick: () => go(0) }, t("replay.start"))),
    rp.record.actions.map((action, i) =>
      h("li", { "data-step": i + 1, class: "replay-step" },
        h("button", { type: "button", class: "linkish", onclick: () => go(i + 1) }, h("span", { class: "muted step-time" }, timeText(action)), " ", actionText(action, i))),
    ),
  );
  $("#steps-panel").hidden = false;
}

function go(index, { fromPlay = false } = {}) {
  const previous = rp.index;
  rp.index = Math.max(0, Math.min(total(), index));
  if (!fromPlay) stop();
  $("#slider").value = String(rp.index);
  $("#position").textContent = t("replay.step", { n: rp.index, total: total() });
  for (const li of document.querySelectorAll("#steps li")) {
    const on = Number(li.dataset.step) === rp.index;
    li.classList.toggle("current", on);
    if (on) li.setAttribute("aria-current", "step");
    else li.removeAttribute("aria-current");
  }
  const current = document.querySelector(`#steps li[data-step="${rp.index}"]`);
  current?.scrollIntoView({ block: "nearest" });
  const action = rp.index ? rp.record.actions[rp.index - 1] : null;
  fill(
    $("#current"),
    h("strong", {}, action ? actionText(action, rp.index - 1) : t("replay.start")),
    action && timeText(action) ? h("span", { class: "muted" }, ` · ${timeText(action)}`) : null,
    rp.index === total() && rp.record.result ? h("p", {}, t("replay.final")) : null,
  );
  $("#current").hidden = false;
  renderFinal();
  if (rp.module && rp.steps) {
    const step = rp.steps[rp.index];
    if (step) {
      rp.module.update({ kind: "state", view: step.view, legal: [], clock: step.clock ?? action?.at ?? 0, deadline: null });
      if (rp.index === previous + 1 && step.events) rp.module.events?.(step.events, { replayed: false });
    }
  }
}

/** Once the game is over every hand may be shown: at the last step the game's summary (its final table). */
function renderFinal() {
  const box = $("#final");
  const at = rp.index === total() && rp.record.result && rp.module?.summary && rp.steps;
  box.hidden = !at;
  if (!at || box.dataset.drawn) return;
  try {
    const node = rp.module.summary(rp.record.result, { steps: rp.steps, view: rp.steps[rp.steps.length - 1]?.view });
    if (node) {
      fill(box, node);
      box.dataset.drawn = "1";
    } else box.hidden = true;
  } catch (err) {
    console.error(err);
    box.hidden = true;
  }
}

function mountTable() {
  const root = $("#game");
  root.hidden = false;
  rp.module?.destroy?.();
  rp.module = rp.loaded.module.mount(root, { code, seat: rp.seat, spectator: rp.seat === null, replay: true, lang: document.documentElement.lang, t: rp.gameT, game: rp.game, send: () => Promise.reject({ code: "replay", message: "replay" }), seats: () => rp.room?.seats || [], seatName, notify: () => {} });
}

/** "Seen by": the table (a spectator, no hands) or one seat, whose hand the replay then shows at every step. */
function renderSeenBy() {
  const select = $("#seen-by");
  fill(
    select,
    h("option", { value: "" }, t("replay.seen_by_table")),
    Array.from({ length: rp.record.players }, (_, s) => h("option", { value: String(s) }, seatName(s))),
  );
  select.value = rp.seat === null ? "" : String(rp.seat);
  select.addEventListener("change", () => seeAs(select.value === "" ? null : Number(select.value)));
  $("#seen-by-box").hidden = false;
}

async function seeAs(seat) {
  const steps = await loadSteps(seat);
  if (!steps) return notice(t("error.server"));
  stop();
  rp.seat = seat;
  rp.steps = steps;
  const url = new URL(location.href);
  if (seat === null) url.searchParams.delete("seat");
  else url.searchParams.set("seat", String(seat));
  history.replaceState(null, "", url);
  mountTable();
  delete $("#final").dataset.drawn;
  go(rp.index);
}

function stop() {
  clearInterval(rp.timer);
  rp.timer = null;
  $("#play").textContent = "▶";
  $("#play").title = t("replay.play");
  $("#play").setAttribute("aria-label", t("replay.play"));
}

function togglePlay() {
  if (rp.timer) return stop();
  if (rp.index >= total()) go(0);
  $("#play").textContent = "❙❙";
  $("#play").title = t("replay.pause");
  $("#play").setAttribute("aria-label", t("replay.pause"));
  rp.timer = setInterval(() => {
    if (rp.index >= total()) stop();
    else go(rp.index + 1, { fromPlay: true });
  }, 900);
}

async function loadSteps(seat) {
  try {
    const data = await api("GET", `/api/rooms/${code}/replay${seat === null ? "" : `?seat=${seat}`}`);
    const steps = Array.isArray(data) ? data : data?.steps;
    if (Array.isArray(steps) && steps.length === total() + 1 && steps.every((s) => s && s.view)) return steps;
  } catch {
    // no per-step views from this server: the page shows the actions only
  }
  return null;
}

async function main() {
  await initI18n();
  $("#lang-slot").append(languageSwitch());
  $("#room-code").textContent = code;
  if (!code) return notice(t("error.no_code"));
  try {
    rp.room = await api("GET", `/api/rooms/${code}`);
  } catch {
    rp.room = null;
  }
  try {
    rp.record = await api("GET", `/api/rooms/${code}/record`);
  } catch (err) {
    if (err.status === 403) notice(t("replay.not_over"), "info");
    else if (err.status === 404) notice(t("error.unknown_room"));
    else notice(`${t("error.server")}: ${errorWords(err, t)}`);
    return;
  }
  rp.record.actions = rp.record.actions || [];
  try {
    const games = await api("GET", "/api/games");
    rp.game = games.find((g) => g.id === rp.record.game) || null;
  } catch {
    rp.game = null;
  }
  try {
    rp.loaded = await loadGame(rp.game?.web_module);
    if (rp.loaded) rp.gameT = rp.loaded.t;
  } catch {
    rp.loaded = null;
  }
  const title = rp.gameT.has?.("game.title") ? rp.gameT("game.title") : rp.game?.title || rp.record.game;
  $("#game-title").textContent = title;
  document.title = `${title} · ${t("replay.title")} · ${code}`;
  const asked = params.get("seat");
  rp.seat = asked !== null && /^\d+$/.test(asked) && Number(asked) < rp.record.players ? Number(asked) : null;
  rp.steps = await loadSteps(rp.seat);
  if (!rp.steps && rp.seat !== null) {
    rp.seat = null;
    rp.steps = await loadSteps(null);
  }
  if (rp.steps && rp.loaded) {
    mountTable();
    renderSeenBy();
  }
  renderSummary();
  renderSteps();
  const slider = $("#slider");
  slider.max = String(total());
  slider.addEventListener("input", () => go(Number(slider.value)));
  $("#first").addEventListener("click", () => go(0));
  $("#prev").addEventListener("click", () => go(rp.index - 1));
  $("#next").addEventListener("click", () => go(rp.index + 1));
  $("#last").addEventListener("click", () => go(total()));
  $("#play").addEventListener("click", togglePlay);
  document.addEventListener("keydown", (event) => {
    if (typingInField(event) || event.ctrlKey || event.metaKey || event.altKey) return;
    const keys = { ArrowLeft: () => go(rp.index - 1), ArrowRight: () => go(rp.index + 1), Home: () => go(0), End: () => go(total()) };
    if (keys[event.key]) {
      event.preventDefault();
      keys[event.key]();
    } else if (event.key === " " && !["BUTTON", "A", "INPUT"].includes(event.target.tagName)) {
      event.preventDefault();
      togglePlay();
    }
  });
  $("#controls").hidden = false;
  go(total());
}

main();

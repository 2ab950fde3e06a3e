// NeuroRace at the table. Renders only what the server sends: `view` and `legal` from each state message
// (plus `deadline` / `clock` for the SOLO timer) and the events this seat may see. Implements the
// game-module interface of docs/web.md. Every action sent is one that `legal` lists, with its parameters.

import { fill as put, h as el, setText } from "../../js/common.js";
import { formatNumber } from "../../js/i18n.js";

const GLYPH = { sun: "☀", moon: "☾", lightning: "ϟ" };
const SYMBOLS = ["sun", "moon", "lightning"];
const PLACES = 7;

// Buttons of the action bar: type, key shown, keys accepted, class.
const ACTIONS = [
  { type: "ready", key: "S", keys: ["s"], cls: "btn-primary nr-btn-ready" },
  { type: "start", key: "S", keys: ["s"], cls: "btn-primary nr-btn-start" },
  { type: "turn", key: "F", keys: ["f"], cls: "nr-btn-turn" },
  { type: "place", key: "P", keys: ["p"], cls: "btn-primary nr-btn-place" },
  { type: "return", key: "R", keys: ["r"], cls: "nr-btn-return" },
  { type: "take_back", key: "B", keys: ["b"], cls: "nr-btn-take-back" },
  { type: "stop", key: "S", keys: ["s"], cls: "nr-btn-stop" },
  { type: "end", key: "E", keys: ["e"], cls: "nr-btn-end" },
];

function pad2(n) {
  return String(n).padStart(2, "0");
}

function isTyping(event) {
  const t = event.target;
  if (!t || !t.tagName) return false;
  const tag = t.tagName.toLowerCase();
  return tag === "input" || tag === "textarea" || tag === "select" || t.isContentEditable;
}

/** A task line ("sun [red] blue-moon < 4_ _7 > lightning purple-sun") as places and the signs between them. */
export function parseTask(text) {
  const places = [];
  const signs = [];
  let pending = null;
  for (const token of String(text || "").match(/[<>]|[^\s<>]+/g) || []) {
    if (token === "<" || token === ">") {
      pending = token;
      continue;
    }
    if (places.length) signs.push(pending);
    pending = null;
    places.push(parsePlace(token));
  }
  return { places, signs };
}

function parsePlace(token) {
  if (SYMBOLS.includes(token)) return { kind: "symbol", symbol: token, text: token };
  let m = /^\[(\w+)\]$/.exec(token);
  if (m) return { kind: "colour", colour: m[1], text: token };
  m = /^(\w+)-(\w+)$/.exec(token);
  if (m) return { kind: "both", colour: m[1], symbol: m[2], text: token };
  m = /^(\d)_$/.exec(token);
  if (m) return { kind: "first", digit: Number(m[1]), text: token };
  m = /^_(\d)$/.exec(token);
  if (m) return { kind: "last", digit: Number(m[1]), text: token };
  return { kind: "unknown", text: token };
}

export function mount(root, ctx) {
  const { t } = ctx;
  const seat = ctx.spectator || ctx.seat === null || ctx.seat === undefined ? null : ctx.seat;
  let last = null; // the latest state message
  let busy = false; // an action of ours is on its way: controls wait for its state
  let waitStep = null;
  let busyTimer = null;
  let timer = null; // SOLO countdown
  let tapMode = "take"; // what a click on a centre tile does: "take" or "turn"
  let countdownTimer = null; // the 3-2-1 before a round
  let checkSig = null; // the check box is redrawn only when the check changes
  let warned = new Set(); // SOLO: the warnings already given this round (10 s, 5 s)
  let focusSpot = 0; // the centre is one Tab stop: this spot has tabindex 0, arrows move it
  const logKey = `mindtable:log:${ctx.code || "replay"}:${seat ?? "watch"}`;
  const log = ctx.replay ? [] : loadLog(logKey);

  root.classList.add("nr");
  const status = el("div", { class: "nr-status", "data-testid": "nr-status" });
  const banner = el("div", { class: "nr-banner", "data-testid": "nr-banner", role: "status", "aria-live": "polite" });
  const mine = el("section", { class: "nr-mine", "aria-label": t("nr.your_card") });
  const handBox = el("div", { class: "nr-hand", "data-testid": "hand" });
  const bar = el("div", { class: "nr-actions", role: "toolbar", "aria-label": t("nr.actions") });
  const keysLine = el("p", { class: "nr-keys muted" }, t("nr.keys"));
  const centreHead = el("div", { class: "nr-centre-head" });
  const centreGrid = el("div", { class: "nr-centre-grid", "data-testid": "centre", role: "group", "aria-label": t("nr.centre") });
  const centre = el("section", { class: "nr-centre" }, centreHead, centreGrid);
  const others = el("section", { class: "nr-others", "aria-label": t("nr.others") });
  const checkBox = el("section", { class: "nr-check", "data-testid": "check", hidden: true, "aria-live": "polite", "aria-label": t("nr.check.label") });
  const countdown = el("div", { class: "nr-countdown", "data-testid": "countdown", hidden: true, "aria-hidden": "true" });
  const logBox = el("ol", { class: "nr-log", "data-testid": "nr-log", "aria-label": t("nr.log") });
  const buttons = new Map();
  for (const a of ACTIONS) {
    const b = el(
      "button",
      { type: "button", class: a.cls, "data-action": a.type, "data-testid": `action-${a.type}`, "aria-keyshortcuts": a.key, hidden: true },
      el("span", {}, t(`nr.action.${a.type}`)),
      el("kbd", {}, a.key),
    );
    b.addEventListener("click", () => act(a.type));
    buttons.set(a.type, b);
    bar.append(b);
  }
  const tapToggle = el("div", { class: "nr-tap", role: "radiogroup", "aria-label": t("nr.tap_does") });
  const tapButtons = ["take", "turn"].map((mode) => {
    const b = el("button", { type: "button", class: "btn-small", role: "radio", "data-tap": mode, "data-testid": `tap-${mode}` }, t(mode === "take" ? "nr.tap.take" : "nr.tap.turn"));
    b.addEventListener("click", () => {
      tapMode = mode;
      if (last) render(last);
    });
    tapToggle.append(b);
    return b;
  });

  // One grid; style.css places the parts (two columns on a wide screen, one on a phone).
  const main = el("div", { class: "nr-main" }, mine, centre);
  const aside = el("div", { class: "nr-aside" });
  if (seat !== null) {
    aside.append(el("div", { class: "nr-handbar" }, handBox, bar));
    main.append(keysLine);
  }
  aside.append(others, checkBox, el("details", { class: "nr-log-box", open: true }, el("summary", {}, t("nr.log")), logBox));
  put(root, status, banner, countdown, el("div", { class: "nr-layout" }, main, aside));
  if (seat === null) mine.hidden = true;

  // -- words -------------------------------------------------------------------------------------------
  function name(s) {
    if (s === seat && seat !== null) return t("nr.you");
    return ctx.seatName(s);
  }
  const colourName = (c) => t(`nr.colour.${c}`);
  const symbolName = (s) => t(`nr.symbol.${s}`);

  // A tile's name starts with its number, as printed on it ("07 red sun"), so speech matches the text.
  function sideText(sideInfo) {
    const { symbol, colour, number } = sideInfo;
    const n = pad2(number);
    if (symbol === "any" && colour === "any") return t("nr.side.any_all", { number: n });
    if (symbol === "any") return t("nr.side.any_symbol", { colour: colourName(colour), number: n });
    if (colour === "any") return t("nr.side.any_colour", { symbol: symbolName(symbol), number: n });
    return t("nr.side", { symbol: symbolName(symbol), colour: colourName(colour), number: n });
  }

  function condText(place) {
    switch (place.kind) {
      case "symbol":
        return t("nr.cond.symbol", { symbol: symbolName(place.symbol) });
      case "colour":
        return t("nr.cond.colour", { colour: colourName(place.colour) });
      case "both":
        return t("nr.cond.both", { symbol: symbolName(place.symbol), colour: colourName(place.colour) });
      case "first":
        return t("nr.cond.first", { digit: place.digit });
      case "last":
        return t("nr.cond.last", { digit: place.digit });
      default:
        return place.text;
    }
  }

  // Problems come as codes with parameters (tasks.layout_problems); the English "reason" is only a fallback.
  function problemText(problem, task) {
    const two = (n) => String(n).padStart(2, "0");
    if (problem.code === "empty") return t("nr.problem.empty");
    if (problem.code === "sign") return t(problem.sign === "<" ? "nr.problem.less" : "nr.problem.greater", { left: two(problem.left), right: two(problem.right) });
    const place = task?.places?.[problem.place];
    if (problem.code === "needs" && place && place.kind !== "unknown") return t("nr.problem.needs", { what: condText(place) });
    return String(problem.reason || "");
  }

  // -- drawing pieces ----------------------------------------------------------------------------------
  function glyphs(sideInfo) {
    const symbols = sideInfo.symbol === "any" ? SYMBOLS : [sideInfo.symbol];
    return el("span", { class: `nr-glyph${symbols.length > 1 ? " many" : ""}`, "aria-hidden": "true" }, symbols.map((s) => el("span", {}, GLYPH[s] || "?")));
  }

  /** One side of a tile: symbol(s) in colour over a two-digit number. */
  function tileFace(sideInfo, extra = "", attrs = {}) {
    const bonus = sideInfo.symbol === "any" || sideInfo.colour === "any";
    return el(
      "span",
      {
        class: `nr-tile c-${sideInfo.colour}${bonus ? " bonus" : ""} ${extra}`,
        "data-symbol": sideInfo.symbol,
        "data-colour": sideInfo.colour,
        "data-number": sideInfo.number,
        title: sideText(sideInfo),
        role: "img",
        "aria-label": sideText(sideInfo),
        ...attrs,
      },
      glyphs(sideInfo),
      el("span", { class: "nr-num" }, pad2(sideInfo.number)),
    );
  }

  /** The condition of a place as printed on the card. */
  function condFace(place, small = false) {
    const cls = `nr-cond k-${place.kind}${small ? " small" : ""}`;
    const label = condText(place);
    const attrs = { class: cls, title: label, "aria-label": label, role: "img", "data-cond": place.text };
    switch (place.kind) {
      case "symbol":
        return el("span", { ...attrs, class: `${cls} white` }, el("span", { class: "nr-glyph", "aria-hidden": "true" }, GLYPH[place.symbol]));
      case "colour":
        return el("span", attrs, el("span", { class: `nr-square c-${place.colour}`, "aria-hidden": "true" }));
      case "both":
        return el("span", { ...attrs, class: `${cls} c-${place.colour}` }, el("span", { class: "nr-glyph", "aria-hidden": "true" }, GLYPH[place.symbol]));
      case "first":
        return el("span", attrs, el("span", { class: "nr-digits", "aria-hidden": "true" }, String(place.digit), el("span", { class: "nr-blank" })));
      case "last":
        return el("span", attrs, el("span", { class: "nr-digits", "aria-hidden": "true" }, el("span", { class: "nr-blank" }), String(place.digit)));
      default:
        return el("span", attrs, place.text);
    }
  }

  function signFace(sign, small = false) {
    if (!sign) return null;
    return el("span", { class: `nr-sign${small ? " small" : ""}`, title: t(sign === "<" ? "nr.sign.less" : "nr.sign.greater"), "data-sign": sign }, sign);
  }

  /** A task card: each place's condition with the tile laid there (or an empty place), signs between. */
  function cardRow(taskText, slots, opts = {}) {
    const task = taskText ? parseTask(taskText) : null;
    const filled = (slots || []).findIndex((s) => !s);
    const next = filled === -1 ? PLACES : filled;
    const wrong = opts.wrong || new Map();
    const cells = [];
    for (let i = 0; i < PLACES; i++) {
      const place = task?.places?.[i];
      const laid = slots?.[i] || null;
      const bad = wrong.has(i);
      const cls = ["nr-place", laid ? "filled" : "empty", !laid && i === next && opts.live ? "next" : "", bad ? "wrong" : "", opts.checked && !bad && laid ? "right" : ""].filter(Boolean).join(" ");
      cells.push(
        el(
          "div",
          { class: cls, "data-place": i, "data-testid": opts.testid ? `${opts.testid}-${i}` : null, title: bad ? wrong.get(i) : null },
          place ? condFace(place, opts.small) : el("span", { class: `nr-cond hidden-cond${opts.small ? " small" : ""}`, "aria-label": t("nr.face_down") }, "?"),
          laid ? tileFace(laid, opts.small ? "small" : "") : el("span", { class: `nr-slot${opts.small ? " small" : ""}` }, opts.small ? "" : String(i + 1)),
          i > 0 ? signFace(task?.signs?.[i - 1], opts.small) : null,
          bad ? el("span", { class: "nr-mark bad", "aria-hidden": "true" }, "✗") : opts.checked && laid ? el("span", { class: "nr-mark ok", "aria-hidden": "true" }, "✓") : null,
        ),
      );
    }
    return el("div", { class: `nr-card-row${opts.small ? " small" : ""}`, "data-testid": opts.rowid || null, "data-filled": slots ? slots.filter(Boolean).length : 0 }, cells);
  }

  // -- actions -----------------------------------------------------------------------------------------
  function legalOf(type, match = () => true) {
    return (last?.legal || []).find((a) => a.type === type && match(a)) || null;
  }

  function send(action) {
    if (!action || busy || seat === null) return;
    const { seat: _s, at: _a, ...clean } = action;
    busy = true;
    waitStep = null;
    root.classList.add("nr-busy");
    clearTimeout(busyTimer);
    busyTimer = setTimeout(release, 4000); // never stay stuck
    if (last) renderControls(last);
    ctx.send(clean).then(
      (answer) => {
        waitStep = answer?.step ?? null;
        if (waitStep === null || (last && last.step >= waitStep)) release();
      },
      () => release(),
    );
  }

  function release() {
    busy = false;
    waitStep = null;
    clearTimeout(busyTimer);
    root.classList.remove("nr-busy");
    if (last) render(last);
  }

  function act(type) {
    if (type === "turn") return send(legalOf("turn", (a) => a.spot === undefined || a.spot === null));
    return send(legalOf(type));
  }

  function clickSpot(spot, event) {
    const turn = tapMode === "turn" || event?.shiftKey;
    const action = turn ? legalOf("turn", (a) => a.spot === spot) : legalOf("take", (a) => a.spot === spot);
    if (action) return send(action);
    refuse(cells[spot]);
  }

  /** A tap the rules do not allow now says why, instead of doing nothing. */
  function refuse(cell) {
    if (seat === null || busy || !last) return;
    const v = last.view;
    const p = me(v);
    let key = "nr.illegal.not_now";
    if (v.phase !== "playing") key = "nr.illegal.not_started";
    else if (p?.hand) key = "nr.illegal.holding";
    else if (p && p.slots.every(Boolean)) key = "nr.illegal.full";
    ctx.notify?.(t(key), "error");
    for (const box of [handBox, cell].filter(Boolean)) {
      box.classList.remove("nr-nope");
      void box.offsetWidth; // restart the animation
      box.classList.add("nr-nope");
    }
  }

  function onKey(event) {
    if (seat === null || event.ctrlKey || event.metaKey || event.altKey || isTyping(event)) return;
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    const target = event.target;
    if (key.startsWith("Arrow") && target?.dataset?.spot !== undefined) return moveFocus(target, key, event);
    if (ctx.shortcuts && !ctx.shortcuts()) return; // single-key shortcuts switched off (WCAG 2.1.4)
    // F on a focused centre tile (empty hand) turns that tile over where it lies.
    if (key === "f" && target?.dataset?.spot !== undefined && legalOf("turn", (a) => a.spot === Number(target.dataset.spot))) {
      event.preventDefault();
      if (!event.repeat) send(legalOf("turn", (a) => a.spot === Number(target.dataset.spot)));
      return;
    }
    if (key.startsWith("Arrow") && target?.dataset?.spot !== undefined) return moveFocus(target, key, event);
    const candidates = ACTIONS.filter((x) => x.keys.includes(key));
    if (!candidates.length) return;
    event.preventDefault();
    if (event.repeat) return;
    const a = candidates.find((x) => legalOf(x.type, x.type === "turn" ? (y) => y.spot === undefined || y.spot === null : undefined));
    if (a) act(a.type);
  }
  document.addEventListener("keydown", onKey);

  function moveFocus(target, key, event) {
    const index = cells.indexOf(target);
    if (index < 0) return;
    const top = target.offsetTop;
    const columns = Math.max(1, cells.filter((c) => c.offsetTop === top).length);
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -columns, ArrowDown: columns }[key] || 0;
    event.preventDefault();
    const next = index + step;
    if (step && next >= 0 && next < cells.length) focusCell(next);
  }

  /** Roving tabindex: the centre's spots are one Tab stop; the arrows move between them. */
  function focusCell(spot, move = true) {
    focusSpot = Math.max(0, Math.min(spot, cells.length - 1));
    cells.forEach((c, i) => (c.tabIndex = i === focusSpot ? 0 : -1));
    if (move) cells[focusSpot]?.focus();
  }

  // -- rendering ---------------------------------------------------------------------------------------
  function me(v) {
    return seat === null ? null : v.players[seat] || null;
  }

  function stat(label, value, attrs = {}) {
    return el("div", { class: "nr-stat", ...attrs }, el("span", { class: "nr-label" }, label), el("strong", {}, value));
  }

  function renderStatus(msg) {
    const v = msg.view;
    const p = me(v);
    const items = [stat(t("nr.mode"), t(`nr.mode.${v.mode}`), { "data-testid": "mode", "data-value": v.mode })];
    if (p) {
      items.push(stat(t("nr.level"), t("nr.level_of", { level: p.level, last: v.last_level }), { "data-testid": "level", "data-value": p.level }));
      if (v.mode === "universal") items.push(stat(t("nr.points"), String(p.cards_won.length), { "data-testid": "points", "data-value": p.cards_won.length }));
      else items.push(stat(t("nr.completed"), String(p.completed), { "data-testid": "completed", "data-value": p.completed }));
      items.push(stat(t("nr.losses"), String(p.losses), { "data-testid": "losses", "data-value": p.losses }));
    } else items.push(stat(t("nr.last_level"), String(v.last_level)));
    items.push(stat(t("nr.round"), String(v.round), { "data-testid": "round", "data-value": v.round }));
    if (v.mode === "solo") {
      items.push(
        el("div", { class: "nr-stat nr-timer", "data-testid": "solo-timer", role: "timer" },
          el("span", { class: "nr-label" }, t("nr.timer")),
          el("strong", { class: "nr-time" }, t("nr.seconds", { s: Math.round((v.limit_ms || 0) / 1000) })),
          el("span", { class: "nr-timebar", "aria-hidden": "true" }, el("span", {}))),
      );
    }
    put(status, items);
    startTimer(msg);
  }

  function startTimer(msg) {
    clearInterval(timer);
    timer = null;
    const v = msg.view;
    const box = status.querySelector(".nr-timer");
    if (!box) return;
    const due = msg.deadline ?? v.time_up_at;
    const limit = v.limit_ms || 1;
    const text = box.querySelector(".nr-time");
    const fill = box.querySelector(".nr-timebar > span");
    if (v.phase !== "playing" || due === null || due === undefined || msg.status === "over") {
      box.dataset.running = "false";
      fill.style.width = "100%";
      return;
    }
    const ends = performance.now() + (due - 1 - (msg.clock ?? 0)); // the last ms in time is due - 1
    box.dataset.running = "true";
    const tick = () => {
      const left = Math.max(0, ends - performance.now());
      text.textContent = t("nr.seconds_left", { s: formatNumber(left / 1000, 1) });
      fill.style.width = `${Math.min(100, (100 * left) / limit)}%`;
      box.classList.toggle("urgent", left <= 5000);
      // Heard before the time runs out: a warning at 10 s (when the task is longer) and at 5 s.
      for (const mark of [10000, 5000]) {
        if (left <= mark && left > 0 && limit > mark && !warned.has(`${v.round}:${mark}`)) {
          warned.add(`${v.round}:${mark}`);
          ctx.announce?.(t("nr.timer_warning", { s: mark / 1000 }));
          ctx.sound?.("tick");
        }
      }
      if (left <= 0) {
        clearInterval(timer);
        timer = null;
      }
    };
    tick();
    timer = setInterval(tick, 100);
  }

  function renderBanner(v) {
    const p = me(v);
    let text = "";
    let cls = "";
    const check = v.last_stop;
    if (v.phase === "over") {
      const o = v.outcome || {};
      const winners = (o.winners || []).map(name).join(", ");
      text = o.reason === "master" && winners ? t("nr.banner.master", { name: winners }) : winners ? t("nr.banner.over_winners", { names: winners }) : t("nr.banner.over");
      cls = (o.winners || []).includes(seat) ? "good" : "done";
    } else if (v.phase === "ready") {
      const lead = check ? (check.reason === "time_up" ? t("nr.banner.time_up") : t(check.correct ? youKey("nr.banner.checked_ok", check.seat) : youKey("nr.banner.checked_bad", check.seat), { name: name(check.seat) })) + " " : "";
      const votes = v.players.filter((x) => x.end_vote).map((x) => name(x.seat));
      const voteText = votes.length ? " " + t("nr.banner.end_votes", { names: votes.join(", ") }) : "";
      let readyText;
      if (Array.isArray(v.ready)) {
        // every seat marks itself ready; the round starts with a countdown once all have
        const waiting = v.players.filter((x) => !v.ready[x.seat]).map((x) => name(x.seat));
        const mine = seat !== null && v.ready[seat];
        readyText = v.mode === "solo" ? t("nr.banner.ready_solo_mark", { s: Math.round((v.limit_ms || 0) / 1000) }) : mine ? t("nr.banner.ready_waiting", { names: waiting.join(", ") }) : seat === null ? t("nr.banner.ready_watch", { names: waiting.join(", ") }) : t("nr.banner.ready_mark", { names: waiting.join(", ") });
      } else readyText = v.mode === "solo" ? t("nr.banner.ready_solo", { s: Math.round((v.limit_ms || 0) / 1000) }) : t("nr.banner.ready");
      text = lead + readyText + voteText;
      cls = check ? (check.correct ? "good" : "bad") : "ask";
    } else if (v.phase === "countdown") {
      text = t("nr.banner.countdown", { round: v.round + 1 });
      cls = "ask";
    } else if (v.phase === "playing") {
      if (!p) text = t("nr.banner.watching", { round: v.round });
      else if (p.slots.every(Boolean)) text = t("nr.banner.full");
      else if (p.hand) text = t("nr.banner.holding", { place: p.slots.findIndex((s) => !s) + 1 });
      else text = t("nr.banner.playing", { round: v.round });
      cls = "play";
    }
    if (banner.className !== `nr-banner ${cls}`) banner.className = `nr-banner ${cls}`;
    setText(banner, text); // rewritten only when the words change (it is a live region)
  }

  function youKey(key, who) {
    return who === seat && seat !== null && t.has?.(`${key}_you`) ? `${key}_you` : key;
  }

  /** The 3-2-1 before a round, from countdown_ends_at on the match clock. */
  function renderCountdown(msg) {
    const v = msg.view;
    clearInterval(countdownTimer);
    countdownTimer = null;
    const ends = v.countdown_ends_at;
    if (v.phase !== "countdown" || ends === null || ends === undefined) {
      countdown.hidden = true;
      delete root.dataset.countdown;
      return;
    }
    const at = performance.now() + (ends - (msg.clock ?? 0));
    let said = null;
    const tick = () => {
      const left = Math.max(0, Math.ceil((at - performance.now()) / 1000));
      countdown.hidden = false;
      root.dataset.countdown = String(left);
      setText(countdown, left > 0 ? String(left) : t("nr.countdown.go"));
      if (said !== left) {
        said = left;
        if (!ctx.replay) {
          ctx.announce?.(left > 0 ? String(left) : t("nr.countdown.go"));
          ctx.sound?.(left > 0 ? "tick" : "go");
        }
      }
      if (left <= 0) {
        clearInterval(countdownTimer);
        countdownTimer = null;
      }
    };
    tick();
    countdownTimer = setInterval(tick, 100);
  }

  function renderMine(v) {
    const p = me(v);
    if (!p) return;
    const revealed = p.task !== null && p.task !== undefined;
    put(
      mine,
      el("div", { class: "nr-card-head" },
        el("span", { class: "nr-label" }, t("nr.your_card")),
        el("span", { class: "nr-card-id" }, revealed ? t("nr.card_id", { level: p.level, card: p.card, side: p.side }) : t("nr.card_face_down", { level: p.level }))),
      el("div", { class: `nr-card${revealed ? "" : " face-down"}`, "data-testid": "my-card", "data-task": p.task || "" },
        cardRow(p.task, p.slots, { live: v.phase === "playing", testid: "place", rowid: "my-places" })),
    );
  }

  function renderHand(v) {
    if (seat === null) return;
    const p = me(v);
    const hand = p?.hand;
    if (hand) {
      put(
        handBox,
        el("span", { class: "nr-label" }, t("nr.in_hand")),
        el("div", { class: "nr-hand-tiles" },
          tileFace(hand.up, "big", { "data-testid": "hand-tile" }),
          hand.down ? el("div", { class: "nr-down" }, el("span", { class: "nr-label" }, t("nr.other_side")), tileFace(hand.down, "small", { "data-testid": "hand-down" })) : null),
      );
      handBox.dataset.holding = "true";
    } else {
      const hint = v.phase === "playing" ? (p && p.slots.every(Boolean) ? t("nr.hand.full") : t("nr.hand.empty")) : v.phase === "ready" ? t("nr.hand.wait") : "";
      put(handBox, el("span", { class: "nr-label" }, t("nr.in_hand")), el("div", { class: "nr-hand-empty" }, el("span", { class: "nr-slot big" }), el("span", { class: "muted" }, hint)));
      handBox.dataset.holding = "false";
    }
  }

  function renderControls(msg) {
    if (seat === null) return;
    const v = msg.view;
    const over = v.phase === "over";
    const focused = document.activeElement;
    const offline = ctx.online && !ctx.online();
    for (const a of ACTIONS) {
      const b = buttons.get(a.type);
      const legal = a.type === "turn" ? legalOf("turn", (x) => x.spot === undefined || x.spot === null) : legalOf(a.type);
      // turn / place / return stay in place during a round (greyed out when not possible).
      const always = v.phase === "playing" && ["turn", "place", "return"].includes(a.type);
      b.hidden = over || !(legal || always);
      b.disabled = !legal || busy || offline;
      b.dataset.legal = legal ? "true" : "false"; // a phone shows only the legal ones (style.css)
    }
    // Focus stays with the player when the pressed control hides (Ready, Place...): the next useful
    // button, else the centre (where the next tile is taken).
    if (focused && bar.contains(focused) && focused.hidden) {
      const next = [...buttons.values()].find((b) => !b.hidden && !b.disabled);
      if (next) next.focus({ preventScroll: true });
      else if (cells.length) focusCell(focusSpot);
      else handBox.focus({ preventScroll: true });
    }
    keysLine.hidden = over;
    for (const b of tapButtons) {
      const on = b.dataset.tap === tapMode;
      b.setAttribute("aria-checked", on ? "true" : "false");
      b.classList.toggle("on", on);
    }
    // A tile that vanished from under the focus (taken by someone) leaves the focus on its spot: fine,
    // the spot stays (a stable grid) and says it is empty.
    for (const tile of centreGrid.querySelectorAll('button[data-state="tile"]')) {
      const spot = Number(tile.dataset.spot);
      const ok = tapMode === "turn" ? legalOf("turn", (a) => a.spot === spot) : legalOf("take", (a) => a.spot === spot);
      tile.setAttribute("aria-disabled", ok && !busy ? "false" : "true");
      tile.classList.toggle("can", Boolean(ok));
    }
  }

  // The centre's spots are persistent buttons updated in place: a state arriving between a press and its
  // release (other players act many times a second) must not swallow the click.
  const cells = [];
  centreGrid.addEventListener("click", (event) => {
    const b = event.target.closest("button[data-spot]");
    if (!b) return;
    focusCell(Number(b.dataset.spot), false);
    if (b.dataset.state !== "tile") return;
    if (b.getAttribute("aria-disabled") === "true") return refuse(b);
    clickSpot(Number(b.dataset.spot), event);
  });
  centreGrid.addEventListener("contextmenu", (event) => {
    const b = event.target.closest("button[data-spot]");
    if (!b || b.dataset.state !== "tile") return;
    const action = legalOf("turn", (a) => a.spot === Number(b.dataset.spot));
    if (!action) return;
    event.preventDefault(); // right click (or a long press) turns the tile over where it lies
    send(action);
  });

  function renderCentre(v) {
    const held = new Map();
    let laid = 0;
    for (const p of v.players) {
      if (p.hand) held.set(p.hand.from_spot, p.seat);
      laid += p.slots.filter(Boolean).length;
    }
    const lying = new Map(v.centre.map((c) => [c.spot, c.up]));
    // Every tile is in the centre, in a hand or on a card: that many spots, so the layout never shifts.
    let count = v.centre.length + held.size + laid;
    for (const s of [...lying.keys(), ...held.keys()]) count = Math.max(count, s + 1);
    while (cells.length < count) {
      const spot = cells.length;
      const b = el("button", { type: "button", class: "nr-spot", "data-spot": spot, "data-testid": `spot-${spot}`, tabindex: spot === focusSpot ? "0" : "-1" });
      cells.push(b);
      centreGrid.append(b);
    }
    while (cells.length > count) cells.pop().remove();
    for (let spot = 0; spot < count; spot++) {
      const b = cells[spot];
      const up = lying.get(spot);
      const who = held.get(spot);
      const sig = up ? `tile:${up.symbol}:${up.colour}:${up.number}` : who !== undefined ? `held:${who}` : "gone";
      if (b.dataset.sig === sig) continue;
      b.dataset.sig = sig;
      if (up) {
        b.dataset.state = "tile";
        b.className = "nr-spot";
        b.removeAttribute("title");
        b.setAttribute("aria-label", t("nr.spot_label", { spot: spot + 1, side: sideText(up) }));
        put(b, tileFace(up, "", { role: null, "aria-label": null, title: null }));
      } else if (who !== undefined) {
        b.dataset.state = "held";
        b.setAttribute("aria-disabled", "true");
        b.className = `nr-spot gone held${who === seat ? " mine" : ""}`;
        b.title = t("nr.held_by", { name: name(who) });
        b.setAttribute("aria-label", t("nr.held_by", { name: name(who) }));
        put(b, el("span", { class: "nr-held-by", "aria-hidden": "true" }, "↗"));
      } else {
        b.dataset.state = "gone";
        b.setAttribute("aria-disabled", "true");
        b.className = "nr-spot gone";
        b.removeAttribute("title");
        b.setAttribute("aria-label", t("nr.spot_empty", { spot: spot + 1 }));
        put(b);
      }
    }
    const playing = v.phase === "playing";
    put(
      centreHead,
      el("span", { class: "nr-label" }, t("nr.centre"), " ", el("span", { class: "nr-count", "data-testid": "centre-count" }, t("nr.tiles_n", { n: v.centre.length }))),
      seat !== null && playing ? el("span", { class: "nr-tap-wrap" }, el("span", { class: "muted" }, t("nr.tap_does")), tapToggle) : null,
    );
    centre.dataset.phase = v.phase;
  }

  function renderOthers(v) {
    const seats = ctx.seats();
    const items = [];
    for (const p of v.players) {
      if (p.seat === seat) continue;
      const info = seats.find((x) => x.seat === p.seat) || {};
      const online = info.kind === "bot" || info.connected || info.replaced;
      const filled = p.slots.filter(Boolean).length;
      items.push(
        el("div", { class: `nr-player${online ? "" : " offline"}`, "data-seat": p.seat, "data-testid": `player-${p.seat}`, "data-filled": filled, "data-level": p.level },
          el("div", { class: "nr-player-head" },
            el("span", { class: `dot ${online ? "on" : "off"}`, "aria-hidden": "true" }),
            el("strong", {}, name(p.seat)),
            online ? null : el("span", { class: "badge badge-offline" }, t("presence.offline_badge")),
            info.kind === "bot" && !info.replaced ? el("span", { class: "badge" }, t("seat.bot")) : null,
            Array.isArray(v.ready) && v.phase === "ready" ? el("span", { class: `nr-ready-flag ${v.ready[p.seat] ? "yes" : "no"}`, "data-testid": `ready-${p.seat}`, "data-ready": String(Boolean(v.ready[p.seat])) }, v.ready[p.seat] ? t("nr.ready_yes") : t("nr.ready_no")) : null,
            info.replaced ? el("span", { class: "badge" }, t("seat.replaced")) : null,
            p.end_vote ? el("span", { class: "badge nr-vote" }, t("nr.voted_end")) : null,
            el("span", { class: "nr-player-stats" },
              t("nr.level_short", { level: p.level }), " · ",
              v.mode === "universal" ? t("nr.points_short", { n: p.cards_won.length }) : t("nr.completed_short", { n: p.completed }))),
          el("div", { class: "nr-progress-line" },
            el("div", { class: "nr-progress", role: "progressbar", "aria-valuemin": 0, "aria-valuemax": PLACES, "aria-valuenow": filled, "aria-label": t("nr.progress", { n: filled }) },
              el("span", { style: `width:${(100 * filled) / PLACES}%` })),
            el("span", { class: "nr-progress-text" }, t("nr.progress", { n: filled }))),
          el("div", { class: "nr-mini" }, cardRow(p.task, p.slots, { small: true, rowid: `places-${p.seat}` }),
            p.hand ? el("span", { class: "nr-mini-hand" }, t("nr.holding"), tileFace(p.hand.up, "small")) : null),
        ),
      );
    }
    put(others, items.length ? el("h3", { class: "nr-label" }, seat === null ? t("nr.players") : t("nr.others")) : null, items);
    others.hidden = items.length === 0;
  }

  function renderCheck(v) {
    const c = v.last_stop;
    const sig = c ? JSON.stringify([c.round, c.seat, c.elapsed_ms, c.correct, c.layout, v.phase === "ready"]) : null;
    if (sig === checkSig) return; // redrawn only when the check changes (it is a live region)
    checkSig = sig;
    if (!c) {
      checkBox.hidden = true;
      return;
    }
    const task = parseTask(c.task);
    const wrong = new Map();
    for (const p of c.problems || []) {
      const text = problemText(p, task);
      wrong.set(p.place, wrong.has(p.place) ? `${wrong.get(p.place)}; ${text}` : text);
    }
    const who = c.seat === null ? t("nr.timer") : name(c.seat);
    const verdict = c.reason === "time_up" ? t("nr.check.time_up", { s: formatNumber(c.elapsed_ms / 1000, 1) }) : c.correct ? t(youKey("nr.check.correct", c.seat), { name: who, s: formatNumber(c.elapsed_ms / 1000, 1) }) : t(youKey("nr.check.wrong", c.seat), { name: who, s: formatNumber(c.elapsed_ms / 1000, 1) });
    checkBox.hidden = false;
    checkBox.dataset.correct = c.correct ? "true" : "false";
    checkBox.dataset.round = c.round;
    checkBox.dataset.reason = c.reason;
    checkBox.className = `nr-check ${c.correct ? "ok" : "bad"}${v.phase === "ready" ? " fresh" : ""}`;
    put(
      checkBox,
      el("div", { class: "nr-check-head" },
        el("span", { class: "nr-label" }, t("nr.check.title", { round: c.round })),
        el("span", { class: "nr-card-id" }, t("nr.card_id", { level: c.level, card: c.card, side: c.side }))),
      el("p", { class: "nr-verdict", "data-testid": "check-verdict" }, el("span", { class: "nr-verdict-mark", "aria-hidden": "true" }, c.correct ? "✓" : "✗"), " ", verdict),
      el("div", { class: "nr-card small-card" }, cardRow(c.task, c.layout, { small: true, wrong, checked: true, rowid: "check-places" })),
      wrong.size
        ? el("ul", { class: "nr-problems", "data-testid": "check-problems" },
            [...wrong.entries()].sort((a, b) => a[0] - b[0]).map(([place, text]) => el("li", { "data-place": place }, el("strong", {}, t("nr.place_n", { n: place + 1 })), " ", text)))
        : null,
    );
  }

  function render(msg) {
    const v = msg.view;
    root.dataset.phase = v.phase;
    root.dataset.round = v.round;
    root.dataset.mode = v.mode;
    const p = me(v);
    root.dataset.holding = p?.hand ? "true" : "false";
    root.dataset.filled = p ? p.slots.filter(Boolean).length : 0;
    renderStatus(msg);
    renderBanner(v);
    renderCountdown(msg);
    renderMine(v);
    renderHand(v);
    renderCentre(v);
    renderOthers(v);
    renderCheck(v);
    renderControls(msg);
  }

  // -- events: a short log of what happened -------------------------------------------------------------
  function describe(ev) {
    switch (ev.type) {
      case "round_started":
        return t("nr.ev.round_started", { round: ev.round });
      case "checked":
        if (ev.reason === "time_up") return t("nr.ev.time_up", { round: ev.round });
        return t(youKey(ev.correct ? "nr.ev.checked_ok" : "nr.ev.checked_bad", ev.seat), { name: name(ev.seat), s: formatNumber(ev.elapsed_ms / 1000, 1) });
      case "card_drawn":
        return t("nr.ev.card_drawn", { name: name(ev.seat), level: ev.level });
      case "end_vote":
        return t(youKey("nr.ev.end_vote", ev.seat), { name: name(ev.seat) });
      case "ready":
        return t(youKey("nr.ev.ready", ev.seat), { name: name(ev.seat) });
      case "game_over":
        return t("nr.ev.game_over");
      case "placed":
        return ev.seat === seat ? t("nr.ev.placed", { place: ev.slot + 1, side: sideText(ev.up) }) : "";
      default:
        return "";
    }
  }

  function events(list, info = {}) {
    const added = [];
    for (const ev of list) {
      const text = describe(ev);
      if (text && !(info.replayed && log.some((e) => e.text === text && e.type === ev.type))) {
        log.unshift({ text, type: ev.type });
        added.push({ text, type: ev.type });
        if (!info.replayed && ev.type !== "checked" && ev.type !== "placed") ctx.announce?.(text); // the check box speaks for itself
      }
      if (info.replayed) continue;
      if (ev.type === "placed") ctx.sound?.("play");
      else if (ev.type === "checked") ctx.sound?.(ev.correct ? "star" : "mistake");
      if (ev.type === "round_started") warned = new Set();
      if (ev.type === "checked") {
        checkBox.classList.remove("nr-pop");
        void checkBox.offsetWidth; // restart the animation
        checkBox.classList.add("nr-pop");
      }
    }
    log.splice(40);
    if (!ctx.replay) saveLog(logKey, log);
    for (const e of added.reverse()) logBox.prepend(el("li", { class: `ev-${e.type}` }, e.text));
    while (logBox.children.length > log.length) logBox.lastChild.remove();
  }
  put(logBox, log.map((e) => el("li", { class: `ev-${e.type}` }, e.text)));

  return {
    update(msg) {
      last = msg;
      if (busy && waitStep !== null && msg.step >= waitStep) {
        busy = false;
        waitStep = null;
        clearTimeout(busyTimer);
        root.classList.remove("nr-busy");
      }
      render(msg);
    },
    events,
    presence() {
      if (last) render(last);
    },
    over() {
      clearInterval(timer);
      if (last) render(last);
    },
    summary(result, data) {
      return summary(result, data, { t, name });
    },
    destroy() {
      document.removeEventListener("keydown", onKey);
      clearInterval(timer);
      clearInterval(countdownTimer);
      clearTimeout(busyTimer);
      root.replaceChildren();
      root.classList.remove("nr", "nr-busy");
    },
  };
}

function loadLog(key) {
  try {
    const kept = JSON.parse(sessionStorage.getItem(key) || "[]");
    return Array.isArray(kept) ? kept.filter((e) => e && typeof e.text === "string").slice(0, 40) : [];
  } catch {
    return [];
  }
}

function saveLog(key, log) {
  try {
    sessionStorage.setItem(key, JSON.stringify(log));
  } catch {
    // the log lives on the page only
  }
}

/** The end of the game: each player's level, tasks completed (UNIVERSAL: cards won), misses, and the
 * times of their stops (from the public `checked` events of the whole game). */
export function summary(result, data, { t, name }) {
  const steps = data?.steps || [];
  const view = data?.view || steps[steps.length - 1]?.view;
  if (!view) return null;
  const checks = steps.flatMap((s) => s.events || []).filter((e) => e.type === "checked" && e.seat !== null && e.seat !== undefined);
  const winners = new Set(result?.winners || []);
  const secs = (ms) => formatNumber(ms / 1000, 1);
  const rows = view.players.map((p) => {
    const mine = checks.filter((c) => c.seat === p.seat);
    const good = mine.filter((c) => c.correct).map((c) => c.elapsed_ms);
    const best = good.length ? Math.min(...good) : null;
    const mean = good.length ? good.reduce((a, b) => a + b, 0) / good.length : null;
    return el("tr", { "data-testid": `final-player-${p.seat}` },
      el("th", { scope: "row" }, name(p.seat), winners.has(p.seat) ? el("span", { class: "badge nr-winner" }, t("nr.over.winner")) : null),
      el("td", {}, String(p.level)),
      el("td", {}, view.mode === "universal" ? String(p.cards_won.length) : String(p.completed)),
      el("td", {}, String(p.losses)),
      el("td", { "data-testid": `final-times-${p.seat}` }, best === null ? "—" : t("nr.over.times", { best: secs(best), mean: secs(mean), n: good.length })));
  });
  return el("div", { class: "nr-final", "data-testid": "nr-final" },
    el("h3", {}, t("nr.over.title")),
    el("div", { class: "nr-final-scroll" },
      el("table", { class: "nr-final-table" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("nr.over.player")), el("th", { scope: "col" }, t("nr.level")), el("th", { scope: "col" }, view.mode === "universal" ? t("nr.points") : t("nr.completed")), el("th", { scope: "col" }, t("nr.losses")), el("th", { scope: "col" }, t("nr.over.stops")))),
        el("tbody", {}, rows))));
}

/**
 * The lobby's options form: only the options of the chosen mode (SOLO: the timer; UNIVERSAL: levels, ages,
 * seats that stay), and seats typed from 1 as the page numbers them (the rules count from 0).
 */
export const lobby = {
  shown(name, values, players) {
    const mode = values.mode || (players === 1 ? "solo" : "basic");
    if (name === "solo_seconds") return mode === "solo";
    if (["start_levels", "ages", "stay_at_level"].includes(name)) return mode === "universal";
    return true;
  },
  toServer(name, value) {
    if (name !== "stay_at_level" || typeof value !== "string") return value;
    return value
      .split(",")
      .map((x) => x.trim())
      .filter(Boolean)
      .map((x) => (/^\d+$/.test(x) ? String(Number(x) - 1) : x))
      .join(",");
  },
  /** The other way, for pages that show a room's options (the replay's summary): seats from 1 again. */
  fromServer(name, value) {
    if (name !== "stay_at_level" || typeof value !== "string") return value;
    return value
      .split(",")
      .map((x) => x.trim())
      .filter(Boolean)
      .map((x) => (/^\d+$/.test(x) ? String(Number(x) + 1) : x))
      .join(",");
  },
};

/** One line describing a recorded action, for the replay page. */
export function describeAction(action, ctx) {
  const who = action.seat === null || action.seat === undefined ? "" : ctx.seatName(action.seat);
  const key = `nr.rec.${action.type}`;
  const params = { name: who, spot: action.spot === undefined || action.spot === null ? "" : action.spot + 1 };
  if (action.type === "turn" && params.spot !== "") return ctx.t("nr.rec.turn_spot", params);
  const text = ctx.t(key, params);
  return text === key ? `${who}: ${action.type}` : text;
}

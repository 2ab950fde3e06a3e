// The Mind at the table. Renders only what the server sends: `view` and `legal` from each state message,
// and the events this seat may see. Implements the game-module interface of docs/web.md.

import { fill as put, h as el, setText } from "../../js/common.js";

const ACTIONS = [
  // type, key shown, keys accepted, class
  { type: "play", key: "Space", keys: [" ", "Spacebar"], cls: "btn-primary tm-play" },
  { type: "ready", key: "R", keys: ["r"], cls: "btn-primary tm-ready" },
  { type: "propose_star", key: "S", keys: ["s"], cls: "tm-star" },
  { type: "agree", key: "A", keys: ["a"], cls: "btn-primary tm-agree" },
  { type: "reject", key: "X", keys: ["x"], cls: "tm-reject" },
  { type: "withdraw", key: "W", keys: ["w"], cls: "tm-reject" },
  { type: "stop", key: "T", keys: ["t"], cls: "tm-stop" },
  { type: "propose_end", key: "E", keys: ["e"], cls: "tm-end" },
];
// Always shown for a player (disabled when not legal), so the layout stays put; the others appear when legal.
const ALWAYS = new Set(["play", "propose_star"]);

function card(value, extra = "") {
  return el("span", { class: `tm-card ${extra}`, "data-card": value }, String(value));
}

function backs(count, max = 10) {
  const shown = Math.min(count, max);
  const items = Array.from({ length: shown }, () => el("span", { class: "tm-back", "aria-hidden": "true" }));
  if (count > max) items.push(el("span", { class: "tm-more" }, `+${count - max}`));
  return items;
}

function icons(symbol, count, max, cls) {
  const out = [];
  for (let i = 0; i < Math.max(count, 0); i++) out.push(el("span", { class: `${cls} on`, "aria-hidden": "true" }, symbol));
  return out;
}

function isTyping(event) {
  const t = event.target;
  if (!t || !t.tagName) return false;
  const tag = t.tagName.toLowerCase();
  return tag === "input" || tag === "textarea" || tag === "select" || t.isContentEditable;
}

export function mount(root, ctx) {
  const { t } = ctx;
  const seat = ctx.spectator ? null : ctx.seat;
  let last = null; // the latest state message
  let flashTimer = null;
  // The log of what happened survives a reload (kept per room and seat for this browser tab).
  const logKey = `mindtable:log:${ctx.code || "replay"}:${seat ?? "watch"}`;
  const log = ctx.replay ? [] : loadLog(logKey);
  let lastTop = null;

  root.classList.add("tm");
  const status = el("div", { class: "tm-status" });
  const others = el("section", { class: "tm-others", "aria-label": t("tm.others"), "data-testid": "others" });
  const banner = el("div", { class: "tm-banner", "data-testid": "tm-banner", role: "status", "aria-live": "polite" });
  const pileBox = el("section", { class: "tm-pile", "aria-label": t("tm.pile"), "data-testid": "pile" });
  const asideBox = el("div", { class: "tm-aside" });
  const flash = el("div", { class: "tm-flash", "data-testid": "tm-flash", role: "alert", hidden: true });
  const handBox = el("section", { class: "tm-you", "aria-label": t("tm.your_hand"), tabindex: "-1" });
  const bar = el("div", { class: "tm-actions", role: "toolbar", "aria-label": t("tm.actions") });
  const logBox = el("ol", { class: "tm-log", "aria-label": t("tm.log"), "data-testid": "tm-log", tabindex: "0" });
  const keys = el("p", { class: "tm-keys muted" }, t("tm.keys"));
  const buttons = new Map();
  for (const a of ACTIONS) {
    const b = el(
      "button",
      { type: "button", class: a.cls, "data-action": a.type, "data-testid": `action-${a.type}`, "aria-keyshortcuts": a.key === "Space" ? "Space" : a.key, hidden: true },
      el("span", {}, t(`tm.action.${a.type}`)),
      el("kbd", {}, a.key === "Space" ? t("tm.key.space") : a.key),
    );
    b.addEventListener("click", () => act(a.type));
    buttons.set(a.type, b);
    bar.append(b);
  }
  const table = el("div", { class: "tm-table" }, el("div", { class: "tm-center" }, pileBox, asideBox), flash);
  put(root, status, others, banner, table);
  if (seat !== null) root.append(handBox, ...(ctx.replay ? [] : [bar, keys])); // a replay seen by a seat: its hand, no buttons
  else root.append(el("p", { class: "tm-spectating muted", "data-testid": "spectating" }, t("tm.spectating")));
  root.append(el("details", { class: "tm-log-box", open: true }, el("summary", {}, t("tm.log")), logBox));

  function cardsText(n) {
    return t("tm.cards", { n });
  }

  function name(s) {
    if (s === seat) return t("tm.you");
    return ctx.seatName(s);
  }

  function legal(type) {
    return (last?.legal || []).some((a) => a.type === type);
  }

  function lowest(view) {
    const mine = [...(view.hand || []), ...((view.set_aside || [])[seat] || [])];
    return mine.length ? Math.min(...mine) : null;
  }

  function act(type) {
    if (!legal(type)) return;
    const action = { type };
    if (type === "play") {
      const low = lowest(last.view);
      if (low !== null) action.card = low; // make sure the card played is the one on screen
    }
    const b = buttons.get(type);
    b.disabled = true; // until the next state arrives (no double sends)
    ctx.send(action).catch(() => {
      if (last) render(last);
    });
  }

  function onKey(event) {
    if (seat === null || ctx.replay || event.ctrlKey || event.metaKey || event.altKey || isTyping(event)) return;
    if (ctx.shortcuts && !ctx.shortcuts()) return; // single-key shortcuts switched off (WCAG 2.1.4)
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    const a = ACTIONS.find((x) => x.keys.includes(key));
    if (!a) return;
    const target = event.target;
    if (a.type === "play" && target && (["BUTTON", "A", "SUMMARY", "INPUT", "SELECT"].includes(target.tagName) || target.getAttribute?.("role") === "button")) return; // Space presses the focused control
    event.preventDefault();
    if (event.repeat) return;
    act(a.type);
  }
  document.addEventListener("keydown", onKey);

  function renderStatus(v) {
    const blind = v.mode === "blind";
    put(status, 
      el("div", { class: "tm-stat", "data-testid": "level", "data-value": v.level },
        el("span", { class: "tm-label" }, t("tm.level")),
        el("strong", {}, v.last_level ? t("tm.level_of", { level: v.level, last: v.last_level }) : String(v.level))),
      el("div", { class: "tm-stat tm-lives", "data-testid": "lives", "data-value": v.lives, title: t("tm.lives_n", { n: v.lives }) },
        el("span", { class: "tm-label" }, t("tm.lives")),
        el("span", { class: "tm-icons", "aria-hidden": "true" }, icons("♥", v.lives, v.max_lives, "tm-heart")),
        el("strong", { class: "tm-num" }, String(v.lives))),
      el("div", { class: "tm-stat tm-stars", "data-testid": "stars", "data-value": v.stars, title: t("tm.stars_n", { n: v.stars }) },
        el("span", { class: "tm-label" }, t("tm.stars")),
        el("span", { class: "tm-icons", "aria-hidden": "true" }, icons("★", v.stars, v.max_stars, "tm-staricon")),
        el("strong", { class: "tm-num" }, String(v.stars))),
      v.reward ? el("div", { class: "tm-stat tm-reward" }, el("span", { class: "tm-label" }, t("tm.reward")), el("strong", {}, t(`tm.reward.${v.reward}`))) : null,
      blind ? el("div", { class: "tm-stat tm-blind" }, el("strong", {}, t("tm.blind_mode"))) : null,
      v.detection === "players" ? el("div", { class: "tm-stat tm-detect" }, el("span", { class: "tm-label" }, t("tm.detection")), el("strong", {}, t("tm.detection.players"))) : null,
    );
  }

  function renderOthers(v) {
    const seats = ctx.seats();
    const items = [];
    for (let s = 0; s < v.players; s++) {
      if (s === seat) continue;
      const info = seats.find((x) => x.seat === s) || {};
      const online = info.kind === "bot" || info.connected || info.replaced;
      const aside = (v.set_aside || [])[s] || [];
      const count = (v.hand_counts[s] ?? 0) + aside.length; // cards still to play, as the terminal counts them
      items.push(
        el("div", { class: `tm-player${online ? "" : " offline"}${v.proposal?.by === s ? " proposing" : ""}`, "data-seat": s, "data-testid": `player-${s}` },
          el("div", { class: "tm-player-head" },
            el("span", { class: `dot ${online ? "on" : "off"}`, "aria-hidden": "true" }),
            el("strong", {}, name(s)),
            online ? null : el("span", { class: "badge badge-offline" }, t("presence.offline_badge")),
            info.kind === "bot" && !info.replaced ? el("span", { class: "badge" }, t("seat.bot")) : null,
            info.replaced ? el("span", { class: "badge", title: t("seat.replaced_help") }, t("seat.replaced")) : null,
            v.phase === "refocus" ? el("span", { class: `tm-ready-flag ${v.ready[s] ? "yes" : "no"}` }, v.ready[s] ? t("tm.ready_yes") : t("tm.ready_no")) : null),
          el("div", { class: "tm-backs", "data-testid": `count-${s}`, "data-count": count, "aria-label": cardsText(count) }, backs(count), el("span", { class: "tm-count" }, cardsText(count))),
          aside.length ? el("div", { class: "tm-mini-aside" }, el("span", { class: "tm-label" }, t("tm.set_aside")), aside.map((c) => card(c, "small aside"))) : null,
        ),
      );
    }
    put(others, ...items);
  }

  function renderBanner(v) {
    let text = "";
    let cls = "";
    if (v.phase === "won") {
      text = t("tm.banner.won", { level: v.level });
      cls = "good";
    } else if (v.phase === "lost") {
      text = t("tm.banner.lost", { level: v.level });
      cls = "bad";
    } else if (v.phase === "finished") {
      text = t("tm.banner.finished", { n: v.blind_levels });
      cls = "good";
    } else if (v.proposal) {
      const waiting = [];
      for (let s = 0; s < v.players; s++) if (!v.proposal.agreed.includes(s)) waiting.push(name(s));
      text = t(`tm.banner.proposal_${v.proposal.kind}`, { name: name(v.proposal.by), waiting: waiting.join(", ") });
      cls = "ask";
    } else if (v.phase === "refocus") {
      const waiting = [];
      for (let s = 0; s < v.players; s++) if (!v.ready[s]) waiting.push(name(s));
      const fresh = !v.pile.length && !(v.discards || []).some((d) => d.length);
      text = fresh ? t("tm.banner.level_start", { level: v.level, cards: cardsText(v.cards_each) }) : t("tm.banner.refocus");
      text += " " + t("tm.banner.waiting_ready", { names: waiting.join(", ") });
      cls = "ask";
    } else if (v.phase === "playing") {
      text = seat === null ? t("tm.banner.playing_watch") : (v.hand || []).length || ((v.set_aside || [])[seat] || []).length ? t("tm.banner.playing") : t("tm.banner.playing_done");
      cls = "play";
    }
    // Rewritten only when the words change: a live region re-reads every rewrite.
    if (banner.className !== `tm-banner ${cls}`) banner.className = `tm-banner ${cls}`;
    setText(banner, text);
  }

  function renderPile(v) {
    const blind = v.mode === "blind";
    const pile = v.pile || [];
    const top = blind ? null : v.top;
    const recent = pile.slice(-8, -1); // in the order they were played, the top card last
    put(pileBox, 
      el("div", { class: "tm-label" }, t("tm.pile"), " ", el("span", { class: "muted" }, cardsText(pile.length))),
      el("div", { class: "tm-pile-top", "data-testid": "pile-top", "data-card": top ?? "" },
        pile.length === 0 ? el("span", { class: "tm-slot" }, t("tm.empty")) : blind ? el("span", { class: "tm-back big", role: "img", "aria-label": t("tm.face_down") }) : card(top, `big${arriving(pile) ? ` tm-arrive${pile[pile.length - 1].seat === seat ? " from-me" : ""}` : ""}`),
        pile.length && !blind ? el("span", { class: "tm-by muted" }, name(pile[pile.length - 1].seat)) : null),
      recent.length && !blind ? el("div", { class: "tm-pile-rest", "aria-label": t("tm.played_before") }, recent.map((p) => card(p.card, "small played"))) : null,
    );
  }

  /** Has a card just landed on the pile (so it is drawn moving there from its player)? */
  function arriving(pile) {
    const sig = `${pile.length}:${pile.length ? pile[pile.length - 1].card : ""}`;
    const fresh = lastTop !== null && sig !== lastTop && pile.length > 0 && !ctx.replay;
    lastTop = sig;
    return fresh;
  }

  function renderAside(v) {
    const parts = [];
    const aside = v.set_aside || [];
    const discards = v.discards || [];
    const asideAll = aside.flatMap((cards, s) => cards.map((c) => ({ c, s })));
    const discAll = discards.flatMap((cards, s) => cards.map((c) => ({ c, s })));
    if (asideAll.length) parts.push(el("div", { class: "tm-group", "data-testid": "set-aside" }, el("span", { class: "tm-label" }, t("tm.set_aside_all")), asideAll.sort((a, b) => a.c - b.c).map(({ c, s }) => el("span", { class: "tm-tagged", title: name(s) }, card(c, "small aside"), el("small", {}, name(s))))));
    if (discAll.length) parts.push(el("div", { class: "tm-group", "data-testid": "discards" }, el("span", { class: "tm-label" }, t("tm.discards")), discAll.sort((a, b) => a.c - b.c).map(({ c, s }) => el("span", { class: "tm-tagged", title: name(s) }, card(c, "small discard"), el("small", {}, name(s))))));
    put(asideBox, ...parts);
  }

  function renderHand(v) {
    if (seat === null) return;
    const hand = [...(v.hand || [])].sort((a, b) => a - b);
    const aside = [...((v.set_aside || [])[seat] || [])].sort((a, b) => a - b);
    const low = lowest(v);
    const over = ["won", "lost", "finished"].includes(v.phase);
    handBox.hidden = over && !hand.length && !aside.length;
    keys.hidden = over;
    put(handBox, 
      el("div", { class: "tm-label" }, t("tm.your_hand"), " ", el("span", { class: "muted" }, cardsText(hand.length))),
      el("div", { class: "tm-hand", "data-testid": "hand" },
        hand.length ? hand.map((c) => card(c, c === low ? "lowest" : "")) : ["refocus", "playing"].includes(v.phase) && !aside.length ? el("span", { class: "tm-slot" }, t("tm.no_cards")) : null),
      aside.length ? el("div", { class: "tm-my-aside" }, el("span", { class: "tm-label" }, t("tm.your_aside")), el("div", { class: "tm-hand", "data-testid": "my-aside" }, aside.map((c) => card(c, `aside${c === low ? " lowest" : ""}`)))) : null,
    );
  }

  function renderButtons() {
    if (seat === null) return;
    const over = ["won", "lost", "finished"].includes(last.view.phase);
    const focused = document.activeElement;
    const offline = ctx.online && !ctx.online();
    for (const a of ACTIONS) {
      const b = buttons.get(a.type);
      const ok = legal(a.type);
      b.hidden = over || !(ok || ALWAYS.has(a.type));
      b.disabled = !ok || offline;
    }
    // Focus stays with the player when the pressed control hides or goes grey (Ready, Agree...).
    if (focused && bar.contains(focused) && (focused.hidden || focused.disabled)) {
      const next = [...buttons.values()].find((b) => !b.hidden && !b.disabled);
      (next || handBox).focus({ preventScroll: true });
    }
    const low = lowest(last.view);
    const playLabel = buttons.get("play").firstChild;
    playLabel.textContent = low === null ? t("tm.action.play") : t("tm.action.play_card", { card: low });
  }

  function render(msg) {
    const v = msg.view;
    root.dataset.phase = v.phase;
    root.dataset.level = v.level;
    renderStatus(v);
    renderOthers(v);
    renderBanner(v);
    renderPile(v);
    renderAside(v);
    renderHand(v);
    renderButtons();
  }

  // "You played 12" reads better than "You played" built from a name: keys ending in _you when it was us.
  function tt(key, p) {
    return p.seat === seat && seat !== null && t.has?.(`${key}_you`) ? t(`${key}_you`, p) : t(key, p);
  }

  function describe(ev) {
    const p = { ...ev, name: ev.seat === null || ev.seat === undefined ? "" : name(ev.seat) };
    switch (ev.type) {
      case "level_started":
        return t("tm.ev.level_started", { level: ev.level, cards: cardsText(ev.cards_each) });
      case "dealt":
        return t("tm.ev.dealt", { cards: cardsText(ev.hand.length) });
      case "card_played":
        return tt(ev.face_down ? "tm.ev.card_played_blind" : "tm.ev.card_played", p);
      case "life_lost":
        return lifeText(ev);
      case "star_used":
        return t("tm.ev.star_used", { cards: Object.entries(ev.discarded || {}).map(([s, c]) => `${name(Number(s))}: ${c}`).join(", ") || "—" });
      case "stop_called":
        return tt(ev.error ? "tm.ev.stop_error" : "tm.ev.stop_fine", p);
      case "proposed":
        return tt(`tm.ev.proposed_${ev.kind}`, p);
      case "rejected":
        return tt("tm.ev.rejected", p);
      case "level_completed":
        return t(ev.reward ? (ev.granted ? `tm.ev.level_completed_${ev.reward}` : "tm.ev.level_completed_max") : "tm.ev.level_completed", p);
      case "pile_revealed":
        return t(ev.in_order ? "tm.ev.pile_ok" : "tm.ev.pile_bad", { cards: ev.cards.join(" · ") });
      default:
        return tt(`tm.ev.${ev.type}`, p);
    }
  }

  function lifeText(ev, headline = true) {
    const moved = Object.entries(ev.set_aside || {}).map(([s, cards]) => `${name(Number(s))}: ${cards.join(", ")}`).join("; ");
    const who = { seat: ev.seat, card: ev.card, name: ev.seat === null ? "" : name(ev.seat) };
    const cause =
      ev.cause === "blind_pile" ? t("tm.ev.life_lost_blind")
      : ev.cause === "stop" ? t("tm.ev.life_lost_stop", { card: ev.card })
      : ev.cause === "evident" ? tt("tm.ev.life_lost_evident", who)
      : tt("tm.ev.life_lost_card", who);
    const tail = `${cause}${moved ? " " + t("tm.ev.set_aside", { list: moved }) : ""}`;
    return headline ? `${t("tm.ev.life_lost", { lives: ev.lives })} ${tail}` : tail;
  }

  function showFlash(text, kind) {
    flash.hidden = false;
    flash.className = `tm-flash ${kind}`;
    flash.textContent = text;
    clearTimeout(flashTimer);
    flashTimer = setTimeout(() => (flash.hidden = true), kind === "bad" ? 4000 : 2200);
  }

  function events(list, info = {}) {
    const added = [];
    for (const ev of list) {
      const text = describe(ev);
      if (!text) continue;
      // A message re-sent after a reload or a resume is already in the kept log.
      if (info.replayed && log.some((e) => e.text === text && e.type === ev.type)) continue;
      log.unshift({ text, type: ev.type });
      added.push({ text, type: ev.type });
      if (info.replayed) continue;
      if (!["life_lost", "level_completed", "star_used", "game_won", "game_lost"].includes(ev.type)) ctx.announce?.(text); // those flash as an alert
      if (ev.type === "card_played") ctx.sound?.("play");
      else if (ev.type === "life_lost") ctx.sound?.("mistake");
      else if (ev.type === "star_used") ctx.sound?.("star");
      if (ev.type === "life_lost") {
        showFlash(`${t("tm.flash.life_lost", { lives: ev.lives })} ${lifeText(ev, false)}`, "bad");
        root.classList.remove("tm-shake");
        void root.offsetWidth; // restart the animation
        root.classList.add("tm-shake");
      } else if (ev.type === "level_completed") showFlash(describe(ev), "good");
      else if (ev.type === "star_used") showFlash(describe(ev), "star");
      else if (ev.type === "game_won" || ev.type === "game_lost") showFlash(describe(ev), ev.type === "game_won" ? "good" : "bad");
    }
    log.splice(60);
    if (!ctx.replay) saveLog(logKey, log);
    for (const e of added.reverse()) logBox.prepend(el("li", { class: `ev-${e.type}` }, e.text));
    while (logBox.children.length > log.length) logBox.lastChild.remove();
  }
  put(logBox, ...log.map((e) => el("li", { class: `ev-${e.type}` }, e.text)));

  return {
    update(msg) {
      last = msg;
      render(msg);
    },
    events,
    presence() {
      if (last) render(last);
    },
    summary(result, data) {
      return summary(result, data, { t, name, seat, cardsText });
    },
    destroy() {
      document.removeEventListener("keydown", onKey);
      clearTimeout(flashTimer);
      root.replaceChildren();
      root.classList.remove("tm");
    },
  };
}

function loadLog(key) {
  try {
    const kept = JSON.parse(sessionStorage.getItem(key) || "[]");
    return Array.isArray(kept) ? kept.filter((e) => e && typeof e.text === "string").slice(0, 60) : [];
  } catch {
    return [];
  }
}

function saveLog(key, log) {
  try {
    sessionStorage.setItem(key, JSON.stringify(log));
  } catch {
    // storage full or off: the log lives on the page only
  }
}

/**
 * The final table: every player's cards of the last level, as far as they are known once the game is over —
 * played (from the pile, in order; in blind mode from the revealed pile), discarded by a star, set aside,
 * and still held (your own; another player's when the server reveals hands, else face down) — and a short
 * summary of the game from its public events: levels, lives lost, stars used and who made each mistake.
 */
export function summary(result, data, { t, name, seat, cardsText }) {
  const steps = data?.steps || [];
  const view = data?.view || steps[steps.length - 1]?.view;
  if (!view) return null;
  const events = steps.flatMap((s) => s.events || []);
  const details = result?.details || {};
  // mistakes and stars, from the public events of the whole game
  const mistakes = events.filter((e) => e.type === "life_lost");
  const stars = events.filter((e) => e.type === "star_used").length;
  const completed = events.filter((e) => e.type === "level_completed").length;
  const revealed = events.filter((e) => e.type === "pile_revealed").pop();
  // each player's cards of the last level
  const players = view.players;
  const byPlayer = Array.from({ length: players }, () => ({ played: [], discarded: [], aside: [], held: [], hidden: 0 }));
  const blind = view.mode === "blind";
  (view.pile || []).forEach((p, i) => {
    const value = blind ? revealed?.cards?.[i] : p.card;
    if (p.seat !== null && p.seat !== undefined && byPlayer[p.seat]) byPlayer[p.seat].played.push(value ?? "?");
  });
  (view.discards || []).forEach((cards, s) => byPlayer[s] && byPlayer[s].discarded.push(...cards));
  (view.set_aside || []).forEach((cards, s) => byPlayer[s] && byPlayer[s].aside.push(...cards));
  const shownHands = details.hands || view.hands || null; // when the server reveals every hand
  for (let s = 0; s < players; s++) {
    const held = shownHands?.[s] ?? (s === seat ? view.hand || data?.ownHand || [] : null);
    if (held) byPlayer[s].held.push(...held);
    else byPlayer[s].hidden = view.hand_counts?.[s] ?? 0;
  }
  const cardList = (cards, cls) => cards.map((c) => el("span", { class: `tm-card small ${cls}`, "data-card": c }, String(c)));
  const rows = byPlayer.map((p, s) =>
    el("tr", { "data-testid": `final-hand-${s}` },
      el("th", { scope: "row" }, name(s)),
      el("td", { "data-testid": `final-played-${s}` }, p.played.length ? cardList(p.played, "played") : "—"),
      el("td", {}, p.discarded.length || p.aside.length ? [cardList(p.discarded, "discard"), cardList(p.aside, "aside")] : "—"),
      el("td", { "data-testid": `final-held-${s}` },
        p.held.length ? cardList(p.held, "held") : p.hidden ? el("span", { class: "muted" }, t("tm.over.hidden", { n: p.hidden })) : "—")),
  );
  const mistakeLines = mistakes.map((e) => {
    const who = e.seat === null || e.seat === undefined ? null : name(e.seat);
    const why = e.cause === "blind_pile" ? t("tm.over.mistake_blind", { level: e.level ?? "" }) : e.cause === "stop" ? t("tm.over.mistake_stop", { card: e.card, name: who ?? "?" }) : t(e.seat === seat && seat !== null ? "tm.over.mistake_card_you" : "tm.over.mistake_card", { card: e.card, name: who ?? "?" });
    return el("li", {}, why);
  });
  const levels = details.level_reached ?? view.level;
  const livesLost = mistakes.length;
  return el("div", { class: "tm-final", "data-testid": "tm-final" },
    el("ul", { class: "tm-final-facts" },
      el("li", { "data-testid": "final-levels" }, t("tm.over.levels", { n: completed, level: levels })),
      el("li", { "data-testid": "final-lives" }, t("tm.over.lives_lost", { n: livesLost })),
      el("li", { "data-testid": "final-stars" }, t("tm.over.stars_used", { n: stars }))),
    mistakeLines.length ? el("div", {}, el("h3", {}, t("tm.over.mistakes")), el("ul", { class: "tm-final-mistakes", "data-testid": "final-mistakes" }, mistakeLines)) : null,
    el("h3", {}, t("tm.over.hands", { level: view.level })),
    el("div", { class: "tm-final-scroll" },
      el("table", { class: "tm-final-table", "data-testid": "final-hands" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("tm.over.player")), el("th", { scope: "col" }, t("tm.over.played")), el("th", { scope: "col" }, t("tm.over.out")), el("th", { scope: "col" }, t("tm.over.held")))),
        el("tbody", {}, rows))),
  );
}

/** One line describing a recorded action, for the replay page. */
export function describeAction(action, ctx) {
  const who = action.seat === null || action.seat === undefined ? "" : ctx.seatName(action.seat);
  const key = `tm.rec.${action.type}`;
  const text = ctx.t(key, { name: who, card: action.card ?? "" });
  return text === key ? `${who}: ${action.type}` : text;
}

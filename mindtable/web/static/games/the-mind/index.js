// The Mind at the table. Renders only what the server sends: `view` and `legal` from each state message,
// and the events this seat may see. Implements the game-module interface of docs/web.md.

import { fill as put, h as el } from "../../js/common.js";

const ACTIONS = [
  // type, key shown, keys accepted, class
  { type: "play", key: "Space", keys: [" ", "Spacebar"], cls: "btn-primary tm-play" },
  { type: "ready", key: "R", keys: ["r"], cls: "btn-primary tm-ready" },
  { type: "propose_star", key: "S", keys: ["s"], cls: "tm-star" },
  { type: "agree", key: "A", keys: ["a"], cls: "btn-primary tm-agree" },
  { type: "reject", key: "X", keys: ["x"], cls: "tm-reject" },
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
  const log = [];

  root.classList.add("tm");
  const status = el("div", { class: "tm-status" });
  const others = el("div", { class: "tm-others", "aria-label": t("tm.others") });
  const banner = el("div", { class: "tm-banner", "data-testid": "tm-banner", role: "status", "aria-live": "polite" });
  const pileBox = el("div", { class: "tm-pile", "aria-label": t("tm.pile") });
  const asideBox = el("div", { class: "tm-aside" });
  const flash = el("div", { class: "tm-flash", "data-testid": "tm-flash", role: "alert", hidden: true });
  const handBox = el("div", { class: "tm-you", "aria-label": t("tm.your_hand") });
  const bar = el("div", { class: "tm-actions", role: "toolbar", "aria-label": t("tm.actions") });
  const logBox = el("ol", { class: "tm-log", "aria-label": t("tm.log"), "data-testid": "tm-log" });
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
  if (seat !== null) root.append(handBox, bar, keys);
  else root.append(el("p", { class: "tm-spectating muted", "data-testid": "spectating" }, t("tm.spectating")));
  root.append(el("details", { class: "tm-log-box", open: true }, el("summary", {}, t("tm.log")), logBox));

  function cardsText(n) {
    return t(n === 1 ? "tm.cards_one" : "tm.cards_other", { n });
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
    if (seat === null || event.ctrlKey || event.metaKey || event.altKey || isTyping(event)) return;
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    const a = ACTIONS.find((x) => x.keys.includes(key));
    if (!a) return;
    const target = event.target;
    if (a.type === "play" && target && (target.tagName === "BUTTON" || target.tagName === "A" || target.tagName === "SUMMARY")) return; // Space presses the focused control
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
      const count = v.hand_counts[s] ?? 0;
      const aside = (v.set_aside || [])[s] || [];
      items.push(
        el("div", { class: `tm-player${online ? "" : " offline"}${v.proposal?.by === s ? " proposing" : ""}`, "data-seat": s, "data-testid": `player-${s}` },
          el("div", { class: "tm-player-head" },
            el("span", { class: `dot ${online ? "on" : "off"}`, title: online ? t("presence.online") : t("presence.offline") }),
            el("strong", {}, name(s)),
            info.kind === "bot" ? el("span", { class: "badge" }, t("seat.bot")) : null,
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
      text = t("tm.banner.playing");
      cls = "play";
    }
    banner.className = `tm-banner ${cls}`;
    banner.textContent = text;
  }

  function renderPile(v) {
    const blind = v.mode === "blind";
    const pile = v.pile || [];
    const top = blind ? null : v.top;
    const recent = pile.slice(-8, -1); // in the order they were played, the top card last
    put(pileBox, 
      el("div", { class: "tm-label" }, t("tm.pile"), " ", el("span", { class: "muted" }, cardsText(pile.length))),
      el("div", { class: "tm-pile-top", "data-testid": "pile-top", "data-card": top ?? "" },
        pile.length === 0 ? el("span", { class: "tm-slot" }, t("tm.empty")) : blind ? el("span", { class: "tm-back big" }) : card(top, "big"),
        pile.length && !blind ? el("span", { class: "tm-by muted" }, name(pile[pile.length - 1].seat)) : null),
      recent.length && !blind ? el("div", { class: "tm-pile-rest", "aria-label": t("tm.played_before") }, recent.map((p) => card(p.card, "small played"))) : null,
    );
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
    for (const a of ACTIONS) {
      const b = buttons.get(a.type);
      const ok = legal(a.type);
      b.hidden = over || !(ok || ALWAYS.has(a.type));
      b.disabled = !ok;
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
    const cause = ev.cause === "blind_pile" ? t("tm.ev.life_lost_blind") : ev.cause === "stop" ? t("tm.ev.life_lost_stop", { card: ev.card }) : tt("tm.ev.life_lost_card", { seat: ev.seat, card: ev.card, name: ev.seat === null ? "" : name(ev.seat) });
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
    for (const ev of list) {
      const text = describe(ev);
      if (!text) continue;
      log.unshift({ text, type: ev.type });
      if (info.replayed) continue;
      if (ev.type === "life_lost") {
        showFlash(`${t("tm.flash.life_lost", { lives: ev.lives })} ${lifeText(ev, false)}`, "bad");
        root.classList.remove("tm-shake");
        void root.offsetWidth; // restart the animation
        root.classList.add("tm-shake");
      } else if (ev.type === "level_completed") showFlash(describe(ev), "good");
      else if (ev.type === "star_used") showFlash(describe(ev), "star");
      else if (ev.type === "game_won" || ev.type === "game_lost") showFlash(describe(ev), ev.type === "game_won" ? "good" : "bad");
    }
    log.splice(30);
    put(logBox, ...log.map((e) => el("li", { class: `ev-${e.type}` }, e.text)));
  }

  return {
    update(msg) {
      last = msg;
      render(msg);
    },
    events,
    presence() {
      if (last) render(last);
    },
    destroy() {
      document.removeEventListener("keydown", onKey);
      clearTimeout(flashTimer);
      root.replaceChildren();
      root.classList.remove("tm");
    },
  };
}

/** One line describing a recorded action, for the replay page. */
export function describeAction(action, ctx) {
  const who = action.seat === null || action.seat === undefined ? "" : ctx.seatName(action.seat);
  const key = `tm.rec.${action.type}`;
  const text = ctx.t(key, { name: who, card: action.card ?? "" });
  return text === key ? `${who}: ${action.type}` : text;
}

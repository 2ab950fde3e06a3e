// Caída Libre: the IQ scale drawn from its board file (js/board.js) with pawns that fall and the weapon squares,
// whose turn and who asks, the weapon the answerer stands on with its victim / partner choice, and the card
// through the shared quiz components (js/quiz.js: the topic choice of a double question, the options, true /
// false, the answer box that sends what is typed, the Quote 5 countdown, the asker's card with the judge's
// suggestion and confirm / overrule, the items of a Quote 5 ticked one by one). Around it, what only this game
// has: the card's type and rule, the Shootout / Fake News statements one by one with those already judged,
// the Quote 5 items as they are typed, the last card's falls, a log and a summary at the end.
// Drawn only from `view` and `legal` (docs/web.md).

import { fill, h } from "../../js/common.js";
import { drawBoard } from "../../js/board.js";
import { nameList } from "../../js/games.js";
import { answerText, describeAskAction, mountHistory, mountQuiz } from "../../js/quiz.js";

const SVG = "http://www.w3.org/2000/svg";
const CELL = 56; // board.js: px per board unit
const SIZE = 44; // board.js: square side
const LABELS = 190; // room right of the scale for the square names and the pawns
const PAWN_COLOURS = ["#3a6fd8", "#2a9d5b", "#b5479b", "#d98a1c", "#5b4fc4", "#1c9aa8", "#8a5a2b", "#555"];

function svgNode(tag, attrs = {}, text = null) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  if (text !== null) el.textContent = text;
  return el;
}

function squareName(t, view, square) {
  if (square.iq === view.top) return t("cl.top");
  if (square.iq === 0) return t("cl.bottom");
  return square.weapon ? t(`cl.weapon.${square.weapon}`) : "";
}

/** The items of a Quote 5 answer as typed so far (the server's draft, seen by everyone). */
function typedItems(text) {
  return String(text || "").split(/[,;\n]+/).map((x) => x.trim()).filter(Boolean);
}

export function mount(root, ctx) {
  const { t } = ctx;
  root.classList.add("cl", "mt-table");
  const scaleBox = h("div", { class: "cl-scale", "data-testid": "cl-scale" });
  const status = h("div", { class: "cl-status", "data-testid": "cl-status", "aria-live": "polite" });
  const players = h("ul", { class: "cl-players", "data-testid": "cl-players" });
  const weaponBox = h("div", { class: "cl-weapon", "data-testid": "cl-weapon" });
  const actions = h("div", { class: "cl-actions", "data-testid": "cl-actions" });
  const cardBox = h("div", { class: "cl-card", "data-testid": "cl-card" });
  const quizBox = h("div", { class: "cl-quiz" });
  const lastBox = h("div", { class: "cl-last", "data-testid": "cl-last" });
  const endBox = h("div", { class: "cl-end", "data-testid": "cl-summary-box" });
  const logBox = h("ol", { class: "cl-log", "data-testid": "cl-log" });
  const historyBox = h("div", { class: "cl-history" });
  // The shared answer box sends what is typed (ask_type) a moment after the last key; once the answer is sent
  // (or the time is up) such a draft is dropped here instead of being refused by the server with a notice.
  let lastLegal = [];
  const quizCtx = { ...ctx, send: (action) => (action.type === "ask_type" && !lastLegal.some((a) => a.type === "ask_type") ? Promise.resolve() : ctx.send(action)) };
  const quiz = mountQuiz(quizBox, quizCtx, { itemChecks: true, nameOf: (seat) => name(seat) });
  const history = mountHistory(historyBox, ctx);
  // Whose turn, the weapon, the buttons, the card and the question come first (on a phone, at the top of the page);
  // the players and the scale sit beside them on a wide screen, below them on a phone, with the history last.
  fill(root,
    h("div", { class: "mt-table-act" }, status, weaponBox, actions, cardBox, quizBox, lastBox, endBox),
    h("div", { class: "mt-table-side cl-left" }, players, scaleBox),
    h("div", { class: "mt-table-more" }, historyBox, logBox));

  let drawnKey = "";
  const shownIq = new Map(); // seat -> the IQ its pawn was last drawn at (a fall animates from there)
  const send = (action) => ctx.send(action).catch(() => {});
  const name = (seat) => (seat === ctx.seat ? `${ctx.seatName(seat)} (${t("cl.you")})` : ctx.seatName(seat));

  // The scale: board.js draws the squares from the board file; each square gets its IQ, the names go to its
  // right, and the pawns stand in a row beside their square (so eight fit on the top square at the start).
  function drawScale(view) {
    const squareOf = new Map(view.scale.squares.map((s) => [s.iq, s]));
    const key = JSON.stringify([view.board.id, view.iq, view.answerer, ctx.seat, view.phase]);
    if (key === drawnKey) return;
    drawnKey = key;
    const pawns = view.iq.map((iq, seat) => ({ square: squareOf.get(iq)?.id, seat, label: String(seat + 1), you: seat === ctx.seat }));
    const answererSquare = squareOf.get(view.iq[view.answerer])?.id;
    const boardKey = `cl.board.${view.board.id}`;
    const svg = drawBoard(view.board, pawns, { highlight: view.phase === "over" || answererSquare == null ? [] : [answererSquare], title: t.has?.(boardKey) ? t(boardKey) : undefined });
    const [x0, y0, w, hgt] = svg.getAttribute("viewBox").split(" ").map(Number);
    svg.setAttribute("viewBox", `${x0} ${y0} ${w + LABELS} ${hgt}`);
    const byId = new Map(view.scale.squares.map((s) => [String(s.id), s]));
    const centre = new Map();
    for (const cell of svg.querySelectorAll("g[data-square]")) {
      if (cell.classList.contains("mt-pawn")) continue;
      const square = byId.get(cell.dataset.square);
      if (!square) continue;
      cell.dataset.iq = String(square.iq);
      if (square.weapon) cell.dataset.weapon = square.weapon;
      cell.querySelector(".mt-square-mark")?.remove();
      cell.append(svgNode("text", { x: SIZE / 2, y: SIZE / 2 + 5, "text-anchor": "middle", class: "cl-sq-iq" }, String(square.iq)));
      const [, tx, ty] = /translate\(([-\d.]+) ([-\d.]+)\)/.exec(cell.getAttribute("transform")) || [];
      const cx = Number(tx) + SIZE / 2;
      const cy = Number(ty) + SIZE / 2;
      centre.set(cell.dataset.square, [cx, cy]);
      const label = squareName(t, view, square);
      if (label) svg.append(svgNode("text", { x: cx + SIZE / 2 + 8, y: cy - 8, class: `cl-sq-name${square.weapon ? " cl-sq-weapon-name" : ""}` }, label));
    }
    const layer = svg.querySelector(".mt-board-pawns");
    const rows = new Map();
    for (const pawn of svg.querySelectorAll("g.mt-pawn")) {
      const seat = Number(pawn.dataset.pawn);
      const square = pawn.dataset.square;
      const [cx, cy] = centre.get(square) || [0, 0];
      const index = rows.get(square) || 0;
      rows.set(square, index + 1);
      const x = cx + SIZE / 2 + 16 + index * 20;
      const y = cy + 10;
      pawn.setAttribute("transform", `translate(${x} ${y})`);
      pawn.querySelector("circle")?.setAttribute("fill", PAWN_COLOURS[seat % PAWN_COLOURS.length]);
      pawn.dataset.testid = `pawn-${seat}`;
      pawn.dataset.iq = String(view.iq[seat]);
      pawn.append(svgNode("title", {}, `${ctx.seatName(seat)} · ${t("cl.iq", { iq: view.iq[seat] })}`));
      const before = shownIq.get(seat);
      if (before !== undefined && before !== view.iq[seat] && pawn.animate) {
        const from = centre.get(squareOf.get(before)?.id);
        if (from) {
          const fx = from[0] + SIZE / 2 + 16 + index * 20;
          const fy = from[1] + 10;
          pawn.animate([{ transform: `translate(${fx}px, ${fy}px)` }, { transform: `translate(${x}px, ${y}px)` }], { duration: 900, easing: "cubic-bezier(0.5, 0, 0.9, 0.6)" });
          if (view.iq[seat] < before) pawn.classList.add("cl-falling");
        }
      }
      shownIq.set(seat, view.iq[seat]);
    }
    if (layer) svg.append(layer); // pawns above the names
    fill(scaleBox, svg);
  }

  function drawPlayers(view) {
    fill(players, view.iq.map((iq, seat) => h("li", {
      "data-testid": `player-${seat}`,
      "data-iq": iq,
      class: `${seat === view.asker ? "cl-asking" : ""} ${seat === view.answerer ? "cl-answering" : ""} ${view.fallen.includes(seat) ? "cl-fallen" : ""}`,
    },
    h("span", { class: "cl-dot", style: `background:${PAWN_COLOURS[seat % PAWN_COLOURS.length]}` }, String(seat + 1)),
    h("strong", {}, name(seat)), " ",
    h("span", { class: "cl-iq" }, t("cl.iq", { iq })),
    seat === view.asker ? roleBadge("?", t("cl.badge_asker"), "asker") : null,
    seat === view.answerer ? roleBadge("!", t("cl.badge_answerer"), "answerer") : null)));
  }

  /** "?" for the asker, "!" for the one answering: named for screen readers, explained in a tooltip. */
  function roleBadge(mark, words, role) {
    return h("span", { class: "badge cl-role", role: "img", "aria-label": words, title: words, "data-testid": `badge-${role}` }, mark);
  }

  function statusText(view, legal) {
    if (view.phase === "over") return t("cl.over");
    if (view.phase === "draw") {
      if (legal.some((a) => a.type === "draw")) return t("cl.you_draw", { answerer: name(view.answerer) });
      return t("cl.waiting_draw", { asker: name(view.asker), answerer: name(view.answerer) });
    }
    if (view.phase === "weapon") {
      if (legal.some((a) => a.type === "target")) return t(`cl.weapon_choose.${view.weapon.kind}`);
      return t("cl.weapon_wait", { name: name(view.weapon.seat), weapon: t(`cl.weapon.${view.weapon.kind}`) });
    }
    // A sentence about this seat says "you" ("You are answering", not "Ana (you) is answering").
    const ask = view.ask;
    if (ask && ask.phase === "judge" && ask.role !== "reader") return t("cl.waiting_judge", { name: name(view.asker) });
    if (ask && (ask.phase === "answer" || ask.phase === "choose")) {
      if (ask.role !== "answerer" && view.answerer !== ctx.seat) return t("cl.waiting_answer", { name: name(view.answerer) });
      if (!legal.some((a) => a.type === "ask_answer" || a.type === "ask_choose")) return t("cl.waiting_answer_you");
    }
    if (view.asker === ctx.seat) return t("cl.asks_you", { answerer: name(view.answerer) });
    return t("cl.asks", { asker: name(view.asker), answerer: name(view.answerer) });
  }

  // What the weapon does, said to each seat about itself: the one on the square ("+10 for you"), the victim or
  // partner chosen ("-30 for you"), and everyone else (by name).
  function weaponHelp(w) {
    const chosen = w.target !== null && w.target !== undefined;
    const aimed = w.kind === "sniper" || w.kind === "hook"; // the weapons with a victim / partner
    const params = { name: ctx.seatName(w.seat), target: chosen ? ctx.seatName(w.target) : aimed ? t(`cl.weapon_someone.${w.kind}`) : "" };
    if (w.seat === ctx.seat) return t(`cl.weapon_help.${w.kind}`, params);
    if (chosen && w.target === ctx.seat) return t(`cl.weapon_help_target.${w.kind}`, params);
    return t(`cl.weapon_help_them.${w.kind}`, params);
  }

  function weaponPanel(view) {
    const w = view.weapon;
    if (!w) return null;
    const weapon = t(`cl.weapon.${w.kind}`);
    return [
      h("strong", {}, w.seat === ctx.seat ? t("cl.weapon_armed_you", { weapon }) : t("cl.weapon_armed", { name: name(w.seat), weapon })),
      w.target !== null && w.target !== undefined ? h("span", {}, ` · ${t("cl.weapon_target", { name: name(w.target) })}`) : null,
      h("p", { class: "muted", "data-testid": "cl-weapon-help" }, weaponHelp(w)),
    ];
  }

  // What only this game has around the shared question: the draw, the weapon's target.
  function actionButtons(view, legal) {
    const out = [];
    for (const a of legal.filter((x) => x.type === "target")) {
      out.push(h("button", { type: "button", "data-testid": `target-${a.target}`, onclick: () => send({ type: "target", target: a.target }) }, `${name(a.target)} · ${t("cl.iq", { iq: view.iq[a.target] })}`));
    }
    if (legal.some((a) => a.type === "draw")) out.push(h("button", { type: "button", class: "btn-primary", "data-testid": "action-draw", onclick: () => send({ type: "draw" }) }, t("cl.draw")));
    return out;
  }

  // The card's type and rule, the statement being asked among the card's, those already judged, the Quote 5
  // items as they are typed, and (for the asker only) the note printed on the card.
  function cardPanel(view) {
    const ask = view.ask;
    if (!ask) return null;
    const type = ask.headings.type;
    const q = ask.question;
    const size = ask.headings.size;
    const parts = [
      h("h3", {}, t(`cl.type.${type}`), ask.headings.topic ? ` · ${ask.headings.topic}` : ""),
      h("p", { class: "muted" }, t(`cl.rule.${type}`, { count: q && q.count ? q.count : 5 })),
    ];
    if (q && size > 1 && type !== "double") {
      const key = type === "shootout" || type === "fake_news" ? "cl.statement" : "cl.question_n";
      parts.push(h("p", { class: "cl-progress", "data-testid": "cl-progress" }, t(key, { n: ask.results.length + (ask.phase === "decided" || ask.phase === "pending" ? 0 : 1), size })));
    }
    if (type === "quote5") {
      const items = typedItems(ask.draft);
      parts.push(h("div", { class: "cl-items", "data-testid": "q5-items", "data-count": items.length },
        h("span", {}, t("cl.items", { items: items.length ? "" : "—" })),
        h("ol", {}, items.map((item) => h("li", {}, item)))));
    }
    if (ask.results.length) {
      parts.push(h("ul", { class: "cl-results", "data-testid": "cl-results" },
        ask.results.map((r) => h("li", { class: r.correct ? "ok" : "bad" }, `${r.correct ? "✓" : "✗"} ${r.prompt} — ${answerText(t, r.answer)}`))));
    }
    const note = ask.role === "reader" && q ? ask.card?.questions?.[q.index]?.note : null;
    if (note) parts.push(h("p", { class: "muted cl-note", "data-testid": "cl-note" }, note));
    return parts;
  }

  function lastPanel(view) {
    const l = view.last;
    if (!l || view.ask) return null;
    const outcome = l.correct ? t("cl.outcome_right") : t("cl.outcome_wrong", { penalty: l.penalty });
    return [
      h("h3", {}, t("cl.last")),
      h("p", { "data-testid": "cl-last-line", "data-correct": String(l.correct) }, t("cl.last_line", { name: name(l.answerer), type: t(`cl.type.${l.card_type}`), outcome })),
      h("ul", {}, l.moves.map((m) => h("li", {}, t("cl.move", { name: name(m.seat), before: m.before, after: m.after })))),
      ...(l.notes || []).map((n) => noteLine(n.code, n.params)),
      h("ul", { class: "cl-results" }, l.results.map((r) => h("li", { class: r.correct ? "ok" : "bad" }, `${r.correct ? "✓" : "✗"} ${r.prompt} — ${answerText(t, r.answer)}`))),
    ];
  }

  // A note on how the card was scored, from its code and parameters (e.g. four names of five under a weapon).
  function noteLine(code, params) {
    return h("p", { class: "cl-note-line", "data-testid": `cl-${code}` }, noteText(code, params));
  }

  // Said to the seat it is about in the second person ("You named 4 of 5"), when the game has those words.
  function noteText(code, params) {
    const own = params.seat === ctx.seat && t.has?.(`cl.note.${code}_you`);
    return t(own ? `cl.note.${code}_you` : `cl.note.${code}`, { ...params, name: name(params.seat), weapon: t(`cl.weapon.${params.weapon}`) });
  }

  function summary(view) {
    if (view.phase !== "over") return null;
    const best = Math.max(...view.iq);
    const winners = nameList(view.iq.map((iq, seat) => [iq, seat]).filter(([iq]) => iq === best).map(([, seat]) => name(seat)), ctx.lang || "en");
    const tie = view.iq.filter((iq) => iq === best).length > 1;
    const ranking = view.iq.map((iq, seat) => [iq, seat]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
    return h("div", { class: "cl-summary", "data-testid": "cl-summary" },
      h("h2", {}, t("cl.over")),
      h("p", { "data-testid": "cl-winner" }, tie ? t("cl.tie", { names: winners, iq: best }) : t("cl.winner", { names: winners })),
      h("p", {}, t("cl.fell", { names: view.fallen.map(name).join(", ") })),
      h("h3", {}, t("cl.final")),
      h("ol", {}, ranking.map(([iq, seat]) => h("li", { "data-seat": seat }, `${name(seat)}: ${iq}`))),
      h("p", { class: "muted" }, t("cl.cards_played", { n: view.played })));
  }

  function update(msg) {
    const view = msg.view;
    const legal = msg.legal || [];
    lastLegal = legal;
    const ask = view.ask;
    root.dataset.phase = view.phase;
    root.dataset.role = ask ? ask.role : "";
    root.dataset.askPhase = ask ? ask.phase : "";
    root.dataset.card = ask ? ask.headings.type : "";
    root.dataset.kind = ask?.question ? ask.question.kind : "";
    root.dataset.played = String(view.played);
    root.dataset.asker = String(view.asker);
    root.dataset.answerer = String(view.answerer);
    drawScale(view);
    drawPlayers(view);
    fill(status, h("p", {}, statusText(view, legal)));
    fill(weaponBox, weaponPanel(view));
    fill(actions, actionButtons(view, legal));
    fill(cardBox, cardPanel(view));
    // The asker deciding reads the card, the answer given and the verdict buttons first (js/quiz.js); the card's
    // type, rule and the statements already judged follow. Everyone else reads the rule before the question.
    const deciding = legal.some((a) => a.type === "ask_confirm" || a.type === "ask_overrule");
    if (deciding && cardBox.nextElementSibling !== lastBox) quizBox.after(cardBox);
    else if (!deciding && cardBox.nextElementSibling !== quizBox) quizBox.before(cardBox);
    quiz.update(msg);
    history.update(msg);
    fill(lastBox, lastPanel(view));
    fill(endBox, summary(view));
  }

  function events(list) {
    for (const e of list) {
      if (e.type === "cl_partly_wrong") {
        logBox.prepend(h("li", {}, noteText("cl_partly_wrong", e)));
        continue;
      }
      if (e.type !== "card_scored" && e.type !== "free_fall") continue;
      const text =
        e.type === "free_fall"
          ? `${t("cl.over")} ${t("cl.fell", { names: e.seats.map(name).join(", ") })}`
          : t("cl.last_line", { name: name(e.answerer), type: t(`cl.type.${e.card_type}`), outcome: e.correct ? t("cl.outcome_right") : t("cl.outcome_wrong", { penalty: e.penalty }) });
      logBox.prepend(h("li", {}, text));
      while (logBox.children.length > 12) logBox.lastChild.remove();
    }
  }

  return {
    update,
    events,
    destroy() {
      quiz.destroy();
    },
  };
}

/** The lobby's options form: whoever starts is one of the seats there are (or drawn at random). */
export const lobby = {
  choiceShown(name, value, values, players) {
    return name !== "starter" || Number(value) < players;
  },
};

/** One line describing a recorded action, for the replay page. */
export function describeAction(action, ctx) {
  const { t } = ctx;
  const asked = describeAskAction(action, t, ctx.seatName);
  if (asked) return asked;
  const name = action.seat === null || action.seat === undefined ? "" : ctx.seatName(action.seat);
  return t(`cl.rec.${action.type}`, { name, target: Number.isInteger(action.target) ? ctx.seatName(action.target) : "" });
}

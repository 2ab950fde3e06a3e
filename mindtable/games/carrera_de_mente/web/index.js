// Carrera de Mente: the board (js/board.js) with pegs and prize tokens, the dice (the move and the three
// number rolls: one button rolls the whole number, its dice shown one after the other), whose turn and who
// asks, the question through the shared quiz components (js/quiz.js: the answering side's box and options
// button, the asker's card with confirm/overrule), the grey square's booklet choice, lap prizes and steals, and
// a summary at the end. Implements the game-module interface of docs/web.md.

import { fill, h } from "../../js/common.js";
import { drawBoard } from "../../js/board.js";
import { nameList } from "../../js/games.js";
import { describeAskAction, givenText, mountHistory, mountQuiz } from "../../js/quiz.js";

const COLOURS = ["green", "skyblue", "yellow", "pink", "brown", "orange"];
// The number's dice rolled in one action appear one after the other, this far apart (ms).
const REVEAL_MS = 350;
const FILL = { green: "#2f9e44", skyblue: "#56b4e9", yellow: "#f2c94c", pink: "#f06595", brown: "#8d5a3b", orange: "#f08c00", grey: "#9aa0a6" };

// A prize token: an image named by its colour; beside its colour's name (buttons) it is only decoration.
function token(colour, t, { decorative = false } = {}) {
  const named = decorative ? { "aria-hidden": "true" } : { role: "img", "aria-label": t(`cm.colour.${colour}`) };
  return h("span", { class: "cm-token", style: `background:${FILL[colour] || colour}`, title: t(`cm.colour.${colour}`), "data-colour": colour, ...named });
}

// A die shows its number (read as it is; the row's label says which die).
function die(value, label) {
  return h("span", { class: "cm-die", "data-testid": "cm-die", title: label }, value == null ? "·" : String(value));
}

export function mount(root, ctx) {
  const { t } = ctx;
  root.classList.add("cm", "mt-table");
  const status = h("div", { class: "cm-status", "data-testid": "cm-status", "aria-live": "polite" });
  const players = h("ul", { class: "cm-players", "data-testid": "cm-players" });
  const boardBox = h("div", { class: "cm-board", "data-testid": "cm-board" });
  const dice = h("div", { class: "cm-dice", "data-testid": "cm-dice" });
  const actions = h("div", { class: "cm-actions", "data-testid": "cm-actions" });
  const quizBox = h("div", {});
  const lastBox = h("div", { "data-testid": "cm-last" });
  const historyBox = h("div", { class: "cm-history" });
  // The shared box sends what is typed (ask_type) a moment after the last key; once the answer is sent (or the
  // question is over) that draft is dropped here instead of being refused by the server with a notice.
  let lastLegal = [];
  const quizCtx = { ...ctx, send: (action) => (action.type === "ask_type" && !lastLegal.some((a) => a.type === "ask_type") ? Promise.resolve() : ctx.send(action)) };
  let lastView = null;
  const topicName = (view, topic) => (t.has && t.has(`cm.topic.${topic}`) ? t(`cm.topic.${topic}`) : (view?.titles && view.titles[topic]) || topic);
  const quiz = mountQuiz(quizBox, quizCtx, { topicName: (topic) => topicName(lastView, topic) });
  const history = mountHistory(historyBox, ctx);
  // The seat's turn, the dice, its buttons and the question come first (on a phone, at the top of the page); the
  // players and the board sit beside them on a wide screen, below them on a phone, with the history last.
  fill(root, h("div", { class: "mt-table-act" }, status, dice, actions, quizBox, lastBox), h("div", { class: "mt-table-side" }, players, boardBox), h("div", { class: "mt-table-more" }, historyBox));
  // The dice of a number rolled in one action ({digits, shown}): drawn one after the other, from its events.
  let reveal = null;
  let revealTimer = null;

  const send = (action) => ctx.send(action).catch(() => {});

  // A square's tooltip: its number (the arrows for the start), its colour and booklet, and whether it is a star.
  function squareTitle(view, sq) {
    const n = view.board.squares.findIndex((s) => s.id === sq.id);
    const topic = (view.board.drawing.colours?.[sq.colour] || {}).topic;
    return [
      t(sq.kind === "start" ? "cm.square.start" : "cm.square.n", { n }),
      t("cm.square.colour", { colour: t(`cm.colour.${sq.colour}`), topic: topic ? topicName(view, topic) : t("cm.free_topic") }),
      sq.special === "star" ? t("cm.square.star") : null,
    ].filter(Boolean).join(" · ");
  }

  function statusLine(view) {
    const mine = view.turn === ctx.seat;
    const key = {
      roll: "cm.step.roll", lap: "cm.step.lap", topic: "cm.step.topic", number: "cm.step.number",
      ask: "cm.step.ask", steal: "cm.step.steal", over: "cm.step.over",
    }[view.phase] || "cm.step.roll";
    if (view.phase === "ask" && view.asker === ctx.seat) return t("cm.step.ask_asker_you", { name: ctx.seatName(view.turn) });
    return t(mine ? `${key}_you` : key, { name: ctx.seatName(view.turn), asker: ctx.seatName(view.asker) });
  }

  function update(msg) {
    const view = msg.view;
    lastView = view;
    const legal = msg.legal || [];
    lastLegal = legal;
    const can = (type) => legal.filter((a) => a.type === type);
    root.dataset.phase = view.phase;
    root.dataset.turn = String(view.turn);
    fill(status,
      h("p", { class: "cm-turn", "data-testid": "cm-turn" }, statusLine(view)),
      view.phase !== "over" ? h("p", { class: "muted", "data-testid": "cm-asker" }, t(view.asker === ctx.seat ? "cm.asker_you" : "cm.asker", { name: ctx.seatName(view.asker) })) : null,
      view.member ? h("p", { class: "muted" }, t("cm.member", { member: view.member })) : null,
      view.variants?.short ? h("p", { class: "muted" }, t("cm.variant.short")) : null);
    fill(players, view.prizes.map((held, seat) => h("li", { class: seat === view.turn ? "cm-current" : "", "data-seat": seat, "data-testid": `cm-player-${seat}` },
      h("span", { class: "cm-peg", style: `background:${["#e8590c", "#7048e8", "#0c8599", "#c2255c", "#5c940d", "#495057"][seat % 6]}` }, String(seat + 1)),
      h("span", { class: "cm-name" }, ctx.seatName(seat), seat === ctx.seat ? ` (${t("cm.you")})` : ""),
      h("span", { class: "cm-tokens", "data-testid": `cm-prizes-${seat}` }, COLOURS.map((c) => (held.includes(c) ? token(c, t) : h("span", { class: "cm-token cm-token-empty", title: t(`cm.colour.${c}`), "aria-hidden": "true" })))),
      h("span", { class: "muted" }, t("cm.prize_count", { n: held.length })))));
    // The board: pegs by square index; a star square carries a token of its colour while it still has that
    // prize to give: to the seat holding this page (to the player whose turn it is, for a spectator), and while
    // the box holds one. Once that colour is won, the star shows none (clarification 1: it only moves on).
    const squares = view.board.squares;
    const drawing = view.board.drawing;
    const pawns = view.pegs.map((peg, seat) => ({ square: squares[peg].id, seat, label: String(seat + 1), you: seat === ctx.seat }));
    const boardKey = `cm.board.${drawing.id}`;
    const svg = drawBoard(drawing, pawns, { highlight: [squares[view.pegs[view.turn]].id], title: t.has?.(boardKey) ? t(boardKey) : undefined, squareTitle: (sq) => squareTitle(view, sq) });
    const whose = ctx.seat === null || ctx.seat === undefined ? view.turn : ctx.seat;
    const held = view.prizes[whose] || [];
    const inBox = (view.tokens && view.tokens.supply) || {};
    squares.forEach((sq) => {
      if (!sq.star) return;
      const cell = svg.querySelector(`[data-square="${sq.id}"]`);
      if (!cell) return;
      cell.classList.add("cm-star");
      if (held.includes(sq.colour) || inBox[sq.colour] === 0) {
        cell.classList.add("cm-star-won");
        return;
      }
      const ns = "http://www.w3.org/2000/svg";
      const hex = document.createElementNS(ns, "polygon");
      hex.setAttribute("points", "36,4 42,7.5 42,14.5 36,18 30,14.5 30,7.5");
      hex.setAttribute("class", "cm-star-token");
      hex.setAttribute("fill", FILL[sq.colour] || "#fff");
      hex.setAttribute("data-colour", sq.colour);
      cell.append(hex);
    });
    const legend = h("ul", { class: "cm-legend" }, COLOURS.map((c) => h("li", {}, token(c, t), " ", topicName(view, (drawing.colours?.[c] || {}).topic || c))),
      h("li", {}, h("span", { class: "cm-token", style: `background:${FILL.grey}`, "aria-hidden": "true" }), " ", t("cm.free_topic")));
    // What the board's marks mean (js/board.js draws ➜ on the arrows and ★ on a star square; this page adds the
    // prize token ⬡ a star still gives).
    const marks = h("ul", { class: "cm-legend cm-marks", "data-testid": "cm-marks", "aria-label": t("cm.marks") },
      [["start", "➜"], ["star", "★"], ["token", "⬡"]].map(([mark, glyph]) => h("li", { "data-mark": mark },
        h("span", { class: `cm-mark cm-mark-${mark}`, "aria-hidden": "true" }, glyph), " ", t(`cm.mark.${mark}`))));
    fill(boardBox, svg, legend, marks);
    drawDice(view);
    const digits = (view.context || {}).digits || [];
    // Actions this seat may take now. The question number is rolled in one action (the book's three rolls in
    // one gesture); the one-die move stays for old records and bots, and the page does not offer it.
    const buttons = [];
    if (can("roll").length) buttons.push(h("button", { type: "button", class: "btn-primary", "data-testid": "cm-roll", onclick: () => send({ type: "roll" }) }, t("cm.roll")));
    if (can("roll_whole_number").length) buttons.push(h("button", { type: "button", class: "btn-primary", "data-testid": "cm-roll-number", onclick: () => send({ type: "roll_whole_number" }) }, t("cm.roll_whole_number", { n: 3 - digits.length })));
    const topics = can("topic");
    if (topics.length) {
      buttons.push(h("p", {}, t("cm.choose_topic")));
      topics.forEach((a) => buttons.push(h("button", { type: "button", "data-testid": `cm-topic-${a.topic}`, onclick: () => send({ type: "topic", topic: a.topic }) }, topicName(view, a.topic))));
    }
    const laps = can("lap_prize");
    if (laps.length) {
      buttons.push(h("p", {}, t("cm.choose_lap")));
      laps.forEach((a) => buttons.push(h("button", { type: "button", class: "cm-colour-btn", "data-testid": `cm-lap-${a.colour}`, onclick: () => send({ type: "lap_prize", colour: a.colour }) }, token(a.colour, t, { decorative: true }), " ", t(`cm.colour.${a.colour}`))));
    } else if (view.phase === "lap") buttons.push(h("p", { class: "muted" }, t("cm.waiting_lap", { name: ctx.seatName(view.turn) })));
    const steals = can("steal");
    if (steals.length) {
      buttons.push(h("p", {}, t("cm.choose_steal", { name: ctx.seatName(view.steal_from[0]) })));
      steals.forEach((a) => buttons.push(h("button", { type: "button", class: "cm-colour-btn", "data-testid": `cm-steal-${a.colour}`, onclick: () => send({ type: "steal", colour: a.colour }) }, token(a.colour, t, { decorative: true }), " ", t(`cm.colour.${a.colour}`))));
      if (can("no_steal").length) buttons.push(h("button", { type: "button", "data-testid": "cm-no-steal", onclick: () => send({ type: "no_steal" }) }, t("cm.no_steal")));
    } else if (view.phase === "steal") buttons.push(h("p", { class: "muted" }, t("cm.waiting_steal", { name: ctx.seatName(view.turn), victim: ctx.seatName(view.steal_from[0]) })));
    fill(actions, buttons);
    quiz.update(msg);
    history.update(msg);
    let last = null;
    if (!view.ask && view.last && view.last.correct !== undefined) {
      // view.last.seat is the answering player; the verdict line names who decided: the asker (view.last.asker)
      // when the reader decided, else the table's vote or the clock (no name).
      const l = view.last;
      const decided = { ...l, seat: l.by === "reader" ? l.asker : null };
      try {
        last = [h("h3", {}, t("cm.last")),
          h("p", { "data-testid": "cm-last-answerer", "data-seat": l.seat }, t("cm.last_answerer", { name: ctx.seatName(l.seat), topic: topicName(view, l.topic), number: l.number })),
          l.prompt ? h("p", { class: "cm-last-prompt", "data-testid": "cm-last-prompt" }, l.prompt) : null,
          h("p", { "data-testid": "cm-last-given" }, t("quiz.given", { text: givenText(t, l.given) })),
          quiz.verdictLine(decided)];
      } catch { last = null; }
    }
    fill(lastBox, last);
  }

  // Dice: the move die and the three number dice of the current question (those of a number rolled in one
  // action still being revealed are drawn empty, and the number is said once they are all shown).
  function drawDice(view) {
    const context = view.context || {};
    const digits = context.digits || [];
    const revealing = reveal && reveal.digits.length === digits.length && reveal.digits.every((d, i) => d === digits[i]);
    const shown = revealing ? digits.slice(0, reveal.shown) : digits;
    fill(dice,
      h("div", { class: "cm-die-row" }, h("span", {}, t("cm.move_die")), die(view.move_die, t("cm.move_die"))),
      h("div", { class: "cm-die-row", "data-testid": "cm-number" }, h("span", {}, t("cm.number_dice")), [0, 1, 2].map((i) => die(shown[i], t("cm.number_dice")))),
      context.topic ? h("p", { "data-testid": "cm-topic" }, t("cm.topic", { topic: topicName(view, context.topic) }), context.number && !revealing ? ` · ${t("cm.number", { number: context.number })}` : "") : null,
      context.star ? h("p", { class: "cm-note" }, t("cm.on_star", { colour: t(`cm.colour.${context.star}`) })) : null,
      (context.occupants || []).length ? h("p", { class: "cm-note" }, t("cm.on_occupied", { names: context.occupants.map((s) => ctx.seatName(s)).join(", ") })) : null);
  }

  // Several number dice in one events message (one roll_whole_number): the first new die at once, then one
  // more every REVEAL_MS. History re-sent on resuming is drawn as it is.
  function events(list, info) {
    const rolls = (list || []).filter((e) => e.type === "number_die");
    if (rolls.length < 2 || info?.replayed) return;
    const digits = rolls[rolls.length - 1].digits || [];
    clearInterval(revealTimer);
    reveal = { digits, shown: digits.length - rolls.length + 1 };
    revealTimer = setInterval(() => {
      reveal.shown += 1;
      if (reveal.shown >= reveal.digits.length) {
        clearInterval(revealTimer);
        revealTimer = null;
        reveal = null;
      }
      if (lastView) drawDice(lastView);
    }, REVEAL_MS);
    if (lastView) drawDice(lastView);
  }

  // Who won, from the game's result (a turn limit may end in a tie), else from the view.
  function winnerLine(view, result) {
    const winners = result?.winners || (view.winner != null ? [view.winner] : []);
    const names = nameList(winners.map((s) => ctx.seatName(s)), ctx.lang || "en");
    const n = winners.length ? view.prizes[winners[0]].length : 0;
    if (winners.length > 1) return h("p", { "data-testid": "cm-winner" }, t("cm.tie", { names, n }));
    if (!winners.length) return null;
    const six = (result?.reason ?? (view.winner != null ? "six_colours" : "")) === "six_colours";
    return h("p", { "data-testid": "cm-winner" }, t(six ? "cm.winner" : "cm.winner_most", { name: names, n }));
  }

  function summaryOf(view, result) {
    if (!view) return h("div", {});
    const rows = view.prizes.map((held, seat) => h("tr", { "data-seat": seat },
      h("td", {}, ctx.seatName(seat)), h("td", {}, held.map((c) => token(c, t))), h("td", {}, String(held.length))));
    return h("div", { class: "cm cm-summary", "data-testid": "cm-summary" },
      winnerLine(view, result),
      h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, t("cm.player")), h("th", {}, t("cm.prizes")), h("th", {}, t("cm.count")))), h("tbody", {}, rows)));
  }

  return {
    update,
    events,
    summary(result, info) {
      return summaryOf((info && info.view) || lastView, result);
    },
    destroy() {
      clearInterval(revealTimer);
      quiz.destroy();
    },
  };
}

/** One line describing a recorded action, for the replay page. */
export function describeAction(action, ctx) {
  const { t } = ctx;
  const asked = describeAskAction(action, t, ctx.seatName);
  if (asked) return asked;
  const name = action.seat === null || action.seat === undefined ? "" : ctx.seatName(action.seat);
  const topic = t.has?.(`cm.topic.${action.topic}`) ? t(`cm.topic.${action.topic}`) : action.topic;
  return t(`cm.rec.${action.type}`, { name, colour: action.colour ? t(`cm.colour.${action.colour}`) : "", topic });
}

// Quiz Relay (the reference quiz game of the tests): the board and the shared quiz components, a few lines
// around js/board.js and js/quiz.js. Implements the game-module interface of docs/web.md.

import { fill, h } from "../../js/common.js";
import { drawBoard } from "../../js/board.js";
import { mountQuiz } from "../../js/quiz.js";

export function mount(root, ctx) {
  const { t } = ctx;
  root.classList.add("qr");
  const status = h("div", { class: "qr-status", "data-testid": "qr-status" });
  const boardBox = h("div", { class: "qr-board", "data-testid": "qr-board" });
  const actions = h("div", { class: "qr-actions", "data-testid": "qr-actions" });
  const quizBox = h("div", {});
  const lastBox = h("div", { "data-testid": "qr-last" });
  const quiz = mountQuiz(quizBox, ctx);
  fill(root, h("div", {}, status, boardBox, actions), h("div", {}, quizBox, lastBox));

  function update(msg) {
    const view = msg.view;
    const legal = msg.legal || [];
    root.dataset.phase = view.phase;
    fill(
      status,
      h("p", {}, view.turn === ctx.seat && view.phase === "roll" ? t("qr.your_turn") : t("qr.turn", { name: ctx.seatName(view.turn) })),
      h("ul", { class: "qr-scores" }, view.scores.map((points, seat) => h("li", { class: seat === view.turn ? "qr-turn" : "", "data-seat": seat }, t("qr.score", { name: ctx.seatName(seat), points })))),
      h("p", { class: "muted" }, t("qr.target", { target: view.target })),
    );
    const pawns = view.pawns.map((square, seat) => ({ square, seat, label: String(seat + 1), you: seat === ctx.seat }));
    fill(boardBox, drawBoard(view.board, pawns, { highlight: [view.pawns[view.turn]] }));
    const buttons = [];
    if (legal.some((a) => a.type === "roll")) buttons.push(h("button", { type: "button", class: "btn-primary", "data-testid": "qr-roll", onclick: () => ctx.send({ type: "roll" }).catch(() => {}) }, t("qr.roll")));
    const topics = legal.filter((a) => a.type === "topic");
    if (topics.length) {
      buttons.push(h("span", {}, t("qr.choose_topic")));
      for (const a of topics) buttons.push(h("button", { type: "button", "data-testid": `qr-topic-${a.topic}`, onclick: () => ctx.send({ type: "topic", topic: a.topic }).catch(() => {}) }, t(`qr.topic.${a.topic}`)));
    }
    fill(actions, buttons);
    quiz.update(msg);
    fill(lastBox, !view.ask && view.last ? [h("h3", {}, t("qr.last")), quiz.verdictLine(view.last)] : null);
  }

  return {
    update,
    destroy() {
      quiz.destroy();
    },
  };
}

export function describeAction(action) {
  return action.text ? `${action.type}: ${action.text}` : action.type;
}

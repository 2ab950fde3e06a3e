// Stepping Stones (the example plugin's page): the river as a row of stones per player, and the shared quiz
// components (js/quiz.js) for the question, the reader's card, the verdict and the answer box (docs/web.md).

import { fill, h } from "../../js/common.js";
import { describeAskAction, mountQuiz } from "../../js/quiz.js";

export function mount(root, ctx) {
  const { t } = ctx;
  root.classList.add("ss");
  const river = h("div", { class: "ss-river", "data-testid": "ss-river" });
  const quizBox = h("div", {});
  const lastBox = h("div", { "data-testid": "ss-last" });
  const quiz = mountQuiz(quizBox, ctx);
  fill(root, river, quizBox, lastBox);

  function update(msg) {
    const view = msg.view;
    root.dataset.phase = view.phase;
    root.dataset.turn = String(view.turn);
    const row = (seat) =>
      h("li", { class: seat === view.turn ? "ss-turn" : "", "data-seat": seat },
        h("span", { class: "ss-name" }, t("ss.player", { name: ctx.seatName(seat), n: view.stones[seat], river: view.river })),
        h("span", { class: "ss-stones", "aria-hidden": "true" }, Array.from({ length: view.river }, (_, i) => h("span", { class: i < view.stones[seat] ? "ss-stone ss-crossed" : "ss-stone" }))));
    fill(river,
      h("p", {}, view.phase === "over" ? t("ss.over") : view.turn === ctx.seat ? t("ss.your_turn") : t("ss.turn", { name: ctx.seatName(view.turn) })),
      h("ul", { class: "ss-players" }, view.stones.map((_, seat) => row(seat))),
      h("p", { class: "muted" }, t("ss.questions_left", { n: view.questions_left })));
    quiz.update(msg);
    fill(lastBox, !view.ask && view.last ? [h("h3", {}, t("ss.last")), quiz.verdictLine(view.last)] : null);
  }

  return { update, destroy: () => quiz.destroy() };
}

/** One line describing a recorded action, for the replay page: every move is the shared ask step's. */
export function describeAction(action, ctx) {
  return describeAskAction(action, ctx.t, ctx.seatName) ?? action.type;
}

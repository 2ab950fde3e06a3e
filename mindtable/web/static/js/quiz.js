// Shared quiz components for game pages, drawn from the ask step's view (mindtable.trivia.quiz.ask_view, sent
// as view.ask) and the seat's legal actions. Game-free. A game page mounts them in a few lines:
//
//   import { mountQuiz } from "../../js/quiz.js";
//   const quiz = mountQuiz(box, ctx);          // in mount(root, ctx)
//   quiz.update(stateMsg);                     // in update(stateMsg)
//
// What each seat sees is what the server sent: the answering side and the others get the question card
// (prompt, headings, options once read out), the reader gets the card with its answers, the judge's
// suggestion with its reason in words, and confirm/overrule buttons. The answer box sends ask_type as the
// answerer types (what was typed is judged when time runs out), ask_answer on Enter, ask_options and
// ask_pass; a countdown runs from the step's deadline. Words come from the game's strings when it has the
// key, else from the shell's (i18n/<lang>.json: quiz.* and judge.*); the judge's reason is shown from its code,
// never parsed.

import { fill, h } from "./common.js";
import { t as shellT } from "./i18n.js";

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** A translator: the game's strings first (ctx.t), then the shell's (i18n/<lang>.json holds the quiz's and the
 * judge's words, `quiz.*` and `judge.*`, for every game page and terminal), then English. */
export function quizSay(ctx) {
  const translate = ctx.t || shellT;
  return (key, params = {}) => translate(key, params);
}

/** The judge's reason in words, from its code and parameters. */
export function reasonText(say, verdict) {
  if (!verdict) return "";
  return say(`judge.${verdict.code}`, { ...(verdict.params || {}), named: verdict.named, needed: verdict.needed });
}

/** A card category in words: the game's `quiz.category.<id>` when it has one, else the id as the card gives it. */
function categoryName(category, say) {
  if (!category) return "";
  const key = `quiz.category.${category}`;
  const text = say(key);
  return text === key ? category : text;
}

function headingsList(ask, say, topicName) {
  const items = (ask.headings?.headings || []).map((hd, i) => {
    // A game that names its topics (topicName) says the heading's topic or category id in its words.
    const id = hd.topic || hd.category;
    const named = topicName && id ? topicName(id) : null;
    const label = [(named !== id && named) || hd.topic || categoryName(hd.category, say), hd.penalty ? say("quiz.penalty", { penalty: hd.penalty }) : null].filter(Boolean).join(" ");
    return label ? h("li", { "data-index": i }, label) : null;
  });
  return items.some(Boolean) ? h("ul", { class: "mt-quiz-headings" }, items) : null;
}

function optionList(options) {
  return h("ol", { class: "mt-quiz-options", "data-testid": "quiz-options" }, options.map((o, i) => h("li", { "data-letter": LETTERS[i] }, `${LETTERS[i]}) ${o}`)));
}

/** The question card as the answering side (and everyone but the reader) sees it: no answer anywhere. With
 * `{options: false}` it leaves the options out (the page shows them as the answer buttons: not twice). A game
 * whose card headings are topic ids names them in its words (`topicName(id)`). */
export function questionCard(ask, say, { options = true, topicName = null } = {}) {
  const q = ask.question;
  const card = h("section", { class: "mt-quiz-card mt-quiz-question", "data-testid": "quiz-question" });
  card.append(h("h3", {}, say(ask.role === "answerer" ? "quiz.your_question" : "quiz.question")));
  const headings = headingsList(ask, say, topicName);
  if (headings) card.append(headings); // (append(null) would write "null")
  if (!q) return card;
  card.append(h("p", { class: "mt-quiz-prompt", "data-testid": "quiz-prompt" }, q.prompt));
  if (q.kind === "list") card.append(h("p", { class: "muted" }, say("quiz.name_items", { count: q.count })));
  if (q.options && options) card.append(optionList(q.options));
  return card;
}

/** The reader's card: every question with its answer, the current one marked, the judge's suggestion. */
export function readerCard(ask, say) {
  const card = h("section", { class: "mt-quiz-card mt-quiz-reader", "data-testid": "quiz-reader-card" }, h("h3", {}, say("quiz.reader_card")));
  const list = h("ol", { class: "mt-quiz-reader-list", "data-testid": "quiz-reader-list", tabindex: 0, "aria-label": say("quiz.reader_card") });
  (ask.card?.questions || []).forEach((q, i) => {
    const answer = q.kind === "list" ? (q.items || []).join("; ") : q.kind === "truefalse" ? say(q.answer === "true" ? "quiz.true" : "quiz.false") : q.answer || (q.options && q.correct != null ? `${LETTERS[q.correct]}) ${q.options[q.correct]}` : "");
    list.append(
      h("li", { class: i === ask.question?.index ? "mt-quiz-current" : "", "data-index": i },
        h("div", {}, q.prompt),
        q.options ? h("div", { class: "muted" }, q.options.map((o, k) => `${LETTERS[k]}) ${o}`).join("  ")) : null,
        h("div", { class: "mt-quiz-answer", "data-testid": i === ask.question?.index ? "quiz-reader-answer" : null }, answer)),
    );
  });
  card.append(list);
  return card;
}

function verdictWords(say, v) {
  return h("span", { class: v.correct ? "mt-quiz-right" : "mt-quiz-wrong" }, say(v.correct ? "quiz.right" : "quiz.wrong"));
}

/** The judge's suggestion with its reason in words (the reader sees it; everyone once decided). */
export function suggestionLine(say, suggestion) {
  if (!suggestion) return null;
  return h("p", { class: "mt-quiz-suggestion", "data-testid": "quiz-suggestion" }, say("quiz.suggestion"), " ", verdictWords(say, suggestion), " — ",
    h("span", { class: "mt-quiz-reason", "data-testid": "quiz-reason", "data-code": suggestion.code }, reasonText(say, suggestion)));
}

/** A card's answer in words: a true/false statement's "true"/"false" as the game says them. */
export function answerText(say, answer) {
  if (answer === "true" || answer === "false" || typeof answer === "boolean") return say(String(answer) === "true" ? "quiz.true" : "quiz.false");
  return answer == null ? "" : String(answer);
}

/** What the answering side gave, in words: "true"/"false" as the game says them, nothing as "no answer". */
export function givenText(say, given) {
  if (given === "true" || given === "false" || typeof given === "boolean") return answerText(say, given);
  return given ? String(given) : say("quiz.no_answer");
}

/**
 * A recorded action of the ask step (ask_choose, ask_answer, ask_vote...) in words, for the replay page; null for
 * an action of another step. Answers "true"/"false" are said as the game says them.
 */
export function describeAskAction(action, say, nameOf) {
  if (!String(action.type).startsWith("ask_")) return null;
  const name = action.seat === null || action.seat === undefined ? "" : nameOf(action.seat);
  const type = action.type === "ask_vote" ? `ask_vote_${action.verdict === "right" ? "right" : "wrong"}` : action.type;
  const key = `quiz.rec.${type}`;
  const text = "text" in action ? givenText(say, action.text) : "";
  const words = say(key, { name, text, n: (action.question ?? 0) + 1, named: action.named ?? "" });
  return words === key ? null : words;
}

/** The decided verdict: right or wrong, who decided (to the seat `self` that decided: "you decided"), the reason
 * in words and the answer. */
export function verdictLine(say, result, nameOf, self = null) {
  if (!result) return null;
  const mine = result.by === "reader" && self !== null && self !== undefined && result.seat === self;
  const by = mine ? say("quiz.by.reader_you") : say(`quiz.by.${result.by}`, { name: result.seat != null ? nameOf(result.seat) : "" });
  return h("div", { class: "mt-quiz-card mt-quiz-verdict", "data-testid": "quiz-verdict", "data-correct": String(result.correct), "data-by": result.by },
    h("p", {}, verdictWords(say, result), result.named != null ? ` (${say("quiz.items", result)})` : "", result.with_options ? ` · ${say("quiz.with_options")}` : "",
      ` · ${by}`, result.overruled ? ` · ${say("quiz.overruled")}` : ""),
    h("p", { class: "mt-quiz-reason", "data-testid": "quiz-verdict-reason" }, reasonText(say, result)),
    h("p", {}, say("quiz.the_answer", { answer: answerText(say, result.answer) })));
}

/** Who decided a verdict, in words: the reader by name (to that seat: "you decided"), the vote, the time, a pass. */
function deciderWords(say, entry, nameOf, self) {
  if (entry.by === "reader" && self != null && entry.seat === self) return say("quiz.by.reader_you");
  return say(`quiz.by.${entry.by}`, { name: entry.seat != null ? nameOf(entry.seat) : "" });
}

/** One decided question of the table's history (view.quiz_history, mindtable.trivia.step.QuizStep.history): who
 * answered, the question, the answer given, the card's answer, the verdict with its reason and who decided. */
export function historyItem(say, entry, nameOf, self = null, latest = false) {
  const mine = self != null && (entry.answerers || []).includes(self);
  const who = mine ? say("quiz.history_answered_you") : say("quiz.history_answered", { name: (entry.answerers || []).map(nameOf).join(", ") });
  const verdict = [
    h("span", { class: entry.correct ? "mt-quiz-right" : "mt-quiz-wrong", "data-testid": "quiz-history-verdict" }, say(entry.correct ? "quiz.right" : "quiz.wrong")),
    entry.named != null ? ` (${say("quiz.items", entry)})` : "",
    entry.with_options ? ` · ${say("quiz.with_options")}` : "",
    " · ",
    h("span", { "data-testid": "quiz-history-decider" }, deciderWords(say, entry, nameOf, self)),
    entry.overruled ? ` · ${say("quiz.overruled")}` : "",
  ];
  return h("li", { class: "mt-quiz-history-item", "data-testid": latest ? "quiz-history-last" : "quiz-history-item", "data-n": entry.n, "data-correct": String(entry.correct), "data-by": entry.by, "data-decider": entry.seat ?? "" },
    h("p", { class: "mt-quiz-history-head" }, h("span", { "data-testid": "quiz-history-answerer" }, who), " — ", verdict),
    h("p", { class: "mt-quiz-history-prompt", "data-testid": "quiz-history-prompt" }, entry.prompt),
    h("p", { class: "muted" }, h("span", { "data-testid": "quiz-history-given" }, say("quiz.given", { text: givenText(say, entry.given) })), " · ",
      h("span", { "data-testid": "quiz-history-answer" }, say("quiz.the_answer", { answer: answerText(say, entry.answer) }))),
    entry.code ? h("p", { class: "muted", "data-testid": "quiz-history-reason" }, reasonText(say, entry)) : null);
}

/** The table's history of questions, newest first: the last one in full view, the earlier ones folded away. */
export function historyList(say, history, nameOf, self = null) {
  const entries = [...(history || [])].reverse();
  if (!entries.length) return null;
  const [latest, ...earlier] = entries;
  return h("section", { class: "mt-quiz-history", "data-testid": "quiz-history", "data-count": entries.length },
    h("h3", {}, say("quiz.history")),
    h("ol", { class: "mt-quiz-history-list", reversed: true, start: latest.n }, historyItem(say, latest, nameOf, self, true)),
    earlier.length ? h("details", { class: "mt-quiz-history-earlier", "data-testid": "quiz-history-earlier" },
      h("summary", {}, say("quiz.history_earlier", { n: earlier.length })),
      h("ol", { class: "mt-quiz-history-list", reversed: true, start: earlier[0].n }, earlier.map((e) => historyItem(say, e, nameOf, self)))) : null);
}

/** Mount the table's history of questions in `root`: {update(stateMsg), destroy()}. The view carries it as
 * `view.quiz_history` (`opts.key` to read another); names come from `opts.nameOf` (default ctx.seatName). */
export function mountHistory(root, ctx, opts = {}) {
  const key = opts.key || "quiz_history";
  const say = quizSay(ctx);
  const nameOf = opts.nameOf || ((seat) => (ctx.seatName ? ctx.seatName(seat) : `#${seat + 1}`));
  let drawn = "";
  let open = false;
  return {
    update(msg) {
      const history = msg.view?.[key] || [];
      const last = history[history.length - 1];
      const stamp = `${history.length}/${last ? last.n : 0}`;
      if (stamp === drawn) return;
      drawn = stamp;
      const details = root.querySelector("details");
      if (details) open = details.open; // an unfolded list stays unfolded as questions come in
      fill(root, historyList(say, history, nameOf, ctx.seat));
      const again = root.querySelector("details");
      if (again) again.open = open;
    },
    destroy() {},
  };
}

const fold = (text) => text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim();

/**
 * The items a list answer names (`given`, split at commas, semicolons and new lines), each ticked when the
 * judge matched it (`matched`, the suggestion's items); matches not found among the typed pieces (another
 * accepted form) are listed ticked too, and no more than `named` rows are ticked: [{label, on}].
 */
export function itemRows(given, matched, named) {
  const pieces = String(given || "").split(/[,;\n]+/).map((x) => x.trim()).filter(Boolean);
  const unused = [...(matched || [])];
  const rows = pieces.map((piece) => {
    const f = fold(piece);
    const at = unused.findIndex((m) => fold(m) === f || (f.length >= 4 && fold(m).slice(0, 4) === f.slice(0, 4)));
    if (at < 0) return { label: piece, on: false };
    unused.splice(at, 1);
    return { label: piece, on: true };
  });
  for (const m of unused) rows.push({ label: m, on: true });
  let ticked = rows.filter((r) => r.on).length;
  for (const r of rows) if (r.on && ticked > named) { r.on = false; ticked -= 1; }
  return rows;
}

/** A countdown to `deadline` (ms since the match began), from the state message's `clock`. */
export function countdown(deadline, clock, say) {
  const el = h("span", { class: "mt-quiz-countdown", "data-testid": "quiz-countdown", role: "timer" });
  const started = performance.now();
  const tick = () => {
    const left = Math.max(0, deadline - clock - (performance.now() - started));
    el.textContent = say("quiz.seconds", { s: Math.ceil(left / 1000) });
    el.classList.toggle("mt-quiz-late", left < 5000);
    el.dataset.left = String(Math.round(left));
  };
  tick();
  el._timer = setInterval(tick, 250);
  return el;
}

/**
 * Mount the quiz area in `root`. Returns {update(stateMsg), destroy()}. `opts.key` is where the view carries
 * the step (default "ask"); `opts.nameOf(seat)` names seats (default ctx.seatName). `opts.itemChecks`: for a
 * list answer the reader gets the items named, one checkbox each (ticked where the judge matched them), and one
 * button that confirms the ticks (an overrule with the number ticked when they changed any), instead of a
 * number field.
 */
export function mountQuiz(root, ctx, opts = {}) {
  const key = opts.key || "ask";
  const say = quizSay(ctx);
  const nameOf = opts.nameOf || ((seat) => (ctx.seatName ? ctx.seatName(seat) : `#${seat + 1}`));
  root.classList.add("mt-quiz");
  root.dataset.testid = "quiz";
  let timers = [];
  let draftTimer = null;
  let lastDraft = "";
  let typedFor = null; // the question the text box belongs to (keep what was typed across updates)
  let readerAt = null; // the question the reader's card was last drawn at (its scroll is kept while it lasts)
  let ticks = { key: "", on: [] }; // the reader's ticks on a list answer's items, kept across updates
  const input = h("input", { type: "text", autocomplete: "off", "aria-label": say("quiz.answer"), "data-testid": "quiz-input", maxlength: 300 });
  input.addEventListener("input", () => {
    clearTimeout(draftTimer);
    draftTimer = setTimeout(() => {
      const text = input.value.trim();
      if (text && text !== lastDraft) {
        lastDraft = text;
        ctx.send({ type: "ask_type", text }).catch(() => {});
      }
    }, 400);
  });
  // Any other move ends the typing: a draft still waiting to go out would arrive after the answer and be refused.
  const send = (action) => {
    if (action.type !== "ask_type") clearTimeout(draftTimer);
    return ctx.send(action).catch(() => {});
  };

  // The items named, one checkbox each; one button decides: the judge's count confirmed, or overruled.
  function itemChecks(ask, legal) {
    const s = ask.suggestion;
    const key = `${ask.headings?.size}/${ask.question?.index}/${ask.question?.prompt}/${ask.given}`;
    const rows = itemRows(ask.given, s.items, s.named);
    if (ticks.key !== key) ticks = { key, on: rows.map((r) => r.on) };
    const boxes = rows.map((row, i) => {
      const box = h("input", { type: "checkbox", "data-testid": `quiz-item-${i}` });
      box.checked = Boolean(ticks.on[i]);
      box.addEventListener("change", () => { ticks.on[i] = box.checked; });
      return { box, label: h("label", { class: "mt-quiz-item" }, box, " ", row.label) };
    });
    const decide = () => {
      const count = Math.min(s.needed, boxes.filter((b) => b.box.checked).length);
      send(count === s.named || !legal.has("ask_overrule") ? { type: "ask_confirm" } : { type: "ask_overrule", named: count });
    };
    return h("div", { class: "mt-quiz-buttons", "data-testid": "quiz-decide" },
      h("div", { class: "mt-quiz-items", "data-testid": "quiz-item-checks" }, boxes.map((b) => b.label)),
      h("button", { type: "button", class: "btn-primary", "data-testid": "quiz-confirm", onclick: decide }, say("quiz.confirm")));
  }

  function update(msg) {
    timers.forEach((t) => clearInterval(t));
    timers = [];
    const ask = msg.view?.[key];
    const legal = new Set((msg.legal || []).map((a) => a.type));
    if (!ask) {
      fill(root, opts.idle ? opts.idle(msg) : null);
      root.dataset.phase = "none";
      return;
    }
    root.dataset.phase = ask.phase;
    root.dataset.role = ask.role;
    const questionId = `${ask.headings?.size}/${ask.question?.index}/${ask.question?.prompt}`;
    if (typedFor !== questionId) {
      input.value = "";
      lastDraft = "";
      typedFor = questionId;
    }
    const parts = [];
    if (ask.role === "reader" && ask.card) parts.push(readerCard(ask, say));
    // The one answering picks an option with its button ("a) Sydney"): the card does not list them again.
    const optionButtons = legal.has("ask_answer") && Boolean(ask.question?.options) && ask.question?.kind !== "truefalse";
    // The asker who must decide reads the card, the answer given, the judge's suggestion and the verdict buttons
    // first, one after the other; the question as the others see it comes after them (issue #28: in view).
    const deciding = legal.has("ask_confirm") || legal.has("ask_overrule") || legal.has("ask_undo");
    if (!deciding) parts.push(questionCard(ask, say, { options: !optionButtons, topicName: opts.topicName }));
    const deadline = ask.deadline ?? ask.judge_deadline;
    if (deadline != null && ask.phase !== "decided") {
      const c = countdown(deadline, msg.clock ?? 0, say);
      timers.push(c._timer);
      parts.push(h("p", {}, c));
    }
    if (legal.has("ask_choose")) {
      const choices = (msg.legal || []).filter((a) => a.type === "ask_choose");
      parts.push(h("div", { class: "mt-quiz-buttons", "data-testid": "quiz-choose" }, h("span", {}, say("quiz.choose")),
        choices.map((a) => {
          const hd = ask.headings.headings[a.question] || {};
          const label = [hd.topic || categoryName(hd.category, say), hd.penalty ? say("quiz.penalty", { penalty: hd.penalty }) : null].filter(Boolean).join(" ");
          return h("button", { type: "button", "data-testid": `quiz-choose-${a.question}`, onclick: () => send({ type: "ask_choose", question: a.question }) }, label || String(a.question + 1));
        })));
    }
    if (legal.has("ask_answer")) {
      const q = ask.question || {};
      const buttons = [];
      if (q.kind === "truefalse") {
        buttons.push(h("button", { type: "button", class: "btn-primary", "data-testid": "quiz-true", onclick: () => send({ type: "ask_answer", text: "true" }) }, say("quiz.true")));
        buttons.push(h("button", { type: "button", class: "btn-primary", "data-testid": "quiz-false", onclick: () => send({ type: "ask_answer", text: "false" }) }, say("quiz.false")));
      } else {
        if (q.options) {
          q.options.forEach((o, i) => buttons.push(h("button", { type: "button", "data-testid": `quiz-letter-${LETTERS[i]}`, onclick: () => send({ type: "ask_answer", text: LETTERS[i] }) }, `${LETTERS[i]}) ${o}`)));
        }
        const form = h("form", { class: "mt-quiz-form", "data-testid": "quiz-answer-form" }, input, h("button", { type: "submit", class: "btn-primary", "data-testid": "quiz-send" }, say("quiz.send")));
        form.addEventListener("submit", (e) => {
          e.preventDefault();
          const text = input.value.trim();
          if (text) send({ type: "ask_answer", text });
        });
        parts.push(form);
      }
      if (legal.has("ask_options")) buttons.push(h("button", { type: "button", "data-testid": "quiz-ask-options", onclick: () => send({ type: "ask_options" }) }, say("quiz.options")));
      if (legal.has("ask_pass")) buttons.push(h("button", { type: "button", "data-testid": "quiz-pass", onclick: () => send({ type: "ask_pass" }) }, say("quiz.pass")));
      parts.push(h("div", { class: "mt-quiz-buttons" }, buttons));
      if (document.activeElement === document.body && q.kind !== "truefalse") setTimeout(() => input.focus(), 0);
    } else if (ask.phase === "answer" || ask.phase === "choose") {
      // The answering seat is told about itself ("You are answering"), and not at all while it picks the topic.
      const answering = ask.role === "answerer";
      if (!answering) parts.push(h("p", { class: "muted", "data-testid": "quiz-waiting" }, say("quiz.waiting_answer", { name: nameOf(ask.answerers[0]) })));
      else if (!legal.has("ask_choose")) parts.push(h("p", { class: "muted", "data-testid": "quiz-waiting" }, say("quiz.waiting_answer_you")));
      if (ask.draft) parts.push(h("p", { "data-testid": "quiz-draft" }, say("quiz.typing", { text: ask.draft })));
    }
    if (ask.given != null && ask.phase !== "answer") parts.push(h("p", { "data-testid": "quiz-given" }, say("quiz.given", { text: givenText(say, ask.given) })));
    if (ask.suggestion && ask.phase !== "decided" && ask.phase !== "pending") parts.push(suggestionLine(say, ask.suggestion));
    if (legal.has("ask_confirm") || legal.has("ask_overrule")) {
      const q = ask.card?.questions?.[ask.question?.index] || {};
      const isList = q.kind === "list";
      const named = h("input", { type: "number", min: 0, max: ask.suggestion?.needed ?? 1, value: ask.suggestion?.named ?? 0, "data-testid": "quiz-named", "aria-label": say("quiz.named") });
      if (isList && opts.itemChecks && ask.suggestion) parts.push(itemChecks(ask, legal));
      else {
        // Each button says what it leads to ("Change to wrong", not a bare "Overrule" that reads as "mark it
        // right" in some languages); changing the verdict asks a second click within a few seconds.
        const right = ask.suggestion?.correct === true;
        const keep = isList ? say("quiz.confirm") : say(right ? "quiz.confirm_right" : "quiz.confirm_wrong");
        const change = isList ? say("quiz.overrule") : say(right ? "quiz.overrule_to_wrong" : "quiz.overrule_to_right");
        const overrule = h("button", { type: "button", "data-testid": "quiz-overrule", "aria-live": "polite" }, change);
        let disarm = null;
        overrule.addEventListener("click", () => {
          if (overrule.dataset.armed !== "1") {
            overrule.dataset.armed = "1";
            overrule.textContent = say("quiz.overrule_sure", { action: change });
            overrule.classList.add("armed");
            disarm = setTimeout(() => {
              overrule.dataset.armed = "";
              overrule.textContent = change;
              overrule.classList.remove("armed");
            }, 4000);
            return;
          }
          clearTimeout(disarm);
          send(isList ? { type: "ask_overrule", named: Number(named.value) } : { type: "ask_overrule" });
        });
        parts.push(h("div", { class: "mt-quiz-buttons", "data-testid": "quiz-decide" },
          h("button", { type: "button", class: "btn-primary", "data-testid": "quiz-confirm", onclick: () => send({ type: "ask_confirm" }) }, keep),
          isList ? h("label", {}, say("quiz.named"), " ", named) : null,
          overrule));
      }
    } else if (ask.phase === "judge") {
      parts.push(h("p", { class: "muted", "data-testid": "quiz-waiting" }, say("quiz.waiting_reader", { name: nameOf(ask.reader) })));
    }
    // A verdict given that does not count yet (the room's undo_seconds, issue #28): shown as a verdict is, with
    // the seconds left. The asker gets Undo (and "Confirm now") first, above the verdict, the question after
    // them (in view, as the verdict buttons were); the others see the verdict and that it may still be undone.
    const last = (ask.results || [])[ask.results.length - 1];
    if (ask.phase === "pending" && last) {
      const left = countdown(ask.undo_deadline, msg.clock ?? 0, say);
      timers.push(left._timer);
      if (legal.has("ask_undo")) {
        parts.push(h("div", { class: "mt-quiz-buttons", "data-testid": "quiz-undo-box" },
          h("button", { type: "button", class: "btn-primary", "data-testid": "quiz-undo", onclick: () => send({ type: "ask_undo" }) }, say("quiz.undo"), " ", left),
          legal.has("ask_final") ? h("button", { type: "button", "data-testid": "quiz-final", onclick: () => send({ type: "ask_final" }) }, say("quiz.final")) : null));
        parts.push(verdictLine(say, last, nameOf, ctx.seat));
      } else {
        parts.push(verdictLine(say, last, nameOf, ctx.seat));
        parts.push(h("p", { class: "muted", "data-testid": "quiz-pending" }, say("quiz.pending", { name: nameOf(ask.reader) }), " ", left));
      }
    }
    if (deciding) parts.push(questionCard(ask, say, { topicName: opts.topicName }));
    if (legal.has("ask_call_vote")) parts.push(h("button", { type: "button", "data-testid": "quiz-call-vote", onclick: () => send({ type: "ask_call_vote" }) }, say("quiz.call_vote")));
    if (ask.phase === "vote") parts.push(h("p", { class: "muted" }, say("quiz.waiting_vote")));
    if (legal.has("ask_vote")) {
      parts.push(h("div", { class: "mt-quiz-buttons", "data-testid": "quiz-vote" },
        h("button", { type: "button", "data-testid": "quiz-vote-right", onclick: () => send({ type: "ask_vote", verdict: "right" }) }, say("quiz.vote_right")),
        h("button", { type: "button", "data-testid": "quiz-vote-wrong", onclick: () => send({ type: "ask_vote", verdict: "wrong" }) }, say("quiz.vote_wrong"))));
    }
    if (ask.phase === "decided" && last) parts.push(verdictLine(say, last, nameOf, ctx.seat));
    const focused = document.activeElement === input;
    const before = root.querySelector(".mt-quiz-reader-list");
    const kept = before && readerAt === questionId ? { top: before.scrollTop, focus: document.activeElement === before } : null;
    fill(root, parts);
    if (focused && input.isConnected) input.focus();
    showCurrent(root.querySelector(".mt-quiz-reader-list"), kept);
    readerAt = questionId;
  }

  // A long card scrolls inside its box (css/quiz.css), so the verdict buttons under it stay in view: the box
  // shows the question being asked, and keeps where the reader scrolled it to while that question lasts. The
  // box is a tab stop, to scroll it with the keys (whether it scrolls depends on the screen).
  function showCurrent(list, kept) {
    if (!list) return;
    const current = list.querySelector(".mt-quiz-current");
    if (kept) list.scrollTop = kept.top;
    else if (current) {
      const bottom = current.offsetTop + current.offsetHeight;
      list.scrollTop = bottom > list.clientHeight ? Math.min(current.offsetTop, bottom - list.clientHeight) : 0;
    }
    if (kept?.focus) list.focus({ preventScroll: true });
  }

  return {
    update,
    say,
    verdictLine: (result) => verdictLine(say, result, nameOf, ctx.seat),
    destroy() {
      timers.forEach((t) => clearInterval(t));
      clearTimeout(draftTimer);
    },
  };
}

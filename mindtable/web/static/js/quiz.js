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
// key, else from STRINGS below (en, es, et); the judge's reason is shown from its code, never parsed.

import { fill, h } from "./common.js";

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

export const STRINGS = {
  en: {
    "quiz.question": "Question", "quiz.your_question": "Your question", "quiz.reader_card": "Your card (you read it out)",
    "quiz.answer": "Answer", "quiz.send": "Answer", "quiz.options": "Ask for the options", "quiz.pass": "Pass",
    "quiz.true": "True", "quiz.false": "False", "quiz.name_items": "Name {count}", "quiz.choose": "Choose a question",
    "quiz.penalty": "−{penalty}", "quiz.waiting_answer": "{name} is answering…", "quiz.waiting_reader": "{name} decides…",
    "quiz.waiting_vote": "The table votes…", "quiz.suggestion": "The judge suggests:", "quiz.right": "Right",
    "quiz.wrong": "Wrong", "quiz.confirm": "Confirm", "quiz.overrule": "Overrule", "quiz.named": "Items right",
    "quiz.call_vote": "Let the table vote", "quiz.vote_right": "Vote right", "quiz.vote_wrong": "Vote wrong",
    "quiz.given": "Answer given: {text}", "quiz.typing": "Typing: {text}", "quiz.with_options": "after the options",
    "quiz.by.reader": "decided by {name}", "quiz.by.vote": "decided by the table's vote", "quiz.by.timeout": "time ran out",
    "quiz.by.pass": "passed", "quiz.overruled": "overruled", "quiz.the_answer": "The answer: {answer}",
    "quiz.items": "{named} of {needed} items", "quiz.seconds": "{s} s", "quiz.no_answer": "no answer",
    "judge.exact": "exactly the answer", "judge.normalised": "the answer, written another way",
    "judge.capitals_part": "the required part of the answer", "judge.full_answer": "the full answer",
    "judge.alternative": "an accepted alternative", "judge.surname": "the surname is enough",
    "judge.explanation": "matches the explanation", "judge.printed_words": "the printed words",
    "judge.abbreviation": "an accepted abbreviation", "judge.numeral": "the same numeral",
    "judge.spoken_number": "the number in words", "judge.era": "the same era", "judge.typo": "a small typo, accepted",
    "judge.word_form": "another form of the word", "judge.number_exact": "the exact number",
    "judge.number_within_tolerance": "close enough to the number", "judge.date": "the same date",
    "judge.date_year_only": "the right year", "judge.date_contains_year": "contains the right year",
    "judge.option": "the right option", "judge.truefalse": "right about true or false",
    "judge.list_complete": "every item named", "judge.empty": "no answer", "judge.no_match": "not the answer",
    "judge.too_many_edits": "too far from the answer", "judge.numeral_mismatch": "a different numeral",
    "judge.letter_mismatch": "a different letter", "judge.symbol_mismatch": "a different symbol",
    "judge.era_mismatch": "a different era", "judge.entity_changed": "a different name or place",
    "judge.rejected_answer": "a known wrong answer", "judge.ambiguous": "could be more than one answer",
    "judge.number_off": "a different number", "judge.not_the_unit": "not in the right unit",
    "judge.date_mismatch": "a different date", "judge.not_truefalse": "neither true nor false",
    "judge.wrong_statement": "wrong about true or false", "judge.wrong_option": "not the right option",
    "judge.list_incomplete": "{named} of {needed} items named",
  },
  es: {
    "quiz.question": "Pregunta", "quiz.your_question": "Tu pregunta", "quiz.reader_card": "Tu tarjeta (la lees tú)",
    "quiz.answer": "Respuesta", "quiz.send": "Responder", "quiz.options": "Pedir las opciones", "quiz.pass": "Paso",
    "quiz.true": "Verdadero", "quiz.false": "Falso", "quiz.name_items": "Nombra {count}", "quiz.choose": "Elige una pregunta",
    "quiz.penalty": "−{penalty}", "quiz.waiting_answer": "{name} está respondiendo…", "quiz.waiting_reader": "{name} decide…",
    "quiz.waiting_vote": "La mesa vota…", "quiz.suggestion": "El juez sugiere:", "quiz.right": "Correcta",
    "quiz.wrong": "Incorrecta", "quiz.confirm": "Confirmar", "quiz.overrule": "Corregir", "quiz.named": "Elementos correctos",
    "quiz.call_vote": "Que vote la mesa", "quiz.vote_right": "Voto correcta", "quiz.vote_wrong": "Voto incorrecta",
    "quiz.given": "Respuesta dada: {text}", "quiz.typing": "Escribiendo: {text}", "quiz.with_options": "con las opciones",
    "quiz.by.reader": "decidió {name}", "quiz.by.vote": "decidió la mesa por votación", "quiz.by.timeout": "se acabó el tiempo",
    "quiz.by.pass": "pasó", "quiz.overruled": "corregido", "quiz.the_answer": "La respuesta: {answer}",
    "quiz.items": "{named} de {needed} elementos", "quiz.seconds": "{s} s", "quiz.no_answer": "sin respuesta",
    "judge.exact": "exactamente la respuesta", "judge.normalised": "la respuesta, escrita de otra forma",
    "judge.capitals_part": "la parte exigida de la respuesta", "judge.full_answer": "la respuesta completa",
    "judge.alternative": "una alternativa aceptada", "judge.surname": "basta el apellido",
    "judge.explanation": "coincide con la explicación", "judge.printed_words": "las palabras impresas",
    "judge.abbreviation": "una abreviatura aceptada", "judge.numeral": "el mismo numeral",
    "judge.spoken_number": "el número en palabras", "judge.era": "la misma era", "judge.typo": "un pequeño error, aceptado",
    "judge.word_form": "otra forma de la palabra", "judge.number_exact": "el número exacto",
    "judge.number_within_tolerance": "bastante cerca del número", "judge.date": "la misma fecha",
    "judge.date_year_only": "el año correcto", "judge.date_contains_year": "contiene el año correcto",
    "judge.option": "la opción correcta", "judge.truefalse": "acierta verdadero o falso",
    "judge.list_complete": "todos los elementos", "judge.empty": "sin respuesta", "judge.no_match": "no es la respuesta",
    "judge.too_many_edits": "demasiado lejos de la respuesta", "judge.numeral_mismatch": "otro numeral",
    "judge.letter_mismatch": "otra letra", "judge.symbol_mismatch": "otro símbolo",
    "judge.era_mismatch": "otra era", "judge.entity_changed": "otro nombre u otro lugar",
    "judge.rejected_answer": "una respuesta incorrecta conocida", "judge.ambiguous": "podría ser más de una respuesta",
    "judge.number_off": "otro número", "judge.not_the_unit": "no está en la unidad correcta",
    "judge.date_mismatch": "otra fecha", "judge.not_truefalse": "ni verdadero ni falso",
    "judge.wrong_statement": "falla verdadero o falso", "judge.wrong_option": "no es la opción correcta",
    "judge.list_incomplete": "{named} de {needed} elementos",
  },
  et: {
    "quiz.question": "Küsimus", "quiz.your_question": "Sinu küsimus", "quiz.reader_card": "Sinu kaart (sina loed ette)",
    "quiz.answer": "Vastus", "quiz.send": "Vasta", "quiz.options": "Küsi valikvastuseid", "quiz.pass": "Ei tea",
    "quiz.true": "Tõsi", "quiz.false": "Väär", "quiz.name_items": "Nimeta {count}", "quiz.choose": "Vali küsimus",
    "quiz.penalty": "−{penalty}", "quiz.waiting_answer": "{name} vastab…", "quiz.waiting_reader": "{name} otsustab…",
    "quiz.waiting_vote": "Laud hääletab…", "quiz.suggestion": "Kohtunik pakub:", "quiz.right": "Õige",
    "quiz.wrong": "Vale", "quiz.confirm": "Kinnita", "quiz.overrule": "Muuda", "quiz.named": "Õigeid nimetusi",
    "quiz.call_vote": "Laud hääletagu", "quiz.vote_right": "Hääletan õige", "quiz.vote_wrong": "Hääletan vale",
    "quiz.given": "Antud vastus: {text}", "quiz.typing": "Kirjutab: {text}", "quiz.with_options": "valikvastustega",
    "quiz.by.reader": "otsustas {name}", "quiz.by.vote": "otsustas laud hääletusega", "quiz.by.timeout": "aeg sai otsa",
    "quiz.by.pass": "ei vastanud", "quiz.overruled": "muudetud", "quiz.the_answer": "Vastus: {answer}",
    "quiz.items": "{named} / {needed} nimetust", "quiz.seconds": "{s} s", "quiz.no_answer": "vastust pole",
    "judge.exact": "täpselt vastus", "judge.normalised": "vastus, teisiti kirjutatud",
    "judge.capitals_part": "vastuse nõutud osa", "judge.full_answer": "täielik vastus",
    "judge.alternative": "lubatud teisend", "judge.surname": "perekonnanimest piisab",
    "judge.explanation": "vastab selgitusele", "judge.printed_words": "trükitud sõnad",
    "judge.abbreviation": "lubatud lühend", "judge.numeral": "sama number",
    "judge.spoken_number": "arv sõnadega", "judge.era": "sama ajastu", "judge.typo": "väike kirjaviga, sobib",
    "judge.word_form": "sõna teine vorm", "judge.number_exact": "täpne arv",
    "judge.number_within_tolerance": "arvule piisavalt lähedal", "judge.date": "sama kuupäev",
    "judge.date_year_only": "õige aasta", "judge.date_contains_year": "sisaldab õiget aastat",
    "judge.option": "õige valik", "judge.truefalse": "tõene või väär õigesti",
    "judge.list_complete": "kõik nimetatud", "judge.empty": "vastust pole", "judge.no_match": "see pole vastus",
    "judge.too_many_edits": "vastusest liiga kaugel", "judge.numeral_mismatch": "teine number",
    "judge.letter_mismatch": "teine täht", "judge.symbol_mismatch": "teine sümbol",
    "judge.era_mismatch": "teine ajastu", "judge.entity_changed": "teine nimi või koht",
    "judge.rejected_answer": "teadaolev vale vastus", "judge.ambiguous": "võib olla mitu vastust",
    "judge.number_off": "teine arv", "judge.not_the_unit": "vale ühik",
    "judge.date_mismatch": "teine kuupäev", "judge.not_truefalse": "ei tõene ega väär",
    "judge.wrong_statement": "tõene või väär valesti", "judge.wrong_option": "vale valik",
    "judge.list_incomplete": "{named} / {needed} nimetatud",
  },
};

/** A translator: the game's strings first (ctx.t, when it has the key), then STRINGS in ctx.lang, then English. */
export function quizSay(ctx) {
  return (key, params = {}) => {
    if (ctx.t && ctx.t.has && ctx.t.has(key)) return ctx.t(key, params);
    const table = STRINGS[ctx.lang] || STRINGS.en;
    const text = table[key] ?? STRINGS.en[key] ?? key;
    return text.replace(/\{(\w+)\}/g, (m, name) => (params[name] ?? m));
  };
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

function headingsList(ask, say) {
  const items = (ask.headings?.headings || []).map((hd, i) => {
    const label = [hd.topic || categoryName(hd.category, say), hd.penalty ? say("quiz.penalty", { penalty: hd.penalty }) : null].filter(Boolean).join(" ");
    return label ? h("li", { "data-index": i }, label) : null;
  });
  return items.some(Boolean) ? h("ul", { class: "mt-quiz-headings" }, items) : null;
}

function optionList(options) {
  return h("ol", { class: "mt-quiz-options", "data-testid": "quiz-options" }, options.map((o, i) => h("li", { "data-letter": LETTERS[i] }, `${LETTERS[i]}) ${o}`)));
}

/** The question card as the answering side (and everyone but the reader) sees it: no answer anywhere. */
export function questionCard(ask, say) {
  const q = ask.question;
  const card = h("section", { class: "mt-quiz-card mt-quiz-question", "data-testid": "quiz-question" });
  card.append(h("h3", {}, say(ask.role === "answerer" ? "quiz.your_question" : "quiz.question")));
  const headings = headingsList(ask, say);
  if (headings) card.append(headings); // (append(null) would write "null")
  if (!q) return card;
  card.append(h("p", { class: "mt-quiz-prompt", "data-testid": "quiz-prompt" }, q.prompt));
  if (q.kind === "list") card.append(h("p", { class: "muted" }, say("quiz.name_items", { count: q.count })));
  if (q.options) card.append(optionList(q.options));
  return card;
}

/** The reader's card: every question with its answer, the current one marked, the judge's suggestion. */
export function readerCard(ask, say) {
  const card = h("section", { class: "mt-quiz-card mt-quiz-reader", "data-testid": "quiz-reader-card" }, h("h3", {}, say("quiz.reader_card")));
  const list = h("ol", {});
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

/** The decided verdict: right or wrong, who decided, the reason in words and the answer. */
export function verdictLine(say, result, nameOf) {
  if (!result) return null;
  const by = say(`quiz.by.${result.by}`, { name: result.seat != null ? nameOf(result.seat) : "" });
  return h("div", { class: "mt-quiz-card mt-quiz-verdict", "data-testid": "quiz-verdict", "data-correct": String(result.correct), "data-by": result.by },
    h("p", {}, verdictWords(say, result), result.named != null ? ` (${say("quiz.items", result)})` : "", result.with_options ? ` · ${say("quiz.with_options")}` : "",
      ` · ${by}`, result.overruled ? ` · ${say("quiz.overruled")}` : ""),
    h("p", { class: "mt-quiz-reason", "data-testid": "quiz-verdict-reason" }, reasonText(say, result)),
    h("p", {}, say("quiz.the_answer", { answer: result.answer })));
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
    parts.push(questionCard(ask, say));
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
      parts.push(h("p", { class: "muted", "data-testid": "quiz-waiting" }, say("quiz.waiting_answer", { name: nameOf(ask.answerers[0]) })));
      if (ask.draft) parts.push(h("p", { "data-testid": "quiz-draft" }, say("quiz.typing", { text: ask.draft })));
    }
    if (ask.given != null && ask.phase !== "answer") parts.push(h("p", { "data-testid": "quiz-given" }, say("quiz.given", { text: ask.given || say("quiz.no_answer") })));
    if (ask.suggestion && ask.phase !== "decided") parts.push(suggestionLine(say, ask.suggestion));
    if (legal.has("ask_confirm") || legal.has("ask_overrule")) {
      const q = ask.card?.questions?.[ask.question?.index] || {};
      const isList = q.kind === "list";
      const named = h("input", { type: "number", min: 0, max: ask.suggestion?.needed ?? 1, value: ask.suggestion?.named ?? 0, "data-testid": "quiz-named", "aria-label": say("quiz.named") });
      if (isList && opts.itemChecks && ask.suggestion) parts.push(itemChecks(ask, legal));
      else parts.push(h("div", { class: "mt-quiz-buttons", "data-testid": "quiz-decide" },
        h("button", { type: "button", class: "btn-primary", "data-testid": "quiz-confirm", onclick: () => send({ type: "ask_confirm" }) }, say("quiz.confirm")),
        isList ? h("label", {}, say("quiz.named"), " ", named) : null,
        h("button", { type: "button", "data-testid": "quiz-overrule", onclick: () => send(isList ? { type: "ask_overrule", named: Number(named.value) } : { type: "ask_overrule" }) }, say("quiz.overrule"))));
    } else if (ask.phase === "judge") {
      parts.push(h("p", { class: "muted", "data-testid": "quiz-waiting" }, say("quiz.waiting_reader", { name: nameOf(ask.reader) })));
    }
    if (legal.has("ask_call_vote")) parts.push(h("button", { type: "button", "data-testid": "quiz-call-vote", onclick: () => send({ type: "ask_call_vote" }) }, say("quiz.call_vote")));
    if (ask.phase === "vote") parts.push(h("p", { class: "muted" }, say("quiz.waiting_vote")));
    if (legal.has("ask_vote")) {
      parts.push(h("div", { class: "mt-quiz-buttons", "data-testid": "quiz-vote" },
        h("button", { type: "button", "data-testid": "quiz-vote-right", onclick: () => send({ type: "ask_vote", verdict: "right" }) }, say("quiz.vote_right")),
        h("button", { type: "button", "data-testid": "quiz-vote-wrong", onclick: () => send({ type: "ask_vote", verdict: "wrong" }) }, say("quiz.vote_wrong"))));
    }
    const last = (ask.results || [])[ask.results.length - 1];
    if (ask.phase === "decided" && last) parts.push(verdictLine(say, last, nameOf));
    const focused = document.activeElement === input;
    fill(root, parts);
    if (focused && input.isConnected) input.focus();
  }

  return {
    update,
    say,
    verdictLine: (result) => verdictLine(say, result, nameOf),
    destroy() {
      timers.forEach((t) => clearInterval(t));
      clearTimeout(draftTimer);
    },
  };
}

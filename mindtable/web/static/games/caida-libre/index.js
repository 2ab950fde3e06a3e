// Caída Libre: the IQ scale with its pawns and weapon squares, whose turn and who asks, the card as this seat
// may see it (topic choice, options, true/false, the Quote 5 countdown with the items as they are typed, the
// Shootout statements one by one), the asker's card with the answers and confirm/overrule, the weapon choices,
// falls animated, and a summary at the end. Drawn only from `view` and `legal` (docs/web.md).

import { fill, h } from "../../js/common.js";

const ROW = 30; // px per square of the scale
const HOTSEAT_KEY = "mindtable:cl:hotseat";
const LETTERS = "abcdefgh";

function squareName(t, view, square) {
  if (square.iq === view.top) return t("cl.top");
  if (square.iq === 0) return t("cl.bottom");
  return square.weapon ? t(`cl.weapon.${square.weapon}`) : "";
}

const fold = (text) => text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim();

// The items a Quote 5 answer names, each ticked when the judge matched it; judge matches not found among the
// typed pieces (another accepted form) are listed ticked too, so the ticks start at the judge's count.
export function itemRows(given, matched, named) {
  const pieces = given.split(/[,;\n]+/).map((x) => x.trim()).filter(Boolean);
  const unused = [...matched];
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

export function mount(root, ctx) {
  const { t } = ctx;
  root.classList.add("cl");
  const scaleBox = h("div", { class: "cl-scale", "data-testid": "cl-scale" });
  const status = h("div", { class: "cl-status", "data-testid": "cl-status" });
  const players = h("ul", { class: "cl-players", "data-testid": "cl-players" });
  const weaponBox = h("div", { class: "cl-weapon", "data-testid": "cl-weapon" });
  const cardBox = h("div", { class: "cl-card", "data-testid": "cl-card" });
  const actions = h("div", { class: "cl-actions", "data-testid": "cl-actions" });
  const askerBox = h("div", { class: "cl-asker", "data-testid": "cl-asker" });
  const lastBox = h("div", { class: "cl-last", "data-testid": "cl-last" });
  const endBox = h("div", { class: "cl-end", "data-testid": "cl-summary-box" });
  const logBox = h("ol", { class: "cl-log", "data-testid": "cl-log" });
  const hotseat = h("input", { type: "checkbox", "data-testid": "hotseat" });
  hotseat.checked = localStorage.getItem(HOTSEAT_KEY) === "1";
  hotseat.addEventListener("change", () => {
    localStorage.setItem(HOTSEAT_KEY, hotseat.checked ? "1" : "0");
    if (last) update(last);
  });
  fill(
    root,
    h("div", { class: "cl-left" }, scaleBox),
    h(
      "div",
      { class: "cl-right" },
      status,
      players,
      weaponBox,
      cardBox,
      actions,
      askerBox,
      lastBox,
      endBox,
      h("label", { class: "cl-hotseat muted" }, hotseat, " ", t("cl.hotseat")),
      logBox,
    ),
  );

  let last = null;
  let received = 0;
  let timer = null;
  let actionsKey = "";
  let revealed = "";
  let ticks = { key: "", on: [] }; // the asker's ticks on a Quote 5's items, kept across re-renders
  let draftTimer = null;
  const pawns = new Map();
  let squaresDrawn = "";
  const answerInput = h("input", { type: "text", class: "cl-input", "data-testid": "answer-input", autocomplete: "off", maxlength: "300" });
  const itemsLine = h("p", { class: "cl-items", "data-testid": "q5-items" });
  const timerLine = h("p", { class: "cl-timer", "data-testid": "q5-timer" });

  const send = (action) => ctx.send(action).catch(() => {});
  const name = (seat) => (seat === ctx.seat ? `${ctx.seatName(seat)} (${t("cl.you")})` : ctx.seatName(seat));

  answerInput.addEventListener("input", () => {
    clearTimeout(draftTimer);
    draftTimer = setTimeout(() => {
      const text = answerInput.value.trim();
      if (text && last && (last.legal || []).some((a) => a.type === "ask_type")) send({ type: "ask_type", text });
    }, 250);
  });
  answerInput.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      submitText();
    }
  });
  function submitText() {
    const text = answerInput.value.trim();
    if (!text) return;
    clearTimeout(draftTimer);
    send({ type: "ask_answer", text });
  }

  function drawScale(view) {
    const key = JSON.stringify(view.scale.squares.map((s) => [s.iq, s.weapon]));
    const colours = {};
    for (const sq of view.board.squares || []) colours[sq.id] = (view.board.colours[sq.colour] || {}).fill;
    if (key !== squaresDrawn) {
      squaresDrawn = key;
      pawns.clear();
      const rows = view.scale.squares.map((square, index) =>
        h(
          "div",
          {
            class: `cl-sq${square.weapon ? " cl-sq-weapon" : ""}${square.iq === 0 ? " cl-sq-floor" : ""}${square.iq === view.top ? " cl-sq-top" : ""}`,
            "data-iq": square.iq,
            "data-weapon": square.weapon || "",
            style: `top:${index * ROW}px;--fill:${colours[square.id] || "#dfe7f2"}`,
          },
          h("span", { class: "cl-sq-iq" }, String(square.iq)),
          h("span", { class: "cl-sq-name" }, squareName(t, view, square)),
        ),
      );
      fill(scaleBox, ...rows);
      scaleBox.style.height = `${view.scale.squares.length * ROW}px`;
    }
    view.iq.forEach((iq, seat) => {
      let pawn = pawns.get(seat);
      if (!pawn) {
        pawn = h("span", { class: `cl-pawn cl-pawn-${seat % 8}`, "data-testid": `pawn-${seat}`, title: ctx.seatName(seat) }, String(seat + 1));
        pawns.set(seat, pawn);
        scaleBox.append(pawn);
      }
      const index = Math.max(0, Math.round((view.top - iq) / view.scale.step));
      const before = Number(pawn.dataset.iq);
      pawn.dataset.iq = String(iq);
      pawn.classList.toggle("cl-you", seat === ctx.seat);
      pawn.style.top = `${index * ROW + 4}px`;
      pawn.style.left = `${112 + seat * 22}px`;
      if (!Number.isNaN(before) && iq < before) {
        pawn.classList.remove("cl-falling");
        void pawn.offsetWidth; // restart the animation
        pawn.classList.add("cl-falling");
      }
    });
  }

  function drawPlayers(view) {
    fill(
      players,
      view.iq.map((iq, seat) =>
        h(
          "li",
          {
            "data-testid": `player-${seat}`,
            "data-iq": iq,
            class: `${seat === view.asker ? "cl-asking" : ""} ${seat === view.answerer ? "cl-answering" : ""} ${view.fallen.includes(seat) ? "cl-fallen" : ""}`,
          },
          h("span", { class: `cl-dot cl-pawn-${seat % 8}` }, String(seat + 1)),
          h("strong", {}, name(seat)),
          " ",
          h("span", { class: "cl-iq" }, t("cl.iq", { iq })),
          seat === view.asker ? h("span", { class: "badge" }, "?") : null,
          seat === view.answerer ? h("span", { class: "badge" }, "!") : null,
        ),
      ),
    );
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
    const ask = view.ask;
    if (ask && ask.phase === "judge" && ask.role !== "reader") return t("cl.waiting_judge", { name: name(view.asker) });
    if (ask && (ask.phase === "answer" || ask.phase === "choose") && ask.role !== "answerer") return t("cl.waiting_answer", { name: name(view.answerer) });
    return t("cl.asks", { asker: name(view.asker), answerer: name(view.answerer) });
  }

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
    if (ask.phase === "choose") {
      parts.push(
        h("ul", { class: "cl-topics", "data-testid": "cl-topics" }, (ask.choices || []).map((i) => h("li", {}, t("cl.choose_topic", { topic: ask.headings.headings[i].topic, penalty: ask.headings.headings[i].penalty })))),
      );
    }
    if (q) {
      if (size > 1 && type !== "double") {
        const key = type === "shootout" || type === "fake_news" ? "cl.statement" : "cl.question_n";
        parts.push(h("p", { class: "cl-progress", "data-testid": "cl-progress" }, t(key, { n: ask.results.length + (ask.phase === "decided" ? 0 : 1), size })));
      }
      if (q.topic && type !== "roulette") parts.push(h("p", { class: "cl-topic" }, q.topic));
      parts.push(h("p", { class: "cl-prompt", "data-testid": "cl-prompt", "data-kind": q.kind }, q.prompt));
      if (q.options && q.options.length) {
        parts.push(h("ol", { class: "cl-options", type: "a" }, q.options.map((o) => h("li", {}, o))));
      }
    }
    if (ask.results.length) {
      parts.push(
        h(
          "ul",
          { class: "cl-results", "data-testid": "cl-results" },
          ask.results.map((r) => h("li", { class: r.correct ? "ok" : "bad" }, `${r.correct ? "✓" : "✗"} ${r.prompt} — ${r.answer}`)),
        ),
      );
    }
    return parts;
  }

  function askerPanel(view, legal) {
    const ask = view.ask;
    if (!ask || ask.role !== "reader" || !ask.card) return null;
    const cover = hotseat.checked && revealed !== `${view.played}:${ask.results.length}`;
    if (cover) {
      return [
        h("h3", {}, t("cl.asker_card")),
        h("button", { type: "button", "data-testid": "show-card", onclick: () => { revealed = `${view.played}:${ask.results.length}`; update(last); } }, t("cl.show_card")),
      ];
    }
    const parts = [h("h3", {}, t("cl.asker_card"))];
    const questions = ask.card.questions;
    const shown = ask.question ? [ask.question.index] : ask.choices || [];
    for (const i of shown) {
      const q = questions[i];
      let answer = q.answer || "";
      if (q.kind === "list") answer = (q.items || []).join(", ");
      else if ((q.kind === "choice" || q.kind === "higher") && q.options) answer = `${LETTERS[q.correct]}) ${q.options[q.correct]}`;
      parts.push(h("p", { class: "cl-prompt" }, q.prompt), h("p", { class: "cl-answer", "data-testid": "asker-answer" }, t("cl.answer_is", { answer })));
      if (q.note) parts.push(h("p", { class: "muted" }, q.note));
    }
    const s = ask.suggestion;
    if (s && ask.phase === "judge") {
      parts.push(h("p", { class: `cl-suggestion ${s.correct ? "ok" : "bad"}`, "data-testid": "suggestion", "data-correct": String(s.correct) }, t("cl.judge", { verdict: t(s.correct ? "cl.right" : "cl.wrong") }), ` — “${ask.given || ""}”`));
      if ("needed" in s) parts.push(h("p", { "data-testid": "suggestion-items" }, t("cl.judge_items", { named: s.named, needed: s.needed, items: (s.items || []).join(", ") || "—" })));
    }
    const buttons = [];
    const canConfirm = legal.some((a) => a.type === "ask_confirm");
    const canOverrule = legal.some((a) => a.type === "ask_overrule");
    if (s && "needed" in s && canConfirm) {
      // Quote 5: the items named in time, one by one, ticked where the judge found them; the asker decides.
      const key = `${view.played}:${ask.results.length}`;
      if (ticks.key !== key) ticks = { key, on: itemRows(ask.given || "", s.items || [], s.named).map((row) => row.on) };
      const boxes = itemRows(ask.given || "", s.items || [], s.named).map((row, i) => {
        const box = h("input", { type: "checkbox", "data-testid": `item-${i}` });
        box.checked = ticks.on[i];
        box.addEventListener("change", () => { ticks.on[i] = box.checked; });
        return { box, label: h("label", { class: "cl-item" }, box, " ", row.label) };
      });
      parts.push(h("div", { class: "cl-items-check", "data-testid": "item-checks" }, boxes.map((b) => b.label)));
      const decide = () => {
        const count = Math.min(s.needed, boxes.filter((b) => b.box.checked).length);
        send(count === s.named ? { type: "ask_confirm" } : { type: "ask_overrule", named: count });
      };
      buttons.push(h("button", { type: "button", class: "btn-primary", "data-testid": "action-confirm", onclick: decide }, t("cl.confirm")));
    } else {
      if (canConfirm) buttons.push(h("button", { type: "button", class: "btn-primary", "data-testid": "action-confirm", onclick: () => send({ type: "ask_confirm" }) }, t("cl.confirm")));
      if (canOverrule) buttons.push(h("button", { type: "button", "data-testid": "action-overrule", onclick: () => send({ type: "ask_overrule" }) }, t("cl.overrule")));
    }
    if (buttons.length) parts.push(h("div", { class: "cl-buttons" }, buttons));
    return parts;
  }

  function actionButtons(view, legal) {
    const types = new Set(legal.map((a) => a.type));
    const ask = view.ask;
    const key = JSON.stringify([view.phase, view.played, ask && ask.phase, ask && ask.question && ask.question.index, [...types].sort(), legal.filter((a) => a.type === "target").map((a) => a.target)]);
    if (key === actionsKey) return;
    actionsKey = key;
    const out = [];
    for (const a of legal.filter((x) => x.type === "target")) {
      out.push(h("button", { type: "button", "data-testid": `target-${a.target}`, onclick: () => send({ type: "target", target: a.target }) }, `${name(a.target)} · ${t("cl.iq", { iq: view.iq[a.target] })}`));
    }
    if (types.has("draw")) out.push(h("button", { type: "button", class: "btn-primary", "data-testid": "action-draw", onclick: () => send({ type: "draw" }) }, t("cl.draw")));
    for (const a of legal.filter((x) => x.type === "ask_choose")) {
      const heading = ask.headings.headings[a.question];
      out.push(h("button", { type: "button", "data-testid": `choose-${a.question}`, onclick: () => send({ type: "ask_choose", question: a.question }) }, t("cl.choose_topic", { topic: heading.topic, penalty: heading.penalty })));
    }
    if (types.has("ask_answer") && ask && ask.question) {
      const q = ask.question;
      if ((q.kind === "choice" || q.kind === "higher") && q.options) {
        q.options.forEach((option, i) => out.push(h("button", { type: "button", "data-testid": `option-${LETTERS[i]}`, onclick: () => send({ type: "ask_answer", text: LETTERS[i] }) }, `${LETTERS[i]}) ${option}`)));
      } else if (q.kind === "truefalse") {
        out.push(h("button", { type: "button", "data-testid": "tf-true", onclick: () => send({ type: "ask_answer", text: "true" }) }, t("cl.true")));
        out.push(h("button", { type: "button", "data-testid": "tf-false", onclick: () => send({ type: "ask_answer", text: "false" }) }, t("cl.false")));
      } else {
        answerInput.value = "";
        answerInput.placeholder = t("cl.answer");
        out.push(h("div", { class: "cl-answer-row" }, answerInput, h("button", { type: "button", class: "btn-primary", "data-testid": "answer-submit", onclick: submitText }, t("cl.send"))));
        setTimeout(() => answerInput.focus(), 0);
      }
      if (types.has("ask_pass")) out.push(h("button", { type: "button", "data-testid": "action-pass", onclick: () => send({ type: "ask_pass" }) }, t("cl.pass")));
    }
    fill(actions, out);
  }

  function tick() {
    const view = last && last.view;
    const ask = view && view.ask;
    if (!ask || ask.deadline == null) {
      timerLine.textContent = "";
      timerLine.dataset.running = "false";
      return;
    }
    const left = Math.max(0, ask.deadline - (last.clock || 0) - (performance.now() - received));
    timerLine.dataset.running = left > 0 ? "true" : "false";
    timerLine.textContent = left > 0 ? t("cl.seconds", { s: Math.ceil(left / 1000) }) : t("cl.time_up");
    timerLine.classList.toggle("cl-hurry", left < 5000);
  }

  function weaponPanel(view) {
    const w = view.weapon;
    if (!w) return null;
    return [
      h("strong", {}, t("cl.weapon_armed", { name: name(w.seat), weapon: t(`cl.weapon.${w.kind}`) })),
      w.target !== null && w.target !== undefined ? h("span", {}, ` · ${t("cl.weapon_target", { name: name(w.target) })}`) : null,
      h("p", { class: "muted" }, t(`cl.weapon_help.${w.kind}`)),
    ];
  }

  function lastPanel(view) {
    const l = view.last;
    if (!l || view.ask) return null;
    const outcome = l.correct ? t("cl.outcome_right") : t("cl.outcome_wrong", { penalty: l.penalty });
    return [
      h("h3", {}, t("cl.last")),
      h("p", { "data-testid": "cl-last-line", "data-correct": String(l.correct) }, t("cl.last_line", { name: name(l.answerer), type: t(`cl.type.${l.card_type}`), outcome })),
      h("ul", {}, l.moves.map((m) => h("li", {}, t("cl.move", { name: name(m.seat), before: m.before, after: m.after })))),
      h("ul", { class: "cl-results" }, l.results.map((r) => h("li", { class: r.correct ? "ok" : "bad" }, `${r.correct ? "✓" : "✗"} ${r.prompt} — ${r.answer}`))),
    ];
  }

  function summary(view) {
    if (view.phase !== "over") return null;
    const best = Math.max(...view.iq);
    const winners = view.iq.map((iq, seat) => [iq, seat]).filter(([iq]) => iq === best).map(([, seat]) => name(seat));
    const ranking = view.iq.map((iq, seat) => [iq, seat]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
    return h(
      "div",
      { class: "cl-summary", "data-testid": "cl-summary" },
      h("h2", {}, t("cl.over")),
      h("p", { "data-testid": "cl-winner" }, t("cl.winner", { names: winners.join(", ") })),
      h("p", {}, t("cl.fell", { names: view.fallen.map(name).join(", ") })),
      h("h3", {}, t("cl.final")),
      h("ol", {}, ranking.map(([iq, seat]) => h("li", { "data-seat": seat }, `${name(seat)}: ${iq}`))),
      h("p", { class: "muted" }, t("cl.cards_played", { n: view.played })),
    );
  }

  function update(msg) {
    last = msg;
    received = performance.now();
    const view = msg.view;
    const legal = msg.legal || [];
    const ask = view.ask;
    root.dataset.phase = view.phase;
    root.dataset.role = ask ? ask.role : "";
    root.dataset.askPhase = ask ? ask.phase : "";
    root.dataset.card = ask ? ask.headings.type : "";
    root.dataset.played = String(view.played);
    root.dataset.asker = String(view.asker);
    root.dataset.answerer = String(view.answerer);
    drawScale(view);
    drawPlayers(view);
    fill(status, h("p", {}, statusText(view, legal)));
    fill(weaponBox, weaponPanel(view));
    const cardParts = cardPanel(view) || [];
    if (ask && ask.headings.type === "quote5") {
      itemsLine.textContent = t("cl.items", { items: ask.draft || "—" });
      cardParts.push(timerLine, itemsLine);
    }
    fill(cardBox, cardParts);
    actionButtons(view, legal);
    fill(askerBox, askerPanel(view, legal));
    fill(lastBox, lastPanel(view));
    fill(endBox, summary(view));
    tick();
  }

  function events(list) {
    for (const e of list) {
      if (e.type !== "card_scored" && e.type !== "free_fall") continue;
      const text =
        e.type === "free_fall"
          ? `${t("cl.over")} ${t("cl.fell", { names: e.seats.map(name).join(", ") })}`
          : t("cl.last_line", { name: name(e.answerer), type: t(`cl.type.${e.card_type}`), outcome: e.correct ? t("cl.outcome_right") : t("cl.outcome_wrong", { penalty: e.penalty }) });
      logBox.prepend(h("li", {}, text));
      while (logBox.children.length > 12) logBox.lastChild.remove();
    }
  }

  timer = setInterval(tick, 200);
  return {
    update,
    events,
    destroy() {
      clearInterval(timer);
      clearTimeout(draftTimer);
    },
  };
}

export function describeAction(action) {
  if (action.type === "target") return `target: seat ${action.target + 1}`;
  if (action.type === "ask_choose") return `choose question ${action.question + 1}`;
  return action.text ? `${action.type}: ${action.text}` : action.type;
}

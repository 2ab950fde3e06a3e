// Eesti mälumäng: the board (js/board.js) with pieces, each player's Estonia cards, the die and the direction
// choice (the squares each direction reaches are highlighted and clickable), who asks, the question through the
// shared quiz components (js/quiz.js: the answering side's box, the asker's card with the answer and
// confirm/overrule), the left player's category choice on the finish square, the variant-2 clock and a summary
// at the end. Implements the game-module interface of docs/web.md.

import { fill, h } from "../../js/common.js";
import { drawBoard } from "../../js/board.js";
import { nameList } from "../../js/games.js";
import { describeAskAction, mountHistory, mountQuiz } from "../../js/quiz.js";

// The categories' colours: those of the match's board (view.board.colours, by topic) when it has one, else
// those of the game's own board (board.yaml), so a card is always the colour of its squares.
const FILL = { history: "#c0392b", culture: "#8e44ad", science: "#2f9e44", geography: "#f2b705", sport: "#e67700", varia: "#1c9bb8" };
let fills = { ...FILL };

function boardFills(board) {
  const out = { ...FILL };
  for (const colour of Object.values(board?.colours || {})) if (colour.topic && colour.fill) out[colour.topic] = colour.fill;
  return out;
}

const CORNERS = ["nw", "ne", "se", "sw"];

/** A square of the board in words: a corner by its compass name, else what the square is (an Estonia space,
 * the finish, a circle of a category), never its id. */
function squareName(board, id, t) {
  if (CORNERS.includes(id)) return t(`em.corner.${id}`);
  const square = (board?.squares || []).find((s) => s.id === id);
  const topic = square && (board.colours?.[square.colour]?.topic || (FILL[square.colour] ? square.colour : null));
  if (square?.kind === "finish") return t("em.square.finish");
  if (square && (square.special === "estonia" || square.colour === "estonia")) return t("em.square.estonia");
  if (topic) return t("em.square.topic", { category: t(`em.category.${topic}`) });
  return t("em.square.space");
}

/** An Estonia card of `category`; several of a colour (variant 1) show their number beside it. */
function card(category, n, t) {
  const chip = h("span", { class: "em-card", style: `background:${fills[category] || "#ccc"}`, title: t(`em.category.${category}`), "data-category": category });
  return n > 1 ? h("span", { class: "em-card-n" }, chip, `×${n}`) : chip;
}

export function mount(root, ctx) {
  const { t } = ctx;
  root.classList.add("em", "mt-table");
  const status = h("div", { class: "em-status", "data-testid": "em-status", "aria-live": "polite" });
  const players = h("ul", { class: "em-players", "data-testid": "em-players" });
  const facts = h("div", { class: "em-facts", "data-testid": "em-facts" });
  const boardBox = h("div", { class: "em-board", "data-testid": "em-board" });
  const dieBox = h("div", { class: "em-dice", "data-testid": "em-dice" });
  const actions = h("div", { class: "em-actions", "data-testid": "em-actions" });
  const quizBox = h("div", {});
  const lastBox = h("div", { "data-testid": "em-last" });
  const historyBox = h("div", { class: "em-history" });
  const quiz = mountQuiz(quizBox, ctx);
  const history = mountHistory(historyBox, ctx);
  // The seat's turn, the die, its buttons and the question come first (on a phone, at the top of the page); the
  // players and the board sit beside them on a wide screen, below them on a phone, with the history last.
  fill(root, h("div", { class: "mt-table-act" }, status, dieBox, actions, quizBox, lastBox), h("div", { class: "mt-table-side" }, players, facts, boardBox), h("div", { class: "mt-table-more" }, historyBox));
  let lastView = null;
  let clockTimer = null;

  const send = (action) => ctx.send(action).catch(() => {});
  const catName = (c) => t(`em.category.${c}`);

  function statusLine(view) {
    const who = view.phase === "place" ? view.placing : view.turn;
    const mine = who === ctx.seat;
    const key = `em.step.${view.phase}`;
    if (view.phase === "final_category") {
      return t(view.asker === ctx.seat ? "em.step.final_category_you" : "em.step.final_category", { name: ctx.seatName(view.asker), player: ctx.seatName(view.turn) });
    }
    // Variant 2 has no board, so no Estonia space: the answering player names the category of the question.
    const yours = view.phase === "category" && view.variant === "cards_only" ? "em.step.category_cards_you" : `${key}_you`;
    return t(mine && view.phase !== "over" ? yours : key, { name: who == null ? "" : ctx.seatName(who), asker: view.asker == null ? "" : ctx.seatName(view.asker) });
  }

  /** The Estonia cards still on the table, per colour (the number beside each colour, readable on any colour). */
  function supplyLine(view) {
    if (view.variant === "cards_only" || !view.supply) return null;
    return h("p", { class: "em-supply", "data-testid": "em-supply" }, t("em.supply"), " ",
      view.categories.map((c) => h("span", { class: "em-supply-item", "data-category": c, "data-left": view.supply[c] },
        card(c, 1, t), h("span", { class: "sr-only" }, catName(c)), ` ${view.supply[c]}`)));
  }

  // Variant 2's clock: the server's match clock (msg.clock) when the last message came, run on by the page's own
  // clock until the next one, so the time left counts down live; the server ends the game at view.ends_at.
  let clockBase = null;
  const clockLeft = h("span", { class: "em-clock-left", role: "timer", "data-testid": "em-clock-left" });

  function showLeft() {
    if (!lastView || !clockBase) return;
    const now = clockBase.clock + (performance.now() - clockBase.at);
    const left = Math.max(0, Math.ceil((lastView.ends_at - now) / 1000));
    const text = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    if (clockLeft.textContent !== text) clockLeft.textContent = text;
  }

  function clockLine(view) {
    if (view.variant !== "cards_only" || view.ends_at == null) return null;
    if (view.time_over || view.phase === "over") return h("p", { class: "em-clock", "data-testid": "em-clock" }, t("em.clock_over"));
    showLeft();
    return h("p", { class: "em-clock", "data-testid": "em-clock" }, t("em.clock", { minutes: Math.round(view.ends_at / 60000) }), " · ", t("em.clock_left"), " ", clockLeft);
  }

  function update(msg) {
    const view = msg.view;
    lastView = view;
    fills = boardFills(view.board);
    clockBase = typeof msg.clock === "number" ? { clock: msg.clock, at: performance.now() } : null;
    const counting = !ctx.replay && view.variant === "cards_only" && !view.time_over && view.phase !== "over" && msg.status !== "over";
    if (counting && !clockTimer) clockTimer = setInterval(showLeft, 250);
    else if (!counting && clockTimer) {
      clearInterval(clockTimer);
      clockTimer = null;
    }
    const legal = msg.legal || [];
    const can = (type) => legal.filter((a) => a.type === type);
    root.dataset.phase = view.phase;
    fill(status,
      h("p", { class: "em-turn", "data-testid": "em-turn" }, statusLine(view)),
      view.asker != null && view.phase !== "over" && view.phase !== "place" ? h("p", { class: "muted", "data-testid": "em-asker" }, t(view.asker === ctx.seat ? "em.asker_you" : "em.asker", { name: ctx.seatName(view.asker) })) : null,
      clockLine(view));
    // The variant and the cards left go with the board (beside the question on a wide screen, under it on a phone).
    fill(facts, h("p", { class: "muted" }, t(`em.variant.${view.variant}`)), supplyLine(view));
    fill(players, view.held.map((held, seat) => h("li", { class: seat === view.turn ? "em-current" : "", "data-seat": seat, "data-testid": `em-player-${seat}` },
      h("span", { class: "em-peg", style: `background:${["#e8590c", "#7048e8", "#0c8599", "#c2255c", "#5c940d", "#495057"][seat % 6]}` }, String(seat + 1)),
      h("span", { class: "em-name" }, ctx.seatName(seat), seat === ctx.seat ? ` (${t("em.you")})` : ""),
      h("span", { class: "em-cards", "data-testid": `em-cards-${seat}` }, view.categories.filter((c) => held[c]).map((c) => card(c, held[c], t))),
      h("span", { class: "muted" }, t("em.card_count", { n: view.variant === "cards_only" ? view.kept[seat] : view.cards[seat] })))));
    // The board with pieces; the squares the die reaches are highlighted and clickable when it is this seat's move.
    const moves = can("move");
    const targets = new Set(moves.map((a) => a.to));
    if (view.board) {
      const pawns = view.pawns.map((sq, seat) => (sq == null ? null : { square: sq, seat, label: String(seat + 1), you: seat === ctx.seat })).filter(Boolean);
      const places = can("place");
      const highlight = [...(view.landings || []).map((l) => l.square), ...places.map((a) => a.square)];
      const clickable = new Set([...targets, ...places.map((a) => a.square)]);
      const svg = drawBoard(view.board, pawns, {
        highlight,
        onSquare: clickable.size ? (id) => {
          if (targets.has(id)) send({ type: "move", to: id });
          else if (clickable.has(id)) send({ type: "place", square: id });
        } : undefined,
      });
      fill(boardBox, svg, h("ul", { class: "em-legend" }, view.categories.map((c) => h("li", {}, card(c, 1, t), " ", catName(c)))));
    } else {
      fill(boardBox, h("p", { class: "muted" }, t("em.no_board")));
    }
    fill(dieBox,
      h("div", { class: "em-die-row" }, h("span", {}, t("em.die")), h("span", { class: "em-die", "data-testid": "em-die" }, view.die == null ? "·" : String(view.die))),
      view.asking ? h("p", { "data-testid": "em-category" }, t("em.category", { category: catName(view.asking.category || view.asking) })) : null);
    const buttons = [];
    if (can("roll").length) buttons.push(h("button", { type: "button", class: "btn-primary", "data-testid": "em-roll", onclick: () => send({ type: "roll" }) }, t("em.roll")));
    const places = can("place");
    if (places.length) {
      buttons.push(h("p", {}, t("em.choose_place")));
      places.forEach((a) => buttons.push(h("button", { type: "button", "data-testid": `em-place-${a.square}`, onclick: () => send({ type: "place", square: a.square }) }, squareName(view.board, a.square, t))));
    }
    if (moves.length) {
      buttons.push(h("p", {}, t("em.choose_move")));
      moves.forEach((a) => {
        const dirs = (view.landings || []).filter((l) => l.square === a.to).map((l) => t(`em.direction.${l.direction}`)).join(" / ");
        const square = squareName(view.board, a.to, t);
        buttons.push(h("button", { type: "button", "data-testid": `em-move-${a.to}`, onclick: () => send({ type: "move", to: a.to }) }, dirs ? t("em.move_to", { direction: dirs, square }) : square));
      });
    }
    const cats = [...can("category"), ...can("final_category")];
    if (cats.length) {
      buttons.push(h("p", {}, t(can("final_category").length ? "em.choose_final" : "em.choose_category", { name: ctx.seatName(view.turn) })));
      cats.forEach((a) => buttons.push(h("button", { type: "button", "data-testid": `em-category-${a.category}`, onclick: () => send({ type: a.type, category: a.category }) }, card(a.category, 1, t), " ", catName(a.category))));
    }
    if (can("path").length) buttons.push(h("button", { type: "button", class: "btn-primary", "data-testid": "em-path", onclick: () => send({ type: "path" }) }, t("em.path")));
    fill(actions, buttons);
    quiz.update(msg);
    history.update(msg);
    let last = null;
    if (!view.ask && view.last && view.last.correct !== undefined) {
      // view.last.seat is the answering player; the verdict line names who decided it (view.last.decided_by).
      const decided = { ...view.last, seat: view.last.decided_by ?? null };
      try {
        last = [h("h3", {}, t("em.last")),
          h("p", { "data-testid": "em-last-answerer", "data-seat": view.last.seat }, t("em.last_answerer", { name: ctx.seatName(view.last.seat), category: catName(view.last.category) })),
          quiz.verdictLine(decided),
          rollAgainLine(view)];
      } catch { last = null; }
    }
    fill(lastBox, last);
  }

  // Who won, from the game's result (the most cards may be shared: a tie), else from the view.
  function winnerLine(view, result) {
    const winners = result?.winners || (view.winner != null ? [view.winner] : []);
    const names = nameList(winners.map((s) => ctx.seatName(s)), ctx.lang || "en");
    if (winners.length > 1) {
      const n = view.variant === "cards_only" ? view.kept[winners[0]] : view.cards[winners[0]];
      return h("p", { "data-testid": "em-winner" }, t("em.tie", { names, n }));
    }
    return winners.length ? h("p", { "data-testid": "em-winner" }, t("em.winner", { name: names })) : null;
  }

  // A right answer on an Estonia space whose card the player cannot take (already held, or none left) gives
  // another throw (rule 5): the same player throws again, and the page says why.
  function rollAgainLine(view) {
    const l = view.last;
    if (!l?.correct || l.reason !== "track" || view.phase !== "roll" || view.turn !== l.seat) return null;
    const held = view.variant === "standard" && (view.held[l.seat]?.[l.category] || 0) > 0;
    const key = `em.roll_again_${held ? "held" : "none"}${l.seat === ctx.seat ? "_you" : ""}`;
    return h("p", { class: "em-roll-again", "data-testid": "em-roll-again" }, t(key, { name: ctx.seatName(l.seat), category: catName(l.category) }));
  }

  function summaryOf(view, result) {
    if (!view) return h("div", {});
    const rows = view.held.map((held, seat) => h("tr", { "data-seat": seat },
      h("td", {}, ctx.seatName(seat)),
      h("td", {}, view.categories.filter((c) => held[c]).map((c) => card(c, held[c], t))),
      h("td", {}, String(view.variant === "cards_only" ? view.kept[seat] : view.cards[seat]))));
    return h("div", { class: "em em-summary", "data-testid": "em-summary" },
      winnerLine(view, result),
      h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, t("em.player")), h("th", {}, t("em.cards")), h("th", {}, t("em.count")))), h("tbody", {}, rows)));
  }

  return {
    update,
    summary(result, info) {
      return summaryOf((info && info.view) || lastView, result);
    },
    destroy() {
      if (clockTimer) clearInterval(clockTimer);
      quiz.destroy();
    },
  };
}

/** The lobby's options form: only the options that apply to the chosen variant (and teams). */
export const lobby = {
  shown(name, values) {
    const variant = values.variant || "standard";
    if (["game_minutes", "cards_category"].includes(name)) return variant === "cards_only";
    if (["clockwise_only", "board_file", "cards_per_colour"].includes(name)) return variant !== "cards_only";
    if (name === "team_answer") return Number(values.team_members || 1) > 1;
    return true;
  },
};

/** One line describing a recorded action, for the replay page (`ctx.view`: the table just before it). */
export function describeAction(action, ctx) {
  const { t } = ctx;
  const asked = describeAskAction(action, t, ctx.seatName);
  if (asked) return asked;
  const name = action.seat === null || action.seat === undefined ? "" : ctx.seatName(action.seat);
  const where = action.to ?? action.square;
  return t(`em.rec.${action.type}`, {
    name,
    square: where ? squareName(ctx.view?.board, where, t) : "",
    category: action.category ? t(`em.category.${action.category}`) : "",
  });
}

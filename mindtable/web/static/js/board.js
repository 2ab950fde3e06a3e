// A board drawn from its data (Board.to_dict() of mindtable.kit.board, sent in a game's view) as SVG, with pawns.
// Game-free: every square is a rounded cell at its (x, y), filled with its colour from the board's palette;
// arrows follow `next` and dashed arrows the branches; start, finish and special squares carry a mark.
//
//   import { drawBoard } from "../../js/board.js";
//   root.append(drawBoard(view.board, [{ square: "s2", label: "A", seat: 0, you: true }]));

const SVG = "http://www.w3.org/2000/svg";
const CELL = 56; // px per board unit
const SIZE = 44; // square side
const PAWN_COLOURS = ["#e8590c", "#7048e8", "#0c8599", "#c2255c", "#5c940d", "#495057", "#f08c00", "#1864ab"];

function node(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined && v !== false) el.setAttribute(k, String(v));
  for (const c of children) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

/** The fill colour of a square: the palette's `fill`, else the colour name itself (a CSS colour). */
export function squareFill(board, square) {
  const spec = (board.colours || {})[square.colour];
  return (spec && spec.fill) || square.colour || "#ccc";
}

/**
 * Draw `board` with `pawns` ([{square, label, seat, you}]). Returns an <svg> with data-square on each cell
 * and data-pawn on each pawn; `opts.onSquare(id)` makes squares clickable (a direction or target choice),
 * `opts.highlight` is a list of square ids to outline, `opts.title` names the board in the page's words (else the
 * board file's own title), `opts.squareTitle(square)` a square's tooltip in the page's words (else, or when it
 * gives nothing, the board file's label, colour and special).
 */
export function drawBoard(board, pawns = [], opts = {}) {
  const squares = board.squares || [];
  const byId = new Map(squares.map((s) => [s.id, s]));
  const xs = squares.map((s) => s.x);
  const ys = squares.map((s) => s.y);
  const minX = Math.min(...xs, 0);
  const minY = Math.min(...ys, 0);
  const width = (Math.max(...xs, 0) - minX) * CELL + CELL;
  const height = (Math.max(...ys, 0) - minY) * CELL + CELL;
  const at = (s) => [(s.x - minX) * CELL + CELL / 2, (s.y - minY) * CELL + CELL / 2];
  const svg = node("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: "mt-board",
    role: opts.onSquare ? "group" : "img", // an image holds no buttons (axe: nested-interactive)
    "aria-label": opts.title || board.title || board.id,
    "data-board": board.id,
  });
  svg.append(
    node("defs", {}, node("marker", { id: `arrow-${board.id}`, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" },
      node("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "mt-board-arrowhead" }))),
  );
  const links = node("g", { class: "mt-board-links" });
  const link = (from, to, dashed) => {
    const a = byId.get(from);
    const b = byId.get(to);
    if (!a || !b) return;
    const [x1, y1] = at(a);
    const [x2, y2] = at(b);
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const trim = SIZE / 2 + 2;
    if (len <= 2 * trim) return;
    const dx = ((x2 - x1) / len) * trim;
    const dy = ((y2 - y1) / len) * trim;
    links.append(node("line", { x1: x1 + dx, y1: y1 + dy, x2: x2 - dx, y2: y2 - dy, class: dashed ? "mt-board-branch" : "mt-board-link", "marker-end": `url(#arrow-${board.id})` }));
  };
  for (const s of squares) {
    for (const to of s.next || []) link(s.id, to, false);
    for (const b of s.branches || []) link(s.id, b.to, true);
  }
  svg.append(links);
  const cells = node("g", { class: "mt-board-squares" });
  const highlight = new Set(opts.highlight || []);
  for (const s of squares) {
    const [cx, cy] = at(s);
    const g = node("g", { class: `mt-square mt-square-${s.kind}${highlight.has(s.id) ? " mt-square-hl" : ""}`, "data-square": s.id, "data-colour": s.colour, transform: `translate(${cx - SIZE / 2} ${cy - SIZE / 2})` });
    const title = opts.squareTitle?.(s) || [s.label || s.id, s.colour, s.special].filter(Boolean).join(" · ");
    g.append(node("title", {}, title));
    g.append(node("rect", { width: SIZE, height: SIZE, rx: 8, fill: squareFill(board, s), class: "mt-square-bg" }));
    const mark = s.kind === "start" ? "➜" : s.kind === "finish" ? "⚑" : s.special === "star" ? "★" : s.special ? "◆" : "";
    if (mark) g.append(node("text", { x: SIZE / 2, y: SIZE / 2 + 6, "text-anchor": "middle", class: "mt-square-mark" }, mark));
    if (opts.onSquare) {
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      g.addEventListener("click", () => opts.onSquare(s.id));
      g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); opts.onSquare(s.id); } });
    }
    cells.append(g);
  }
  svg.append(cells);
  // Pawns: several on one square sit side by side.
  const layer = node("g", { class: "mt-board-pawns" });
  const stacks = new Map();
  for (const p of pawns) {
    if (!byId.has(p.square)) continue;
    const list = stacks.get(p.square) || [];
    list.push(p);
    stacks.set(p.square, list);
  }
  for (const [square, list] of stacks) {
    const [cx, cy] = at(byId.get(square));
    list.forEach((p, i) => {
      const offset = (i - (list.length - 1) / 2) * 13;
      const colour = PAWN_COLOURS[(p.seat ?? i) % PAWN_COLOURS.length];
      layer.append(
        node("g", { class: `mt-pawn${p.you ? " mt-pawn-you" : ""}`, "data-pawn": p.seat ?? i, "data-square": square, transform: `translate(${cx + offset} ${cy + 12})` },
          node("circle", { r: 8, fill: colour }),
          node("text", { y: 4, "text-anchor": "middle", class: "mt-pawn-label" }, p.label ?? String((p.seat ?? i) + 1))),
      );
    });
  }
  svg.append(layer);
  return svg;
}

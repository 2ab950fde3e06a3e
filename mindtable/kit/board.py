"""Boards as data files: tracks of coloured squares, loops and laps, start and special squares, branches and
paths to a finish, a direction choice — and where a pawn may land.

A board file (YAML)::

    id: tiny-loop
    title: A tiny loop
    directions: forward          # forward (default) or both: the player chooses the direction of each move
    colours:                     # the palette: every square's colour must be one of these
      red: {fill: "#d94841", topic: history}
      grey: {fill: "#9aa0a6"}
    tracks:
      - id: outer
        loop: true               # the last square leads back to the first (laps)
        squares:
          - {id: start, colour: grey, kind: start, x: 0, y: 0}
          - {id: o1, colour: red, x: 1, y: 0, special: star}
          - {id: o2, colour: red, x: 2, y: 0, branches: [{to: f1, path: finish}]}
          ...
      - id: finish
        squares:
          - {id: f1, colour: red, x: 2, y: 1}
          - {id: goal, colour: grey, kind: finish, x: 2, y: 2}

Squares lead to the next square of their track (a loop wraps around); ``next: [ids]`` replaces that,
``branches`` add side roads, each with the name of the ``path`` it belongs to, which :func:`reachable` follows
only when the game opens that path for the pawn. ``kind`` is ``normal``, ``start`` (passing it completes a
lap) or ``finish`` (a pawn stops there); ``special`` is any mark the game gives meaning to (``star``,
``sniper``…). ``x``/``y`` place squares for drawing (all or none; laid out on a ring otherwise).
Errors name the file, the line and the field (``tracks[0].squares[3].colour``).

>>> board = parse_board(EXAMPLE)
>>> [(m.square, m.laps) for m in reachable(board, "o3", 2)]
[('o1', 1)]
>>> sorted(m.square for m in reachable(board, "o1", 2, paths=("finish",)))
['f1', 'o3']
>>> sorted(m.square for m in reachable(board, "o1", 1, direction="both"))
['o2', 'start']
"""

from __future__ import annotations

import math
import os
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

KINDS = ("normal", "start", "finish")
DIRECTIONS = ("forward", "both")
BOARD_FIELDS = ("id", "title", "directions", "colours", "tracks", "description")
TRACK_FIELDS = ("id", "loop", "squares")
SQUARE_FIELDS = ("id", "colour", "kind", "special", "label", "x", "y", "next", "branches")

EXAMPLE = """
id: example
title: Example
colours: {red: {fill: "#d94841"}, blue: {fill: "#3a6fd8"}, grey: {fill: "#9aa0a6"}}
tracks:
  - id: outer
    loop: true
    squares:
      - {id: start, colour: grey, kind: start}
      - {id: o1, colour: red, special: star}
      - {id: o2, colour: blue, branches: [{to: f1, path: finish}]}
      - {id: o3, colour: red}
  - id: finish
    squares:
      - {id: f1, colour: blue}
      - {id: goal, colour: grey, kind: finish}
"""


@dataclass(frozen=True, slots=True)
class BoardProblem:
    file: str
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.field}: {self.message}" if self.field else f"{where}: {self.message}"


class BoardError(ValueError):
    """A board file that cannot be used; ``problems`` lists each with file, line and field."""

    def __init__(self, problems: Sequence[BoardProblem]) -> None:
        self.problems = list(problems)
        more = f" (and {len(self.problems) - 1} more problems)" if len(self.problems) > 1 else ""
        super().__init__(str(self.problems[0]) + more)


@dataclass(frozen=True, slots=True)
class Square:
    id: str
    colour: str
    track: str
    kind: str = "normal"
    special: str = ""
    label: str = ""
    x: float = 0.0
    y: float = 0.0
    next: tuple[str, ...] = ()
    branches: tuple[tuple[str, str], ...] = ()  # (to, path)


@dataclass(frozen=True)
class Board:
    id: str
    title: str
    directions: str
    colours: Mapping[str, Mapping[str, str]]
    squares: Mapping[str, Square]
    tracks: Mapping[str, tuple[str, ...]]
    previous: Mapping[str, tuple[tuple[str, str | None], ...]] = field(default_factory=dict)

    @property
    def starts(self) -> list[str]:
        return [s.id for s in self.squares.values() if s.kind == "start"]

    def colour_of(self, square: str) -> str:
        return self.squares[square].colour

    def topic_of(self, square: str) -> str | None:
        """The topic the square's colour names in the palette (``colours.<colour>.topic``), if any."""
        return self.colours.get(self.squares[square].colour, {}).get("topic")

    def exits(self, square: str, paths: Collection[str] = ()) -> list[str]:
        sq = self.squares[square]
        return [*sq.next, *(to for to, path in sq.branches if path in paths)]

    def entries(self, square: str, paths: Collection[str] = ()) -> list[str]:
        return [frm for frm, path in self.previous.get(square, ()) if path is None or path in paths]

    def to_dict(self) -> dict[str, Any]:
        """The board as JSON for a view (what ``board.js`` draws)."""
        return {
            "id": self.id,
            "title": self.title,
            "directions": self.directions,
            "colours": {k: dict(v) for k, v in self.colours.items()},
            "tracks": {k: list(v) for k, v in self.tracks.items()},
            "squares": [
                {
                    "id": s.id,
                    "colour": s.colour,
                    "track": s.track,
                    "kind": s.kind,
                    "special": s.special,
                    "label": s.label,
                    "x": s.x,
                    "y": s.y,
                    "next": list(s.next),
                    "branches": [{"to": to, "path": path} for to, path in s.branches],
                }
                for s in self.squares.values()
            ],
        }


@dataclass(frozen=True, slots=True)
class Landing:
    """Where a move ends: the square, the squares passed (landing included), the laps completed on the way
    (passing or landing on a ``start`` square), the steps left when a ``finish`` or a ``stop_at`` square ended
    the move early, and the direction taken."""

    square: str
    path: tuple[str, ...]
    laps: int
    steps_left: int
    direction: str


def reachable(
    board: Board,
    square: str,
    steps: int,
    direction: str = "forward",
    *,
    paths: Collection[str] = (),
    stop_at: Collection[str] = (),
) -> list[Landing]:
    """Every way a pawn on ``square`` can move ``steps`` squares: ``direction`` is ``forward``, ``backward``
    or ``both`` (a choice made once per move: a pawn never turns round within a move). Branches belonging to a
    path in ``paths`` may be taken; a ``finish`` square or a square in ``stop_at`` ends the move early.
    One landing per distinct route, in a stable order."""
    if square not in board.squares:
        raise KeyError(f"no square {square!r} on the board {board.id!r}")
    if steps < 0:
        raise ValueError(f"steps must be at least 0, got {steps}")
    directions = ("forward", "backward") if direction == "both" else (direction,)
    out: list[Landing] = []
    for way in directions:
        if way not in ("forward", "backward"):
            raise ValueError(f"direction must be forward, backward or both, got {way!r}")
        routes: list[tuple[str, tuple[str, ...], int]] = [(square, (), 0)]
        for left in range(steps, 0, -1):
            following: list[tuple[str, tuple[str, ...], int]] = []
            for here, path, laps in routes:
                if path and (here in stop_at or board.squares[here].kind == "finish"):
                    out.append(Landing(here, path, laps, left, way))
                    continue
                exits = board.exits(here, paths) if way == "forward" else board.entries(here, paths)
                if not exits:
                    if path:
                        out.append(Landing(here, path, laps, left, way))
                    continue
                for nxt in exits:
                    lap = 1 if board.squares[nxt].kind == "start" else 0
                    following.append((nxt, (*path, nxt), laps + lap))
            routes = following
        out.extend(Landing(here, path, laps, 0, way) for here, path, laps in routes if path or steps == 0)
    return out


# --- loading ------------------------------------------------------------------------------------------------

_Path = tuple[str | int, ...]


def _name(path: _Path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def _line(root: yaml.Node | None, path: _Path) -> int:
    node = root
    line = node.start_mark.line + 1 if node is not None else 0
    for part in path:
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if key.value == str(part):
                    node, line = value, key.start_mark.line + 1
                    break
            else:
                return line
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            return line
    return line


def _text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def parse_board(text: str, file: str = "<board>") -> Board:
    """Parse and validate a board; raises :class:`BoardError` listing every problem with file/line/field."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise BoardError(
            [BoardProblem(file, mark.line + 1 if mark else 0, "", f"not valid YAML: {getattr(exc, 'problem', exc)}")]
        ) from None
    errors: list[tuple[_Path, str]] = []
    board = _build(data, errors)
    if errors:
        raise BoardError([BoardProblem(file, _line(root, p), _name(p), m) for p, m in errors])
    assert board is not None
    return board


def load_board(path: str | os.PathLike[str]) -> Board:
    """Load a board file (see :func:`parse_board`)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise BoardError([BoardProblem(str(p), 0, "", f"cannot read: {exc.strerror or exc}")]) from None
    return parse_board(text, str(p))


def _build(data: Any, errors: list[tuple[_Path, str]]) -> Board | None:
    def err(path: _Path, message: str) -> None:
        errors.append((path, message))

    if not isinstance(data, dict):
        err((), "a board must be a mapping with 'tracks:'")
        return None
    for key in data:
        if key not in BOARD_FIELDS:
            err((str(key),), f"unknown field {key!r}; allowed: {', '.join(BOARD_FIELDS)}")
    board_id = data.get("id")
    if not _text(board_id):
        err(("id",), "missing: a board needs an id")
    directions = data.get("directions", "forward")
    if directions not in DIRECTIONS:
        err(("directions",), f"must be one of {', '.join(DIRECTIONS)}, got {directions!r}")
    colours: dict[str, dict[str, str]] = {}
    raw_colours = data.get("colours", {})
    if not isinstance(raw_colours, dict):
        err(("colours",), "must be a mapping of colour name -> {fill, topic}")
        raw_colours = {}
    for name, spec in raw_colours.items():
        if isinstance(spec, str):
            spec = {"fill": spec}
        if not isinstance(spec, dict) or not all(isinstance(v, str) for v in spec.values()):
            err(("colours", str(name)), "must be a CSS colour or a mapping {fill: ..., topic: ...} of texts")
            continue
        unknown = set(spec) - {"fill", "topic", "label"}
        if unknown:
            err(("colours", str(name), sorted(unknown)[0]), "unknown field; allowed: fill, topic, label")
        colours[str(name)] = dict(spec)
    tracks = data.get("tracks")
    if not isinstance(tracks, list) or not tracks:
        err(("tracks",), "must be a non-empty list of tracks")
        return None
    squares: dict[str, Square] = {}
    where: dict[str, _Path] = {}
    raw: list[tuple[_Path, dict[str, Any], str, int, list[Any], bool]] = []
    track_ids: dict[str, tuple[str, ...]] = {}
    for t, track in enumerate(tracks):
        tp: _Path = ("tracks", t)
        if not isinstance(track, dict):
            err(tp, "a track must be a mapping with id and squares")
            continue
        for key in track:
            if key not in TRACK_FIELDS:
                err((*tp, str(key)), f"unknown field {key!r}; allowed: {', '.join(TRACK_FIELDS)}")
        tid = track.get("id", f"track{t}")
        if not _text(tid) or tid in track_ids:
            err((*tp, "id"), f"must be a unique text, got {tid!r}")
            tid = f"track{t}"
        loop = track.get("loop", False)
        if not isinstance(loop, bool):
            err((*tp, "loop"), f"must be true or false, got {loop!r}")
            loop = False
        items = track.get("squares")
        if not isinstance(items, list) or not items:
            err((*tp, "squares"), "must be a non-empty list of squares")
            continue
        ids = []
        for i, item in enumerate(items):
            sp: _Path = (*tp, "squares", i)
            if not isinstance(item, dict):
                err(sp, "a square must be a mapping with id and colour")
                continue
            for key in item:
                if key not in SQUARE_FIELDS:
                    err((*sp, str(key)), f"unknown field {key!r}; allowed: {', '.join(SQUARE_FIELDS)}")
            sid = item.get("id")
            if not _text(sid) and not isinstance(sid, int):
                err((*sp, "id"), "missing: every square needs an id")
                continue
            sid = str(sid)
            if sid in where:
                err((*sp, "id"), f"duplicate square id {sid!r} (first at {_name(where[sid])})")
                continue
            where[sid] = sp
            ids.append(sid)
            raw.append((sp, item, str(tid), i, items, loop))
        track_ids[str(tid)] = tuple(ids)
    coords = [("x" in item or "y" in item) for _, item, *_ in raw]
    placed = all(coords)
    if any(coords) and not placed:
        first = next(sp for (sp, item, *_), c in zip(raw, coords, strict=True) if not c)
        err(first, "some squares have x/y and this one has not: give coordinates to all squares or to none")
    for sp, item, tid, _index, _items, loop in raw:
        sid = str(item["id"])
        colour = item.get("colour")
        if not _text(colour):
            err((*sp, "colour"), "missing: every square needs a colour")
            colour = ""
        elif colours and colour not in colours:
            err((*sp, "colour"), f"unknown colour {colour!r}; the palette has {', '.join(colours)}")
        kind = item.get("kind", "normal")
        if kind not in KINDS:
            err((*sp, "kind"), f"must be one of {', '.join(KINDS)}, got {kind!r}")
            kind = "normal"
        for name in ("special", "label"):
            if name in item and not isinstance(item[name], str):
                err((*sp, name), f"must be a text, got {item[name]!r}")
        x = y = 0.0
        for name in ("x", "y"):
            value = item.get(name, 0)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                err((*sp, name), f"must be a number, got {value!r}")
            elif name == "x":
                x = float(value)
            else:
                y = float(value)
        track_list = track_ids.get(tid, ())
        if "next" in item:
            nxt = item["next"]
            if not isinstance(nxt, list) or not all(isinstance(n, (str, int)) for n in nxt):
                err((*sp, "next"), "must be a list of square ids")
                nxt = []
            nxt = [str(n) for n in nxt]
        else:
            position = track_list.index(sid) if sid in track_list else -1
            if kind == "finish" or position < 0:
                nxt = []
            elif position + 1 < len(track_list):
                nxt = [track_list[position + 1]]
            elif loop and len(track_list) > 1:
                nxt = [track_list[0]]
            else:
                nxt = []
        for j, target in enumerate(nxt):
            if target not in where:
                err((*sp, "next", j), f"no square {target!r} on this board")
        branches: list[tuple[str, str]] = []
        raw_branches = item.get("branches", [])
        if not isinstance(raw_branches, list):
            err((*sp, "branches"), "must be a list of {to: <square>, path: <name>}")
            raw_branches = []
        for j, branch in enumerate(raw_branches):
            if not isinstance(branch, dict) or not _text(branch.get("path")) or "to" not in branch:
                err((*sp, "branches", j), "a branch needs 'to' (a square) and 'path' (its name)")
                continue
            if str(branch["to"]) not in where:
                err((*sp, "branches", j, "to"), f"no square {branch['to']!r} on this board")
                continue
            branches.append((str(branch["to"]), str(branch["path"])))
        squares[sid] = Square(
            sid,
            str(colour),
            tid,
            kind,
            str(item.get("special", "")),
            str(item.get("label", "")),
            x,
            y,
            tuple(nxt),
            tuple(branches),
        )
    if not any(s.kind == "start" for s in squares.values()) and squares:
        err(("tracks",), "no start square: mark at least one square 'kind: start'")
    if errors:
        return None
    if not placed:
        squares = _layout(squares, track_ids)
    previous: dict[str, list[tuple[str, str | None]]] = {}
    for s in squares.values():
        for target in s.next:
            previous.setdefault(target, []).append((s.id, None))
        for target, path in s.branches:
            previous.setdefault(target, []).append((s.id, path))
    # Every square must be reachable from a start, following every path.
    seen = set(s.id for s in squares.values() if s.kind == "start")
    frontier = list(seen)
    while frontier:
        here = squares[frontier.pop()]
        for target in (*here.next, *(to for to, _ in here.branches)):
            if target not in seen:
                seen.add(target)
                frontier.append(target)
    for sid in squares:
        if sid not in seen:
            err((*where[sid], "id"), f"the square {sid!r} cannot be reached from any start square")
    if errors:
        return None
    return Board(
        id=str(data["id"]),
        title=str(data.get("title", "") or data["id"]),
        directions=str(directions),
        colours=colours,
        squares=squares,
        tracks=track_ids,
        previous={k: tuple(v) for k, v in previous.items()},
    )


def _layout(squares: dict[str, Square], tracks: Mapping[str, tuple[str, ...]]) -> dict[str, Square]:
    """Coordinates for a board without them: the first track on a ring, the others in rows below it."""
    from dataclasses import replace

    out = dict(squares)
    names = list(tracks)
    if not names:
        return out
    ring = tracks[names[0]]
    n = max(len(ring), 1)
    radius = max(2.0, n / (2 * math.pi) * 1.2)
    for i, sid in enumerate(ring):
        angle = 2 * math.pi * i / n - math.pi / 2
        out[sid] = replace(
            out[sid], x=round(radius + radius * math.cos(angle), 2), y=round(radius + radius * math.sin(angle), 2)
        )
    row = 2 * radius + 1.5
    for name in names[1:]:
        for i, sid in enumerate(tracks[name]):
            out[sid] = replace(out[sid], x=float(i), y=row)
        row += 1.2
    return out


# --- text rendering -----------------------------------------------------------------------------------------

_MARKS = {"start": "S", "finish": "F"}


def render_text(board: Board, pawns: Mapping[str, Sequence[str]] | None = None) -> str:
    """The board for a terminal: one cell per square at its place (``[r*AB]``: colour initial, a mark — ``S``
    start, ``F`` finish, ``*`` special —, the pawns standing there), then a legend.

    >>> print(render_text(parse_board(EXAMPLE), {"o1": ["A"]}).splitlines()[-1])
    pawns: A on o1
    """
    pawns = pawns or {}
    xs = sorted({s.x for s in board.squares.values()})
    ys = sorted({s.y for s in board.squares.values()})
    # Snap to a small grid: coordinates become column/row indexes.
    width = 6
    cols = {x: i for i, x in enumerate(xs)}
    rows = {y: i for i, y in enumerate(ys)}
    grid = [[" " * width for _ in xs] for _ in ys]
    for s in board.squares.values():
        mark = _MARKS.get(s.kind, "*" if s.special else " ")
        who = "".join(pawns.get(s.id, ()))[:2]
        grid[rows[s.y]][cols[s.x]] = f"[{(s.colour[:1] or '?')}{mark}{who:<2}]"
    lines = ["".join(row).rstrip() for row in grid]
    if len(xs) > 40:  # too wide for a terminal: list the squares instead
        lines = [
            f"{s.id:>8} {s.colour:<8} {s.kind if s.kind != 'normal' else '':<7}{s.special:<10}"
            + " ".join(pawns.get(s.id, ()))
            for s in board.squares.values()
        ]
    lines.append(
        "colours: "
        + ", ".join(f"{c[:1]} = {c}" for c in board.colours or sorted({s.colour for s in board.squares.values()}))
    )
    specials = sorted({f"{s.id}: {s.special}" for s in board.squares.values() if s.special})
    if specials:
        lines.append("special: " + "; ".join(specials))
    if pawns:
        lines.append("pawns: " + "; ".join(f"{''.join(who)} on {sq}" for sq, who in pawns.items() if who))
    return "\n".join(lines)

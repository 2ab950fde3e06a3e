"""The IQ scale: a board file (``mindtable.kit`` boards) read and checked for Caída Libre, as JSON for the state.

The built-in scale is ``board.yaml`` beside this file: 150 "Prodigious Mind" at the top, 0 "Free Fall" at the
bottom, a square every 10 IQ points, and the five weapon squares. A room may load another file with the option
``board`` (a path); it is read once, when the match starts, and the scale goes into the match's state, so a
record replays without the file.

>>> scale = load_scale()
>>> scale["top"], scale["step"], weapon_at(scale, 120), weapon_at(scale, 110)
(150, 10, 'sniper', None)
>>> clamp(scale, 170), clamp(scale, -20)
(150, 0)
"""

from __future__ import annotations

import functools
import marshal
import os
from pathlib import Path
from typing import Any

import yaml

from mindtable.kit.board import Board, BoardError, BoardProblem, load_board

HERE = Path(__file__).resolve().parent
BOARD_FILE = HERE / "board.yaml"
#: The five weapons of the book, in the order it lists them.
WEAPONS = ("sniper", "hook", "dynamite", "jetpack", "armageddon")
#: IQ points between two squares: every penalty and gain of the book is a multiple of it.
STEP = 10

Scale = dict[str, Any]


def _square_lines(path: Path) -> list[int]:
    """The line of each square of the first track (for error messages)."""
    try:
        root = yaml.compose(path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
    except (OSError, yaml.YAMLError):
        return []
    if root is None:
        return []
    try:
        for key, value in root.value:
            if key.value == "tracks":
                squares = next(v for k, v in value.value[0].value if k.value == "squares")
                return [node.start_mark.line + 1 for node in squares.value]
    except (AttributeError, StopIteration, IndexError):
        return []
    return []


def scale_from_board(board: Board, file: str = "<board>", lines: list[int] | None = None) -> Scale:
    """The scale of a loaded board, or :class:`BoardError` naming the file, line and field of each problem."""
    problems: list[BoardProblem] = []
    lines = lines or []

    def problem(index: int | None, field: str, message: str) -> None:
        line = lines[index] if index is not None and index < len(lines) else 0
        problems.append(BoardProblem(file, line, field, message))

    if len(board.tracks) != 1:
        problem(None, "tracks", f"an IQ scale has exactly one track, got {len(board.tracks)}")
    track = next(iter(board.tracks.values()))
    values: list[int] = []
    for i, sid in enumerate(track):
        where = f"tracks[0].squares[{i}]"
        square = board.squares[sid]
        try:
            iq = int(sid)
        except ValueError:
            problem(i, f"{where}.id", f"must be the square's IQ, a whole number, got {sid!r}")
            continue
        if iq < 0 or iq % STEP:
            problem(i, f"{where}.id", f"an IQ square is 0 or a positive multiple of {STEP}, got {iq}")
        if values and iq != values[-1] - STEP:
            problem(
                i,
                f"{where}.id",
                f"squares go down {STEP} at a time from the top: expected {values[-1] - STEP}, got {iq}",
            )
        if square.special and square.special not in WEAPONS:
            problem(i, f"{where}.special", f"must be one of {', '.join(WEAPONS)} (or nothing), got {square.special!r}")
        values.append(iq)
    if values:
        if board.squares[track[0]].kind != "start":
            problem(0, "tracks[0].squares[0].kind", "the top square (Prodigious Mind) must be 'kind: start'")
        last = len(track) - 1
        if values[-1] != 0 or board.squares[track[-1]].kind != "finish":
            problem(last, f"tracks[0].squares[{last}]", "the last square must be IQ 0 (Free Fall), 'kind: finish'")
        if len(values) < 3:
            problem(None, "tracks", "an IQ scale needs at least 3 squares")
    if problems:
        raise BoardError(problems)
    squares = [
        {"iq": values[i], "id": sid, "weapon": board.squares[sid].special, "label": board.squares[sid].label}
        for i, sid in enumerate(track)
    ]
    return {
        "id": board.id,
        "title": board.title,
        "top": values[0],
        "step": STEP,
        "squares": squares,
        "board": board.to_dict(),
    }


def load_scale(path: str | os.PathLike[str] | None = None) -> Scale:
    """The scale of the board file at ``path`` (the built-in one when ``None`` or empty), a fresh copy."""
    p = Path(path) if path else BOARD_FILE
    try:
        stamp = p.stat().st_mtime_ns
    except OSError:
        stamp = 0
    scale: Scale = marshal.loads(_load_scale(str(p), stamp))
    return scale


@functools.lru_cache(maxsize=16)
def _load_scale(path: str, stamp: int) -> bytes:
    """Parsing YAML is slow: a file is read again only when it changed (``stamp``, its modification time). Kept
    as marshal bytes, so each caller gets its own copy at a small part of a deep copy's cost."""
    p = Path(path)
    board = load_board(p)
    return marshal.dumps(scale_from_board(board, str(p), _square_lines(p)))


def weapon_at(scale: Scale, iq: int) -> str | None:
    """The weapon on the square of ``iq``, if any."""
    top = scale["top"]
    index = (top - iq) // scale["step"]
    if not 0 <= index < len(scale["squares"]):
        return None
    return scale["squares"][index]["weapon"] or None


def clamp(scale: Scale, iq: int) -> int:
    """IQ never leaves the board: nothing above the top square, nothing below Free Fall (0)."""
    return max(0, min(scale["top"], iq))

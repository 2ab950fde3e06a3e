"""The NeuroRace tiles: what a side shows, the tile-file format, and the shipped tile set.

A *side* is ``(symbol, colour, number)``: ``symbol`` is one of :data:`SYMBOLS` or ``"any"`` (a bonus side
showing every symbol), ``colour`` one of :data:`COLOURS` or ``"any"`` (a bonus side showing the symbol in
all five colours), ``number`` 0-99. A tile is two sides; the tile set is 60 tiles with ids 0-59.

The tile file (``tiles.txt``, one tile per line) writes a side as ``colour-symbol NN``:

>>> parse_side("red-sun 07")
('sun', 'red', 7)
>>> format_side(("any", "blue", 57))
'blue-any 57'
>>> len(TILES), sum(1 for tile in TILES if is_bonus(tile))
(60, 9)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from importlib import resources
from typing import Any

SYMBOLS: tuple[str, ...] = ("sun", "moon", "lightning")
COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue", "purple")
ANY = "any"
TILE_COUNT = 60
BONUS_COUNT = 9

Side = tuple[str, str, int]
Tile = tuple[Side, Side]

_SIDE_RE = re.compile(r"^([a-z]+)-([a-z]+)\s+(\d\d)$")


class TileFileError(ValueError):
    """A malformed tile file; the message names the file, the line and the field."""


def parse_side(text: str) -> Side:
    """``"red-sun 07"`` -> ``("sun", "red", 7)``; raises ValueError saying what is allowed."""
    match = _SIDE_RE.match(text.strip())
    if match is None:
        raise ValueError(f"a side is written 'colour-symbol NN' (e.g. 'red-sun 07', 'any-moon 42'), got {text!r}")
    colour, symbol, number = match.groups()
    if colour not in (*COLOURS, ANY):
        raise ValueError(f"colour {colour!r} is not one of {', '.join((*COLOURS, ANY))}")
    if symbol not in (*SYMBOLS, ANY):
        raise ValueError(f"symbol {symbol!r} is not one of {', '.join((*SYMBOLS, ANY))}")
    return (symbol, colour, int(number))


def format_side(side: Side) -> str:
    symbol, colour, number = side
    return f"{colour}-{symbol} {number:02d}"


def side_dict(side: Side) -> dict[str, Any]:
    """A side as JSON for views and events."""
    return {"symbol": side[0], "colour": side[1], "number": side[2]}


def is_special(side: Side) -> bool:
    return side[0] == ANY or side[1] == ANY


def is_bonus(tile: Tile) -> bool:
    return is_special(tile[0]) or is_special(tile[1])


# -- the designed tile set ------------------------------------------------------------------------------
def build_tileset() -> list[Tile]:
    """The tile set this package ships (see ``docs/rules/neurorace.md``, "The tiles").

    51 regular tiles cycle through the 3 symbols and the 20 ordered pairs of different colours. 9 bonus
    tiles have one special side: the three symbols each in all colours (ids 51-53), all symbols in each of
    the five colours (54-58) and one tile with everything (59). Their other side is regular and is chosen
    greedily as the symbol-colour pair seen least so far, which leaves every one of the 15 symbol-colour
    pairs on 7 or 8 regular sides. Tile ``t`` carries the numbers ``n`` and ``n + 50`` with
    ``n = 23 * t mod 50`` (plus 25 for the ten tiles past 50), the low number on side A for even ``t``:
    every number 00-99 appears once or twice, every first and last digit on 11-13 sides.
    """
    pairs = [(a, (a + shift) % 5) for shift in range(1, 5) for a in range(5)]
    tiles: list[Tile] = []
    seen: dict[tuple[str, str], int] = {(s, c): 0 for s in SYMBOLS for c in COLOURS}

    def numbers(t: int) -> tuple[int, int]:
        low = (23 * t + (25 if t >= 50 else 0)) % 50
        return (low, low + 50) if t % 2 == 0 else (low + 50, low)

    def least_seen(symbols: Sequence[str], colours: Sequence[str]) -> tuple[str, str]:
        best = min(((s, c) for s in symbols for c in colours), key=lambda p: seen[p])
        seen[best] += 1
        return best

    for t in range(51):
        symbol = SYMBOLS[t % 3]
        a, b = pairs[t % 20]
        na, nb = numbers(t)
        tiles.append(((symbol, COLOURS[a], na), (symbol, COLOURS[b], nb)))
        seen[(symbol, COLOURS[a])] += 1
        seen[(symbol, COLOURS[b])] += 1
    for i, symbol in enumerate(SYMBOLS):  # one symbol in all five colours
        na, nb = numbers(51 + i)
        _, colour = least_seen([symbol], COLOURS)
        tiles.append(((symbol, ANY, na), (symbol, colour, nb)))
    for i, colour in enumerate(COLOURS):  # all symbols in one colour
        na, nb = numbers(54 + i)
        back_symbol, back_colour = least_seen(SYMBOLS, [c for c in COLOURS if c != colour])
        tiles.append(((ANY, colour, na), (back_symbol, back_colour, nb)))
    na, nb = numbers(59)  # all symbols in all colours
    back_symbol, back_colour = least_seen(SYMBOLS, COLOURS)
    tiles.append(((ANY, ANY, na), (back_symbol, back_colour, nb)))
    return tiles


def tile_problems(tiles: Sequence[Tile]) -> list[str]:
    """Every broken invariant of a tile set (empty when it is a valid NeuroRace set)."""
    problems: list[str] = []
    if len(tiles) != TILE_COUNT:
        problems.append(f"the set has {len(tiles)} tiles, the book says {TILE_COUNT}")
    bonus = [t for t, tile in enumerate(tiles) if is_bonus(tile)]
    if len(bonus) != BONUS_COUNT:
        problems.append(f"the set has {len(bonus)} bonus tiles, the book says {BONUS_COUNT}")
    for t, (a, b) in enumerate(tiles):
        for side in (a, b):
            if not 0 <= side[2] <= 99:
                problems.append(f"tile {t}: number {side[2]} is not 00-99")
        if abs(a[2] - b[2]) != 50:
            problems.append(f"tile {t}: numbers {a[2]:02d} and {b[2]:02d} do not differ by 50")
        if a[1] == b[1]:
            problems.append(f"tile {t}: both sides are {a[1]}")
        if not is_bonus((a, b)) and a[0] != b[0]:
            problems.append(f"tile {t}: the sides show different symbols ({a[0]}, {b[0]}) on a regular tile")
    sides = [side for tile in tiles for side in tile]
    kinds = {(s[0] == ANY, s[1] == ANY, s[0] if s[1] == ANY else s[1]) for s in sides if is_special(s)}
    for colour in COLOURS:
        if (True, False, colour) not in kinds:
            problems.append(f"no bonus side shows all symbols in {colour}")
    for symbol in SYMBOLS:
        if (False, True, symbol) not in kinds:
            problems.append(f"no bonus side shows the {symbol} in all colours")
    if sum(1 for s in sides if s[0] == ANY and s[1] == ANY) != 1:
        problems.append("exactly one side must show all symbols in all colours")
    return problems


# -- the tile file ----------------------------------------------------------------------------------------
TILE_FILE_HEADER = (
    "# NeuroRace tile set: 60 double-sided tiles, one per line: 'id: side A | side B'.\n"
    "# A side is 'colour-symbol NN'; 'any' as the colour shows the symbol in all five colours, 'any' as the\n"
    "# symbol shows all three symbols in that colour. Generated by mindtable.games.neurorace.components.\n"
)


def format_tiles(tiles: Sequence[Tile]) -> str:
    lines = [f"{t}: {format_side(a)} | {format_side(b)}" for t, (a, b) in enumerate(tiles)]
    return TILE_FILE_HEADER + "\n".join(lines) + "\n"


def parse_tiles(text: str, filename: str = "tiles.txt") -> list[Tile]:
    """Read a tile file; any error names the file, the line and the field."""
    tiles: list[Tile] = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        where = f"{filename}: line {lineno}"
        head, colon, body = line.partition(":")
        if not colon or not head.strip().isdigit():
            raise TileFileError(f"{where}: expected 'id: side A | side B', got {raw!r}")
        tile_id = int(head)
        if tile_id != len(tiles):
            raise TileFileError(f"{where}: field 'id' must be {len(tiles)} (ids run 0, 1, 2...), got {tile_id}")
        parts = body.split("|")
        if len(parts) != 2:
            raise TileFileError(f"{where}: a tile has exactly two sides separated by '|', got {len(parts)}")
        sides = []
        for name, part in zip(("side A", "side B"), parts, strict=True):
            try:
                sides.append(parse_side(part))
            except ValueError as exc:
                raise TileFileError(f"{where}: field {name!r}: {exc}") from None
        tiles.append((sides[0], sides[1]))
    problems = tile_problems(tiles)
    if problems:
        raise TileFileError(f"{filename}: not a valid tile set: " + "; ".join(problems[:5]))
    return tiles


def load_tiles() -> list[Tile]:
    text = resources.files(__package__).joinpath("tiles.txt").read_text(encoding="utf-8")
    return parse_tiles(text, "mindtable/games/neurorace/tiles.txt")


#: The shipped tile set, tile id -> (side A, side B).
TILES: tuple[Tile, ...] = tuple(load_tiles())

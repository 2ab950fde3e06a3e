"""The tile set: the book's invariants, an even spread, and the tile file format."""

from __future__ import annotations

from collections import Counter
from importlib import resources

import pytest

from mindtable.games.neurorace.components import (
    ANY,
    COLOURS,
    SYMBOLS,
    TILES,
    TileFileError,
    build_tileset,
    format_tiles,
    is_bonus,
    is_special,
    parse_side,
    parse_tiles,
    tile_problems,
)

REGULAR_SIDES = [side for tile in TILES for side in tile if not is_special(side)]


def test_the_shipped_file_is_what_the_generator_builds() -> None:
    text = resources.files("mindtable.games.neurorace").joinpath("tiles.txt").read_text(encoding="utf-8")
    assert text == format_tiles(build_tileset())
    assert list(TILES) == build_tileset()


def test_sixty_tiles_of_which_nine_are_bonus_tiles() -> None:
    assert len(TILES) == 60
    assert sum(1 for tile in TILES if is_bonus(tile)) == 9
    assert tile_problems(TILES) == []


@pytest.mark.parametrize("tile", range(60))
def test_each_tile_numbers_differ_by_50_colours_differ_symbols_match(tile: int) -> None:
    a, b = TILES[tile]
    assert abs(a[2] - b[2]) == 50
    assert 0 <= a[2] <= 99 and 0 <= b[2] <= 99
    assert a[1] != b[1]
    if not is_bonus(TILES[tile]):
        assert a[0] == b[0]


def test_bonus_sides_cover_each_colour_each_symbol_and_one_everything() -> None:
    specials = [side for tile in TILES for side in tile if is_special(side)]
    assert {side[1] for side in specials if side[0] == ANY and side[1] != ANY} == set(COLOURS)
    assert {side[0] for side in specials if side[1] == ANY and side[0] != ANY} == set(SYMBOLS)
    assert sum(1 for side in specials if side == (ANY, ANY, side[2])) == 1


def test_symbols_colours_and_numbers_are_spread_evenly() -> None:
    pairs = Counter((side[0], side[1]) for side in REGULAR_SIDES)
    assert set(pairs) == {(s, c) for s in SYMBOLS for c in COLOURS}
    assert min(pairs.values()) >= 7 and max(pairs.values()) <= 8
    numbers = Counter(side[2] for tile in TILES for side in tile)
    assert set(numbers) == set(range(100)) and max(numbers.values()) <= 2
    first = Counter(side[2] // 10 for tile in TILES for side in tile)
    last = Counter(side[2] % 10 for tile in TILES for side in tile)
    assert min(first.values()) >= 11 and max(first.values()) <= 13
    assert set(last.values()) == {12}


def test_a_broken_tile_set_is_reported() -> None:
    broken = list(TILES)
    (s, c, n), back = broken[0]
    broken[0] = ((s, c, n), (back[0], c, (n + 40) % 100))
    problems = tile_problems(broken)
    assert any("differ by 50" in p for p in problems)
    assert any("both sides are" in p for p in problems)
    assert any("60" in p for p in tile_problems(broken[:59]))


def test_side_text_round_trips_and_bad_sides_say_what_is_allowed() -> None:
    assert parse_side("any-moon 05") == ("moon", ANY, 5)
    with pytest.raises(ValueError, match="colour 'pink'"):
        parse_side("pink-sun 05")
    with pytest.raises(ValueError, match="colour-symbol NN"):
        parse_side("red-sun 5")


def test_a_malformed_tile_file_names_file_line_and_field() -> None:
    lines = format_tiles(TILES).splitlines()
    header = sum(1 for line in lines if line.startswith("#"))
    lines[header + 4] = "4: red-sun 07 | red-star 57"
    with pytest.raises(TileFileError, match=r"my\.txt: line 8: field 'side B': symbol 'star'"):
        parse_tiles("\n".join(lines), "my.txt")
    lines = format_tiles(TILES).splitlines()
    lines[header + 2] = "7: red-sun 07 | red-sun 57"
    with pytest.raises(TileFileError, match=r"line 6: field 'id' must be 2"):
        parse_tiles("\n".join(lines), "my.txt")

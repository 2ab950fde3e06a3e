"""The tabletop kit: dice through the match's generator, decks, token supplies that never lose a token, and
boards from YAML files (moves, laps, branches, directions; bad files with file/line/field errors; text); message
catalogues for terminals that speak the room's language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mindtable.core.errors import IllegalAction
from mindtable.core.rng import Rng
from mindtable.kit.board import BoardError, load_board, parse_board, reachable, render_text
from mindtable.kit.deck import deck_view, discard, draw, draw_many, new_deck, peek, put_back
from mindtable.kit.dice import roll, roll_number
from mindtable.kit.tokens import (
    TokenError,
    can_take,
    check_conservation,
    count,
    give_back,
    new_supply,
    steal,
    take,
)
from mindtable.kit.words import Catalogue

DATA = Path(__file__).resolve().parent / "data"


def test_dice_are_seeded_by_the_match_generator() -> None:
    assert roll(Rng(5), 10) == roll(Rng(5), 10)
    assert roll(Rng(5), 10) != roll(Rng(6), 10)
    numbers = {roll_number(Rng(seed)) for seed in range(300)}
    assert all(111 <= n <= 666 and set(str(n)) <= set("123456") for n in numbers)
    assert len(numbers) > 100
    with pytest.raises(ValueError):
        roll(Rng(1), 0)


def test_a_deck_draws_discards_reshuffles_and_stays_json() -> None:
    rng = Rng(3)
    deck = new_deck(range(5), rng)
    assert sorted(deck["draw"]) == [0, 1, 2, 3, 4]
    top = peek(deck, 2)
    assert draw_many(deck, rng, 2) == top
    for card in top:
        discard(deck, card)
    assert deck_view(deck) == {"draw": 3, "discard": 2, "reshuffles": 0}
    draw_many(deck, rng, 3)
    again = draw(deck, rng)
    assert again in top and deck["reshuffles"] == 1
    put_back(deck, again, bottom=False)
    assert peek(deck) == [again]
    assert json.loads(json.dumps(deck)) == deck


def test_tokens_are_conserved_and_impossible_moves_change_nothing() -> None:
    tokens = new_supply({"green": 1, "blue": 2}, players=3)
    take(tokens, 0, "green")
    assert not can_take(tokens, "green")
    before = json.dumps(tokens)
    with pytest.raises(TokenError, match="no green token is left"):
        take(tokens, 1, "green")
    with pytest.raises(TokenError, match="seat 2 holds no blue"):
        steal(tokens, 1, 2, "blue")
    assert json.dumps(tokens) == before
    steal(tokens, 1, 0, "green")
    give_back(tokens, 1, "green")
    assert count(tokens, 1) == 0 and can_take(tokens, "green")
    check_conservation(tokens)
    tokens["supply"]["blue"] -= 1  # a token lost by a buggy rule
    with pytest.raises(TokenError, match="blue: 1 in the supply"):
        check_conservation(tokens)


def test_the_reference_board_moves_forward_and_counts_laps() -> None:
    board = load_board(DATA / "tiny_board.yaml")
    assert board.starts == ["start"] and board.topic_of("s1") == "history"
    assert [(m.square, m.laps) for m in reachable(board, "s6", 3)] == [("s1", 1)]
    assert [(m.square, m.laps) for m in reachable(board, "s6", 2)] == [("start", 1)]
    assert [m.path for m in reachable(board, "start", 3)] == [("s1", "s2", "s3")]


BRANCHED = """
id: branched
title: Branches
directions: both
colours: {a: "#111", b: "#222"}
tracks:
  - id: ring
    loop: true
    squares:
      - {id: home, colour: a, kind: start}
      - {id: r1, colour: b}
      - {id: r2, colour: a, branches: [{to: p1, path: finish}]}
      - {id: r3, colour: b}
  - id: run
    squares:
      - {id: p1, colour: b}
      - {id: goal, colour: a, kind: finish}
"""


def test_branches_open_only_on_their_path_and_a_finish_stops_the_move() -> None:
    board = parse_board(BRANCHED)
    assert sorted(m.square for m in reachable(board, "r1", 2)) == ["r3"]
    landings = reachable(board, "r1", 4, paths=("finish",))
    assert sorted((m.square, m.steps_left) for m in landings) == [("goal", 1), ("r1", 0)]


def test_a_direction_choice_gives_both_ways() -> None:
    board = parse_board(BRANCHED)
    ways = {(m.direction, m.square) for m in reachable(board, "home", 2, direction="both")}
    assert ways == {("forward", "r2"), ("backward", "r2")}
    back = reachable(board, "r1", 2, direction="backward")
    assert [(m.square, m.laps) for m in back] == [("r3", 1)]


def test_stop_at_ends_a_move_early_without_an_exact_count() -> None:
    board = parse_board(BRANCHED)
    [landing] = reachable(board, "r2", 5, stop_at={"home"})
    assert landing.square == "home" and landing.steps_left == 3


BAD_BOARDS = [
    ("colour", "tracks:\n  - squares:\n      - {id: a, colour: red, kind: start}\n", "id", 1, "missing"),
    (
        "unknown colour",
        "id: b\ncolours: {red: '#f00'}\ntracks:\n  - id: t\n    squares:\n      - {id: a, colour: red, kind: start}\n"
        "      - {id: b, colour: blue}\n",
        "tracks[0].squares[1].colour",
        7,
        "unknown colour 'blue'",
    ),
    (
        "next",
        "id: b\ntracks:\n  - id: t\n    squares:\n      - {id: a, colour: red, kind: start, next: [zz]}\n",
        "tracks[0].squares[0].next[0]",
        5,
        "no square 'zz'",
    ),
    (
        "duplicate",
        "id: b\ntracks:\n  - id: t\n    squares:\n      - {id: a, colour: red, kind: start}\n"
        "      - {id: a, colour: red}\n",
        "tracks[0].squares[1].id",
        6,
        "duplicate square id",
    ),
    (
        "unreachable",
        "id: b\ntracks:\n  - id: t\n    squares:\n      - {id: a, colour: red, kind: start}\n  - id: u\n    squares:\n"
        "      - {id: island, colour: red}\n",
        "tracks[1].squares[0].id",
        8,
        "cannot be reached",
    ),
    ("no start", "id: b\ntracks:\n  - id: t\n    squares:\n      - {id: a, colour: red}\n", "tracks", 2, "no start"),
    ("yaml", "id: b\ntracks: [\n", "", 3, "not valid YAML"),
]


@pytest.mark.parametrize(
    ("text", "field", "line", "message"), [b[1:] for b in BAD_BOARDS], ids=[b[0] for b in BAD_BOARDS]
)
def test_a_bad_board_file_is_reported_with_file_line_and_field(text: str, field: str, line: int, message: str) -> None:
    with pytest.raises(BoardError) as err:
        parse_board(text, "boards/mine.yaml")
    found = [(p.field, p.line, p.message) for p in err.value.problems]
    assert any(f == field and n == line and message in m for f, n, m in found), found
    assert str(err.value).startswith("boards/mine.yaml:")


def test_a_missing_board_file_is_reported() -> None:
    with pytest.raises(BoardError, match="cannot read"):
        load_board(DATA / "nope.yaml")


def test_the_text_rendering_is_drawn_from_the_file() -> None:
    board = load_board(DATA / "tiny_board.yaml")
    text = render_text(board, {"s2": ["A", "B"]})
    first, second = text.splitlines()[:2]
    assert first.startswith("[gS  ][r   ][b*AB][g   ]")
    assert second.startswith("[g   ][g*  ][b   ][r   ]")
    assert "pawns: AB on s2" in text


def test_boards_without_coordinates_are_laid_out_on_a_ring() -> None:
    board = parse_board(BRANCHED)
    coords = {(s.x, s.y) for s in board.squares.values()}
    assert len(coords) == len(board.squares)
    data = json.loads(json.dumps(board.to_dict()))
    assert {s["id"] for s in data["squares"]} == set(board.squares)


def test_a_catalogue_layers_folders_falls_back_to_english_and_says_refusals_from_codes(tmp_path: Path) -> None:
    own, page = tmp_path / "own", tmp_path / "page"
    own.mkdir()
    page.mkdir()
    (own / "et.json").write_text(json.dumps({"hello": "Tere, {name}!"}), encoding="utf-8")
    (page / "et.json").write_text(
        json.dumps({"hello": "not this one", "steps#one": "{n} samm", "steps#other": "{n} sammu"}), encoding="utf-8"
    )
    (page / "en.json").write_text(
        json.dumps({"only_en": "in English", "error.far": "{square} is {n} steps away; go to {allowed}"}),
        encoding="utf-8",
    )
    say = Catalogue.load([own, page], "et")
    assert say("hello", name="Mari") == "Tere, Mari!"  # the first folder wins
    assert (say("steps", n=1), say("steps", n=4)) == ("1 samm", "4 sammu")
    assert say("only_en") == "in English" and say.has("only_en") and not say.has("only_en", own=True)
    assert say("hello") == "Tere, {name}!" and say("nothing") == "nothing"
    refusal = IllegalAction("far", "English message", params={"square": "o3", "n": 2, "allowed": ["a", "b"]})
    assert say.refusal(refusal) == "o3 is 2 steps away; go to a, b"
    assert say.refusal(refusal, square="väli 3") == "väli 3 is 2 steps away; go to a, b"
    assert say.refusal(IllegalAction("unknown", "English message")) == "English message"

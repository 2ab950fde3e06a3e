"""The terminal: the scale drawn as text, and whole games played at the keyboard (hot-seat) and with bots."""

from __future__ import annotations

import io
from collections.abc import Iterator

from rich.console import Console

import mindtable
from mindtable.games.caida_libre.terminal import render, run_terminal
from tests.caida_libre.conftest import position


def test_the_scale_is_drawn_with_pawns_and_weapons() -> None:
    match = position(3, iq=[150, 120, 30])
    text = render(match.view(0), 0)
    lines = text.splitlines()
    assert any(line.startswith(" 150 | Prodigious Mind") and "[1]" in line for line in lines)
    assert any(line.startswith(" 120 | Sniper") and "[2]" in line for line in lines)
    assert any(line.startswith("  30 | Armageddon") and "[3]" in line for line in lines)
    assert any(line.startswith("   0 | Free Fall") for line in lines)


def keyboard(match: mindtable.Match) -> Iterator[str]:
    """A player who always takes the first menu entry and answers 'Mars'."""
    while True:
        yield "1"
        yield "Mars"


def test_a_whole_hot_seat_game_at_the_keyboard() -> None:
    match = mindtable.new_match("caida-libre", players=2, seed=3, options={"language": "en", "starter": 0})
    keys = keyboard(match)
    out = io.StringIO()
    clock = iter(range(0, 10**9, 50))
    run_terminal(
        match,
        [0, 1],
        {},
        read=lambda prompt="": next(keys),
        console=Console(file=out, width=100),
        clock=lambda: next(clock),
    )
    assert match.is_over
    assert "Chao, pescao!" in out.getvalue() and "Pass the keyboard" in out.getvalue()


def test_a_game_with_a_person_and_bots() -> None:
    """Spanish cards, an English screen: the screen follows the cards' language unless told otherwise."""
    match = mindtable.new_match("caida-libre", players=3, seed=4, options={"language": "es"})
    bots = {s: match.game.make_bot("knowing", seat=s, seed=4) for s in (1, 2)}
    keys = keyboard(match)
    out = io.StringIO()
    clock = iter(range(0, 10**9, 50))
    run_terminal(
        match,
        [0],
        bots,
        read=lambda prompt="": next(keys),
        console=Console(file=out, width=100),
        clock=lambda: next(clock),
        language="en",
    )
    assert match.is_over and "Winner" in out.getvalue()

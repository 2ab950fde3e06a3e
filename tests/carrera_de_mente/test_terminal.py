"""Carrera de Mente's own terminal: the track drawn as text (80 columns), the asker's card only on the asker's
screen, and whole games played from the numbered menu with scripted keys (hot-seat, and a person with a bot)."""

from __future__ import annotations

import copy
import io
import itertools
import re
from typing import Any

from rich.console import Console

import mindtable
from mindtable.cli.replay import screen_of
from mindtable.games.carrera_de_mente.terminal import MENU_SKIP, Screen, render_board, run_terminal, screen
from tests.carrera_de_mente.helpers import asked, position, roll_number
from tests.carrera_de_mente.player import play_from_the_menu

#: A square's label on the drawn track: its colour's letter, its number, its mark (``*`` star, ``»`` start).
LABEL = re.compile(r"([A-Z-])([ \d]\d)([*»]?)")
PEGS = re.compile(r"[\d+]+")


def plain(renderable: Any, width: int = 200) -> str:
    out = io.StringIO()
    Console(file=out, width=width, color_system=None).print(renderable)
    return out.getvalue()


def cells(text: str) -> dict[int, tuple[str, str, str]]:
    """Square number -> (colour letter, mark, pegs) read back from the drawn track: the pegs beside a label are
    that square's (the nearest label on their line); on a line without labels they are the square's above."""
    found: dict[int, tuple[str, str, str]] = {}
    labels: list[list[tuple[int, int, int]]] = []  # per line: (start, end, square)
    for line in text.splitlines():
        mine = []
        for m in LABEL.finditer(line):
            found[int(m.group(2))] = (m.group(1), m.group(3) or " ", "")
            mine.append((m.start(), m.end(), int(m.group(2))))
        labels.append(mine)
    for i, line in enumerate(text.splitlines()):
        for m in PEGS.finditer(blank_labels(line)):
            if labels[i]:
                _, square = min((max(start - m.end(), m.start() - end), n) for start, end, n in labels[i])
            else:
                square = next(n for start, _, n in labels[i - 1] if start == m.start() - 1)
            letter, mark, _ = found[square]
            found[square] = (letter, mark, m.group())
    return found


def blank_labels(line: str) -> str:
    """The line with each square's label written as ``#`` (what is left: the pegs and the spaces)."""
    return LABEL.sub(lambda m: "#" * len(m.group()), line)


def test_the_standard_track_is_a_ring_of_42_squares_within_80_columns() -> None:
    match = position(3, pegs=[4, 4, 17], turn=2)
    text = plain(render_board(match.view(0)))
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    drawn = cells(text)  # 12 squares across the top and bottom, 9 down each side
    assert sorted(drawn) == list(range(42))
    assert drawn[0] == ("-", "»", "")  # the grey start square with the arrows
    assert drawn[4] == ("P", " ", "12")  # from the start a 4 lands on pink (the book's example)
    assert drawn[9][0] == "S" and drawn[17][2] == "3"
    assert sorted(n for n, (_, mark, _) in drawn.items() if mark == "*") == [6, 12, 15, 23, 31, 39]
    # the pegs of a top-row square under its number; of a side square, inside the ring beside it
    assert lines[0].startswith("- 0»  G 1   S 2") and lines[1] == " " * 25 + "12"
    assert lines[7].endswith("   3  Y17") and lines[11].startswith("P32")
    assert "Sports" in text and "free topic" in text and "star" in text


def test_pawn_digits_never_touch_a_square_label_and_the_track_fits_80_columns() -> None:
    """Issue #28: at six columns a square the pegs ran into the next square's letter (``P 4 12B 5``). Now a
    space (or the line's end) always stands between a peg's digits and any label, on every square of both
    boards, in every language, with one to six players — and each peg still reads back on its square."""
    placements = []
    for board in ("standard", "small"):
        base = position(6, turn=1, options={"board": board}).view(0)
        size = len(base["board"]["squares"])
        for s in range(size):  # two, three and one peg on three squares in a row, from every square
            placements.append((base, [s, s, (s + 1) % size, (s + 1) % size, (s + 1) % size, (s + 2) % size]))
        placements += [(base, [(s + 7 * k) % size for k in range(6)]) for s in range(7)]
    for language in ("en", "es", "et"):
        track = Screen.of(language)
        for base, pegs in placements:
            board = base["board"]["id"]
            text = track.render_board({**base, "pegs": pegs}).plain
            lines = text.splitlines()
            assert max(len(line) for line in lines) <= 80, (board, pegs, language)
            for line in lines:
                spans = [m.span() for m in LABEL.finditer(line)]
                assert all(end < start for (_, end), (start, _) in itertools.pairwise(spans)), line
                masked = blank_labels(line)
                for m in PEGS.finditer(masked):
                    left, right = masked[m.start() - 1 : m.start()], masked[m.end() : m.end() + 1]
                    assert left in ("", " ") and right in ("", " "), (line, board, pegs, language)
            drawn = cells(text)
            for seat, square in enumerate(pegs):
                on = drawn[square][2]
                assert str(seat + 1) in on or on.endswith("+"), (seat, square, on, board, pegs, language)


def test_a_board_too_wide_for_the_screen_is_listed_square_by_square() -> None:
    view = copy.deepcopy(position(2, pegs=[3, 0]).view(0))
    for square in view["board"]["drawing"]["squares"]:
        square["x"] = float(int(square["id"][1:]))  # one long row: 42 squares across
    text = plain(render_board(view))
    assert max(len(line) for line in text.splitlines()) <= 80
    drawn = cells(text)
    assert sorted(drawn) == list(range(42)) and drawn[3][2] == "1" and drawn[0][2] == "2"
    assert "yellow" in text  # the colour named beside each number


def test_the_asker_card_is_on_the_asker_screen_only() -> None:
    match = position(3, turn=0, pegs=[1, 0, 0], arrive=True)
    roll_number(match)
    answer = asked(match).answer
    answerer, asker, other = (plain(screen(match.view(s), s)) for s in (0, 2, 1))
    assert asked(match).prompt in answerer and asked(match).prompt in other
    assert answer not in answerer and answer not in other and "Your card" not in answerer
    card = next(line for line in asker.splitlines() if "Your card (only you see it): " in line)
    assert card.endswith(answer)


def _menu(match: mindtable.Match, seat: int) -> list[dict[str, Any]]:
    return [a for a in match.legal_actions(seat) if a["type"] not in MENU_SKIP]


def test_a_person_plays_a_whole_game_against_a_bot_from_the_menu() -> None:
    """The scripted player (a steal, a lap prize, the bot overruled as asker) through the numbered menu."""
    match, planned, text = play_from_the_menu("en", "Answer: ")
    assert match.is_over and match.result is not None and match.result.winners == (0,)
    kinds = [s.kind for s in planned]
    assert "steal" in kinds and "lap_prize" in kinds and {"ask_confirm", "ask_overrule"} & set(kinds)
    assert re.search(r"Player 1 takes \w+ from Alan \(bot\)", text)
    assert "take " in text and "lap prize: " in text  # the menu lines of both choices
    assert "Game over (collected all six colours): the winner is Player 1" in text  # the reason in words, not its code
    assert "Player 1 has all six colours and wins!" in text


def test_two_people_share_the_keyboard_and_the_asker_decides() -> None:
    """Hot-seat: the keyboard passes to the asker, whose screen shows the card; the asker overrules wrong answers
    to right while the answering seat holds fewer than two colours (its peg moves on), then confirms them (the
    turn passes), until the turn limit ends the game."""
    match = mindtable.new_match(
        "carrera-de-mente", players=2, seed=5, options={"board": "small", "variant_short": True, "turn_limit": 4}
    )
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        if prompt == "":
            return ""  # Enter: the keyboard has passed
        if prompt == "Answer: ":
            return "no idea"
        assert prompt == "> ", prompt
        seat = match.to_act()[0]
        menu = [a["type"] for a in _menu(match, seat)]
        answering = match.state["turn"]["seat"]
        kind = "ask_overrule" if len(match.view(None)["prizes"][answering]) < 2 else "ask_confirm"
        for wanted in (kind, "ask_answer"):
            if wanted in menu:
                return str(menu.index(wanted) + 1)
        return "1"

    out = io.StringIO()
    run_terminal(match, [0, 1], {}, read=read, console=Console(file=out, width=80, color_system=None), language="en")
    text = out.getvalue()
    assert match.is_over and match.result is not None and match.result.reason == "turn_limit"
    assert "Pass the keyboard to Player 2" in text and "Your card (only you see it)" in text
    assert {a["seat"] for a in match.actions if a["type"] == "ask_answer"} == {0, 1}
    assert {a["seat"] for a in match.actions if a["type"] == "ask_overrule"} == {0, 1}
    assert "moves 5 to square" in text and "answered wrong: the turn passes" in text
    assert "Game over (the turn limit was reached)" in text


def test_a_bad_key_is_refused_and_q_quits() -> None:
    match = mindtable.new_match("carrera-de-mente", players=2, seed=1, options={"board": "small"})
    keys = iter(["9", "x", "q"])
    out = io.StringIO()
    run_terminal(match, [0, 1], {}, read=lambda prompt: next(keys), console=Console(file=out, width=80), language="en")
    assert out.getvalue().count("Type a number from 1 to 1 (q quits).") == 2
    assert match.actions == []


def test_replay_draws_each_step_with_the_play_screen() -> None:
    match = mindtable.new_match("carrera-de-mente", players=2, seed=3, options={"board": "small"})
    seat = match.to_act()[0]
    events = match.apply({"type": "roll", "seat": seat})
    draw = screen_of(match.game)(match, None, language="en")
    text = plain(draw(match, match.actions[-1], events), width=80)
    assert f"Player {seat + 1} rolls {match.state['move_die']}" in text and "Question dice" in text


def test_the_menu_rolls_the_question_number_in_one_item() -> None:
    """Issue #28: one menu item rolls the three dice (``roll_whole_number``); the screen then shows all three."""
    match = position(3, pegs=[4, 0, 0], arrive=True)
    view = match.view(0)
    menu = [a for a in match.legal_actions(0) if a["type"] not in MENU_SKIP]
    assert [a["type"] for a in menu] == ["roll_whole_number"]
    said = {language: Screen.of(language).describe(menu[0], view) for language in ("en", "es", "et")}
    assert said == {
        "en": "roll the question number (3 dice, one after the other)",
        "es": "tirar el número de la pregunta (3 dados, uno tras otro)",
        "et": "viska küsimuse number (3 täringut järjest)",
    }
    match.apply({"type": "roll_whole_number", "seat": 0})
    digits = " ".join(str(d) for d in match.state["context"]["digits"])
    assert f"Question dice: {digits}" in plain(screen(match.view(0), 0, "en"))

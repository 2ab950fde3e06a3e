"""Carrera de Mente's terminal in Spanish and Estonian: whole games driven through the numbered menu with scripted
keys (a virtual clock, fixed seeds), the lines a player reads said in the screen's language — prompts, menus,
events, refusals from their codes, the end — with no English left; the language follows the match's option when
none is given; the replay screen speaks the language too."""

from __future__ import annotations

import io
import re
from typing import Any

from rich.console import Console

import mindtable
from mindtable.cli.replay import screen_of
from mindtable.core.errors import IllegalAction
from mindtable.games.carrera_de_mente.terminal import MENU_SKIP, Screen, render_board, run_terminal, screen
from tests.carrera_de_mente.helpers import position
from tests.carrera_de_mente.player import play_from_the_menu

#: English words of the same screens that must not show in another language.
ENGLISH = (
    "Player 1",
    "Player 2",
    "your turn",
    "roll the die",
    "Question dice",
    "Move die",
    "Your card",
    "The judge suggests",
    "Game over",
    "Pass the keyboard",
    "free topic",
    "Type a number",
    "winner",
)


def _menu(match: mindtable.Match, seat: int) -> list[str]:
    return [a["type"] for a in match.legal_actions(seat) if a["type"] not in MENU_SKIP]


def _hot_seat(language: str | None, options: dict[str, Any], late: bool = False) -> tuple[str, list[str]]:
    """Two people at one keyboard on the small board, the asker overruling the answers to right for a while; the
    first answer is typed a minute late (``late``: the answer time is then over). The screen and the prompts."""
    match = mindtable.new_match(
        "carrera-de-mente",
        players=2,
        seed=5,
        options={"board": "small", "variant_short": True, "turn_limit": 4, **options},
    )
    prompts: list[str] = []
    now = [0]
    bad_keys = iter(["9"])

    def read(prompt: str) -> str:
        prompts.append(prompt)
        now[0] += 1000
        if prompt == "":
            return ""  # Enter: the keyboard has passed
        if prompt != "> ":  # the answer
            if late and now[0] < 60_000:
                now[0] += 60_000
            return "ni idea"
        if (key := next(bad_keys, None)) is not None:
            return key
        seat = match.to_act()[0]
        menu = _menu(match, seat)
        answering = match.state["turn"]["seat"]
        kind = "ask_overrule" if len(match.view(None)["prizes"][answering]) < 2 else "ask_confirm"
        for wanted in (kind, "ask_answer"):
            if wanted in menu:
                return str(menu.index(wanted) + 1)
        return "1"

    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None)
    run_terminal(match, [0, 1], {}, read=read, console=console, clock=lambda: now[0], language=language)
    assert match.is_over and match.result is not None and match.result.reason == "turn_limit"
    return out.getvalue(), prompts


def test_two_people_play_in_spanish_and_a_late_answer_is_refused_from_its_code() -> None:
    text, prompts = _hot_seat("es", {"answer_seconds": 30}, late=True)
    assert text.startswith("Carrera de Mente: 2 jugadores; juegan por turnos Jugador 1, Jugador 2. q: salir.")
    assert "── Jugador 1, te toca ──" in text and "turno 1 · juega Jugador 1 · pregunta Jugador 2" in text
    assert "  1 tirar el dado y avanzar" in text and "Dado de avance: " in text and "Dados de la pregunta: " in text
    assert "Escribe un número del 1 al 1 (q termina)." in text  # the bad key
    assert "Jugador 1 saca un " in text and "avanza 5 casillas hasta la casilla" in text
    assert "Ahora juega Jugador 2: pásale el teclado. Luego pulsa Enter (q termina)." in text
    assert "Tu tarjeta (solo la ves tú): " in text and "El juez sugiere: " in text
    assert "corregir al juez" in text and "confirmar lo que sugiere el juez" in text
    assert "el tiempo para responder se acabó a los " in text  # error.ask_time_up, the page's words
    assert "Jugador 2 respondió mal: pasa el turno" in text or "Jugador 1 respondió mal: pasa el turno" in text
    assert "Fin de la partida (se llegó al límite de turnos): " in text
    assert " - tema libre " in text.replace("  ", " ") and "Deportes" in text and "estrella" in text
    assert "Respuesta: " in prompts
    for english in ENGLISH:
        assert english not in text, english


def test_a_person_plays_a_whole_game_against_a_bot_in_estonian() -> None:
    """The scripted player (a steal, a lap prize, the bot overruled as asker) through the Estonian menu."""
    match, _, text = play_from_the_menu("et", "Vastus: ")
    assert match.is_over and match.result is not None and match.result.winners == (0,)
    assert text.startswith("Carrera de Mente: 2 mängijat; sina oled Mängija 1. q: välju.")
    assert "── Mängija 1, sinu kord ──" in text and "  1 viska täringut ja liigu" in text
    assert re.search(r"Mängija 1 võtab märgi \(\w+\), kelle käest: Alan \(bot\)", text)  # the steal, by name
    # the menu lines of both choices
    assert "kelle käest: Alan (bot)" in text and "võta märk (" in text and "ringi auhind: " in text
    assert "Liikumistäring: " in text and "Küsimuse täringud: " in text and "vaba teema" in text
    assert "Mängija 1 kogus kõik kuus värvi ja võidab!" in text
    assert "Mäng on läbi (kogus kõik kuus värvi): võitja on Mängija 1; värve: 6, " in text
    for english in (*ENGLISH, "take nothing", "takes a token", "lap prize", "answered wrong"):  # the screen's words
        assert english not in text, english


def test_the_screen_follows_the_match_language_option_when_none_is_given() -> None:
    spanish, _ = _hot_seat(None, {"language": "es"})
    assert "── Jugador 1, te toca ──" in spanish and "Fin de la partida" in spanish and "Game over" not in spanish
    english, _ = _hot_seat(None, {})  # the booklets' language defaults to English, and so does the screen
    assert "── Player 1, your turn ──" in english and "Game over (the turn limit was reached)" in english
    assert "Jugador" not in english


def test_the_track_and_the_screen_in_estonian_fit_80_columns() -> None:
    match = position(3, pegs=[4, 4, 17], turn=2, prizes={0: ["green", "pink"]})
    for language in ("en", "es", "et"):
        board = render_board(match.view(0), language).plain
        assert max(len(line) for line in board.splitlines()) <= 80, language
    out = io.StringIO()
    Console(file=out, width=200, color_system=None).print(screen(match.view(0), 0, "et"))
    lines = out.getvalue().splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert "Carrera de Mente · käik 1 · käib Mängija 3 · küsib Mängija 2 · täringu viskamine" in lines
    assert any(line.startswith("  Mängija 1 ruut  4  S") and line.endswith("(sina)") for line in lines)
    assert " S  Sport" in out.getvalue() and "Cambalache (segasumma)" in out.getvalue()


def test_refusals_name_seats_colours_and_booklets_in_the_language() -> None:
    match = position(2)
    game = match.game
    spanish, estonian = Screen.of("es"), Screen.of("et")
    steal = IllegalAction(
        "cm_steal_colour", "seat 1 holds no green token", params={"victim": 1, "colour": "green", "allowed": ["pink"]}
    )
    assert (
        spanish.refusal(steal, game.seat_params, game.label_params)
        == "Jugador 2 no tiene ninguna ficha de color verde; elige una de rosa"
    )
    assert estonian.refusal(steal, game.seat_params, game.label_params) == (
        "Mängija 2: sellist märki pole (roheline); vali üks: roosa"
    )
    booklet = IllegalAction("cm_not_a_booklet", "x", params={"topic": "sports", "allowed": ["arts", "cambalache"]})
    assert spanish.refusal(booklet, game.seat_params, game.label_params) == (
        "Deportes no es un cuadernillo; elige uno de Artes, Cambalache"
    )


def test_replay_speaks_spanish() -> None:
    match = mindtable.new_match("carrera-de-mente", players=2, seed=3, options={"board": "small", "language": "es"})
    seat = match.to_act()[0]
    events = match.apply({"type": "roll", "seat": seat})
    for draw in (screen_of(match.game)(match, None, language="es"), screen_of(match.game)(match, None)):
        out = io.StringIO()
        Console(file=out, width=80, color_system=None).print(draw(match, match.actions[-1], events))
        text = out.getvalue()
        assert f"• Jugador {seat + 1} saca un {match.state['move_die']}" in text and "Dados de la pregunta" in text
        assert "Question dice" not in text and "rolls" not in text

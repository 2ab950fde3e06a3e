"""The NeuroRace terminal in Spanish and Estonian: scripted games on a virtual clock, every line a player sees in
the chosen language (and no English left over), English by default, and the replay screen in Spanish."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import mindtable
from mindtable.cli.app import app
from mindtable.cli.play import language_argument
from mindtable.core.driver import play_out
from mindtable.games.neurorace.bots import SolverBot
from mindtable.games.neurorace.components import TILES
from mindtable.games.neurorace.deck import CARDS
from mindtable.games.neurorace.solver import solve
from mindtable.games.neurorace.tasks import format_task
from mindtable.games.neurorace.terminal import (
    TILE_WIDTH,
    colour_word,
    parse_command,
    place_text,
    replay_screen,
    resolve_tile,
    run_terminal,
    side_text,
    task_line,
    words,
)
from mindtable.kit.words import LANGUAGES
from tests.neurorace.keyboard import Keyboard, Plan


def play(match: mindtable.Match, plan: Plan, language: str | None, bots: dict | None = None) -> str:
    keys = Keyboard(plan)
    out = io.StringIO()
    run_terminal(
        match,
        [0],
        bots or {},
        console=Console(file=out, width=80),
        read_line=keys.read,
        clock=keys.clock,
        language=language,
    )
    text = out.getvalue()
    assert max(len(line) for line in text.splitlines()) <= 80
    return text


def solution_lines(match: mindtable.Match, language: str) -> list[str]:
    """The lines that lay a correct card, the colours typed in ``language`` (``t 42 rojo``); then stop."""
    say = words(language)
    state = match.state
    player = state["players"][0]
    layout = solve(CARDS[player["card"]].tasks[player["side"]], [TILES[t] for t, _ in state["centre"]])
    assert layout is not None
    lines = []
    for item, side in layout:
        tile, up = state["centre"][item]
        if up != side:
            shown = TILES[tile][up]
            lines.append(f"f {shown[2]} {colour_word(shown[1], say)}")
        lines += [f"t {TILES[tile][side][2]} {colour_word(TILES[tile][side][1], say)}", "p"]
    return [*lines, "stop"]


def solo_game(language: str, *, extra: tuple[str, ...] = ()) -> tuple[mindtable.Match, str]:
    """A SOLO game won at the keyboard: a typo, a take before the round, ready, then the solution."""
    match = mindtable.new_match("neurorace", players=1, seed=6, options={"last_level": 1})
    queue = ["zz", "t 5", "t 42 rosa", "s"]

    def plan(keys: Keyboard) -> str | None:
        if queue:
            return queue.pop(0)
        if match.view(0)["phase"] == "playing" and "stop" not in keys.typed:
            queue.extend([*extra, *solution_lines(match, language)])
            return queue.pop(0)
        return None

    return match, play(match, plan, language)


ENGLISH_SOLO = (
    "unknown command",
    "the round has not started",
    "GO! Round",
    "Legend:",
    "Game over",
    "waiting for",
    "you are ready",
    "is not a colour",
    "in hand",
    "round 1",
    " red ",
    " yel ",
    " any ",
)


def test_a_solo_game_in_spanish() -> None:
    match, text = solo_game("es", extra=("f",))
    assert match.result is not None and match.result.reason == "master"
    assert "comando desconocido «zz»: escribe h para ver los comandos" in text
    assert "la ronda no ha empezado: escribe s cuando estés listo" in text  # a refusal said from its code
    assert "«rosa» no es un color: rojo, amarillo, verde, azul, morado o todos" in text
    assert "no tienes ninguna ficha en la mano: para dar la vuelta a una ficha del centro" in text
    assert "Escribe s y pulsa Enter cuando estés listo." in text
    assert "esperando a que 1 jugador esté listo" in text
    assert "estás listo" in text and "todos listos: 3-2-1..." in text
    assert "Ronda 1: ¡START!" in text and "NeuroRace SOLO · ronda 1 · tiempo restante:" in text
    assert "tú · nivel 1 · completadas 0 · fallos 0" in text
    assert "Leyenda: ☀ sol ☾ luna ϟ rayo" in text and "s listo · t 42 tomar la ficha que muestra 42" in text
    assert "Ronda 1: dijiste stop a los" in text and "comprobación: correcto" in text
    assert "Fin de la partida (maestro) — gana: tú" in text
    assert re.search(r"[☀☾ϟ✱] (roj|ama|ver|azu|mor|tod) \d\d", text)  # the tiles name colours in Spanish
    for english in ENGLISH_SOLO:
        assert english not in text, english


def test_a_solo_game_in_estonian_with_the_colours_typed_in_estonian() -> None:
    match, text = solo_game("et")
    assert match.result is not None and match.result.reason == "master"
    assert "tundmatu käsk „zz“: käskude nägemiseks kirjuta h" in text
    assert "voor pole alanud: kirjuta s, kui oled valmis" in text
    assert "„rosa“ ei ole värv: punane, kollane, roheline, sinine, lilla või iga" in text
    assert "Kirjuta s ja vajuta Enter, kui oled valmis." in text
    assert "valmis pole veel 1 mängija" in text and "oled valmis" in text
    assert "1. voor: START!" in text and "NeuroRace SOLO · 1. voor · aega jäänud:" in text
    assert re.search(r"aega jäänud: \d+,\d s", text)  # a decimal comma
    assert "sina · tase 1 · läbitud 0 · kaotusi 0" in text
    assert "Tähised: ☀ päike ☾ kuu ϟ välk" in text
    assert "1. voor: ütlesid „Stopp!“" in text and "kontroll: õige" in text
    assert "Mäng on läbi (meister) — võitja: sina" in text
    assert re.search(r"[☀☾ϟ✱] (pun|kol|roh|sin|lil|iga) \d\d", text)
    for english in ENGLISH_SOLO:
        assert english not in text, english


def test_the_solo_timer_a_wrong_stop_and_quitting_in_estonian() -> None:
    match = mindtable.new_match("neurorace", players=1, seed=2, options={"solo_seconds": 20})
    queue = ["s"]

    def plan(keys: Keyboard) -> str | None:
        view = match.view(0)
        if queue:
            return queue.pop(0)
        if view["phase"] == "playing" and "stop" not in keys.typed:  # seven tiles as they come, then stop
            say = words("et")
            queue.extend(
                line
                for entry in view["centre"][:7]
                for line in (f"t {entry['up']['number']:02d} {colour_word(entry['up']['colour'], say)}", "p")
            )
            queue.extend(["b", "p", "x: s", "stop", "t 40", "q", "ei", "q", "j"])
            return queue.pop(0)
        return None

    text = play(match, plan, "et")
    check = match.state["last_stop"]
    assert check is not None and check["reason"] == "stop" and not check["correct"]
    assert "1. voor: ütlesid „Stopp!“" in text and ": vale." in text and "kontroll: vale" in text
    assert re.search(r"koht \d: (vaja: |\d\d [<>] \d\d ei kehti)", text)  # why, said from the problem's code
    assert "„x:“ ei ole koha number" in text
    assert "see voor on läbi: kirjuta s, kui oled järgmiseks vooruks valmis" in text
    assert "Kas lõpetad mängu? Kirjuta j, et lõpetada" in text and "Jätkame." in text
    assert text.rstrip().endswith("Head aega!")
    for english in ("said stop", "not correct", "check:", "Quit this game", "Going on.", "Bye.", "place 1"):
        assert english not in text, english


def test_a_refusal_with_a_seat_is_said_from_its_code_against_a_bot_in_spanish() -> None:
    match = mindtable.new_match("neurorace", players=2, seed=1, options={"mode": "universal", "last_level": 1})
    script = iter([None, "end", "end", None, "s", *[None] * 30, "q", "s"])
    text = play(match, lambda keys: next(script, "s"), "es", {1: SolverBot(seat=1, seed=1)})
    assert "ya aceptaste terminar la partida" in text  # error.already_voted, the seat said as "you"
    assert "NeuroRace UNIVERSAL · ronda 0 · esperando a que 2 jugadores estén listos" in text
    assert "tarjetas 0" in text and "Alan (bot) está listo" in text
    assert re.search(r"Alan \(bot\) (tomó|colocó en el hueco \d:) [☀☾ϟ✱]", text)
    assert "¿Salir de esta partida?" in text and text.rstrip().endswith("¡Hasta luego!")
    for english in ("already agreed", "is ready", " took ", "placed on place", "Bye."):
        assert english not in text, english


def test_without_a_language_the_screen_speaks_english() -> None:
    """NeuroRace has no language option: ``language=None`` is English, whatever the machine's locale."""
    match = mindtable.new_match("neurorace", players=1, seed=6, options={"last_level": 1})
    assert "language" not in match.options
    script = iter(["zz", "s", *[None] * 16, "q", "y"])
    text = play(match, lambda keys: next(script, "y"), None)
    assert "unknown command 'zz': type h for the commands" in text and "GO! Round 1" in text
    assert "Legend: ☀ sun" in text and "Quit this game?" in text and "Bye." in text
    assert "comando desconocido" not in text and "tundmatu käsk" not in text


def test_commands_and_tiles_in_every_language() -> None:
    es, et = words("es"), words("et")
    assert parse_command("t 42 roj", 0) == (0, {"type": "take", "number": 42, "colour": "red"})
    assert parse_command("t 7 punane", 0, et) == (0, {"type": "take", "number": 7, "colour": "red"})
    assert parse_command("f 3 todos", 0, es) == (0, {"type": "turn", "number": 3, "colour": "any"})
    assert parse_command("f 3 kõik", 0, et) == (0, {"type": "turn", "number": 3, "colour": "any"})
    with pytest.raises(ValueError, match="escribe el número de la ficha después de «t», por ejemplo «t 42»"):
        parse_command("t", 0, es)
    with pytest.raises(ValueError, match="„t“ järele kirjuta nupul olev arv"):
        parse_command("t 420", 0, et)
    view = {
        "centre": [
            {"spot": 4, "up": {"symbol": "sun", "colour": "red", "number": 42}},
            {"spot": 9, "up": {"symbol": "moon", "colour": "blue", "number": 42}},
        ]
    }
    with pytest.raises(ValueError, match="2 fichas muestran el 42: di cuál, t 42 azul o t 42 rojo"):
        resolve_tile(view, 42, None, es)
    with pytest.raises(ValueError, match="keskel pole ühtegi nuppu, mille pealmisel küljel on 13 \\(lilla\\)"):
        resolve_tile(view, 13, "purple", et)


@pytest.mark.parametrize("language", LANGUAGES)
def test_tiles_and_tasks_keep_their_columns_in_every_language(language: str) -> None:
    say = words(language)
    for colour in ("red", "yellow", "green", "blue", "purple", "any"):
        for symbol in ("sun", "moon", "lightning", "any"):
            assert side_text({"symbol": symbol, "colour": colour, "number": 7}, say).cell_len == TILE_WIDTH
    tasks = [task for card in CARDS.values() for task in card.tasks]
    assert all(place_text(place, say).cell_len <= TILE_WIDTH for task in tasks for place in task.places)
    assert max(task_line(format_task(task), say).cell_len for task in tasks) <= 80


def test_the_commands_pass_their_language_to_the_terminal_and_the_replay() -> None:
    assert language_argument(run_terminal, "et") == {"language": "et"}
    assert language_argument(replay_screen, "es") == {"language": "es"}


def test_the_replay_screen_in_spanish(tmp_path: Path) -> None:
    match = mindtable.new_match("neurorace", players=1, seed=2, options={"last_level": 1})
    play_out(match, {0: mindtable.get_game("neurorace").make_bot("solver", seat=0, seed=2, actions_per_second=4)})
    path = tmp_path / "solo.json"
    path.write_text(json.dumps(match.record()))
    result = CliRunner().invoke(
        app, ["replay", str(path), "--auto", "--delay", "0", "--language", "es"], terminal_width=80
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "NeuroRace SOLO · ronda 1" in out and "Ronda 1: ¡START!" in out
    assert "asiento 0 tomó" in out and "comprobación: correcto" in out
    assert "Fin de la partida (maestro) — gana: tú" in out
    for english in ("GO! Round", "round 1", "seat 0 took", "check: correct", "Game over"):
        assert english not in out, english
    english = replay_screen(match, 0)  # called from Python without a language: English
    draw = Console(file=io.StringIO(), width=80)
    draw.print(english(match, None, []))
    assert "NeuroRace SOLO · round" in draw.file.getvalue()

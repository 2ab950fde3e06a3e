"""The Mind's terminal in Spanish and Estonian: the real screen, driven by scripted keys on a virtual clock, says
every line in the language asked for (board, prompts, keys, events, refusals from their codes, the end, the
replay), and nothing of it in English; with no language it speaks English."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

import mindtable
from mindtable.cli.app import app
from mindtable.core.driver import play_out
from mindtable.core.match import Match
from mindtable.games.the_mind.bots import ProportionalBot
from mindtable.games.the_mind.terminal import (
    ScriptedKeys,
    TerminalSession,
    VirtualClock,
    run_session,
    run_terminal,
)

Build = Callable[..., Match]
runner = CliRunner()


def text_of(session: TerminalSession, now: int) -> str:
    console = Console(file=io.StringIO(), width=110, color_system=None)
    console.print(session.render(now))
    return console.file.getvalue()  # type: ignore[attr-defined]


def flat(text: str) -> str:
    """The screen's words with the box drawing and line wrapping gone (a message may wrap inside its panel)."""
    return " ".join(text.replace("│", " ").replace("╭", " ").replace("╰", " ").split())


def play_scripted(language: str | None, presses: list[tuple[int, str]], seed: int = 21) -> tuple[Match, str]:
    """A two-player game, the person at seat 0 against a bot, played through ``run_terminal``'s real loop."""
    match = mindtable.new_match("the-mind", players=2, seed=seed)
    clock = VirtualClock()
    out = io.StringIO()
    run_terminal(
        match,
        [0],
        {1: ProportionalBot(seat=1, seed=seed)},
        keys=ScriptedKeys(clock, presses),
        clock=clock,
        console=Console(file=out, width=110, color_system=None),
        language=language,
    )
    return match, flat(out.getvalue())


# English phrases of the same screens: none may be left in another language.
ENGLISH = (
    "Keys:",
    "Lives",
    "Stars",
    "Top card",
    "Set aside",
    "Discarded",
    "Messages",
    "Your hand",
    "Not now",
    "play your lowest",
    "propose star",
    "Level 1",
    "card each",
    "You left the game",
    "Quit this game",
    "players",
    "normal mode",
)


def assert_no_english(screen: str) -> None:
    leaked = [phrase for phrase in ENGLISH if phrase in screen]
    assert leaked == [], f"English left on the screen: {leaked}"


def test_spanish_game_in_the_real_loop_says_the_level_keys_a_refusal_and_quitting() -> None:
    # Enter before the hands are on the table (refused), r ready, then q and s (Spanish "sí") to quit.
    match, out = play_scripted("es", [(100, "\n"), (300, "r"), (90_000, "q"), (90_100, "s")])
    assert match.actions[0] == {"type": "ready", "seat": 0, "at": 300}
    assert all(a["type"] != "propose_star" for a in match.actions)  # the s answered "quit?", it proposed no star
    assert "The Mind · 2 jugadores · modo normal · la mesa nota los errores" in out
    assert "Vidas ♥ (1)" in out and "Estrellas ★ (1)" in out and "Nivel 1 de 12" in out
    assert "Nivel 1: 1 carta cada uno. Manos en la mesa: pulsa r cuando estés listo." in out
    assert "Ahora no: primero todos deben estar listos (manos en la mesa)" in out  # error.not_playing, es
    assert "Todos listos: ¡a jugar!" in out
    # The bot played its 75 while the person held 16: a life is lost, the 16 set aside, hands on the table.
    assert "Alan (bot) jugó el 75." in out
    assert "¡VIDA PERDIDA! Se jugó el 75 cuando aún había cartas más bajas en la mano. Vidas restantes: 1." in out
    assert "Apartadas: Tú: 16." in out and "Manos en la mesa: pulsa r cuando estés listo" in out
    assert "Teclas: espacio/Enter jugar la más baja · r listo · s proponer estrella · a aceptar · x rechazar" in out
    assert "Carta de arriba 75 jugadas: 75" in out and "Apartadas Tú: 16" in out and "Descartadas ninguna" in out
    assert "Jugador Cartas Listo" in out and "Tu mano 16 (en amarillo: apartadas, juégalas en orden)" in out
    assert "¿Salir de la partida? Pulsa s (o q otra vez) para salir; cualquier otra tecla para seguir." in out
    assert "Saliste de la partida antes de que terminara." in out
    assert_no_english(out)


def test_spanish_end_of_a_watched_bot_game() -> None:
    match = mindtable.new_match("the-mind", players=3, seed=4)
    session = TerminalSession(match, None, {s: ProportionalBot(seat=s, seed=4) for s in range(3)}, language="es")
    clock = VirtualClock()
    out = io.StringIO()

    def stop_when_over(now: int) -> None:
        if match.is_over:
            session.finished = True

    console = Console(file=out, width=110, color_system=None)
    run_session(session, ScriptedKeys(clock, [(10**9, "q")]), clock, console, frame_ms=60_000, on_frame=stop_when_over)
    assert match.result is not None
    screen, levels = flat(out.getvalue()), int(match.result.details["progress"])
    won = bool(match.result.winners)
    assert ("EL EQUIPO GANA" if won else "FIN DE LA PARTIDA") in screen
    ending = "ganó" if won else "perdió"
    assert f"El equipo {ending} tras completar {levels} nivel" in screen
    assert "Teclas: q o Enter: salir" in screen
    assert_no_english(screen)
    assert "The team" not in screen and "GAME OVER" not in screen and "level(s)" not in screen


def test_estonian_star_proposal_life_lost_and_refusal(build: Build) -> None:
    match = build([[20, 70], [50, 60]], stars=1, lives=2)
    session = TerminalSession(match, 0, {1: ProportionalBot(seat=1, seed=1, reaction_ms=300)}, language="et")
    session.press("s", now=1500)
    screen = flat(text_of(session, 1500))
    assert "Sa pakud tähe kasutamist: a – nõus, x – ei ole nõus" in screen
    assert "Sina pakkus tähe kasutamist: ootame teisi" in screen
    assert "Mängija Kaarte Valmis Ettepanek" in screen
    session.advance(1800)
    screen = flat(text_of(session, 1800))
    assert "Täht on kasutatud! Igaüks viskab ära oma madalaima kaardi: Sina 20, Alan (bot) 50." in screen
    assert "Ära visatud Sina: 20; Alan (bot): 50" in screen
    assert "Klahvid: tühik/Enter käi madalaim · r valmis · s paku tähte · a nõus · x ei ole nõus" in screen
    assert_no_english(screen)
    assert "Star used" not in screen and "You propose" not in screen

    lost = build([[90], [10, 95]], lives=3)
    session = TerminalSession(lost, 0, {1: ProportionalBot(seat=1, seed=1)}, language="et")
    session.press("\r", now=2000)
    session.press(" ", now=2100)  # refused: the hands go on the table first
    screen = flat(text_of(session, 2100))
    assert "ELU KAOTATUD! 90 käidi, kuigi kellelgi oli veel madalamaid kaarte. Elusid alles: 2." in screen
    assert "Kõrvale pandud: Alan (bot): 10." in screen
    assert "Praegu mitte: kõik peavad enne valmis olema (käed laual)" in screen  # error.not_playing, et
    assert "Käed lauale: vajuta r, kui oled valmis" in screen
    assert "Elud ♥ ♥ (2)" in screen and "Sinu kaardid" in screen
    assert_no_english(screen)
    assert "LIFE LOST" not in screen and "Lives left" not in screen


def test_estonian_game_in_the_real_loop_quits_on_j() -> None:
    _, out = play_scripted("et", [(300, "r"), (90_000, "q"), (90_100, "j")])
    assert "The Mind · 2 mängijat · tavamäng · laud märkab vead ise" in out
    assert "Tase 1: igaühel 1 kaart. Käed lauale: vajuta r, kui oled valmis." in out
    assert "Kõik on valmis: mängime!" in out
    assert "Kas lõpetad selle mängu? Vajuta j (või uuesti q), et lõpetada" in out
    assert "Sa lahkusid mängust enne selle lõppu." in out
    assert_no_english(out)


def test_no_language_speaks_english() -> None:
    """The Mind has no language option: with no language asked for, the screen speaks English."""
    match, out = play_scripted(None, [(300, "r"), (90_000, "q"), (90_100, "y")])
    assert "Level 1: 1 card each. Hands on the table: press r when ready." in out
    assert "Keys: space/enter play your lowest" in out and "Quit this game? Press y (or q again)" in out
    assert "You left the game before it ended." in out
    assert match.actions[0] == {"type": "ready", "seat": 0, "at": 300}
    assert "Teclas" not in out and "Klahvid" not in out and "Nivel" not in out


def test_the_replay_screen_speaks_spanish(tmp_path: Path) -> None:
    match = mindtable.new_match("the-mind", players=2, seed=4, options={"last_level": 2, "lives": 1})
    game = mindtable.get_game("the-mind")
    play_out(match, {seat: game.make_bot("random-timing", seat=seat, seed=4) for seat in range(2)})
    assert match.result is not None and match.result.reason == "lost"
    path = tmp_path / "lost.json"
    path.write_text(json.dumps(match.record()))
    result = runner.invoke(app, ["replay", str(path), "--auto", "--delay", "0", "--language", "es"], terminal_width=110)
    assert result.exit_code == 0, result.output
    out = flat(result.output)
    assert "Teclas: Enter/→ siguiente · ← atrás · q salir" in out
    assert "Vidas" in out and "Tu mano" in out and "Jugador 2" in out
    assert "FIN DE LA PARTIDA: la última vida se perdió en el nivel" in out
    assert "Keys:" not in out and "Your hand" not in out and "Player 2" not in out and "GAME OVER" not in out


def test_play_refuses_in_the_screen_language() -> None:
    """What the terminal cannot do is said in the language asked for (no interactive terminal here)."""
    result = runner.invoke(app, ["play", "the-mind", "--seed", "1", "--language", "et"], terminal_width=400)
    assert result.exit_code == 2
    assert "terminalimäng vajab interaktiivset terminali" in " ".join(result.output.split())
    result = runner.invoke(app, ["play", "the-mind", "--players", "3", "--humans", "2", "-l", "es"], terminal_width=400)
    assert result.exit_code == 2
    out = " ".join(result.output.split())
    assert "con un teclado solo se puede jugar un asiento: se pidieron 2 personas" in out
    assert "one keyboard" not in out

"""The terminal speaks English, Spanish and Estonian: every line a player sees comes from the word tables (the
game page's words for card types, weapons and outcomes), refusals are said from their codes, and what the
cards say stays in the cards' language."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator

import pytest
from rich.console import Console
from typer.testing import CliRunner

import mindtable
from mindtable.cli.app import app
from mindtable.core.match import Match
from mindtable.games.caida_libre.terminal import render, run_terminal
from tests.caida_libre.conftest import position


def keyboard(answer: str) -> Iterator[str]:
    """A player who always takes the first menu entry and answers ``answer``."""
    while True:
        yield "1"
        yield answer


def play(match: Match, humans: list[int], language: str | None, answer: str = "Marte", bots: bool = False) -> str:
    """A whole game at the keyboard on a virtual clock (50 ms a tick); everything the screen said."""
    keys = keyboard(answer)
    out = io.StringIO()
    clock = iter(range(0, 10**9, 50))
    players = {s: match.game.make_bot("knowing", seat=s, seed=4) for s in range(match.players) if s not in humans}
    run_terminal(
        match,
        humans,
        players if bots else {},
        read=lambda prompt="": next(keys),
        console=Console(file=out, width=200),
        clock=lambda: next(clock),
        language=language,
    )
    assert match.is_over
    return out.getvalue()


ENGLISH = (
    "your turn",
    "draw a card",
    "Pass the keyboard",
    "Winner",
    "Prodigious Mind",
    "Free Fall",
    "judge suggests",
    "answer (type it)",
    "cards in the draw pile",
    "Last card",
)


def test_a_hot_seat_game_in_spanish_follows_the_cards_language() -> None:
    """Spanish cards and no language given: the whole game is said in Spanish."""
    match = mindtable.new_match("caida-libre", players=2, seed=3, options={"language": "es", "starter": 0})
    pack = len(match.state["deck"]["draw"])
    out = play(match, [0, 1], None)
    assert "Caída Libre: 2 asientos; en este teclado: Jugador 1, Jugador 2. q para salir." in out
    assert "── Jugador 1, te toca ──" in out
    assert f"Caída Libre: Jugador 1 pregunta a Jugador 2 (fase: robar) · mazo 1 · {pack} tarjetas por robar" in out
    assert " 150 | Mente Prodigiosa   | [1] [2]" in out and "  60 | Mochila propulsora | " in out
    assert "CI: Jugador 1 150, Jugador 2 150" in out
    assert "  1 robar una tarjeta y leerla" in out
    assert "  1 responder (escribe la respuesta)" in out and "  2 pasar" in out
    assert "Ahora juega Jugador 2: pásale el teclado. Luego pulsa Enter (q termina)." in out
    assert "el juez sugiere: incorrecta" in out and "  1 confirmar la sugerencia del juez" in out
    assert "  • Tarjeta 1 (" in out and "para Jugador 2: fallo, -" in out
    assert "Última tarjeta (" in out
    assert "¡Chao, pescao! Caída Libre:" in out and "(fase: fin)" in out
    assert "Gana: Jugador " in out and "En Caída Libre: Jugador " in out
    for english in ENGLISH:
        assert english not in out, english


#: The order pack 1 was drawn in when this game was written (seed 4, 36 cards): the game's cards stay on top of
#: the draw pile however many cards the pack holds now.
PACK_1_ORDER = [
    "shootout-004",
    "double-016",
    "quote5-001",
    "shootout-005",
    "roulette-001",
    "double-011",
    "quote5-026",
    "shootout-002",
    "double-006",
    "quote5-011",
    "quote5-021",
    "fake_news-003",
    "more_or_less-004",
    "double-026",
    "roulette-021",
    "double-021",
    "more_or_less-005",
    "quote5-006",
    "shootout-003",
    "shootout-001",
    "shootout-006",
    "fake_news-001",
    "more_or_less-001",
    "roulette-026",
    "more_or_less-006",
    "fake_news-006",
    "fake_news-002",
    "fake_news-004",
    "roulette-006",
    "more_or_less-003",
    "fake_news-005",
    "more_or_less-002",
    "roulette-011",
    "roulette-016",
    "double-001",
    "quote5-016",
]


def with_draw_pile_on_top(match: Match, order: list[str]) -> Match:
    snapshot = match.snapshot()
    pile = snapshot["state"]["deck"]["draw"]
    snapshot["state"]["deck"]["draw"] = order + [card for card in pile if card not in order]
    return Match.from_snapshot(snapshot)


def test_a_game_with_bots_in_estonian_though_the_cards_are_english() -> None:
    match = mindtable.new_match("caida-libre", players=3, seed=4, options={"language": "en"})
    match = with_draw_pile_on_top(match, PACK_1_ORDER)
    left = len(match.state["deck"]["draw"]) - 1
    out = play(match, [0], "et", answer="Mars", bots=True)
    assert "Caída Libre: 3 kohta; klaviatuuri taga: Mängija 1. q lõpetab." in out
    assert "── Mängija 1, sinu kord ──" in out
    assert f"Caída Libre: Grace (bot) küsib, vastab Mängija 1 (etapp: küsimine) · pakk 1 · pakis {left} kaarti" in out
    assert " 150 | Geniaalne mõistus | " in out and "   0 | Vabalangus        | " in out
    assert "Kaart: Tulevahetus" in out and "  K: Democracy was born in Sparta" in out  # the card stays English
    assert "  1 vasta (kirjuta vastus)" in out and "  2 ei tea" in out
    assert "  • Kaart 1 (Tulevahetus), vastas Mängija 1: vale, -30. Mängija 1 150->120" in out
    assert "  • Mängija 1 vastab relvaruudult „Snaiper“." in out
    assert "Relv: Mängija 1 seisab relvaruudul „Snaiper“" in out and "  1 sihtmärk: Alan (bot) (IQ 140)" in out
    assert "  • Mängija 1 seisab relvaruudul „Snaiper“ ja valis sihtmärgi: Alan (bot)." in out
    assert "kohtunik pakub: õige (õige valik)" in out and "  1 kinnita kohtuniku pakkumine" in out
    assert "Chao, pescao!" in out and "Võitja: " in out
    for english in (*ENGLISH, "stands on the", "target", "answers from"):
        assert english not in out, english


def test_with_no_language_the_default_cards_give_a_spanish_screen_and_english_is_asked_for() -> None:
    """The cards' language defaults to Spanish, so the screen does; ``language="en"`` makes it English."""
    spanish = play(mindtable.new_match("caida-libre", players=2, seed=5), [0, 1], None)
    assert "te toca" in spanish and "your turn" not in spanish
    english = play(mindtable.new_match("caida-libre", players=2, seed=5), [0, 1], "en")
    assert "your turn" in english and "Pass the keyboard to Player " in english and "Winner" in english
    assert "te toca" not in english and "Gana" not in english


@pytest.mark.parametrize(
    ("language", "said", "english"),
    [
        ("es", "el tiempo para responder se acabó a los 15000 ms", "the time for the answer ran out"),
        ("et", "vastamise aeg sai otsa 15000 ms juures", "the time for the answer ran out"),
        ("en", "the time for the answer ran out at 15000 ms", "el tiempo"),
    ],
)
def test_an_answer_after_the_quote5_clock_is_refused_in_the_screen_language(
    language: str, said: str, english: str
) -> None:
    """Seat 1 types its Quote 5 answer for 20 s: the refusal is said from its code in the screen's language."""
    match = mindtable.new_match("caida-libre", players=2, seed=3, options={"language": "en", "starter": 0})
    match = with_draw_pile_on_top(match, ["quote5-026"])  # the alkali metals
    now = [0]
    keys = iter(["1", "", "1"])  # seat 0 draws; the hand-over; seat 1 chooses to answer

    def read(prompt: str = "") -> str:
        if prompt not in ("", "> "):  # the answer's prompt: the answerer types slowly
            now[0] += 20_000
            return "lithium"
        return next(keys, "q")

    out = io.StringIO()
    clock: Callable[[], int] = lambda: now[0]  # noqa: E731
    run_terminal(match, [0, 1], {}, read=read, console=Console(file=out, width=200), clock=clock, language=language)
    assert said in out.getvalue()
    assert english not in out.getvalue()


def test_an_answer_is_typed_straight_at_the_menu_prompt() -> None:
    """No "1" first: at the menu, the answerer types the answer itself; a menu number still picks the menu."""
    match = mindtable.new_match("caida-libre", players=2, seed=3, options={"language": "en", "starter": 0})
    match = with_draw_pile_on_top(match, ["quote5-026"])  # the alkali metals
    answer = "lithium, sodium, potassium, rubidium, caesium"
    keys = iter(["1", "", answer])  # seat 0 draws (menu 1); the hand-over; seat 1 types the answer at once
    out = io.StringIO()
    run_terminal(
        match, [0, 1], {}, read=lambda prompt="": next(keys, "q"), console=Console(file=out, width=200), clock=lambda: 0
    )
    answered = [a for a in match.actions if a["type"] == "ask_answer"]
    assert answered and answered[0]["seat"] == 1 and answered[0]["text"] == answer
    assert "(or type your answer straight away)" in out.getvalue()
    assert "Type a number" not in out.getvalue()


def test_the_scale_lines_up_in_every_language() -> None:
    match = position(3, iq=[150, 60, 30])
    for language, jetpack in (("en", "Jetpack"), ("es", "Mochila propulsora"), ("et", "Rakettseljakott")):
        lines = render(match.view(0), 0, language).splitlines()
        scale = [line for line in lines if line[:4].strip().isdigit() and " | " in line]
        assert len(scale) == 16
        assert len({line.index("|", 6) for line in scale}) == 1, language  # one column for every label
        assert any(line.startswith(f"  60 | {jetpack} ") and "[2]" in line for line in scale)
    spanish = render(match.view(0), 0, "es")
    assert "CI: Jugador 1 150, Jugador 2 60, Jugador 3 30" in spanish
    assert "Arma: Jugador 2 está en la mochila propulsora" in spanish  # the page's words, in a sentence


@pytest.mark.parametrize(
    ("args", "said", "not_said"),
    [
        ([], ("todos los asientos los juegan bots", "¡Chao, pescao!", "Gana: Jugador "), ("Winner", "bots play")),
        (["-o", "language=en"], ("bots play every seat", "Winner: Player "), ("Gana", "Jugador")),
        (["--language", "et"], ("kõigil kohtadel mängivad botid", "Võitja: Mängija "), ("Winner", "Gana")),
    ],
)
def test_mindtable_play_hands_the_screen_its_language(
    monkeypatch: pytest.MonkeyPatch, args: list[str], said: tuple[str, ...], not_said: tuple[str, ...]
) -> None:
    """``mindtable play caida-libre``: the flag, else the cards' language (Spanish by default)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    result = CliRunner().invoke(app, ["play", "caida-libre", "--humans", "0", "--seed", "2", *args])
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    for words in said:
        assert words in out, words
    for words in not_said:
        assert words not in out, words

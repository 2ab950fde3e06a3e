"""The terminal: whole games with a person at the keyboard and a bot, said in the room's language (Estonian by
default, English or Spanish), the board drawn as text, the answer never shown to the answering side; simulate."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

import mindtable
from mindtable.cli.app import app
from mindtable.core.errors import IllegalAction
from mindtable.core.match import Match
from mindtable.games.eesti_malumang import terminal
from mindtable.games.eesti_malumang.terminal import Screen, render_board, run_terminal, words
from mindtable.kit.names import bot_name
from mindtable.trivia.judge import ACCEPT_CODES, REJECT_CODES
from mindtable.trivia.quiz import current_question
from tests.eesti_malumang.helpers import ALL, position

#: What the old English-only terminal printed, and raw codes or JSON: none of it may reach an Estonian screen.
NOT_ESTONIAN = (
    "Seat ",
    "your move",
    "your turn",
    "Game over",
    "Roll the die",
    "type a number",
    "Type the number",
    "waiting for",
    "The judge",
    "ask_",
    "estonia_card",
    "outer_track",
    '{"',
)


class Keys:
    """The person at the keyboard, scripted: a wrong menu number first (to see the refusal), then the first
    action; an answer typed right every other question (else a wrong one). At each prompt it checks what the
    screen showed since the previous prompt: the answering side never sees the answer, the asker does."""

    def __init__(self, match: Match, out: io.StringIO, human: int) -> None:
        self.match, self.out, self.human = match, out, human
        self.seen = 0
        self.reads = 0
        self.answered = 0
        self.hidden_checks = 0
        self.card_checks = 0
        self.wrong_number_tried = False

    def shown(self) -> str:
        text = self.out.getvalue()
        chunk, self.seen = text[self.seen :], len(text)
        return chunk

    def __call__(self, prompt: str) -> str:
        self.reads += 1
        if self.reads > 5000:
            raise EOFError
        chunk = self.shown()
        ask = self.match.state["ask"]
        if ask is not None:
            q = current_question(ask)
            shown_answer = q.answer or q.display_answer  # what the card prints ("42,195 km", not "42.195 ± 0.005 km")
            answering = ask["phase"] == "answer" and self.human in ask["answerers"] and prompt == "> "
            telling = len(shown_answer) >= 3 and shown_answer.lower() not in q.prompt.lower()
            if answering and telling:
                assert shown_answer not in chunk, chunk  # the answering side never sees the answer
                self.hidden_checks += 1
            if ask["phase"] == "judge" and ask["reader"] == self.human and prompt == "> ":
                # the asker's card shows the answer (as printed: "42,195 km" for a number with a tolerance)
                assert shown_answer in chunk or (q.answer and q.answer in chunk), chunk
                self.card_checks += 1
        if prompt in ("Vastus: ", "Answer: ", "Respuesta: "):
            self.answered += 1
            q = current_question(ask)
            right = q.required_answer or q.answer or ", ".join(q.items)
            return right if self.answered % 2 else "qwertyuiop"
        if prompt == "> " and not self.wrong_number_tried:
            self.wrong_number_tried = True
            return "9"
        return "1"


def play(
    options: dict[str, Any],
    *,
    seed: int = 5,
    clock: Callable[[Match], int] | None = None,
    language: str | None = None,
) -> tuple[Match, str, Keys]:
    match = mindtable.new_match("eesti-malumang", players=2, seed=seed, options=options)
    out = io.StringIO()
    keys = Keys(match, out, human=0)
    run_terminal(
        match,
        [0],
        {1: match.game.make_bot("knowing", seat=1, seed=1)},
        read=keys,
        console=Console(file=out, width=200, color_system=None),
        clock=(lambda: clock(match)) if clock else (lambda: match.clock),
        language=language,
    )
    return match, out.getvalue(), keys


def test_a_whole_short_game_in_estonian_against_a_bot() -> None:
    # No language option: Estonian is the game's default.
    match, text, keys = play({"variant": "outer_track", "cards_per_colour": 1})
    assert match.options["language"] == "et"
    assert match.is_over and match.result is not None and match.result.reason == "cards_taken"
    for line in (
        "Eesti mälumäng: 2 mängijat. Klaviatuuri taga: Mängija 1.",
        "Pane oma nupp Eesti väljale.",
        "Pane nupp siia: Eesti väli (loodenurk)",
        "Sinu kord: viska täringut.",
        "Kirjuta number 1 kuni 4 (q lõpetab).",  # the wrong number, refused in Estonian
        "Alan (bot) esitab küsimusi.",
        "Sina vastad, Alan (bot) küsib.",
        "Vasta (kirjuta vastus)",
        "Sinu kaart (sina loed ette) — ",
        "Kohtunik pakub: ",
        "Kinnita kohtuniku otsus: ",
        "Mäng on läbi. Kõik Eesti kaardid on ära võetud.",
        "Eesti kaarte alles: Ajalugu ",
        "A Ajalugu · K Kultuur · L Loodusteadus · G Geograafia · S Sport · V Varia · E Eesti väli · F finiš",
    ):
        assert line in text, line
    assert re.search(r"Küsimus — \w+: „[^“]+“", text)  # the question, in Estonian quotes
    assert re.search(r"Mängija 1 vastas: „[^“]+“\.", text)
    assert re.search(r"Õige vastus: .+\. (Mängija 1|Alan \(bot\)): (Õige|Vale)", text)
    assert re.search(r"(Mängija 1|Alan \(bot\)) sai Eesti kaardi: \w+\.", text)
    assert re.search(r"(Mängija 1|Alan \(bot\)) võitis!|Viik: võitsid", text)
    assert "┃ Mängija" in text and "Eesti kaardid" in text and "Kaarte" in text  # the summary
    for english in NOT_ESTONIAN:
        assert english not in text, english
    assert keys.hidden_checks >= 2 and keys.card_checks >= 2


def test_the_same_game_in_english() -> None:
    # Two Estonia cards of each colour: a game long enough for the person at the keyboard to read out the card
    # at least twice whatever order the shuffled box comes in (with one of each, once cards em-201… joined the
    # box, the deal for seed 5 gave the bot a single question to be read).
    match, text, keys = play({"variant": "outer_track", "cards_per_colour": 2, "language": "en"})
    assert match.is_over
    for line in (
        "Eesti mälumäng: 2 players. At the keyboard: Player 1.",
        "Your turn: roll the die.",
        "Type a number from 1 to 4 (q quits).",
        "Alan (bot) asks the questions.",
        "You answer; Alan (bot) asks.",
        "Your card (you read it out) — ",
        "The judge suggests: ",
        "The game is over. Every Estonia card has been taken.",
        "H History · C Culture · N Natural science · G Geography · S Sport · V Varia · E Estonia space · F finish",
    ):
        assert line in text, line
    assert re.search(r"Question — \w+: “[^”]+”", text)
    # the terminal draws no highlight: it points at its menu, not at the page's highlighted squares
    assert "Choose where to move (the moves listed below)." in text and "highlighted" not in text
    for estonian in ("Sinu kord", "Kohtunik", "Mängija", "küsib", "vastab", "Vastus:"):
        assert estonian not in text, estonian
    assert keys.hidden_checks >= 2 and keys.card_checks >= 2


def test_the_same_game_in_spanish() -> None:
    """Estonian questions, a Spanish screen: the page's Spanish words for the game's terms."""
    match, text, keys = play({"variant": "outer_track", "cards_per_colour": 1}, language="es")
    assert match.is_over and match.options["language"] == "et"
    for line in (
        "Eesti mälumäng: 2 jugadores. En el teclado: Jugador 1.",
        "Escribe el número de una acción y pulsa Enter; q termina la partida.",
        "Coloca tu ficha en una casilla Estonia.",
        "Colocar la ficha aquí: casilla Estonia (esquina noroeste)",
        "Tu turno: tira el dado.",
        "Escribe un número del 1 al 4 (q termina).",  # the wrong number, refused in Spanish
        "Alan (bot) hace las preguntas.",
        "Tú respondes; Alan (bot) pregunta.",
        "Responder (escribe la respuesta)",
        "Tu tarjeta (la lees tú) — ",
        "El juez sugiere: ",
        "Confirmar el veredicto del juez: ",
        "La partida ha terminado. Se han repartido todas las cartas Estonia.",
        "Cartas Estonia que quedan: Historia ",
        "H Historia · C Cultura · N Ciencias naturales · G Geografía · D Deporte · V Varios · E casilla Estonia",
    ):
        assert line in text, line
    assert "E casilla Estonia · M meta" in text  # the legend: initials of the Spanish words
    assert re.search(r"Pregunta — \w+: «[^»]+»", text)  # the question, in Spanish quotes
    assert re.search(r"Jugador 1 respondió: «[^»]+»\.", text)
    assert re.search(r"La respuesta: .+\. (Jugador 1|Alan \(bot\)): (Correcta|Incorrecta)", text)
    assert re.search(r"(Jugador 1|Alan \(bot\)) ganó una carta Estonia: \w+\.", text)
    assert re.search(r"¡Gana (Jugador 1|Alan \(bot\))!|Empate: ganan", text)
    assert "┃ Jugador" in text and "Cartas Estonia" in text  # the summary
    for other in (*NOT_ESTONIAN, "Sinu kord", "Kohtunik", "Mängija", "Your turn", "The judge", "Player 1"):
        assert other not in text, other
    assert keys.hidden_checks >= 2 and keys.card_checks >= 2


def test_variant_2_on_a_running_clock_ends_when_the_time_is_up_even_while_a_bot_thinks() -> None:
    # Each look at the clock is a second later: the agreed minute runs out during play, often while the bot
    # "thinks" past it (its answer is stamped with its own time); the deadline comes first, nothing breaks.
    ticks = iter(range(0, 10_000_000, 1000))
    match, text, _ = play({"variant": "cards_only", "game_minutes": 1}, clock=lambda m: max(next(ticks), m.clock))
    assert match.is_over and match.result is not None and match.result.reason == "time"
    assert "Ainult kaardid: mängulauda pole." in text
    assert re.search(r"Mänguaeg: 1 min · aega jäänud 0:\d\d", text)
    assert (
        "Sinu kord: vali oma küsimuse kategooria." in text
    )  # the answering player names the category (no Estonia space)
    assert "Kokkulepitud mänguaeg sai täis." in text and "Mäng on läbi. Kokkulepitud mänguaeg sai täis." in text
    assert "jättis küsimuskaardi endale" in text
    assert "Eesti kaardid" not in text.split("Mäng on läbi.")[-1]  # no Estonia cards in variant 2's summary


def test_on_the_finish_square_the_person_on_the_left_chooses_the_category_in_estonian() -> None:
    match = position(2, pawns=["goal", "o3"], held=[ALL, {}], turn=0)
    out = io.StringIO()
    reads = iter(["2"])  # Kultuur, then the keyboard is gone

    def read_keys(prompt: str) -> str:
        try:
            return next(reads)
        except StopIteration:
            raise EOFError from None

    run_terminal(
        match,
        [1],
        {0: match.game.make_bot("knowing", seat=0, seed=1)},
        read=read_keys,
        console=Console(file=out, width=200, color_system=None),
        clock=lambda: match.clock,
    )
    text = out.getvalue()
    assert "Finiš: vali viimase küsimuse kategooria; vastab Ada (bot)." in text
    assert "nupp: finišiväli" in text and "kõik kuus värvi koos" in text
    # the left neighbour (Mängija 2) chose culture and reads the question, whichever card the seed draws and
    # whether or not the bot knows it
    assert "Mängija 2 valis viimase küsimuse kategooria: Kultuur (vastab Ada (bot))." in text
    assert "Küsimus: Kultuur — vastab Ada (bot), küsib Mängija 2." in text


def test_a_refusal_is_said_from_its_code_with_the_seat_as_the_players_name() -> None:
    match = position(2, pawns=["o3", "o5"], turn=0)
    with pytest.raises(IllegalAction) as err:
        match.apply({"type": "roll", "seat": 1})
    assert err.value.code == "em_wait" and err.value.params["seat"] == 0
    assert Screen(match, [0, 1]).refusal(err.value) == "praegu oodatakse: Mängija 1"
    assert Screen(match, [0, 1], "en").refusal(err.value) == "waiting for Player 1"
    assert Screen(match, [1], "en").refusal(err.value) == f"waiting for {bot_name(0)}"  # a bot by its name
    final = position(3, pawns=["goal", "o3", "o5"], held=[ALL, {}, {}], turn=0)
    with pytest.raises(IllegalAction) as err:
        final.apply({"type": "final_category", "seat": 2, "category": "sport"})
    assert err.value.code == "em_left_chooses" and err.value.params["seat"] == 1
    assert Screen(final, [0, 1, 2], "en").refusal(err.value) == (
        "on the finish square the player to the left, Player 2, chooses the category"
    )
    unknown = IllegalAction("no_such_code", "an English explanation", params={"seat": 0})
    assert Screen(match, [0]).refusal(unknown) == "an English explanation"  # no words: the English message


def test_the_last_question_says_who_answered_and_who_decided() -> None:
    match = position(3, turn=1, die=3)
    match.apply({"type": "roll", "seat": 1})
    match.apply({"type": "move", "seat": 1, "to": "o3"})
    match.apply({"type": "ask_answer", "seat": 1, "text": "qwertyuiop"})
    match.apply({"type": "ask_overrule", "seat": 2})  # the reader, on the answerer's left, overrules the judge
    screen = Screen(match, [0, 1, 2], "en")
    line = next(x for x in screen.render(match.view(0), 0) if x.startswith("Last question"))
    assert "Player 2: Right (decided by Player 3, overruled)." in line, line
    et = next(x for x in Screen(match, [0, 1, 2]).render(match.view(0), 0) if x.startswith("Viimane küsimus"))
    assert "Mängija 2: Õige (otsustas Mängija 3, muudetud)." in et, et


def test_a_verdict_the_asker_may_take_back_is_said_and_so_is_taking_it_back() -> None:
    match = position(3, turn=1, die=3, undo_seconds=4)
    match.apply({"type": "roll", "seat": 1, "at": 0})
    match.apply({"type": "move", "seat": 1, "to": "o3", "at": 0})
    match.apply({"type": "ask_answer", "seat": 1, "text": "qwertyuiop", "at": 1000})
    screen, view = Screen(match, [0, 1, 2], "en"), match.view(0)
    pending = match.apply({"type": "ask_confirm", "seat": 2, "at": 2000})  # the reader keeps the judge's "wrong"
    said = [screen.event(e.to_dict(), view, 1) for e in pending]
    assert any(x and "Player 2: Wrong" in x and "take it back for a few seconds" in x for x in said), said
    undone = match.apply({"type": "ask_undo", "seat": 2, "at": 3000})
    assert [screen.event(e.to_dict(), view, 1) for e in undone] == ["Player 3 took the verdict back and decides again."]
    et = Screen(match, [0, 1, 2]).event(undone[0].to_dict(), view, 1)
    assert et == "Mängija 3 võttis otsuse tagasi ja otsustab uuesti."


def test_the_board_as_text_shows_the_pieces_by_player_number() -> None:
    match = mindtable.new_match("eesti-malumang", players=2, seed=5)
    lines = render_board(match.view(0)["board"], ["nw", "nw"]).splitlines()
    assert lines[0].startswith("[E12 ]") and len(lines) == 11
    assert render_board(match.view(0)["board"], [None, "o1"], "en").splitlines()[0].startswith("[E   ][H2  ]")


# --- the catalogue ------------------------------------------------------------------------------------------------


def _terminal_table(language: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((terminal.HERE / "i18n" / f"{language}.json").read_text(encoding="utf-8"))
    return data


def test_the_terminal_words_exist_in_both_languages_for_every_key_the_code_says() -> None:
    et, en = _terminal_table("et"), _terminal_table("en")
    base = {k.split("#")[0] for k in et}
    assert base == {k.split("#")[0] for k in en}
    source = Path(terminal.__file__).read_text(encoding="utf-8")
    literal = set(re.findall(r'say\(\s*"([\w.]+)"', source)) | set(re.findall(r"say\('([\w.]+)'", source))
    assert "term.welcome" in literal and "quiz.suggestion" in literal
    for language in ("et", "en", "es"):
        say = words(language)
        missing = [k for k in sorted(literal) if not say.has(k, own=True)]
        assert missing == [], f"{language}: no words for {missing}"
        judge = [c for c in (*ACCEPT_CODES, *REJECT_CODES) if not say.has(f"judge.{c}", own=True)]
        assert judge == [], f"{language}: no words for the judge's {judge}"


def test_every_event_of_the_game_has_words_or_is_shown_by_the_screen() -> None:
    root = Path(mindtable.__file__).parent
    sources = [root / "games" / "eesti_malumang" / "rules.py", root / "trivia" / "quiz.py"]
    kinds = {k for path in sources for k in re.findall(r'Event\(\s*"(\w+)"', path.read_text(encoding="utf-8"))}
    assert {"estonia_card", "ask_decided", "first_player"} <= kinds
    unsaid = [
        k
        for k in sorted(kinds)
        if k not in terminal.SILENT_EVENTS and k != "ask_decided" and not words("et").has(f"term.event.{k}", own=True)
    ]
    # the quiz's table votes and chosen questions never happen in this game (no vote, one question per card)
    assert set(unsaid) <= {"ask_vote_called", "ask_voted", "ask_chosen", "ask_options"}, unsaid


def test_the_quiz_words_are_the_pages_words() -> None:
    """The terminal says the judge's reasons and the quiz's verdicts exactly as the game's page does: from the
    site's one table (``web/static/i18n``) under the page's own (``games/eesti_malumang/web/i18n``, which names
    this game's categories), not a copy of its own that could drift."""
    from mindtable.web import STATIC_DIR

    page_tables = Path(terminal.__file__).parent / "web" / "i18n"
    for language in ("et", "en", "es"):
        assert not [k for k in _terminal_table(language) if k.startswith(("judge.", "quiz."))]
        site = json.loads((STATIC_DIR / "i18n" / f"{language}.json").read_text(encoding="utf-8"))
        site |= json.loads((page_tables / f"{language}.json").read_text(encoding="utf-8"))
        shared = {k: v for k, v in site.items() if k.startswith(("judge.", "quiz.")) and "{" not in v}
        assert len(shared) > 40
        assert {k: words(language)(k) for k in shared} == shared


def test_simulate_writes_json_and_a_plot(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        [
            "simulate",
            "eesti-malumang",
            "-n",
            "6",
            "-p",
            "3",
            "-w",
            "1",
            "--json",
            str(tmp_path / "s.json"),
            "--plot",
            str(tmp_path / "s.png"),
            "-o",
            "variant=outer_track",
        ],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "s.json").read_text())
    assert summary["game"] == "eesti-malumang" and summary["games"] == 6
    assert (tmp_path / "s.png").stat().st_size > 0


@pytest.mark.parametrize("language", ["et", "en", "es"])
def test_the_asker_sees_the_items_of_a_list_question_on_the_card(language: str) -> None:
    """A list question's card holds items, not one answer: the asker reads them out (it once said "None")."""
    match = mindtable.new_match("eesti-malumang", players=2, seed=1)
    question = {"index": 0, "prompt": "Name the two countries on Lake Geneva's shores.", "count": 2, "kind": "list"}
    card = {"questions": [{"kind": "list", "prompt": question["prompt"], "items": ["Switzerland", "France"]}]}
    ask = {"question": question, "role": "reader", "card": card, "deadline": None, "given": None, "phase": "answer"}
    view = {"ask": ask, "asking": {"seat": 1, "reader": 0, "category": "geography"}, "teams": None}
    lines = Screen(match, [0], language).question(view, 0)
    assert any("Switzerland; France" in line for line in lines), lines
    assert not any("None" in line for line in lines)

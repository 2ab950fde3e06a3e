"""What the quiz games' pages say, in English, Spanish and Estonian, checked on views made by the engines: each
page module is mounted alone (as the shell mounts it, with the page's own strings) on positions built through
the rules, so every seat reads its own outcome, the recaps name who decided, and every game-over says who won
or between whom the tie is."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from mindtable.core.match import Match

pytestmark = pytest.mark.browser
NAMES = ["Ana", "Beto", "Cai", "Dora"]

#: Mount a game's page module on `messages` (state messages) for `seat` in `language`; the page's text, and the
#: game-over summary's when a result is given.
MOUNT = """async ({ module, language, seat, messages, result, names }) => {
  localStorage.setItem("mindtable:lang", language);
  const i18n = await import("/js/i18n.js");
  await i18n.initI18n();
  const t = i18n.makeT(await i18n.loadGameStrings(module));
  const game = await import(`/games/${module}/index.js`);
  const root = document.createElement("section");
  root.id = "game";
  document.body.append(root);
  const ctx = { code: "TESTER", seat, spectator: seat === null, lang: language, t, replay: false,
    send: () => Promise.resolve(), seats: () => [], seatName: (s) => names[s] ?? `#${s + 1}`,
    notify() {}, announce() {}, sound() {}, shortcuts: () => false, online: () => true };
  const table = game.mount(root, ctx);
  for (const message of messages) table.update(message);
  const out = { text: root.innerText };
  if (result && table.summary) {
    const node = table.summary(result, { view: messages[messages.length - 1].view });
    document.body.append(node);
    out.summary = node.innerText;
    node.remove();
  }
  table.destroy?.();
  root.remove();
  return out;
}"""

#: The shell's game-over words (js/games.js overWords) for `seat` in `language`.
OVER = """async ({ language, result, seat, cooperative, here, names }) => {
  localStorage.setItem("mindtable:lang", language);
  const i18n = await import("/js/i18n.js");
  await i18n.initI18n();
  const { overWords } = await import("/js/games.js");
  const words = overWords(result, { seat, here, cooperative, t: i18n.t, gameT: i18n.makeT({}), language,
    nameOf: (s) => names[s] });
  return { headline: words.headline, winners: words.winners, reason: words.reason };
}"""


@pytest.fixture(scope="module")
def page(browser: Any, server_url: str) -> Iterator[Any]:
    """One page of the site, on which the modules are mounted alone."""
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server_url}/index.html")
    yield page
    context.close()
    assert errors == []


def state_message(match: Match, seat: int | None) -> dict[str, Any]:
    return {
        "kind": "state",
        "view": match.view(seat),
        "legal": match.legal_actions(seat) if seat is not None else [],
        "clock": match.clock,
        "status": "over" if match.is_over else "playing",
    }


def shown(
    page: Any, module: str, match: Match, seat: int | None, language: str, *, summary: bool = False
) -> dict[str, str]:
    result = match.result
    return page.evaluate(
        MOUNT,
        {
            "module": module,
            "language": language,
            "seat": seat,
            "messages": [state_message(match, seat)],
            "result": result.to_dict() if summary and result else None,
            "names": NAMES,
        },
    )


def over(match: Match, **edits: Any) -> Match:
    """The match with its state edited and the game over."""
    snapshot = match.snapshot()
    snapshot["state"].update(edits)
    return Match.from_snapshot(snapshot)


# --- 1. Every game-over says who won, or that it is a tie and between whom -------------------------------------


@pytest.mark.parametrize(
    ("language", "tied", "lost", "winner", "tie"),
    [
        (
            "en",
            "A tie! You share the win with Beto and Cai.",
            "You lost.",
            "Ana won.",
            "A tie between Ana, Beto, and Cai.",
        ),
        (
            "es",
            "¡Empate! Compartes la victoria con Beto y Cai.",
            "Derrota.",
            "Ganó Ana.",
            "Empate entre Ana, Beto y Cai.",
        ),
        (
            "et",
            "Viik! Jagad võitu: Beto ja Cai.",
            "Sa kaotasid.",
            "Võitis Ana.",
            "Viik: võitu jagavad Ana, Beto ja Cai.",
        ),
    ],
)
def test_the_game_over_headline_says_who_won_or_between_whom_the_tie_is(
    page: Any, language: str, tied: str, lost: str, winner: str, tie: str
) -> None:
    three = {"winners": [0, 1, 2], "scores": [2, 2, 2, 1], "reason": "cards_out", "details": {}}
    one = {"winners": [0], "scores": [150, 0, 40], "reason": "free_fall", "details": {}}
    say = lambda result, seat, **kw: page.evaluate(  # noqa: E731
        OVER,
        {
            "language": language,
            "result": result,
            "seat": seat,
            "cooperative": False,
            "here": False,
            "names": NAMES,
            **kw,
        },
    )
    assert {k: v for k, v in say(three, 0).items() if k != "reason"} == {"headline": tied, "winners": tie}
    assert say(three, 3)["winners"] == tie
    assert {k: v for k, v in say(one, 1).items() if k != "reason"} == {"headline": lost, "winners": winner}
    assert say(one, None)["winners"] == winner
    assert say(one, 0, here=True)["winners"] == winner
    assert (
        say({"winners": [0, 1], "scores": [], "reason": "won", "details": {}}, 0, cooperative=True)["winners"] is None
    )


def _eesti_three_way_tie() -> Match:
    from tests.eesti_malumang.helpers import position

    match = position(3, held=[{"history": 1}, {"culture": 1}, {"science": 1}])
    return over(match, phase="over", ended="cards_out")


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "A tie: Ana, Beto, and Cai share the win with 1 card each."),
        ("es", "Empate: Ana, Beto y Cai comparten la victoria con 1 carta cada uno."),
        ("et", "Viik: võitu jagavad Ana, Beto ja Cai, kõigil 1 kaart."),
    ],
)
def test_eesti_a_three_way_tie_is_called_a_tie_between_the_three(page: Any, language: str, words: str) -> None:
    match = _eesti_three_way_tie()
    assert match.result.winners == (0, 1, 2)
    assert words in shown(page, "eesti-malumang", match, 0, language, summary=True)["summary"]


@pytest.mark.parametrize(
    ("language", "six", "tie"),
    [
        ("en", "Ana wins with all six colours!", "A tie: Ana and Beto share the win with 1 colour each."),
        ("es", "¡Ana gana con los seis colores!", "Empate: Ana y Beto comparten la victoria con 1 color cada uno."),
        ("et", "Ana võidab kõigi kuue värviga!", "Viik: võitu jagavad Ana ja Beto, kõigil 1 värv."),
    ],
)
def test_carrera_the_summary_names_the_winner_or_the_tie(page: Any, language: str, six: str, tie: str) -> None:
    from tests.carrera_de_mente.helpers import position

    colours = ["green", "skyblue", "yellow", "pink", "brown", "orange"]
    won = over(position(players=2, prizes={0: colours}), phase="over", winner=0)
    assert six in shown(page, "carrera-de-mente", won, 1, language, summary=True)["summary"]
    tied = over(position(players=2, prizes={0: ["green"], 1: ["pink"]}), phase="over")
    assert tied.result.winners == (0, 1)
    assert tie in shown(page, "carrera-de-mente", tied, None, language, summary=True)["summary"]


def caida(
    players: int = 3, *, iq: list[int] | None = None, asker: int = 0, card: str | None = None, **options: Any
) -> Match:
    """A Caída Libre match where ``asker`` is about to draw ``card`` for the player on their left, the pawns at
    ``iq`` (tests/caida_libre/conftest.py builds it)."""
    from tests.caida_libre.conftest import position as caida_position

    return caida_position(players, iq=iq, asker=asker, card=card, **options)


@pytest.mark.parametrize(
    ("language", "tie"),
    [
        ("en", "A tie at IQ 60: Ana and Cai share the win"),
        ("es", "Empate con CI 60: Ana y Cai (tú) comparten la victoria"),
        ("et", "Viik IQ-ga 60: võitu jagavad Ana ja Cai (sina)"),
    ],
)
def test_caida_a_tie_at_the_top_is_called_a_tie(page: Any, language: str, tie: str) -> None:
    match = over(caida(iq=[60, 0, 60]), phase="over", fallen=[1])
    assert match.result.winners == (0, 2)
    seat = None if language == "en" else 2
    assert tie in shown(page, "caida-libre", match, seat, language)["text"]


# --- 2. Carrera's recap of the last question: who answered, the question, the answer given, who decided ---------


@pytest.mark.parametrize(
    ("language", "answered", "given", "by", "by_you"),
    [
        ("en", "Ana answered", "Answer given: zzzz qqqq", "decided by Beto", "you decided"),
        ("es", "Respondió Ana", "Respuesta dada: zzzz qqqq", "decidió Beto", "decidiste tú"),
        ("et", "Vastas Ana", "Antud vastus: zzzz qqqq", "otsustas Beto", "otsustasid sina"),
    ],
)
def test_carrera_the_last_question_recap_names_the_asker_as_the_one_who_decided(
    page: Any, language: str, answered: str, given: str, by: str, by_you: str
) -> None:
    """Beto (seat 1) asks and confirms the judge: everyone reads that he decided, he reads that he did."""
    from tests.carrera_de_mente.helpers import answer_wrong, asked, position, roll_number

    match = position(players=2, pegs=[3, 20], arrive=True)
    if match.state["phase"] == "topic":
        match.apply({"type": "topic", "seat": 0, "topic": match.legal_actions(0)[0]["topic"]})
    roll_number(match)
    prompt = asked(match).prompt
    assert match.state["ask"]["reader"] == 1
    answer_wrong(match)
    last = match.view(0)["last"]
    assert last["by"] == "reader" and last["seat"] == 0 and last["asker"] == 1
    for seat in (0, 1, None):
        text = shown(page, "carrera-de-mente", match, seat, language)["text"]
        recap = text[text.index({"en": "Last question", "es": "Última pregunta", "et": "Viimane küsimus"}[language]) :]
        # the table's history of questions follows the recap: it says the same (tests/web/test_quiz_history_browser.py)
        heading = {"en": "Questions so far", "es": "Preguntas hasta ahora", "et": "Seni küsitud küsimused"}[language]
        cut = recap.lower().index(heading.lower())
        recap, history = recap[:cut], recap[cut:]
        # the recap ends with the card's answer; the players and the board may follow it on the page
        the_answer = {"en": "The answer: ", "es": "La respuesta: ", "et": "Vastus: "}[language]
        if the_answer in recap:
            recap = recap[: recap.index("\n", recap.index(the_answer))]
        assert answered in recap and prompt in recap and given in recap, recap
        assert (by_you if seat == 1 else by) in recap and "Ana" not in recap.split(given)[1], recap
        you = {"en": "You answered", "es": "Respondiste tú", "et": "Vastasid sina"}[language]
        assert (you if seat == 0 else answered) in history and prompt in history, history
        assert (by_you if seat == 1 else by) in history, history


# --- 3. Caída: each seat reads its own outcome; "you" to the one answering; the starter as a seat from 1 -------


@pytest.mark.parametrize(
    ("language", "holder", "victim", "other"),
    [
        ("en", "+10 for you, -30 for the victim", "+10 for Beto, -30 for you", "+10 for Beto, -30 for Cai"),
        ("es", "+10 para ti, -30 para la víctima", "+10 para Beto, -30 para ti", "+10 para Beto, -30 para Cai"),
        ("et", "sulle +10, ohvrile -30", "Beto +10, sina -30", "Beto +10, Cai -30"),
    ],
)
def test_caida_the_sniper_says_to_each_seat_what_it_means_for_them(
    page: Any, language: str, holder: str, victim: str, other: str
) -> None:
    match = caida(4, iq=[150, 120, 150, 150], asker=0)  # Beto (seat 1) answers from the Sniper
    assert match.state["weapon"] == {"kind": "sniper", "seat": 1, "target": None}
    match.apply({"type": "target", "seat": 1, "target": 2, "at": match.clock + 100})
    help_of = {seat: shown(page, "caida-libre", match, seat, language)["text"] for seat in (0, 1, 2, 3, None)}
    assert holder in help_of[1]
    assert victim in help_of[2] and holder not in help_of[2], help_of[2]
    for seat in (0, 3, None):
        assert other in help_of[seat] and holder not in help_of[seat], help_of[seat]


@pytest.mark.parametrize(
    ("language", "about_you", "you_answer"),
    [
        ("en", "Beto (you) is answering", "You answer from the"),
        ("es", "Beto (tú) está respondiendo", "Respondes desde"),
        ("et", "Beto (sina) vastab", "Sina vastad relvaruudult"),
    ],
)
def test_caida_the_answering_seat_is_told_about_itself_as_you(
    page: Any, language: str, about_you: str, you_answer: str
) -> None:
    match = caida(3, iq=[150, 80, 150], asker=0, card="double-005")  # Beto on the Dynamite, a double question
    match.apply({"type": "draw", "seat": 0, "at": match.clock + 100})
    assert match.state["ask"]["phase"] == "choose"
    choosing = shown(page, "caida-libre", match, 1, language)["text"]
    assert about_you not in choosing and you_answer in choosing, choosing
    others = shown(page, "caida-libre", match, 2, language)["text"]
    assert about_you.replace({"en": " (you)", "es": " (tú)", "et": " (sina)"}[language], "") in others
    choice = next(a for a in match.legal_actions(1) if a["type"] == "ask_choose")
    match.apply({**choice, "seat": 1, "at": match.clock + 100})
    assert match.state["ask"]["phase"] == "answer"
    answering = shown(page, "caida-libre", match, 1, language)["text"]
    assert about_you not in answering, answering


@pytest.mark.parametrize(
    ("language", "random", "first"),
    [("en", "at random", "seat 1"), ("es", "al azar", "asiento 1"), ("et", "juhuslikult", "1. koht")],
)
def test_caida_the_lobby_offers_the_starter_as_a_seat_from_one_or_at_random(
    browser: Any, server_url: str, language: str, random: str, first: str
) -> None:
    context = browser.new_context(locale=language)
    lobby = context.new_page()
    lobby.add_init_script(f"localStorage.setItem('mindtable:lang', '{language}')")
    lobby.goto(f"{server_url}/index.html")
    lobby.wait_for_selector('#game-select option[value="caida-libre"]', state="attached")
    lobby.select_option("#game-select", "caida-libre")
    lobby.wait_for_selector("select#opt-starter")
    lobby.select_option("#players-select", "3")
    offered = lobby.eval_on_selector_all(
        "#opt-starter option", "els => els.filter((o) => !o.disabled).map((o) => [o.value, o.textContent])"
    )
    assert offered[0] == ["-1", random] and offered[1] == ["0", first], offered
    assert [value for value, _ in offered] == ["-1", "0", "1", "2"]
    assert lobby.eval_on_selector("#opt-starter", "el => el.value") == "-1"
    lobby.select_option("#opt-starter", "2")
    lobby.select_option("#players-select", "2")  # seat 3 is gone: the choice falls back
    assert lobby.eval_on_selector("#opt-starter", "el => el.value") == "-1"
    assert "-1" not in lobby.locator("#opt-starter").locator("..").inner_text()
    context.close()


# --- 4. Eesti: a repeat throw says why ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "you", "them", "none_left"),
    [
        (
            "en",
            "You already hold the Science Estonia card: throw the die again.",
            "Ana already holds the Science Estonia card, so Ana throws again.",
            "No Science Estonia card is left, so Ana throws again.",
        ),
        (
            "es",
            "Ya tienes la carta Estonia de Ciencias naturales: vuelve a tirar el dado.",
            "Ana ya tiene la carta Estonia de Ciencias naturales, así que vuelve a tirar.",
            "No quedan cartas Estonia de Ciencias naturales, así que Ana vuelve a tirar.",
        ),
        (
            "et",
            "Viska täringut uuesti: kategooria „Loodusteadus“ Eesti kaart on sul juba olemas.",
            "Ana viskab uuesti: kategooria „Loodusteadus“ Eesti kaart on tal juba olemas.",
            "Ana viskab uuesti: kategooria „Loodusteadus“ Eesti kaarte pole enam alles.",
        ),
    ],
)
def test_eesti_a_repeat_throw_says_why(page: Any, language: str, you: str, them: str, none_left: str) -> None:
    from tests.eesti_malumang.helpers import act, answer, position

    match = position(2, held=[{"science": 1}, {}], die=3)
    act(match, "roll", 0)
    act(match, "move", 0, to="o3")
    answer(match, True)
    assert match.state["turn"]["seat"] == 0 and match.state["phase"] == "roll"
    assert you in shown(page, "eesti-malumang", match, 0, language)["text"]
    assert them in shown(page, "eesti-malumang", match, 1, language)["text"]
    assert them in shown(page, "eesti-malumang", match, None, language)["text"]
    match.apply({"type": "roll", "seat": 0})  # the throw is made: the line has done its work
    assert "throws again" not in shown(page, "eesti-malumang", match, 1, "en")["text"]

    empty = position(2, held=[{"science": 6}, {"history": 1}], die=3, variant="outer_track")
    act(empty, "roll", 0)
    act(empty, "move", 0, to="o3")
    answer(empty, True)
    assert none_left in shown(page, "eesti-malumang", empty, 1, language)["text"]

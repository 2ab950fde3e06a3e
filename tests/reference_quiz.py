"""Quiz Relay: the reference quiz game — the shared ask step, a deck of category cards and a tiny board.

It exists to test the quiz table (``mindtable.trivia.quiz``, ``mindtable.trivia.sets``, ``mindtable.kit``)
without any real quiz game, and as the worked example of ``docs/trivia.md``. Rules: 2 to 4 players, pawns on
the start square of an eight-square loop (``tests/kit/data/tiny_board.yaml``). On your turn you roll the die
and move forward; the colour of the square names the category (red history, blue science, green sport; on a
grey square you choose). The player on your right draws a card (``tests/trivia/data/relay_cards.yaml``) and
reads you its question of that category. Right: 2 points, or 1 if you asked for the options (on a star
square you may not ask for them), and you roll again. Wrong: the turn passes left. Passing the start square
gives 1 point. First to the target wins; when the cards run out (unless they are reshuffled), the highest
score wins.

>>> import mindtable
>>> mindtable.register_game(GAME)
>>> match = mindtable.new_match("quiz-relay", players=2, seed=1)
>>> [a["type"] for a in match.legal_actions(match.to_act()[0])]
['roll']
>>> from mindtable.core import registry
>>> _ = registry._loaded.pop("quiz-relay")  # registered only for this example: other tests list the games
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from mindtable.core.bots import Decision, Observation
from mindtable.core.codes import refuse
from mindtable.core.errors import IllegalAction
from mindtable.core.events import Deadline, Event, Result
from mindtable.core.game import Game, State
from mindtable.core.moves import Move, MoveTable, Param
from mindtable.core.options import Option
from mindtable.core.rng import Rng
from mindtable.core.turns import grant_extra_turn, new_turn, pass_turn, right_of, roll_off
from mindtable.kit.board import load_board, reachable
from mindtable.kit.deck import deck_view, discard, draw, new_deck
from mindtable.kit.dice import roll
from mindtable.trivia.quiz_bots import KnowledgeBot, KnowledgeProfile, Library
from mindtable.trivia.sets import load_set
from mindtable.trivia.step import QuizStep

HERE = Path(__file__).resolve().parent
BOARD_FILE = HERE / "kit" / "data" / "tiny_board.yaml"
CARDS_FILE = HERE / "trivia" / "data" / "relay_cards.yaml"
BOARD = load_board(BOARD_FILE)
CARDS = load_set(CARDS_FILE)
TOPICS = ("history", "science", "sport")

CODES = {
    "qr_not_your_turn": "it is seat {seat}'s turn to {step}",
    "qr_roll_first": "roll the die first",
    "qr_no_cards": "the cards have run out",
}


def _gate_roll(state: State, seat: Any, at: Any) -> IllegalAction | None:
    if state["phase"] != "roll":
        return refuse("not_now", action="roll")
    if seat != state["turn"]["seat"]:
        return refuse("qr_not_your_turn", seat=state["turn"]["seat"], step="roll")
    return None


def _gate_topic(state: State, seat: Any, at: Any) -> IllegalAction | None:
    if state["phase"] != "topic":
        return refuse("qr_roll_first") if state["phase"] == "roll" else refuse("not_now", action="topic")
    if seat != state["turn"]["seat"]:
        return refuse("qr_not_your_turn", seat=state["turn"]["seat"], step="choose the category")
    return None


def _ask(state: State, seat: int, topic: str, at: int | None, rng: Rng) -> list[Event]:
    card_id = draw(state["deck"], rng, reshuffle_empty=state["options"]["reshuffle"])
    if card_id is None:
        state["phase"] = "over"
        return [Event("cards_out", {})]
    square = state["pawns"][seat]
    star = BOARD.squares[square].special == "star"
    options = "never" if star or not state["options"]["options_allowed"] else "allowed"
    events = QUIZ.open(
        state,
        state["cards"][card_id],
        reader=right_of(seat, state["players"]),
        answerers=[seat],
        question=topic,
        options=options,
        at=at,
    )
    state["phase"] = "ask"
    return [Event("card_drawn", {"seat": seat, "topic": topic, "star": star}), *events]


def _roll(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    seat = action["seat"]
    die = roll(rng)[0]
    landing = reachable(BOARD, state["pawns"][seat], die)[0]
    state["pawns"][seat] = landing.square
    events = [Event("rolled", {"seat": seat, "die": die, "square": landing.square, "laps": landing.laps})]
    if landing.laps:
        state["scores"][seat] += landing.laps
    topic = BOARD.topic_of(landing.square)
    if topic is None:
        state["phase"] = "topic"
        return events
    return events + _ask(state, seat, topic, action.get("at"), rng)


def _topic(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    return _ask(state, action["seat"], action["topic"], action.get("at"), rng)


def _decided(state: State, ask: dict[str, Any], rng: Any) -> list[Event]:
    seat = ask["answerers"][0]
    verdict = ask["verdict"]
    points = 0
    if verdict["correct"]:
        points = 1 if verdict.get("with_options") else 2
        state["scores"][seat] += points
        grant_extra_turn(state["turn"])
    state["last"] = ask["results"][-1]
    discard(state["deck"], ask["card"]["id"])
    state["ask"] = None
    pass_turn(state["turn"])
    more = state["deck"]["draw"] or (state["options"]["reshuffle"] and state["deck"]["discard"])
    state["phase"] = "roll" if more else "over"
    return [Event("scored", {"seat": seat, "points": points, "by": verdict["by"]})]


#: The ask step: the reader on the right holds the card; 15 or 30 seconds to answer and 20 to decide where the
#: room says so; the table may vote. The judge's house rules stay its defaults.
QUIZ = QuizStep(_decided, house_rules=(), answer_seconds=(0, 15, 30), confirm_seconds=(0, 20), vote_option=True)

MOVES = MoveTable(
    [
        Move("roll", _roll, _gate_roll, help="roll the die and move"),
        Move("topic", _topic, _gate_topic, params=(Param.choice("topic", lambda s, seat: list(TOPICS)),)),
        *QUIZ.moves,
    ]
)


def make_knowing_bot(seat: int, seed: int = 0, knows: float = 0.6, **params: Any) -> KnowledgeBot:
    """The quiz bot of Quiz Relay: it has read the game's card file and knows ``knows`` of it."""
    library = Library(CARDS.questions)

    def other(observation: Observation) -> Decision | None:
        legal = observation.legal_actions
        if not legal:
            return None
        if legal[0]["type"] == "topic":
            return Decision({"type": "topic", "topic": TOPICS[(seed + seat) % len(TOPICS)]})
        return Decision({"type": legal[0]["type"]})

    return KnowledgeBot(seat, seed, library=library, profile=KnowledgeProfile(default=knows), other=other, **params)


class QuizRelay(Game):
    id = "quiz-relay"
    title = "Quiz Relay"
    min_players = 2
    max_players = 4
    order = 901
    moves = MOVES
    codes: ClassVar[Mapping[str, str]] = {**CODES, **QUIZ.codes}
    seat_params: ClassVar[Mapping[str, tuple[str, ...]]] = QUIZ.seat_params
    web_module = "quiz-relay"
    #: Its page is a test's: it lives beside the tests, not in mindtable's package.
    web_assets = Path(__file__).resolve().parent / "pages" / "quiz-relay"
    bots: ClassVar[Mapping[str, str]] = {
        "knowing": "tests.reference_quiz:make_knowing_bot",
        "random": "mindtable.core.bots:RandomBot",
    }
    option_schema = (
        Option("target", int, default=6, minimum=1, maximum=30, help="points needed to win"),
        *QUIZ.options,
        Option("options_allowed", bool, default=True, help="players may ask for the options"),
        Option("reshuffle", bool, default=False, help="shuffle the used cards back when the cards run out"),
    )

    def initial_state(self, players: int, options: Mapping[str, Any], rng: Rng) -> State:
        first, _ = roll_off(rng, range(players))
        cards = {card.id: card.to_dict() for card in CARDS.cards}
        return {
            "players": players,
            "options": dict(options),
            "turn": new_turn(players, first),
            "phase": "roll",
            "pawns": [BOARD.starts[0]] * players,
            "scores": [0] * players,
            "cards": cards,
            "deck": new_deck(sorted(cards), rng),
            "ask": None,
            "last": None,
        }

    def to_act(self, state: State, players: int) -> list[int]:
        if state["phase"] in ("roll", "topic"):
            return [state["turn"]["seat"]]
        if state["phase"] == "ask":
            return QUIZ.waiting(state)
        return []

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {
            "phase": state["phase"],
            "turn": state["turn"]["seat"],
            "pawns": list(state["pawns"]),
            "scores": list(state["scores"]),
            "target": state["options"]["target"],
            "board": BOARD.to_dict(),
            "deck": deck_view(state["deck"]),
            "ask": QUIZ.view(state, seat),
            "last": state["last"],
        }

    def result(self, state: State) -> Result | None:
        scores = state["scores"]
        best = max(scores)
        if best < state["options"]["target"] and state["phase"] != "over":
            return None
        winners = tuple(s for s, v in enumerate(scores) if v == best)
        return Result(
            winners, tuple(float(v) for v in scores), "target" if best >= state["options"]["target"] else "cards_out"
        )

    def next_deadline(self, state: State) -> Deadline | None:
        return QUIZ.deadline(state)

    def secrets(self, state: State, players: int) -> list[tuple[tuple[int, ...], str]]:
        # A reshuffled card may come back: what the last verdict showed to everyone is no longer a secret.
        shown = json.dumps(state["last"])
        return [(seats, text) for seats, text in QUIZ.secrets(state) if text not in shown]


GAME = QuizRelay()

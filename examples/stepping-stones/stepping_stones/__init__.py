"""Stepping Stones: cross the river by answering questions (the example plugin game of mindtable).

Two to four players stand on the near bank of a river of stones. In turn, the player on your left reads you a
question from the bank. Answer it straight and you move two stones; ask for the options first and you move
one; a wrong answer or a pass leaves you where you are. Then the turn passes to the left. The first to reach
the far bank wins; if the questions run out first, whoever is furthest across wins (a tie shares the win).

>>> import mindtable
>>> match = mindtable.new_match("stepping-stones", players=2, seed=1)
>>> match.view(1)["ask"]["role"], match.to_act()
('reader', [0])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, TypedDict

from mindtable.core.errors import InvalidOptions
from mindtable.core.events import Deadline, Event, Result
from mindtable.core.flow import Flow, Phase
from mindtable.core.game import Game, State
from mindtable.core.moves import MoveTable
from mindtable.core.options import Option, option_path
from mindtable.core.rng import Rng
from mindtable.core.turns import left_of, new_turn, pass_turn
from mindtable.trivia.bank import BankError, load_bank, shipped_bank_dir
from mindtable.trivia.model import question_to_dict
from mindtable.trivia.quiz import Ask, AskResult, AskView, outcome
from mindtable.trivia.quiz_bots import KnowledgeBot, KnowledgeProfile, Library
from mindtable.trivia.step import QuizStep

LANGUAGES = ("en", "es", "et")


def _ask_next(state: State) -> list[Event]:
    """The player whose turn it is is asked the next question of the deck, by the player on their left."""
    if not state["deck"]:
        return [Event("questions_out", {})]
    seat = state["turn"]["seat"]
    question = state["deck"].pop()
    return QUIZ.ask(state, question, reader=left_of(seat, state["players"]), answerers=[seat])


def _decided(state: State, ask: Ask, rng: Any) -> list[Event]:
    seat, verdict = ask["answerers"][0], outcome(ask)
    stones = (1 if verdict["with_options"] else 2) if verdict["correct"] else 0
    state["stones"][seat] = min(state["options"]["stones"], state["stones"][seat] + stones)
    state["last"], state["ask"] = ask["results"][-1], None
    events = [Event("stepped", {"seat": seat, "stones": stones, "on": state["stones"][seat]})]
    if state["stones"][seat] >= state["options"]["stones"]:
        return events
    pass_turn(state["turn"])
    return events + _ask_next(state)


#: The ask step: no clock (the table talks it over), the judge's spelling and surname rules for the room to set.
QUIZ = QuizStep(_decided, house_rules=("typos", "surname_alone"), answer_seconds=None, confirm_seconds=None)
#: The turn flow: the ask step waits for its seats; the game is over when the questions run out or one has crossed.
FLOW = Flow(
    [Phase("ask", to_act=QUIZ.waiting)],
    on={"questions_out": "over"},
    ended=lambda state: max(state["stones"]) >= state["options"]["stones"],
)
MOVES = MoveTable(QUIZ.moves, flow=FLOW)


def make_bot(seat: int, seed: int = 0, knows: float = 0.6, **params: Any) -> KnowledgeBot:
    """A player who has read the shipped banks (every language) and knows ``knows`` of them."""
    library = Library.from_files([str(shipped_bank_dir() / language) for language in LANGUAGES])
    return KnowledgeBot(seat, seed, library=library, profile=KnowledgeProfile(default=knows), **params)


class View(TypedDict):
    """What a seat sees: whose turn, each player's stones, the river's length, the ask step, the last verdict."""

    phase: str
    turn: int
    stones: list[int]
    river: int
    questions_left: int
    ask: AskView | None
    last: AskResult | None


class SteppingStones(Game[State, View]):
    id = "stepping-stones"
    title = "Stepping Stones"
    min_players = 2
    max_players = 4
    order = 900
    moves = MOVES
    codes = QUIZ.codes
    seat_params = QUIZ.seat_params
    web_module = "stepping-stones"
    progress_label = "questions asked"
    bots: ClassVar[Mapping[str, str]] = {
        "knowing": "stepping_stones:make_bot",
        "random": "mindtable.core.bots:RandomBot",
    }
    option_schema = (
        Option("language", str, default="en", choices=LANGUAGES, help="language of the questions"),
        Option("stones", int, default=8, minimum=2, maximum=30, help="stones to the far bank"),
        Option("bank_file", str, default="", help="another question bank (YAML)", file="bank"),
        *QUIZ.options,
    )

    def initial_state(self, players: int, options: Mapping[str, Any], rng: Rng) -> State:
        path = option_path("bank_file", options["bank_file"]) if options["bank_file"] else None
        try:
            bank = load_bank(path or shipped_bank_dir() / options["language"] / "general.yaml")
        except (BankError, OSError) as exc:
            raise InvalidOptions(f"bank_file: {exc}", option="bank_file") from None
        deck = [question_to_dict(q) for q in bank.questions]
        rng.shuffle(deck)
        state: State = {"players": players, "options": dict(options), "turn": new_turn(players, 0), "phase": "ask"}
        state.update(stones=[0] * players, deck=deck, ask=None, last=None)
        FLOW.advance(state, _ask_next(state))
        return state

    def view(self, state: State, seat: int | None) -> View:
        return {
            "phase": state["phase"],
            "turn": state["turn"]["seat"],
            "stones": list(state["stones"]),
            "river": state["options"]["stones"],
            "questions_left": len(state["deck"]),
            "ask": QUIZ.view(state, seat),
            "last": state["last"],
        }

    def result(self, state: State) -> Result | None:
        if state["phase"] != "over":
            return None
        best = max(state["stones"])
        winners = tuple(s for s, n in enumerate(state["stones"]) if n == best)
        reason = "far_bank" if best >= state["options"]["stones"] else "questions_out"
        return Result(winners, tuple(float(n) for n in state["stones"]), reason, {"progress": state["turn"]["number"]})

    def next_deadline(self, state: State) -> Deadline | None:
        """The ask step's clock: here only the time to take a verdict back (a room's ``undo_seconds``)."""
        return QUIZ.deadline(state)

    def secrets(self, state: State, players: int) -> list[tuple[tuple[int, ...], str]]:
        return QUIZ.secrets(state)


GAME = SteppingStones()

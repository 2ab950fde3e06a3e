"""Riddle Relay: the reference game of the core — turn-based, hidden information and typed answers, in one file.

It exists so that the core can be tested without any real game, and as the worked example of
``docs/writing-a-game.md``. Rules: 2 to 4 players. A roll-off picks who answers first; the player on the
answerer's right is the asker and sees the riddle's answer, the others see only the riddle. The answerer
chooses a topic (a listed choice), then either answers — typing the answer and a wager of 1 to 3 points —
or passes. Right: the wager is won and the answerer goes again (an extra turn); wrong: the wager is lost.
Either way the answer is then shown to everyone. First to 5 points wins; when the riddles run out, the highest
score wins (ties share the win).

>>> import mindtable
>>> mindtable.register_game(GAME)
>>> match = mindtable.new_match("riddle-relay", players=2, seed=1)
>>> seat = match.view(0)["answerer"]
>>> [a["type"] for a in match.legal_actions(seat)]
['topic', 'topic', 'topic']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mindtable.core.codes import refuse
from mindtable.core.errors import IllegalAction
from mindtable.core.events import Event, Result
from mindtable.core.game import Game, State
from mindtable.core.moves import Move, MoveTable, Param
from mindtable.core.options import Option
from mindtable.core.rng import Rng
from mindtable.core.turns import grant_extra_turn, new_turn, pass_turn, right_of, roll_off

#: The riddles, by topic. Content lives in the state once dealt, so records never read this list again.
RIDDLES: dict[str, list[tuple[str, str]]] = {
    "animals": [
        ("Which striped animal is a horse's African cousin?", "zebra"),
        ("Which bird is the symbol of wisdom in Greek stories?", "owl"),
        ("Which animal carries its house on its back and leaves a slimy trail?", "snail"),
    ],
    "kitchen": [
        ("What do you boil water in, with a spout and a whistle?", "kettle"),
        ("Which yellow fruit must be peeled and is curved?", "banana"),
        ("What is bread made from, ground from wheat?", "flour"),
    ],
    "sky": [
        ("Which planet is known as the red planet?", "mars"),
        ("What do we call the arc of colours after rain?", "rainbow"),
        ("Which star is closest to Earth?", "sun"),
    ],
}
TOPICS = tuple(RIDDLES)

CODES = {
    "not_answerer": "only the answerer, seat {answerer}, may do that now",
    "choose_topic_first": "choose a topic first",
    "topic_chosen": "the topic is already chosen",
    "no_riddles_left": "no riddles are left in the topic {topic!r}",
}
SEAT_PARAMS: dict[str, tuple[str, ...]] = {"not_answerer": ("answerer",)}


def _gate_answerer(state: State, seat: int, at: Any) -> IllegalAction | None:
    if seat != state["turn"]["seat"]:
        return refuse("not_answerer", answerer=state["turn"]["seat"])
    return None


def _gate_topic(state: State, seat: int, at: Any) -> IllegalAction | None:
    refusal = _gate_answerer(state, seat, at)
    if refusal is not None:
        return refusal
    if state["card"] is not None:
        return refuse("topic_chosen")
    return None


def _gate_answer(state: State, seat: int, at: Any) -> IllegalAction | None:
    refusal = _gate_answerer(state, seat, at)
    if refusal is not None:
        return refusal
    if state["card"] is None:
        return refuse("choose_topic_first")
    return None


def _open_topics(state: State, seat: Any) -> list[str]:
    return [topic for topic in TOPICS if state["decks"][topic]]


def _topic_refusal(state: State, seat: Any, topic: Any) -> Any:
    if topic in TOPICS:
        return refuse("no_riddles_left", topic=topic)
    return refuse("bad_value", action="topic", field="topic", allowed=", ".join(TOPICS), value=repr(topic)[:40])


def _choose(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    topic = action["topic"]
    prompt, answer = state["decks"][topic].pop(0)
    state["card"] = {"topic": topic, "prompt": prompt, "answer": answer}
    asker = right_of(action["seat"], state["players"])
    return [
        Event("topic_chosen", {"seat": action["seat"], "topic": topic, "prompt": prompt}),
        Event("card_for_asker", {"seat": asker, "answer": answer}, to=(asker,)),
    ]


def _answer(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    seat, card = action["seat"], state["card"]
    given = action["text"].strip().lower()
    wager = action["wager"]
    right = given == card["answer"]
    state["scores"][seat] += wager if right else -wager
    state["card"] = None
    if right:
        grant_extra_turn(state["turn"])
    pass_turn(state["turn"])
    return [
        Event(
            "answered",
            {"seat": seat, "text": action["text"], "wager": wager, "right": right, "answer": card["answer"]},
        )
    ]


def _pass(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    card = state["card"]
    state["card"] = None
    pass_turn(state["turn"])
    return [Event("passed", {"seat": action["seat"], "answer": card["answer"]})]


MOVES = MoveTable(
    [
        Move("topic", _choose, _gate_topic, params=(Param.choice("topic", _open_topics, explain=_topic_refusal),)),
        Move(
            "answer",
            _answer,
            _gate_answer,
            params=(Param.text("text", max_length=40), Param.integer("wager", 1, 3)),
        ),
        Move("pass", _pass, _gate_answer),
    ]
)


class RiddleRelay(Game):
    id = "riddle-relay"
    title = "Riddle Relay"
    min_players = 2
    max_players = 4
    order = 900
    moves = MOVES
    codes = CODES
    seat_params = SEAT_PARAMS
    option_schema = (Option("target", int, default=5, minimum=1, maximum=20, help="points needed to win"),)

    def initial_state(self, players: int, options: Mapping[str, Any], rng: Rng) -> State:
        first, rolls = roll_off(rng, range(players))
        decks = {}
        for topic in TOPICS:
            deck = [list(riddle) for riddle in RIDDLES[topic]]
            rng.shuffle(deck)
            decks[topic] = deck
        return {
            "players": players,
            "target": options["target"],
            "turn": new_turn(players, first),
            "rolls": [{str(k): v for k, v in r.items()} for r in rolls],
            "decks": decks,
            "card": None,
            "scores": [0] * players,
        }

    def to_act(self, state: State, players: int) -> list[int]:
        return [state["turn"]["seat"]]

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        answerer = state["turn"]["seat"]
        asker = right_of(answerer, state["players"])
        card = state["card"]
        shown = None
        if card is not None:
            shown = {"topic": card["topic"], "prompt": card["prompt"]}
            if seat == asker:
                shown["answer"] = card["answer"]
        return {
            "answerer": answerer,
            "asker": asker,
            "scores": list(state["scores"]),
            "target": state["target"],
            "card": shown,
            "left": {topic: len(deck) for topic, deck in state["decks"].items()},
            "rolls": state["rolls"],
        }

    def result(self, state: State) -> Result | None:
        scores = state["scores"]
        done = max(scores) >= state["target"] or (state["card"] is None and not any(state["decks"].values()))
        if not done:
            return None
        best = max(scores)
        winners = tuple(seat for seat, score in enumerate(scores) if score == best)
        return Result(winners, tuple(float(s) for s in scores), "target" if best >= state["target"] else "no_riddles")

    def secrets(self, state: State, players: int) -> list[tuple[tuple[int, ...], str]]:
        card = state["card"]
        if card is None:
            return []
        asker = right_of(state["turn"]["seat"], players)
        return [((asker,), f'"{card["answer"]}"')]


GAME = RiddleRelay()

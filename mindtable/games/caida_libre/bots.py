"""Bots for Caída Libre: a quiz player with a knowledge profile (:mod:`mindtable.trivia.quiz_bots`) who has read
the shipped cards of the game's language and remembers ``knows`` of them, and plays the game's own choices
sensibly:

* a double question: the topic with the smaller *expected loss*, ``(1 - chance of knowing) x penalty``; the
  book says the easier question carries the bigger penalty, so the bigger penalty is read as an easy question
  and the smaller one as a medium (10 apart) or hard one (further apart);
* the Sniper's victim: the leader (the highest IQ among the others; ties: the first to the left);
* the Hook's partner: the player furthest behind (the lowest IQ among the others), who threatens the bot's
  lead least; ties: the first to the left;
* as the asker it draws, and as the reader it confirms the judge's suggestion.

>>> import mindtable
>>> from mindtable.core.driver import play_out
>>> match = mindtable.new_match("caida-libre", players=3, seed=4, options={"language": "en"})
>>> bots = {s: match.game.make_bot("knowing", seat=s, seed=4) for s in range(3)}
>>> play_out(match, bots).reason
'free_fall'
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterable, Mapping
from typing import Any

from mindtable.core.bots import Decision, Observation
from mindtable.core.errors import InvalidOptions
from mindtable.trivia.model import Question
from mindtable.trivia.quiz_bots import KnowledgeBot, KnowledgeProfile, Library, _key


class CardLibrary(Library):
    """A library where several cards may share a prompt ("Which is longer?"): the options being asked pick
    the right one (``hint``)."""

    def __init__(self, questions: Iterable[Question]) -> None:
        questions = list(questions)
        super().__init__(questions)
        self._all: dict[str, list[Question]] = {}
        for q in questions:
            self._all.setdefault(_key(q.prompt), []).append(q)
        self.hint: tuple[str, ...] | None = None

    def find(self, prompt: str) -> Question | None:
        found = self._all.get(_key(prompt), [])
        if len(found) > 1 and self.hint is not None:
            for q in found:
                if tuple(q.options) == self.hint:
                    return q
        return found[0] if found else None


@functools.cache
def library(language: str) -> CardLibrary:
    from mindtable.games.caida_libre.rules import library_questions

    return CardLibrary(library_questions(language))


def _order_left(seat: int, players: int, seats: Iterable[int]) -> list[int]:
    return sorted(seats, key=lambda s: (s - seat) % players)


def choose_target(view: Mapping[str, Any], seat: int, choices: list[int]) -> int:
    """The Sniper's victim (the leader) or the Hook's partner (the player furthest behind)."""
    iq = view["iq"]
    ordered = _order_left(seat, len(iq), choices)
    weapon = (view.get("weapon") or {}).get("kind")
    if weapon == "hook":
        return min(ordered, key=lambda s: iq[s])
    return max(ordered, key=lambda s: iq[s])


def double_choice(profile: KnowledgeProfile, headings: list[Mapping[str, Any]], options: list[int]) -> int:
    """The question of a double card with the smaller expected loss (ties: the first)."""
    penalties = {i: int(headings[i].get("penalty", 0)) for i in options}
    top, low = max(penalties.values()), min(penalties.values())

    def difficulty(i: int) -> str:
        if penalties[i] == top:
            return "easy"
        return "medium" if top - low <= 10 else "hard"

    def loss(i: int) -> float:
        return (1 - profile.chance(headings[i].get("category", ""), difficulty(i))) * penalties[i]

    return min(options, key=lambda i: (loss(i), i))


class CaidaBot(KnowledgeBot):
    """The knowledge bot with Caída Libre's choices (see the module docstring)."""

    def decide(self, observation: Observation) -> Decision | None:
        language = observation.view.get("language")
        if language:
            self.library = library(language)
        return super().decide(observation)

    def _choose(self, ask: Mapping[str, Any], observation: Observation) -> Decision:
        options = [a["question"] for a in observation.legal_actions if a["type"] == "ask_choose"]
        return Decision(
            {"type": "ask_choose", "question": double_choice(self.profile, ask["headings"]["headings"], options)}
        )

    def _answer(self, ask: Mapping[str, Any], legal: Collection[str]) -> Decision:
        if isinstance(self.library, CardLibrary):
            options = ask["question"].get("options")
            self.library.hint = tuple(options) if options else None
        return super()._answer(ask, legal)


def _other(observation: Observation) -> Decision | None:
    types = observation.legal_types  # the entries are listed only for a choice of target
    if not types:
        return None
    if "target" in types:
        legal = observation.legal_actions
        choices = [a["target"] for a in legal if a["type"] == "target"]
        return Decision({"type": "target", "target": choose_target(observation.view, observation.seat, choices)})
    if "draw" in types:
        return Decision({"type": "draw"})
    entry = observation.legal_actions[0]
    return Decision({k: v for k, v in entry.items() if k not in ("seat", "inputs")})


def make_bot(
    seat: int, seed: int = 0, knows: float = 0.6, with_options: float = 0.7, think_ms: int = 0, **params: Any
) -> CaidaBot:
    """A Caída Libre bot that remembers ``knows`` of the shipped cards (0 to 1) and takes ``think_ms`` over
    each move (as time-as-data: 0 in simulations; rooms give it :attr:`CaidaLibre.room_bot_params`)."""
    if not 0 <= float(knows) <= 1:
        raise InvalidOptions(f"bad parameters for bot 'knowing': knows must be from 0 to 1, got {knows}")
    profile = KnowledgeProfile(default=float(knows), with_options=float(with_options), ask_options=False)
    try:
        return CaidaBot(seat, seed, library=CardLibrary(()), profile=profile, other=_other, think_ms=think_ms, **params)
    except ValueError as exc:
        raise InvalidOptions(f"bad parameters for bot 'knowing': {exc}") from None

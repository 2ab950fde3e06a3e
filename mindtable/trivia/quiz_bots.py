"""Bots for quiz games that know some answers — honestly.

A bot sees only its observation (its seat's view and legal actions), so it never finds the answer in the
state. What it knows, it knows the way a person does: it has *read the public question files* (a :class:`Library`
built from the same bank or set files anyone can open), and remembers a fraction of them. When a question is put to
it, it looks the prompt up in what it has read; its :class:`KnowledgeProfile` decides, with a draw from its own
seeded generator, whether it remembers the answer (a probability per topic and difficulty). If it remembers, it says
the answer as printed (the required part); if not, it asks for the options when its profile says so and they are
offered (then it knows the right option with ``with_options`` probability, else picks one at random — or, with
``recognise`` set, it recognises the right option with its chance of knowing the answer times ``recognise``, else
picks one at random), or guesses a true/false or an option, or passes. A question that is in none of the files it
has read is one it does not know. For lists (Quote 5) it names each item it remembers.

As the reader it confirms the judge's suggestion (a bot does not overrule), as a voter it votes with the
suggestion, and it never calls a vote. The game's own moves (rolling, choosing a topic or a direction) go to
``other`` (by default: the first listed action, so a game's bot factory can give something smarter).

``think_ms`` is how long it takes over each move, as time-as-data: the decision says *when* (``Decision.at``,
``think_ms`` after the moment the bot was first asked about this situation), so a room's bot waits that long
in real time, while a simulation on the virtual clock only moves its clock on. 0 (the default) acts at once.

>>> from mindtable.trivia.model import Question
>>> library = Library([Question("q1", "text", "Capital of Australia?", "CANBERRA (not Sydney)", category="geography")])
>>> bot = KnowledgeBot(seat=0, seed=1, library=library, profile=KnowledgeProfile(default=1.0))
>>> obs_view = {"ask": {"role": "answerer", "phase": "answer", "options_available": False,
...             "question": {"prompt": "Capital of Australia?", "kind": "text", "category": "geography"}}}
>>> from mindtable.core.bots import Observation
>>> legal = [{"type": "ask_answer", "seat": 0, "inputs": [{"name": "text", "kind": "text"}]},
...          {"type": "ask_pass", "seat": 0}]
>>> bot.decide(Observation(0, obs_view, legal, 0)).action
{'type': 'ask_answer', 'text': 'CANBERRA'}
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mindtable.core.bots import Decision, Observation
from mindtable.trivia.model import OPTION_LETTERS, Question
from mindtable.trivia.quiz import ASK_MOVE_TYPES

_SPACE = re.compile(r"\W+", re.UNICODE)


@functools.lru_cache(maxsize=8192)
def _key(prompt: str) -> str:
    """A prompt as a library finds it: case and punctuation ignored (cached: a bot looks up the same prompts)."""
    return _SPACE.sub(" ", prompt.casefold()).strip()


class Library:
    """The questions a bot has read, found again by their prompt (case and punctuation ignored)."""

    def __init__(self, questions: Iterable[Question]) -> None:
        self._by_prompt: dict[str, Question] = {}
        for q in questions:
            self._by_prompt.setdefault(_key(q.prompt), q)

    def __len__(self) -> int:
        return len(self._by_prompt)

    def find(self, prompt: str) -> Question | None:
        return self._by_prompt.get(_key(prompt))

    @classmethod
    def from_files(cls, paths: Iterable[str]) -> Library:
        """A library read from bank or set files (any shape :mod:`mindtable.trivia.sets` reads)."""
        from mindtable.trivia.sets import load_sets

        return cls(q for s in load_sets(paths) for q in s.questions)


@dataclass(frozen=True)
class KnowledgeProfile:
    """How likely the bot is to know an answer: ``default``, scaled per difficulty (``by_difficulty``) and replaced
    per topic/category (``by_topic``); ``with_options`` once the options are read out, unless ``recognise`` is set:
    then the options are picked right with ``chance × recognise``, else at random (so a bot that knows little is
    little better than a guess among them); ``ask_options`` whether it asks for them when it does not know;
    ``guess`` whether it guesses rather than passes when it does not know."""

    default: float = 0.5
    by_topic: Mapping[str, float] = field(default_factory=dict)
    by_difficulty: Mapping[str, float] = field(default_factory=lambda: {"easy": 1.2, "medium": 1.0, "hard": 0.6})
    with_options: float = 0.7
    recognise: float | None = None
    ask_options: bool = True
    guess: bool = True

    def chance(self, topic: str, difficulty: str | None) -> float:
        base = self.by_topic.get(topic, self.default)
        return max(0.0, min(1.0, base * self.by_difficulty.get(difficulty or "medium", 1.0)))

    def options_chance(self, topic: str, difficulty: str | None, options: int) -> float:
        """How likely the bot is to pick the right one of ``options`` read out, when it did not remember the
        answer (``with_options``; with ``recognise``: recognising it, else a guess among them).

        >>> round(KnowledgeProfile(default=0.45, recognise=0.25).options_chance("", None, 3), 3)
        0.408
        >>> KnowledgeProfile().options_chance("", None, 3)
        0.7
        """
        if self.recognise is None:
            return self.with_options
        p = self.chance(topic, difficulty) * self.recognise
        return p + (1 - p) / options if options else 0.0


#: The ask step's moves a bot may be offered (not the system's deadlines; ``ask_undo`` is never offered to a
#: bot), whose listed entries carry nothing but their type (and seat, and typed inputs), but for ``ask_choose``
#: (one entry per choice) and ``ask_vote`` (one per verdict, always the same two).
_ASK_LISTED = frozenset(ASK_MOVE_TYPES) - {"ask_time_up", "ask_settle", "ask_undo_time_up", "ask_undo"}


def _first(observation: Observation) -> Decision | None:
    if not observation.legal_actions:
        return None
    entry = observation.legal_actions[0]
    return Decision({k: v for k, v in entry.items() if k not in ("seat", "inputs")})


def _right_option(known: Question | None, options: Any) -> int | None:
    """Which of the options read out is the answer the bot has read: the question's own right option, else the
    one that says its required answer (an option made up beside it, e.g. for younger children)."""
    if known is None:
        return None
    if known.correct is not None and known.correct < len(options):
        return known.correct
    said = _key(known.required_answer or known.answer or "")
    return next((i for i, o in enumerate(options) if said and _key(str(o)) == said), None)


class KnowledgeBot:
    """A quiz player who knows what it has read, some of the time (see the module docstring).

    ``key`` is where the view carries :func:`mindtable.trivia.quiz.ask_view` (``view["ask"]``).
    """

    def __init__(
        self,
        seat: int,
        seed: int = 0,
        *,
        library: Library | None = None,
        profile: KnowledgeProfile | None = None,
        other: Callable[[Observation], Decision | None] | None = None,
        key: str = "ask",
        think_ms: float = 0,
    ) -> None:
        if isinstance(think_ms, bool) or not isinstance(think_ms, (int, float)) or not 0 <= think_ms <= 600_000:
            raise ValueError(f"think_ms must be a number of milliseconds from 0 to 600000, got {think_ms!r}")
        self.seat = seat
        self.seed = seed
        self.library = library or Library(())
        self.profile = profile or KnowledgeProfile()
        self.other = other or _first
        self.key = key
        self.think_ms = round(think_ms)
        self._situation: tuple[Any, ...] | None = None
        self._since = 0

    #: Out of turn (no legal action) it decides nothing; a driver may skip asking it then, calling :meth:`rest`.
    idle_out_of_turn = True

    def rest(self) -> None:
        """What being asked out of turn does to the bot (it decides nothing): a timed bot forgets the situation
        it was timing, so the same question put to it again later is timed anew."""
        self._situation = None

    def _random(self, *parts: Any) -> random.Random:
        return random.Random("/".join(["knowledge-bot", str(self.seed), str(self.seat), *map(str, parts)]))

    def decide(self, observation: Observation) -> Decision | None:
        decision = self._decide(observation)
        if decision is None or not self.think_ms:
            # Nothing to do, or nothing timed (a wrapper may time only some steps): what comes next is new.
            self._situation = None
            return decision
        # The same situation asked again (the server asks after anything happens) keeps its first moment.
        ask = observation.view.get(self.key)
        if ask is None:  # (a view's ask step is never empty: no need to count its parts)
            ask = {}
        question = ask.get("question") or {}
        types = observation.legal_types
        if all(t in _ASK_LISTED for t in types):
            # The ask step's entries (inputs aside) are its types, and the choices when a topic is to be chosen:
            # the same situations as the entries themselves tell apart, without listing them.
            listed: tuple[Any, ...] = (types, tuple(ask.get("choices") or ()) if "ask_choose" in types else None)
        else:
            listed = tuple(
                tuple(sorted((k, repr(v)) for k, v in a.items() if k != "inputs")) for a in observation.legal_actions
            )
        situation = (
            listed,
            ask.get("phase"),
            question.get("index"),
            question.get("prompt"),
            len(ask.get("results") or ()),
        )
        if situation != self._situation:
            self._situation = situation
            self._since = observation.now
        return Decision(decision.action, self._since + self.think_ms)

    def _decide(self, observation: Observation) -> Decision | None:
        # Only the kinds of move it is offered: the entries themselves are listed only where a choice needs them
        # (a topic to choose, the game's own moves in ``other``), see ``Observation.legal_types``.
        legal = observation.legal_types
        if not legal:
            return None
        if not any(t.startswith("ask_") for t in legal):  # nothing asked of it: its view's question is not read
            return self.other(observation)
        ask = observation.view.get(self.key)
        if ask is None:
            return self.other(observation)
        if "ask_confirm" in legal:
            return Decision({"type": "ask_confirm"})
        if "ask_final" in legal:  # its own verdict, waiting to count: it lets it count (it never undoes one)
            return Decision({"type": "ask_final"})
        if "ask_vote" in legal:
            suggestion = ask.get("suggestion") or {}
            return Decision({"type": "ask_vote", "verdict": "right" if suggestion.get("correct") else "wrong"})
        if "ask_choose" in legal:
            return self._choose(ask, observation)
        if "ask_answer" in legal or "ask_pass" in legal:
            return self._answer(ask, legal)
        return self.other(observation)

    def _choose(self, ask: Mapping[str, Any], observation: Observation) -> Decision:
        # The topic it knows best; ties to the bigger penalty it would avoid... the lower index.
        headings = ask["headings"]["headings"]
        options = [a["question"] for a in observation.legal_actions if a["type"] == "ask_choose"]
        best = max(options, key=lambda i: (self.profile.chance(headings[i].get("category", ""), None), -i))
        return Decision({"type": "ask_choose", "question": best})

    def _answer(self, ask: Mapping[str, Any], legal: Collection[str]) -> Decision:
        """The answer (or the options asked for, or a pass); ``legal``: the types of the moves it is offered."""
        question = ask["question"]
        known = self.library.find(question["prompt"])
        topic = question.get("category") or question.get("topic") or ""
        difficulty = known.difficulty if known is not None else None
        draw = self._random(question["prompt"], ask.get("headings", {}).get("size", 0))
        remembers = known is not None and draw.random() < self.profile.chance(topic, difficulty)
        options = question.get("options")
        if known is not None and known.kind == "list":
            chance = self.profile.chance(topic, difficulty)
            named = [item.split(" / ")[0] for item in known.items if draw.random() < chance]
            if named and "ask_answer" in legal:
                return Decision({"type": "ask_answer", "text": ", ".join(named[: known.count or len(named)])})
            return self._give_up(legal, draw, question)
        if remembers and known is not None:
            return Decision({"type": "ask_answer", "text": self._say(known, options)})
        if options and "ask_answer" in legal:
            if self.profile.recognise is not None:
                right = _right_option(known, options)
                recognised = self.profile.chance(topic, difficulty) * self.profile.recognise
                if right is not None and draw.random() < recognised:
                    return Decision({"type": "ask_answer", "text": OPTION_LETTERS[right]})
            elif known is not None and known.correct is not None and draw.random() < self.profile.with_options:
                return Decision({"type": "ask_answer", "text": OPTION_LETTERS[known.correct]})
            return Decision({"type": "ask_answer", "text": OPTION_LETTERS[draw.randrange(len(options))]})
        if "ask_options" in legal and self.profile.ask_options:
            return Decision({"type": "ask_options"})
        return self._give_up(legal, draw, question)

    def _say(self, q: Question, options: Any) -> str:
        if q.kind == "truefalse":
            return "true" if q.truth else "false"
        if q.kind in ("choice", "higher") and q.correct is not None:
            return OPTION_LETTERS[q.correct]
        if q.kind == "number" and q.value is not None and not q.answer:
            return str(int(q.value)) if float(q.value).is_integer() else str(q.value)
        return q.required_answer or q.answer

    def _give_up(self, legal: Collection[str], draw: random.Random, question: Mapping[str, Any]) -> Decision:
        if self.profile.guess and "ask_answer" in legal and question.get("kind") == "truefalse":
            return Decision({"type": "ask_answer", "text": draw.choice(["true", "false"])})
        if "ask_pass" in legal:
            return Decision({"type": "ask_pass"})
        return Decision({"type": "ask_answer", "text": "?"})

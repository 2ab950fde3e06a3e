"""The quiz step as one component: a game declares it once and gets the ask step's moves, codes, seat
parameters, room options, view, waiting seats, deadline and secrets from it.

The ask step itself (a question put to a player, an answer judged, a verdict decided) is
:mod:`mindtable.trivia.quiz`; this module is what a game writes instead of wiring it by hand. A game says
three things:

* **what a verdict does** — ``on_decided(state, ask, rng)``, called once the verdict of a question counts
  (score it, pass the turn, ask the card's next question with :func:`mindtable.trivia.quiz.ask_next`...);
* **which house rules the room may set** — the judge's options it offers (``house_rules``, names from
  :data:`mindtable.trivia.judge.JUDGE_OPTIONS`, or ``"all"``), the ones the game fixes (``fixed_rules``), and
  the choices of seconds to answer and to decide (``answer_seconds``, ``confirm_seconds``; ``None`` leaves
  the option out) and to take a verdict back (``undo_seconds``: 0 in the engine, a few seconds in a room);
* **who asks whom, and what** — each time, with :meth:`QuizStep.open` (a card, or one of its questions by
  index or category, or a choice between them) or :meth:`QuizStep.ask` (a single bank question).

The step lives in ``state[key]`` (``"ask"``); the component reads the room's options from ``state["options"]``
and the number of players from ``state["players"]``.

>>> from mindtable.trivia.model import Question
>>> def scored(state, ask, rng):
...     state["score"] += ask["verdict"]["correct"]
...     state["ask"] = None
...     return []
>>> QUIZ = QuizStep(scored, house_rules=("typos",), answer_seconds=(0, 30))
>>> [o.name for o in QUIZ.options]
['answer_seconds', 'confirm_seconds', 'undo_seconds', 'typos']
>>> state = {"players": 2, "options": {"answer_seconds": 30, "confirm_seconds": 0, "typos": "normal"}, "score": 0}
>>> events = QUIZ.ask(state, Question("q1", "text", "Capital of Australia?", "CANBERRA"), reader=1, answerers=[0],
...                  at=1_000)
>>> QUIZ.waiting(state), QUIZ.deadline(state)
([0], Deadline(at=31000, action={'type': 'ask_time_up'}))
>>> "CANBERRA" in str(QUIZ.view(state, 0)), "CANBERRA" in str(QUIZ.view(state, 1))
(False, True)
>>> QUIZ.secrets(state)[0]
((1,), '"CANBERRA"')
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mindtable.core.events import Deadline, Event
from mindtable.core.moves import Move
from mindtable.core.options import Option
from mindtable.core.views import LazyView, Once
from mindtable.trivia.judge import JUDGE_OPTIONS
from mindtable.trivia.model import Card, Question
from mindtable.trivia.quiz import (
    ASK_CODES,
    ASK_SEAT_PARAMS,
    Ask,
    AskView,
    OnDecided,
    State,
    ask_deadline,
    ask_moves,
    ask_secrets,
    ask_view,
    bot_ask_view,
    open_ask,
    waiting_for,
)

#: The judge's house rules by name.
HOUSE_RULES: dict[str, Option] = {o.name: o for o in JUDGE_OPTIONS}
#: The choices of ``undo_seconds`` (the reader's time to take a verdict back), and what a room starts with.
UNDO_SECONDS = (0, 2, 4, 8)
ROOM_UNDO_SECONDS = 4
#: ``time_limit_ms`` when :meth:`QuizStep.open` should take it from the room's ``answer_seconds``.
FROM_OPTIONS: Any = object()


@dataclass(frozen=True)
class QuizStep:
    """A game's ask step, declared once. See the module's documentation."""

    on_decided: OnDecided
    #: The judge's options the room may set (names from ``JUDGE_OPTIONS``), or ``"all"``.
    house_rules: Sequence[str] | str = ("typos", "surname_alone")
    #: Judge rules the game fixes whatever the room says (Caída Libre's Quote 5: ``list_extras="ignore"``).
    fixed_rules: Mapping[str, Any] = field(default_factory=dict)
    #: The choices of the room's ``answer_seconds`` option (0: no limit), or ``None`` for no such option.
    answer_seconds: Sequence[int] | None = (0, 30, 60)
    #: The choices of the room's ``confirm_seconds`` option (0: the reader takes their time), or ``None``.
    confirm_seconds: Sequence[int] | None = (0, 20, 60)
    #: The choices of the room's ``undo_seconds`` option: how long the reader's verdict waits before it counts,
    #: during which they may take it back (0: it counts at once, as the books have it), or ``None``.
    undo_seconds: Sequence[int] | None = UNDO_SECONDS
    #: Whether the room may let the table vote on an answer (an option ``vote``, off by default).
    vote_option: bool = False
    #: Where the step lives in the state.
    key: str = "ask"
    #: A change to each of the step's moves, for a game whose book adds to the step (a clock, a closed option).
    adapt: Callable[[Move], Move] | None = None

    def __post_init__(self) -> None:
        names = list(HOUSE_RULES) if self.house_rules == "all" else list(self.house_rules)
        unknown = [n for n in names if n not in HOUSE_RULES]
        if unknown:
            raise ValueError(f"unknown house rules {unknown}; the judge's are {', '.join(HOUSE_RULES)}")
        object.__setattr__(self, "house_rules", tuple(names))
        if self.undo_seconds is not None and not {0, ROOM_UNDO_SECONDS} <= set(self.undo_seconds):
            raise ValueError(f"undo_seconds must offer 0 and the rooms' {ROOM_UNDO_SECONDS}, got {self.undo_seconds}")

    # --- what the game puts in its declarations ---------------------------------------------------------------

    @property
    def moves(self) -> list[Move]:
        """The step's moves, for the game's :class:`~mindtable.core.moves.MoveTable`. Each verdict, once it
        counts, goes into the table's history (:meth:`history`) before the game's ``on_decided`` scores it."""
        on_decided = self.on_decided
        history_key = self.history_key

        def decided(state: State, ask: Ask, rng: Any) -> list[Event]:
            remember(state, history_key, ask)
            return on_decided(state, ask, rng)

        moves = ask_moves(self.key, on_decided=decided)
        return [self.adapt(m) for m in moves] if self.adapt is not None else moves

    @property
    def history_key(self) -> str:
        """Where the state keeps the questions decided so far (:meth:`history`)."""
        return f"{self.key}_history"

    @property
    def codes(self) -> dict[str, str]:
        """The step's reason codes (their words are in the site's catalogue, ``error.<code>``)."""
        return dict(ASK_CODES)

    @property
    def seat_params(self) -> dict[str, tuple[str, ...]]:
        """The step's codes whose parameters name seats."""
        return dict(ASK_SEAT_PARAMS)

    @property
    def options(self) -> tuple[Option, ...]:
        """The room options the step adds to the game's ``option_schema`` (their words are the site's)."""
        out: list[Option] = []
        if self.answer_seconds is not None:
            out.append(
                Option("answer_seconds", int, default=0, choices=tuple(self.answer_seconds), help="seconds to answer")
            )
        if self.confirm_seconds is not None:
            out.append(
                Option(
                    "confirm_seconds",
                    int,
                    default=0,
                    choices=tuple(self.confirm_seconds),
                    help="seconds the reader has to decide (then the judge's suggestion stands)",
                )
            )
        if self.undo_seconds is not None:
            # 0 in the engine (simulations, the API, records: the books' verdict counts at once); a room gives
            # people a few seconds to take back a slip of the finger. Left out of a match's options at 0, so
            # that matches made before the option existed start (and replay) exactly as they did.
            out.append(
                Option(
                    "undo_seconds",
                    int,
                    default=0,
                    choices=tuple(self.undo_seconds),
                    help="seconds the reader may take a verdict back before it counts (0: it counts at once)",
                    room_default=ROOM_UNDO_SECONDS,
                    omit_default=True,
                )
            )
        if self.vote_option:
            out.append(Option("vote", bool, default=False, help="the table may vote on an answer"))
        out += [HOUSE_RULES[name] for name in self.house_rules]
        return tuple(out)

    def rules(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The judge's house rules of a match with these ``options``."""
        return {**{name: options[name] for name in self.house_rules}, **self.fixed_rules}

    # --- asking -------------------------------------------------------------------------------------------------

    def open(
        self,
        state: State,
        card: Card | Mapping[str, Any],
        *,
        reader: int,
        answerers: Sequence[int],
        question: int | str | None = 0,
        choices: Sequence[int] | None = None,
        options: str = "allowed",
        time_limit_ms: int | None = FROM_OPTIONS,
        at: int | None = None,
    ) -> list[Event]:
        """Open the step on ``card`` (``state[key]``) and return its events: ``reader`` holds the card,
        ``answerers`` answer its question ``question`` (an index or a category), or choose among ``choices``.
        ``options`` says whether the answerer may ask for the options (``allowed``, ``never``, ``shown``). The
        time to answer is the room's ``answer_seconds`` unless ``time_limit_ms`` says otherwise (``None``: no
        limit)."""
        settings = state["options"]
        if time_limit_ms is FROM_OPTIONS:
            time_limit_ms = (settings.get("answer_seconds") or 0) * 1000 or None
        confirm = (settings.get("confirm_seconds") or 0) * 1000 or None
        undo = (settings.get("undo_seconds") or 0) * 1000 or None
        state[self.key], events = open_ask(
            card,
            reader=reader,
            answerers=answerers,
            players=state["players"],
            question=question,
            choices=choices,
            options=options,
            time_limit_ms=time_limit_ms,
            confirm_ms=confirm,
            vote=bool(settings.get("vote", False)) if self.vote_option else False,
            rules=self.rules(settings),
            at=at,
            undo_ms=undo,
        )
        return events

    def ask(
        self,
        state: State,
        question: Question | Mapping[str, Any],
        *,
        reader: int,
        answerers: Sequence[int],
        options: str = "allowed",
        time_limit_ms: int | None = FROM_OPTIONS,
        at: int | None = None,
    ) -> list[Event]:
        """Ask a single bank question (no card around it): as :meth:`open` on a card of that one question."""
        q = question if isinstance(question, Question) else Question.from_dict(question)
        card = Card(q.id, (q,), type="question", topic=q.category, language=q.language)
        return self.open(
            state, card, reader=reader, answerers=answerers, options=options, time_limit_ms=time_limit_ms, at=at
        )

    # --- what the game's Game methods delegate -------------------------------------------------------------

    def current(self, state: State) -> Ask | None:
        """The step in ``state``, or ``None`` when nothing is asked."""
        step: Ask | None = state.get(self.key)
        return step

    def waiting(self, state: State) -> list[int]:
        """The seats the step waits for (for ``Game.to_act``)."""
        return waiting_for(self.current(state))

    def deadline(self, state: State) -> Deadline | None:
        """The step's next deadline (for ``Game.next_deadline``)."""
        return ask_deadline(self.current(state))

    def view(self, state: State, seat: int | None) -> AskView | None:
        """What ``seat`` may see of the step (for ``Game.view``)."""
        return ask_view(self.current(state), seat)

    def bot_view(self, state: State, seat: int | None) -> Mapping[str, Any] | None:
        """:meth:`view` for a bot: equal to it, built as it is read (:func:`~mindtable.trivia.quiz.bot_ask_view`)."""
        return bot_ask_view(self.current(state), seat)

    def bot_views(
        self,
        state: State,
        seats: Sequence[int],
        to_act: list[int],
        public: Callable[[], Mapping[str, Any]],
        own: Mapping[str, Callable[[], Any]] | None = None,
    ) -> dict[int, LazyView]:
        """For ``Game.bot_views``: views built as they are read, for a game whose view is ``public()`` (alike for
        every seat, with a placeholder at ``view[key]``) with the step's view (:meth:`view`) at ``view[key]``.
        ``public`` is built once for all ``seats`` if a bot reads it; ``own`` are further keys built apart (cheap
        ones a bot reads at every step)."""
        shared = Once(public)
        extra = dict(own or {})
        return {
            seat: LazyView(
                shared, {self.key: functools.partial(self.bot_view, state, seat), **extra}, {"to_act": list(to_act)}
            )
            for seat in seats
        }

    def secrets(self, state: State) -> list[tuple[tuple[int, ...], str]]:
        """What only the reader may see (for ``Game.secrets``): the card's answers and prompts not yet public —
        but a text the table's history already shows everyone (an earlier card's answer that reads the same,
        "b) Chile") is no secret any more, whichever card it comes from."""
        found = ask_secrets(self.current(state))
        history = self.history(state)
        if not found or not history:
            return found
        public = {json.dumps(entry.get(name)) for entry in history for name in ("answer", "prompt", "given")}
        return [(seats, text) for seats, text in found if text not in public]

    def history(self, state: State) -> list[dict[str, Any]]:
        """The last questions decided at this table, oldest first (for ``Game.view``, as ``view["quiz_history"]``; at
        most :data:`HISTORY_LENGTH`): who answered, who read, the question, the answer given, the card's answer,
        the verdict (a judge's code with parameters) and who decided it. Every seat may see all of it: a
        question's answer is public once its verdict counts, and nothing of a card's other questions is kept."""
        return list(state.get(self.history_key) or ())

    def read_before(self, view: Mapping[str, Any], action: Mapping[str, Any]) -> str:
        """What a person reads before ``action`` (for ``Game.read_before``): the question and its options before
        answering it, asking for the options or passing; the topics before choosing one; the question and the
        answer given before deciding on it."""
        ask = view.get(self.key)
        if not isinstance(ask, Mapping):
            return ""
        kind = action.get("type")
        question = ask.get("question") or {}
        if kind == "ask_choose":
            headings = (ask.get("headings") or {}).get("headings") or []
            return " ".join(str(h.get("topic") or h.get("category") or "") for h in headings)
        if kind in ("ask_answer", "ask_options", "ask_pass"):
            return " ".join([str(question.get("prompt") or ""), *map(str, question.get("options") or ())])
        if kind in ("ask_confirm", "ask_overrule", "ask_vote"):
            return f"{question.get('prompt') or ''} {ask.get('given') or ''}"
        return ""


#: How many decided questions a table's history keeps (the oldest go first).
HISTORY_LENGTH = 50


def remember(state: State, key: str, ask: Ask) -> None:
    """Add the question just decided in ``ask`` to the history ``state[key]`` (see :meth:`QuizStep.history`)."""
    result = ask["results"][-1]
    entry = {
        "n": 1 + ((state.get(key) or [{}])[-1].get("n", 0)),
        "answerers": list(ask["answerers"]),
        "reader": ask["reader"],
        "topic": (ask["card"]["questions"][result["index"]].get("category") or ask["card"].get("topic") or ""),
        "prompt": result["prompt"],
        "given": result.get("given"),
        "answer": result["answer"],
        "correct": bool(result["correct"]),
        "code": result.get("code"),
        "params": dict(result.get("params") or {}),
        "with_options": bool(result.get("with_options")),
        "overruled": bool(result.get("overruled")),
        "by": result.get("by"),
        "seat": result.get("seat"),
    }
    for name in ("named", "needed"):
        if result.get(name) is not None:
            entry[name] = result[name]
    kept = list(state.get(key) or ())
    kept.append(entry)
    state[key] = kept[-HISTORY_LENGTH:]

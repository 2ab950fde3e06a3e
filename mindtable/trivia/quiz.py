"""The ask step every quiz game shares: a question put to a player, an answer judged, a verdict decided.

The step is plain JSON in the game's state (``state["ask"]`` by convention) plus pure functions and moves the
game puts in its move table. How it goes:

1. The game draws a card (from a deck in its state, see :mod:`mindtable.kit.deck`) and opens the step with
   :func:`open_ask`: the *reader* (the player the book names) sees the whole card with its answers; the
   *answering side* (one seat, or a team) and everyone else see the prompt of the question being asked —
   never its answer, nor the card's other questions before they are asked. A card may let the answerer
   choose which of its questions to take (Caída Libre's double questions: topics and penalties shown first).
2. The answerer types an answer (``ask_answer``; ``ask_type`` keeps a draft as they type), asks for the
   options where the game allows (``ask_options``: the step records that options were read out, and option
   letters such as ``"b"`` count only after that), or passes (``ask_pass``).
3. The judge (:func:`mindtable.trivia.judge.judge_answer`) makes a *suggestion* with its reason (a code with
   parameters), shown to the reader only; the reader confirms it (``ask_confirm``) or overrules it
   (``ask_overrule``; for a list answer, with the number of items they count right). Where the game's book
   lets the players decide, anyone may call a table vote (``ask_call_vote``, then ``ask_vote``; a tie keeps
   the suggestion).
4. The verdict that counts, who decided it (``reader``, ``vote``, ``timeout``, ``pass``) and the seat, go
   into the events (``ask_decided``) and the record (the deciding action, or the system's ``ask_settle``);
   the question's answer is then shown to everyone. The game's ``on_decided`` callback scores it.
   With ``undo_ms`` (the room's ``undo_seconds``) the reader's own verdict is first *pending* for that long
   (phase ``pending``, ``ask_pending``; shown as a verdict is, answer and all): the reader may take it back
   (``ask_undo``: deciding again, the question's answer hidden again) or let it count now (``ask_final``);
   when the time is up it counts (the system's ``ask_undo_time_up``). Bots are never offered ``ask_undo``.

Time: ``time_limit_ms`` makes the answer due by a deadline (``ask_time_up``, a system move the driver applies
at :func:`ask_deadline`): what was typed by then (the draft) is judged, item by item for a list. With
``confirm_ms`` the reader has that long to decide, after which the suggestion stands (``ask_settle``). A bot
reader confirms the suggestion; a reader who leaves is replaced by the game's first bot, which does the same.

A game uses it in a few lines::

    from mindtable.trivia.quiz import ASK_CODES, ask_moves, open_ask, ask_view, ask_secrets, ask_deadline

    def scored(state, ask, rng):                     # called once the verdict is decided
        if ask["verdict"]["correct"]:
            state["scores"][ask["answerers"][0]] += 1
        state["ask"] = None
        return []

    MOVES = MoveTable([*my_moves, *ask_moves(on_decided=scored)])
    CODES = {**MY_CODES, **ASK_CODES}

>>> from mindtable.trivia.model import Card, Question
>>> card = Card("c1", (Question("c1/1", "text", "Capital of Australia?", "CANBERRA", options=("Sydney", "Canberra"),
...                             correct=1),))
>>> ask, events = open_ask(card, reader=1, answerers=[0], players=2)
>>> view = ask_view(ask, 0)
>>> view["question"]["prompt"], "CANBERRA" in json.dumps(view), view["options_available"]
('Capital of Australia?', False, True)
>>> ask_view(ask, 1)["card"]["questions"][0]["answer"]
'CANBERRA'
>>> _ = answer(ask, 0, "b", at=None)          # a letter before the options were read out is just text
>>> ask["suggestion"]["correct"], ask["suggestion"]["code"]
(False, 'no_match')
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, NotRequired, TypedDict, cast

from mindtable.core.codes import refuse
from mindtable.core.errors import IllegalAction, InvalidOptions
from mindtable.core.events import Deadline, Event
from mindtable.core.moves import Move, Param, declare_gate
from mindtable.core.views import LazyView, Once
from mindtable.trivia.judge import HouseRules, judge_answer
from mindtable.trivia.model import OPTION_LETTERS, Card, Question, question_from_dict

State = dict[str, Any]


class Suggestion(TypedDict):
    """The judge's verdict on an answer, as JSON (:func:`suggest`); a list question adds its counts."""

    correct: bool
    #: The judge's reason as a code with parameters, and in English.
    code: str
    params: dict[str, Any]
    reason: str
    #: Whether the answer came after the options were read out.
    with_options: bool
    named: NotRequired[int]
    needed: NotRequired[int]
    missing: NotRequired[int]
    items: NotRequired[list[str]]


class Verdict(Suggestion, total=False):
    """The verdict that counts: the suggestion as it was decided, who decided it (``by``, one of
    :data:`DECIDERS`, and ``seat``, ``None`` for the system), whether it went against the judge, a vote's count."""

    by: str
    seat: int | None
    overruled: bool
    votes: dict[str, int]


class AskResult(Verdict):
    """A decided question of the card, shown to everyone: which it was, its answer, what was given."""

    index: int
    prompt: str
    answer: str
    given: str | None


class Ask(TypedDict):
    """The ask step as the state keeps it (``state["ask"]``): plain JSON. See :func:`open_ask`. ``undo_ms`` is
    there only when the reader may take a verdict back, ``undo_deadline`` only while a verdict is pending."""

    card: dict[str, Any]
    reader: int
    answerers: list[int]
    voters: list[int]
    #: One of :data:`PHASES`.
    phase: str
    index: int | None
    choices: list[int] | None
    asked: list[int]
    #: One of :data:`OPTION_MODES`.
    options: str
    options_shown: bool
    draft: str | None
    given: str | None
    passed: bool
    opened_at: int
    time_limit_ms: int | None
    deadline: int | None
    confirm_ms: int | None
    judge_deadline: int | None
    vote: bool
    votes: dict[str, str]
    rules: dict[str, Any]
    suggestion: Suggestion | Verdict | None
    verdict: Verdict | None
    results: list[AskResult]
    undo_ms: NotRequired[int]
    undo_deadline: NotRequired[int]


class AskView(TypedDict):
    """What a seat sees of the step (:func:`ask_view`): the reader also gets ``card`` (with its answers) and the
    judge's ``suggestion``, which everyone sees once the question is decided or put to the vote."""

    phase: str
    #: ``reader``, ``answerer``, ``voter`` or ``watcher``.
    role: str
    reader: int
    answerers: list[int]
    headings: dict[str, Any]
    choices: list[int] | None
    question: dict[str, Any] | None
    options_available: bool
    options_shown: bool
    draft: str | None
    given: str | None
    passed: bool
    deadline: int | None
    judge_deadline: int | None
    vote: bool
    votes: dict[str, str]
    waiting: list[int]
    verdict: Verdict | None
    results: list[AskResult]
    card: NotRequired[dict[str, Any]]
    suggestion: NotRequired[Suggestion | Verdict | None]
    #: While the reader's verdict is pending (phase ``pending``): when it counts unless taken back.
    undo_deadline: NotRequired[int]


#: What a game's ``on_decided(state, ask, rng)`` is: called once a verdict counts, it returns the game's events.
OnDecided = Callable[[State, Ask, Any], list[Event]]

#: Phases of the step.
PHASES = ("choose", "answer", "judge", "vote", "pending", "decided")
#: ``options``: ``allowed`` (the answerer may ask for them), ``never`` (a direct answer only: Carrera's star
#: squares and steals, the experts' variant), ``shown`` (they are part of the question from the start).
OPTION_MODES = ("allowed", "never", "shown")
ANSWER_LIMIT = 300

#: The step's reason codes (add them to the game's ``codes`` and page strings ``error.<code>``).
ASK_CODES: dict[str, str] = {
    "ask_none": "no question is being asked now",
    "ask_not_answerer": "only the answering side ({answerers}) may do that now",
    "ask_not_reader": "only the reader, seat {reader}, may do that now",
    "ask_choose_first": "choose one of the card's questions first",
    "ask_not_answering": "the answer is already given; waiting for {waiting}",
    "ask_not_judging": "there is no answer waiting for a verdict",
    "ask_no_options": "this question has no options to read out",
    "ask_options_closed": "options may not be asked for on this question",
    "ask_options_shown": "the options were already read out",
    "ask_time_up": "the time for the answer ran out at {deadline} ms",
    "ask_no_vote": "the players do not vote on answers in this game",
    "ask_not_voting": "no vote is open now",
    "ask_not_voter": "seat {seat} does not vote on this answer",
    "ask_voted": "seat {seat} has already voted",
    "ask_verdict_pending": "the verdict is given; it counts at {deadline} ms unless the reader takes it back",
    "ask_not_pending": "there is no verdict waiting to count now",
}

#: The step's codes whose parameters name a seat or a list of seats (add them to the game's ``seat_params``).
ASK_SEAT_PARAMS: dict[str, tuple[str, ...]] = {
    "ask_not_answerer": ("answerers",),
    "ask_not_answering": ("waiting",),
    "ask_not_reader": ("reader",),
    "ask_not_voter": ("seat",),
    "ask_voted": ("seat",),
}

#: The words a verdict's ``by`` takes.
DECIDERS = ("reader", "vote", "timeout", "pass")


# --- opening ------------------------------------------------------------------------------------------------


def open_ask(
    card: Card | Mapping[str, Any],
    *,
    reader: int,
    answerers: Sequence[int],
    players: int,
    question: int | str | None = 0,
    choices: Sequence[int] | None = None,
    options: str = "allowed",
    time_limit_ms: int | None = None,
    confirm_ms: int | None = None,
    vote: bool = False,
    rules: Mapping[str, Any] | None = None,
    at: int | None = None,
    undo_ms: int | None = None,
) -> tuple[Ask, list[Event]]:
    """A new ask step for ``card`` and its events.

    ``question`` is the index of the card's question to ask, or its category (an Eesti card's ``"sport"``);
    with ``choices`` (indices) the answerer first chooses one of them (``ask_choose``). ``rules`` are the
    judge's house rules (:data:`mindtable.trivia.judge.JUDGE_OPTIONS`). ``at`` is the time of the action that
    opened the step (deadlines count from it). With ``undo_ms`` the reader's verdict waits that long before it
    counts, and may be taken back meanwhile (see the module's documentation).
    """
    data = card.to_dict() if isinstance(card, Card) else dict(card)
    parsed = Card.from_dict(data)
    if options not in OPTION_MODES:
        raise ValueError(f"options must be one of {', '.join(OPTION_MODES)}, got {options!r}")
    if reader in answerers:
        raise ValueError(f"the reader (seat {reader}) cannot be on the answering side {list(answerers)}")
    HouseRules.from_options(rules)  # raises InvalidOptions naming a bad house rule now, not mid-game
    index: int | None = None
    if choices is None:
        if question is None:
            raise ValueError("give the question to ask, or the choices the answerer chooses from")
        index = parsed.question(question)[0]
    else:
        choices = [int(c) for c in choices]
        if not choices or any(not 0 <= c < len(parsed.questions) for c in choices):
            raise ValueError(f"choices must be indices of the card's questions, got {choices}")
    now = at or 0
    ask: Ask = {
        "card": data,
        "reader": reader,
        "answerers": list(answerers),
        "voters": [s for s in range(players) if s not in answerers],
        "phase": "choose" if index is None else "answer",
        "index": index,
        "choices": list(choices) if choices is not None else None,
        "asked": [],
        "options": options,
        "options_shown": False,
        "draft": None,
        "given": None,
        "passed": False,
        "opened_at": now,
        "time_limit_ms": time_limit_ms,
        "deadline": None,
        "confirm_ms": confirm_ms,
        "judge_deadline": None,
        "vote": vote,
        "votes": {},
        "rules": dict(rules or {}),
        "suggestion": None,
        "verdict": None,
        "results": [],
    }
    if undo_ms:
        ask["undo_ms"] = int(undo_ms)
    events = [
        Event(
            "ask_opened",
            {"reader": reader, "answerers": list(answerers), "card": _headings(ask), "choices": ask["choices"]},
        ),
        Event("ask_card", {"reader": reader, "card": data}, to=(reader,)),
    ]
    if index is not None:
        events += _start_question(ask, index, now, parsed.questions[index])
    return ask, events


def ask_next(ask: Ask, question: int | str, at: int | None = None) -> list[Event]:
    """Ask another question of the same card (Caída Libre's shootout, fake news, more or less)."""
    index = Card.from_dict(ask["card"]).question(question)[0]
    ask.update(
        {
            "phase": "answer",
            "options_shown": False,
            "draft": None,
            "given": None,
            "passed": False,
            "suggestion": None,
            "verdict": None,
            "votes": {},
            "judge_deadline": None,
        }
    )
    return _start_question(ask, index, at or 0)


def _start_question(ask: Ask, index: int, at: int, q: Question | None = None) -> list[Event]:
    """Ask the card's question ``index`` (``q``: that question, when the caller has just read the card)."""
    ask["phase"] = "answer"  # also after the answerer chose one of the card's questions (ask_choose)
    ask["index"] = index
    ask["asked"].append(index)
    ask["opened_at"] = at
    ask["deadline"] = at + ask["time_limit_ms"] if ask["time_limit_ms"] else None
    if q is None:
        q = current_question(ask)
    if ask["options"] == "shown" or q.kind in ("choice", "higher"):
        ask["options_shown"] = bool(q.options)
    return [Event("ask_question", {"question": _public_question(ask, index), "deadline": ask["deadline"]})]


# --- reading the step ---------------------------------------------------------------------------------------


def current_question(ask: Ask) -> Question:
    if ask["index"] is None:
        raise ValueError("no question is chosen yet")
    return question_from_dict(ask["card"]["questions"][ask["index"]])


def _heading(q: Mapping[str, Any]) -> dict[str, Any]:
    out = {"kind": q["kind"], "category": q.get("category", "")}
    extra = q.get("extra")
    if extra:
        for name in _HEADING_EXTRAS:
            if name in extra:
                out[name] = extra[name]
    return out


_HEADING_EXTRAS = ("topic", "penalty", "slot")


def _headings(ask: Ask) -> dict[str, Any]:
    card = ask["card"]
    return {
        "type": card.get("type", ""),
        "topic": card.get("topic", ""),
        "pack": card.get("pack", ""),
        "size": len(card["questions"]),
        "headings": [_heading(q) for q in card["questions"]],
    }


def _public_question(ask: Ask, index: int) -> dict[str, Any]:
    q = ask["card"]["questions"][index]
    out = {"index": index, "prompt": q["prompt"], **_heading(q)}
    if q["kind"] == "list":
        out["count"] = q.get("count") or len(q.get("items", ()))
    if q.get("unit"):
        out["unit"] = q["unit"]
    if ask["options_shown"] and index == ask["index"] and q.get("options"):
        out["options"] = list(q["options"])
    return out


def _has_options(ask: Ask) -> bool:
    return bool(ask["card"]["questions"][ask["index"]].get("options"))


def options_available(ask: Ask) -> bool:
    """Whether the answerer may ask for the options now."""
    return ask["phase"] == "answer" and ask["options"] == "allowed" and not ask["options_shown"] and _has_options(ask)


def waiting_for(ask: Ask | None) -> list[int]:
    """The seats the step waits for now (for the game's ``to_act``)."""
    if ask is None:
        return []
    phase = ask["phase"]
    if phase in ("choose", "answer"):
        return list(ask["answerers"])
    if phase in ("judge", "pending"):
        return [ask["reader"]]
    if phase == "vote":
        return [s for s in ask["voters"] if str(s) not in ask["votes"]]
    return []


def ask_deadline(ask: Ask | None) -> Deadline | None:
    """The step's next deadline: the answer's time limit, or the reader's (or the vote's) time to decide."""
    if ask is None:
        return None
    if ask["phase"] == "answer" and ask["deadline"] is not None:
        return Deadline(ask["deadline"], {"type": "ask_time_up"})
    if ask["phase"] in ("judge", "vote") and ask["judge_deadline"] is not None:
        return Deadline(ask["judge_deadline"], {"type": "ask_settle"})
    if ask["phase"] == "pending":
        return Deadline(ask["undo_deadline"], {"type": "ask_undo_time_up"})
    return None


def ask_view(ask: Ask | None, seat: int | None) -> AskView | None:
    """What ``seat`` may see of the step: the reader also gets the card with its answers (``card``) and the
    judge's suggestion; everyone sees the headings, the question being asked, what was typed, and each
    decided question with its answer."""
    if ask is None:
        return None
    return _ask_view(ask, seat, True)


def bot_ask_view(ask: Ask | None, seat: int | None) -> Mapping[str, Any] | None:
    """:func:`ask_view` for a bot: a read-only mapping equal to it, each part built when first read (the phase, the
    question being asked, the headings and the results apart, the rest together), so that a reader who only
    confirms, or an answerer who reads the question, has no more built than that."""
    if ask is None:
        return None
    index = ask["index"]

    def headings() -> dict[str, Any]:
        return _headings(ask)

    def question() -> dict[str, Any] | None:
        return _public_question(ask, index) if index is not None else None

    def phase() -> str:
        return ask["phase"]

    def results() -> list[AskResult]:
        return list(ask["results"])

    own = {"phase": phase, "headings": headings, "question": question, "results": results}
    return LazyView(Once(lambda: _ask_view(ask, seat, False)), own)


def _ask_view(ask: Ask, seat: int | None, parts: bool) -> AskView:
    """:func:`ask_view`; without ``parts`` the headings (empty) and the question (``None``) are built apart."""
    # A pending verdict is shown as a decided one is: the question's answer and the judge's suggestion included.
    decided = ask["phase"] in ("pending", "decided")
    role = (
        "reader"
        if seat == ask["reader"]
        else "answerer"
        if seat in ask["answerers"]
        else "voter"
        if seat in ask["voters"]
        else "watcher"
    )
    out: AskView = {
        "phase": ask["phase"],
        "role": role,
        "reader": ask["reader"],
        "answerers": list(ask["answerers"]),
        "headings": _headings(ask) if parts else {},
        "choices": ask["choices"],
        "question": _public_question(ask, ask["index"]) if parts and ask["index"] is not None else None,
        "options_available": ask["index"] is not None and options_available(ask),
        "options_shown": ask["options_shown"],
        "draft": ask["draft"],
        "given": ask["given"],
        "passed": ask["passed"],
        "deadline": ask["deadline"] if ask["phase"] == "answer" else None,
        "judge_deadline": ask["judge_deadline"] if ask["phase"] in ("judge", "vote") else None,
        "vote": ask["vote"],
        "votes": dict(ask["votes"]),
        "waiting": waiting_for(ask),
        "verdict": ask["verdict"],
        "results": list(ask["results"]),
    }
    if seat == ask["reader"]:
        out["card"] = ask["card"]
        out["suggestion"] = ask["suggestion"]
    elif decided or ask["phase"] == "vote":
        out["suggestion"] = ask["suggestion"]
    if ask["phase"] == "pending":
        out["undo_deadline"] = ask["undo_deadline"]
    return out


def reader_answer(question: Mapping[str, Any], say: Callable[..., str]) -> str:
    """The answer printed on the reader's card for one of its questions (a question of ``view["ask"]["card"]``),
    as surfaces show it (like ``readerCard`` in ``js/quiz.js``): the items of a list joined by "; ", true or
    false in ``say``'s words (``quiz.true``/``quiz.false``), the right option with its letter, the answer.

    >>> say = {"quiz.true": "True", "quiz.false": "False"}.get
    >>> reader_answer({"kind": "list", "items": ["Switzerland", "France"]}, say)
    'Switzerland; France'
    >>> reader_answer({"kind": "truefalse", "answer": "false"}, say)
    'False'
    >>> reader_answer({"kind": "text", "answer": "MARS", "options": ["Venus", "Mars"], "correct": 1}, say)
    'b) Mars — MARS'
    """
    if question.get("kind") == "list" or (not question.get("answer") and question.get("items")):
        return "; ".join(str(item) for item in question.get("items") or ())
    answer = question.get("answer")
    if question.get("kind") == "truefalse":
        return say("quiz.true" if str(answer).lower() == "true" else "quiz.false")
    options, correct = question.get("options"), question.get("correct")
    if options and correct is not None and 0 <= correct < len(options):
        right = f"{OPTION_LETTERS[correct]}) {options[correct]}"
        return f"{right} — {answer}" if answer else right
    return "" if answer is None else str(answer)


def overrule_count_asked(entry: Mapping[str, Any], spec: Mapping[str, Any], view: Mapping[str, Any]) -> bool:
    """Whether a surface asks a person for the typed input ``spec`` of the legal action ``entry``: the number of
    items counted right comes with an overrule only on a list question (else the overrule flips the verdict)."""
    if entry.get("type") == "ask_overrule" and spec.get("name") == "named":
        ask = view.get("ask") or {}
        return bool((ask.get("question") or {}).get("count"))
    return True


def ask_secrets(ask: Ask | None) -> list[tuple[tuple[int, ...], str]]:
    """For ``Game.secrets``: the answers not yet revealed and the prompts not yet asked, which only the reader
    may see (as the JSON strings that would appear in a view)."""
    if ask is None:
        return []
    reader = (ask["reader"],)
    out: list[tuple[tuple[int, ...], str]] = []
    revealed = {r["index"] for r in ask["results"]}
    for index, q in enumerate(ask["card"]["questions"]):
        if index in revealed:
            continue
        question = question_from_dict(q)
        shown = question.display_answer
        # An answer of a few characters ("3", "Au") stands in many an honest view ("pack": "3"): it cannot be
        # told from a leak by looking for its text, so it is left out of the check (the prompt still counts).
        if question.kind not in ("truefalse",) and shown and len(shown.strip()) > 3:
            out.append((reader, json.dumps(shown)))
        if index not in ask["asked"]:
            out.append((reader, json.dumps(q["prompt"])))
    return out


def outcome(ask: Ask) -> Verdict:
    """The decided verdict of the current question (``correct``, ``named``/``missing`` for lists,
    ``with_options``, ``by``, ``seat``…)."""
    if ask["verdict"] is None:
        raise ValueError("the verdict is not decided yet")
    return ask["verdict"].copy()


# --- judging ------------------------------------------------------------------------------------------------


def _json_params(params: Sequence[tuple[str, Any]]) -> dict[str, Any]:
    out = {}
    for name, value in params:
        out[name] = value if isinstance(value, (str, int, float, bool)) or value is None else str(value)
    return out


def suggest(ask: Ask, text: str) -> Suggestion:
    """The judge's verdict on ``text`` for the current question, as JSON: a suggestion for the reader.

    Option letters count only once the options were read out: before that the question is judged without
    its options, so ``"b"`` is just the text "b".
    """
    q = current_question(ask)
    judged = q
    if q.options and not ask["options_shown"] and q.kind not in ("choice", "higher"):
        judged = replace(q, options=(), correct=None)
    try:
        verdict = judge_answer(judged, text, **ask["rules"])
    except InvalidOptions:  # checked when the step opened; never expected here
        raise
    out: Suggestion = {
        "correct": verdict.correct,
        "code": verdict.code,
        "params": _json_params(verdict.params),
        "reason": verdict.reason,
        "with_options": ask["options_shown"] and q.kind == "text",
    }
    if q.kind == "list":
        needed = q.count or len(q.items)
        out.update(
            {
                "named": needed - verdict.missing,
                "needed": needed,
                "missing": verdict.missing,
                "items": list(verdict.matched_items),
            }
        )
    return out


def _decide(ask: Ask, verdict: Suggestion | Verdict, by: str, seat: int | None) -> list[Event]:
    decided: Verdict = {**verdict, "by": by, "seat": seat}
    ask["verdict"] = decided
    ask["phase"] = "decided"
    ask["judge_deadline"] = None
    q = current_question(ask)
    result: AskResult = {
        "index": cast(int, ask["index"]),
        "prompt": q.prompt,
        "answer": q.display_answer,
        "given": ask["given"],
        **decided,
    }
    ask["results"].append(result)
    return [Event("ask_decided", result)]


def _reader_decides(ask: Ask, verdict: Verdict, seat: int, at: int | None) -> list[Event]:
    """The reader's verdict: it counts now, or (with ``undo_ms``) is pending until ``undo_deadline``, shown as a
    decided verdict is (``ask_pending``, the same result ``ask_decided`` will carry)."""
    events = _decide(ask, verdict, "reader", seat)
    undo_ms = ask.get("undo_ms")
    if not undo_ms:
        return events
    ask["phase"] = "pending"
    ask["undo_deadline"] = (at if at is not None else ask["opened_at"]) + undo_ms
    return [Event("ask_pending", {**ask["results"][-1], "undo_deadline": ask["undo_deadline"]})]


def _count_pending(ask: Ask) -> list[Event]:
    """The pending verdict counts: decided, as it would have been without the time to undo it."""
    ask["phase"] = "decided"
    del ask["undo_deadline"]
    return [Event("ask_decided", ask["results"][-1])]


def _undo(ask: Ask, seat: int, at: int | None) -> list[Event]:
    """The reader takes the pending verdict back: deciding again, on the same answer and suggestion, with the
    time to decide (``confirm_ms``) counted anew; the question's answer is hidden again."""
    ask["results"].pop()
    ask["verdict"] = None
    ask["phase"] = "judge"
    del ask["undo_deadline"]
    if ask["confirm_ms"]:
        ask["judge_deadline"] = (at if at is not None else ask["opened_at"]) + ask["confirm_ms"]
    return [Event("ask_undone", {"seat": seat, "judge_deadline": ask["judge_deadline"]})]


#: The codes of a verdict the reader (or the table's vote) decided against the judge's suggestion: the reason
#: shown is then theirs, never the judge's words for the other verdict ("a small typo, accepted" under "wrong").
#: The judge's own code stays in ``params["judge"]``. A list recounted keeps the judge's list codes.
OVERRULED_CODES = ("overruled_right", "overruled_wrong")


def _flip(suggestion: Suggestion | Verdict, named: int | None) -> Verdict:
    verdict: Verdict = {**suggestion}
    if "needed" in verdict:
        needed = verdict["needed"]
        count = named if named is not None else (0 if verdict["correct"] else needed)
        verdict.update({"named": count, "missing": needed - count, "correct": count >= needed})
    else:
        verdict["correct"] = bool(named) if named is not None else not verdict["correct"]
    verdict["overruled"] = verdict["correct"] != suggestion["correct"] or verdict.get("named") != suggestion.get(
        "named"
    )
    if verdict["overruled"]:
        _reason_of_overrule(verdict, suggestion)
    return verdict


def _reason_of_overrule(verdict: Verdict, suggestion: Suggestion | Verdict) -> None:
    """The reason of an overruled verdict, made to say what was decided (its one source: every game's overrule
    and vote go through :func:`_flip`)."""
    judged = suggestion.get("code", "")
    if "needed" in verdict:
        named, needed, missing = verdict["named"], verdict["needed"], verdict["missing"]
        verdict["code"] = "list_complete" if verdict["correct"] else "list_incomplete"
        verdict["params"] = {"named": named, "needed": needed, "missing": missing, "judge": judged}
        verdict["reason"] = f"{named} of {needed} items counted right against the judge's suggestion"
        return
    word = "right" if verdict["correct"] else "wrong"
    verdict["code"] = "overruled_right" if verdict["correct"] else "overruled_wrong"
    verdict["params"] = {"judge": judged}
    verdict["reason"] = f"ruled {word} against the judge's suggestion ({suggestion.get('reason', '')})"


def answer(ask: Ask, seat: int, text: str, at: int | None) -> list[Event]:
    """The answerer's final answer: judged, and waiting for the reader (see :func:`suggest`)."""
    ask["given"] = text
    ask["draft"] = text
    ask["suggestion"] = suggest(ask, text)
    ask["phase"] = "judge"
    ask["deadline"] = None
    if ask["confirm_ms"]:
        ask["judge_deadline"] = (at or ask["opened_at"]) + ask["confirm_ms"]
    return [
        Event("ask_answered", {"seat": seat, "text": text, "with_options": ask["options_shown"]}),
        Event("ask_suggestion", {"reader": ask["reader"], "suggestion": ask["suggestion"]}, to=(ask["reader"],)),
    ]


# --- gates ----------------------------------------------------------------------------------------------------


def _gates(key: str) -> dict[str, Callable[[State, Any, Any], IllegalAction | None]]:
    def the_ask(state: State) -> Ask | None:
        return state.get(key)

    def answerer(state: State, seat: Any, at: Any, phase: str = "answer") -> IllegalAction | None:
        ask = the_ask(state)
        if ask is None or ask["phase"] == "decided":
            return refuse("ask_none")
        if seat not in ask["answerers"]:
            return refuse("ask_not_answerer", answerers=list(ask["answerers"]))
        if ask["phase"] == "choose" and phase == "answer":
            return refuse("ask_choose_first")
        if ask["phase"] != phase:
            if phase == "choose":
                return refuse("not_now", action="ask_choose")
            return refuse("ask_not_answering", waiting=waiting_for(ask))
        if phase == "answer" and ask["deadline"] is not None and at is not None and at > ask["deadline"]:
            return refuse("ask_time_up", deadline=ask["deadline"])
        return None

    def choose(state: State, seat: Any, at: Any) -> IllegalAction | None:
        return answerer(state, seat, at, "choose")

    def options(state: State, seat: Any, at: Any) -> IllegalAction | None:
        refusal = answerer(state, seat, at)
        if refusal is not None:
            return refusal
        ask = the_ask(state)
        assert ask is not None
        if not _has_options(ask):
            return refuse("ask_no_options")
        if ask["options_shown"]:
            return refuse("ask_options_shown")
        if ask["options"] != "allowed":
            return refuse("ask_options_closed")
        return None

    def reader(state: State, seat: Any, at: Any) -> IllegalAction | None:
        ask = the_ask(state)
        if ask is None or ask["phase"] == "decided":
            return refuse("ask_none")
        if seat != ask["reader"]:
            return refuse("ask_not_reader", reader=ask["reader"])
        if ask["phase"] == "pending":
            return refuse("ask_verdict_pending", deadline=ask["undo_deadline"])
        if ask["phase"] != "judge":
            return refuse("ask_not_judging")
        return None

    def pending(state: State, seat: Any, at: Any) -> IllegalAction | None:
        ask = the_ask(state)
        if ask is None or ask["phase"] == "decided":
            return refuse("ask_none")
        if seat != ask["reader"]:
            return refuse("ask_not_reader", reader=ask["reader"])
        if ask["phase"] != "pending":
            return refuse("ask_not_pending")
        return None

    def undo_time_up(state: State, seat: Any, at: Any) -> IllegalAction | None:
        ask = the_ask(state)
        if ask is None or ask["phase"] != "pending":
            return refuse("not_now", action="ask_undo_time_up")
        if at is not None and at < ask["undo_deadline"]:
            return refuse("not_now", action="ask_undo_time_up")
        return None

    def call_vote(state: State, seat: Any, at: Any) -> IllegalAction | None:
        ask = the_ask(state)
        if ask is None or ask["phase"] == "decided":
            return refuse("ask_none")
        if not ask["vote"]:
            return refuse("ask_no_vote")
        if ask["phase"] != "judge":
            return refuse("ask_not_judging")
        if seat not in ask["voters"] and seat not in ask["answerers"]:
            return refuse("ask_not_voter", seat=seat)
        return None

    def vote(state: State, seat: Any, at: Any) -> IllegalAction | None:
        ask = the_ask(state)
        if ask is None or ask["phase"] == "decided":
            return refuse("ask_none")
        if ask["phase"] != "vote":
            return refuse("ask_not_voting")
        if seat not in ask["voters"]:
            return refuse("ask_not_voter", seat=seat)
        if str(seat) in ask["votes"]:
            return refuse("ask_voted", seat=seat)
        return None

    def time_up(state: State, seat: Any, at: Any) -> IllegalAction | None:
        ask = the_ask(state)
        if ask is None or ask["phase"] != "answer" or ask["deadline"] is None:
            return refuse("not_now", action="ask_time_up")
        if at is not None and at < ask["deadline"]:
            return refuse("not_now", action="ask_time_up")
        return None

    def settle(state: State, seat: Any, at: Any) -> IllegalAction | None:
        ask = the_ask(state)
        if ask is None or ask["phase"] not in ("judge", "vote") or ask["judge_deadline"] is None:
            return refuse("not_now", action="ask_settle")
        if at is not None and at < ask["judge_deadline"]:
            return refuse("not_now", action="ask_settle")
        return None

    # What a listing asks instead (declare_gate): whether each gate opens, without building its refusal, and the
    # one question every player's gate of the step needs first (something is asked and not decided yet).
    def asking(state: State) -> bool:
        ask = state.get(key)
        return ask is not None and ask["phase"] != "decided"

    def answerer_opens(state: State, seat: Any, at: Any) -> bool:
        ask = state.get(key)
        if ask is None or ask["phase"] != "answer" or seat not in ask["answerers"]:
            return False
        deadline = ask["deadline"]
        return deadline is None or at is None or at <= deadline

    def choose_opens(state: State, seat: Any, at: Any) -> bool:
        ask = state.get(key)
        return ask is not None and ask["phase"] == "choose" and seat in ask["answerers"]

    def options_opens(state: State, seat: Any, at: Any) -> bool:
        if not answerer_opens(state, seat, at):
            return False
        ask = state[key]
        return _has_options(ask) and not ask["options_shown"] and ask["options"] == "allowed"

    def reader_opens(state: State, seat: Any, at: Any) -> bool:
        ask = state.get(key)
        return ask is not None and ask["phase"] == "judge" and seat == ask["reader"]

    def pending_opens(state: State, seat: Any, at: Any) -> bool:
        ask = state.get(key)
        return ask is not None and ask["phase"] == "pending" and seat == ask["reader"]

    def undo_time_up_opens(state: State, seat: Any, at: Any) -> bool:
        ask = state.get(key)
        return ask is not None and ask["phase"] == "pending" and (at is None or at >= ask["undo_deadline"])

    def call_vote_opens(state: State, seat: Any, at: Any) -> bool:
        ask = state.get(key)
        return (
            ask is not None
            and ask["vote"]
            and ask["phase"] == "judge"
            and (seat in ask["voters"] or seat in ask["answerers"])
        )

    def vote_opens(state: State, seat: Any, at: Any) -> bool:
        ask = state.get(key)
        return ask is not None and ask["phase"] == "vote" and seat in ask["voters"] and str(seat) not in ask["votes"]

    def time_up_opens(state: State, seat: Any, at: Any) -> bool:
        ask = state.get(key)
        if ask is None or ask["phase"] != "answer" or ask["deadline"] is None:
            return False
        return at is None or at >= ask["deadline"]

    def settle_opens(state: State, seat: Any, at: Any) -> bool:
        ask = state.get(key)
        if ask is None or ask["phase"] not in ("judge", "vote") or ask["judge_deadline"] is None:
            return False
        return at is None or at >= ask["judge_deadline"]

    return {
        "answer": declare_gate(answerer, needs=asking, opens=answerer_opens),
        "choose": declare_gate(choose, needs=asking, opens=choose_opens),
        "options": declare_gate(options, needs=asking, opens=options_opens),
        "reader": declare_gate(reader, needs=asking, opens=reader_opens),
        "call_vote": declare_gate(call_vote, needs=asking, opens=call_vote_opens),
        "vote": declare_gate(vote, needs=asking, opens=vote_opens),
        "time_up": declare_gate(time_up, opens=time_up_opens),
        "settle": declare_gate(settle, opens=settle_opens),
        "pending": declare_gate(pending, needs=asking, opens=pending_opens),
        "undo_time_up": declare_gate(undo_time_up, opens=undo_time_up_opens),
    }


# --- the moves ------------------------------------------------------------------------------------------------


def _tally(ask: Ask) -> tuple[Verdict, str]:
    votes = list(ask["votes"].values())
    right, wrong = votes.count("right"), votes.count("wrong")
    suggestion = ask["suggestion"]
    assert suggestion is not None, "a vote is on an answer the judge has made a suggestion on"
    if right == wrong:
        return {**suggestion, "overruled": False, "votes": {"right": right, "wrong": wrong}}, "vote"
    verdict: Verdict = _flip(suggestion, None) if (right > wrong) != suggestion["correct"] else {**suggestion}
    verdict.setdefault("overruled", False)
    if "needed" in verdict and right > wrong:
        verdict.update({"named": verdict["needed"], "missing": 0, "correct": True})
    verdict["votes"] = {"right": right, "wrong": wrong}
    return verdict, "vote"


def ask_moves(key: str = "ask", *, on_decided: OnDecided | None = None) -> list[Move]:
    """The step's moves, for the game's move table. ``state[key]`` holds the step (or ``None``);
    ``on_decided(state, ask, rng)`` runs once a verdict is decided and returns the game's events."""
    gates = _gates(key)

    def finish(state: State, events: list[Event], rng: Any) -> list[Event]:
        ask = state[key]
        if on_decided is not None and ask["phase"] == "decided":
            events = events + on_decided(state, ask, rng)
        return events

    def do_choose(state: State, action: dict[str, Any], rng: Any) -> list[Event]:
        ask = state[key]
        events = [Event("ask_chosen", {"seat": action["seat"], "index": action["question"]})]
        return events + _start_question(ask, action["question"], action.get("at") or ask["opened_at"])

    def do_options(state: State, action: dict[str, Any], rng: Any) -> list[Event]:
        ask = state[key]
        ask["options_shown"] = True
        q = current_question(ask)
        return [Event("ask_options", {"seat": action["seat"], "options": list(q.options)})]

    def do_type(state: State, action: dict[str, Any], rng: Any) -> list[Event]:
        state[key]["draft"] = action["text"]
        return [Event("ask_draft", {"seat": action["seat"], "text": action["text"]})]

    def do_answer(state: State, action: dict[str, Any], rng: Any) -> list[Event]:
        return answer(state[key], action["seat"], action["text"], action.get("at"))

    def do_pass(state: State, action: dict[str, Any], rng: Any) -> list[Event]:
        ask = state[key]
        ask["passed"] = True
        verdict: Suggestion = {
            "correct": False,
            "code": "empty",
            "params": {},
            "reason": "passed",
            "with_options": False,
        }
        q = current_question(ask)
        if q.kind == "list":
            needed = q.count or len(q.items)
            verdict.update({"named": 0, "needed": needed, "missing": needed, "items": []})
        ask["suggestion"] = verdict
        events = [Event("ask_passed", {"seat": action["seat"]})]
        return finish(state, events + _decide(ask, verdict, "pass", action["seat"]), rng)

    def do_confirm(state: State, action: dict[str, Any], rng: Any) -> list[Event]:
        ask = state[key]
        verdict = cast(Verdict, {**ask["suggestion"], "overruled": False})
        return finish(state, _reader_decides(ask, verdict, action["seat"], action.get("at")), rng)

    def do_overrule(state: State, action: dict[str, Any], rng: Any) -> list[Event]:
        ask = state[key]
        verdict = _flip(ask["suggestion"], action.get("named"))
        return finish(state, _reader_decides(ask, verdict, action["seat"], action.get("at")), rng)

    def do_undo(state: State, action: dict[str, Any], rng: Any) -> list[Event]:
        return _undo(state[key], action["seat"], action.get("at"))

    def do_final(state: State, action: dict[str, Any], rng: Any) -> list[Event]:
        return finish(state, _count_pending(state[key]), rng)

    def do_call_vote(state: State, action: dict[str, Any], rng: Any) -> list[Event]:
        ask = state[key]
        ask["phase"] = "vote"
        return [Event("ask_vote_called", {"seat": action["seat"], "suggestion": ask["suggestion"]})]

    def do_vote(state: State, action: dict[str, Any], rng: Any) -> list[Event]:
        ask = state[key]
        ask["votes"][str(action["seat"])] = action["verdict"]
        events = [Event("ask_voted", {"seat": action["seat"], "verdict": action["verdict"]})]
        if len(ask["votes"]) < len(ask["voters"]):
            return events
        verdict, by = _tally(ask)
        return finish(state, events + _decide(ask, verdict, by, None), rng)

    def do_time_up(state: State, action: dict[str, Any], rng: Any) -> list[Event]:
        ask = state[key]
        text = (ask["draft"] or "").strip()
        events = [Event("ask_time_up", {"text": text})]
        if not text:
            ask["given"] = ""
            verdict: Suggestion = {
                "correct": False,
                "code": "empty",
                "params": {},
                "reason": "no answer in time",
                "with_options": ask["options_shown"],
            }
            q = current_question(ask)
            if q.kind == "list":
                needed = q.count or len(q.items)
                verdict.update({"named": 0, "needed": needed, "missing": needed, "items": []})
            ask["suggestion"] = verdict
            return finish(state, events + _decide(ask, verdict, "timeout", None), rng)
        answerer_seat = ask["answerers"][0]
        return events + answer(ask, answerer_seat, text, ask["deadline"])

    def do_settle(state: State, action: dict[str, Any], rng: Any) -> list[Event]:
        ask = state[key]
        if ask["phase"] == "vote" and ask["votes"]:
            verdict, by = _tally(ask)
        else:
            verdict, by = cast(Verdict, {**ask["suggestion"], "overruled": False}), "timeout"
        return finish(state, _decide(ask, verdict, by, None), rng)

    def choices(state: State, seat: Any) -> list[int]:
        ask = state.get(key)
        return list(ask["choices"] or []) if ask is not None else []

    def named_max(state: State, seat: Any) -> int:
        ask = state.get(key)
        if ask is None or ask["index"] is None:
            return 1
        q = ask["card"]["questions"][ask["index"]]
        return int(q.get("count") or len(q.get("items", ()))) if q["kind"] == "list" else 1

    return [
        Move(
            "ask_choose",
            do_choose,
            gates["choose"],
            params=(Param.choice("question", choices),),
            help="choose which of the card's questions to answer",
        ),
        Move("ask_options", do_options, gates["options"], help="ask for the options to be read out"),
        Move(
            "ask_type",
            do_type,
            gates["answer"],
            params=(Param.text("text", max_length=ANSWER_LIMIT),),
            help="what the answerer has typed so far (judged if the time runs out)",
        ),
        Move(
            "ask_answer",
            do_answer,
            gates["answer"],
            params=(Param.text("text", max_length=ANSWER_LIMIT),),
            help="give the answer",
        ),
        Move("ask_pass", do_pass, gates["answer"], help="pass: no answer"),
        Move("ask_confirm", do_confirm, gates["reader"], help="the judge's suggestion stands"),
        Move(
            "ask_overrule",
            do_overrule,
            gates["reader"],
            params=(
                Param.integer(
                    "named",
                    0,
                    named_max,
                    optional=True,
                    help="for a list: how many items were right; otherwise 1 right, 0 wrong",
                ),
            ),
            help="overrule the judge's suggestion",
        ),
        Move("ask_call_vote", do_call_vote, gates["call_vote"], help="let the table vote on the answer"),
        Move(
            "ask_vote",
            do_vote,
            gates["vote"],
            params=(Param.choice("verdict", lambda s, seat: ["right", "wrong"]),),
            help="vote right or wrong",
        ),
        Move("ask_time_up", do_time_up, gates["time_up"], system=True),
        Move("ask_settle", do_settle, gates["settle"], system=True),
        # Declared last, so that the moves listed before them (a bot's first choice, RL action numbers) stay.
        Move(
            "ask_undo",
            do_undo,
            gates["pending"],
            bots=False,
            help="take your verdict back before it counts, and decide again",
        ),
        Move("ask_final", do_final, gates["pending"], help="let your verdict count now"),
        Move("ask_undo_time_up", do_final, gates["undo_time_up"], system=True),
    ]


ASK_MOVE_TYPES = (
    "ask_choose",
    "ask_options",
    "ask_type",
    "ask_answer",
    "ask_pass",
    "ask_confirm",
    "ask_overrule",
    "ask_call_vote",
    "ask_vote",
    "ask_time_up",
    "ask_settle",
    "ask_undo",
    "ask_final",
    "ask_undo_time_up",
)

"""The rules of Carrera de Mente as pure functions over a JSON-ready state.

See ``docs/rules/carrera-de-mente.md`` for the sentence of the book each rule implements, its code and its
test, and for every decision taken where the book is silent.

A turn: ``roll`` (the die moves the peg in the arrows' direction) → lap prizes for passing the arrow square
(``lap_prize``, the player's choice) → on a grey square ``topic`` (the player chooses the booklet) →
``roll_number`` three times, or ``roll_whole_number`` once for the dice still to roll (the question number) →
the ask step (:mod:`mindtable.trivia.quiz`: the player on the right asks and sees the answer; the judge
suggests, the asker confirms or overrules) → right: a star prize, ``steal`` one token from each player on the
square, move 5 (1 after the options) and answer again; wrong: the turn passes to the left.
"""

from __future__ import annotations

import base64
import bisect
import functools
import itertools
import json
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar, TypedDict

from mindtable.core.codes import refuse
from mindtable.core.errors import IllegalAction, InvalidOptions
from mindtable.core.events import Deadline, Event, Result
from mindtable.core.flow import Flow, Phase
from mindtable.core.game import Game, State
from mindtable.core.moves import Move, MoveTable, Param, declare_gate, gate_needs, gate_opens
from mindtable.core.options import Option, option_path
from mindtable.core.rng import Rng
from mindtable.core.turns import answerer, new_teams, new_turn, pass_turn, right_of, roll_off, rotate
from mindtable.core.views import LazyView
from mindtable.kit.tokens import (
    TokenError,
    check_conservation,
    colours_held,
    count,
    give_back,
    holds,
    new_supply,
    steal,
    supply_view,
    take,
)
from mindtable.trivia.quiz import Ask, AskView, outcome
from mindtable.trivia.sets import GameProfile
from mindtable.trivia.step import QuizStep

from .content import BOARDS, LANGUAGES, PRIZE_COLOURS, TOPIC_MAP, TOPICS, read_board, read_booklets
from .made_up import option_pair

#: Prize tokens of each colour in the box (36 hexagonal tokens, six colours).
TOKENS_PER_COLOUR = 6
#: Squares a correct answer moves: direct, and after the options were read out.
MOVE_DIRECT, MOVE_WITH_OPTIONS = 5, 1
NUMBER_DICE = 3

ROLL, LAP, TOPIC, NUMBER, ASK, STEAL, OVER = "roll", "lap", "topic", "number", "ask", "steal", "over"
PHASES = (ROLL, LAP, TOPIC, NUMBER, ASK, STEAL, OVER)

CODES: dict[str, str] = {
    "cm_not_this_step": "{action!r} is not the step now",
    "cm_not_a_booklet": "{topic!r} is not a booklet; choose one of {allowed}",
    "cm_lap_colour": "a lap prize must be a colour you do not have yet: {allowed}",
    "cm_steal_colour": "seat {victim} holds no {colour!r} token; choose one of {allowed}",
    "cm_steal_held": "you hold {colour!r} already and seat {victim} holds colours you lack: take one of {allowed}",
}
#: Parameters of refusals that name a seat (shown as the player's name).
SEAT_PARAMS: dict[str, tuple[str, ...]] = {
    "cm_steal_colour": ("victim",),
    "cm_steal_held": ("victim",),
}
#: Parameters that are ids a page shows by their label (``cm.colour.<id>``, ``cm.topic.<id>``).
LABEL_PARAMS: dict[str, dict[str, str]] = {
    "cm_not_a_booklet": {"topic": "cm.topic", "allowed": "cm.topic"},
    "cm_lap_colour": {"allowed": "cm.colour"},
    "cm_steal_colour": {"colour": "cm.colour", "allowed": "cm.colour"},
    "cm_steal_held": {"colour": "cm.colour", "allowed": "cm.colour"},
}

#: Room options: answer time and exactness (the book leaves both to the group), the variants, the board, the
#: language of the booklets and of the table, teams, and a limit for simulations.
OPTIONS: tuple[Option, ...] = (
    Option("language", str, default="en", choices=LANGUAGES, help="language of the booklets"),
    Option(
        "variant_short",
        bool,
        default=False,
        help="variant 1, shorter game: the last (winning) prize may also come from a lap",
    ),
    Option("variant_experts", bool, default=False, help="variant 2, between experts: the options are never read"),
    Option(
        "variant_young",
        bool,
        default=False,
        help="variant 3, younger children: options also for prizes and steals; a made-up option when none",
    ),
    Option(
        "steal_any_colour",
        bool,
        default=False,
        help="a stealer may take a colour they hold (it goes back to the box) even when the victim holds one "
        "they lack (the book: only when the victim holds nothing they lack, clarification 2)",
    ),
    Option(
        "descriptions",
        str,
        default="idea",
        choices=("idea", "wording"),
        help="descriptions: the idea is enough (the asker decides on the spot), or the booklet's wording",
    ),
    Option("board", str, default="standard", choices=tuple(BOARDS), help="the board (standard 42 squares, small 14)"),
    Option("board_file", str, default="", help="path of another board file to play on (overrides board)", file="board"),
    Option(
        "bank_file",
        str,
        default="",
        help="path of another question file or folder (via the topic mapping)",
        file="bank",
    ),
    Option(
        "team_members",
        int,
        default=1,
        minimum=1,
        maximum=6,
        help="people per seat: a seat is a team whose members take turns to answer",
    ),
    Option(
        "turn_limit",
        int,
        default=0,
        minimum=0,
        maximum=10_000,
        help="stop after this many turns, most colours winning (0: play until someone has all six)",
    ),
)


# -- reading the state ----------------------------------------------------------------------------------------


def prizes(state: State, seat: int) -> list[str]:
    """The prize colours ``seat`` holds."""
    return colours_held(state["tokens"], seat)


def lap_choices(state: State, seat: int) -> list[str]:
    """The colours a lap may give ``seat``: those it lacks — none when the next prize would be its last, except
    in variant 1 ("the last prize … cannot be obtained by completing a lap")."""
    held = set(prizes(state, seat))
    lacking = [c for c in PRIZE_COLOURS if c not in held]
    if len(lacking) == 1 and not state["options"]["variant_short"]:
        return []
    return [c for c in lacking if state["tokens"]["supply"].get(c, 0) > 0]


def square_of(state: State, seat: int) -> dict[str, Any]:
    return state["board"]["squares"][state["pegs"][seat]]


def others_on(state: State, seat: int) -> list[int]:
    here = state["pegs"][seat]
    return [s for s in range(state["players"]) if s != seat and state["pegs"][s] == here]


def _win_check(state: State, seat: int) -> list[Event]:
    if len(prizes(state, seat)) == len(PRIZE_COLOURS) and state["winner"] is None:
        state["winner"] = seat
        state["ask"] = None
        return [Event("won", {"seat": seat, "reason": "six_colours"})]
    return []


def _give_prize(state: State, seat: int, colour: str, how: str) -> list[Event]:
    take(state["tokens"], seat, colour)
    return [Event("prize", {"seat": seat, "colour": colour, "how": how}), *_win_check(state, seat)]


# -- moving ---------------------------------------------------------------------------------------------------


def _move(state: State, seat: int, steps: int, why: str) -> list[Event]:
    """Move ``seat``'s peg ``steps`` squares in the arrows' direction; laps completed wait as lap prizes."""
    size = len(state["board"]["squares"])
    start = state["pegs"][seat]
    laps = sum(1 for k in range(1, steps + 1) if (start + k) % size == 0)
    end = (start + steps) % size
    state["pegs"][seat] = end
    state["stats"]["squares"][seat] += steps
    events = [Event("moved", {"seat": seat, "from": start, "to": end, "steps": steps, "why": why, "laps": laps})]
    state["pending"]["laps"] += laps
    return events + _lap_prizes(state, seat)


def _lap_prizes(state: State, seat: int) -> list[Event]:
    """Open the lap-prize choice, or skip laps that can give nothing; then arrive on the square."""
    events: list[Event] = []
    while state["pending"]["laps"] > 0:
        if lap_choices(state, seat):
            return events  # the lap prize waits for the player's choice
        state["pending"]["laps"] -= 1
        events.append(Event("lap_no_prize", {"seat": seat, "reason": "last_prize"}))
    return events + _arrive(state, seat)


def _arrive(state: State, seat: int) -> list[Event]:
    """The peg has stopped: the square's colour sets the topic (grey: the player chooses)."""
    square = square_of(state, seat)
    state["context"] = {
        "seat": seat,
        "square": state["pegs"][seat],
        "colour": square["colour"],
        "topic": square["topic"],
        "star": square["colour"] if square["star"] else None,
        "occupants": others_on(state, seat),
        "number": None,
        "digits": [],
    }
    return [Event("arrived", {k: v for k, v in state["context"].items() if k not in ("number", "digits")})]


# -- asking ---------------------------------------------------------------------------------------------------


def pack_booklet(questions: list[list[Any]]) -> str:
    """A booklet as the state keeps it: its JSON, compressed (zlib) and written in base64."""
    raw = json.dumps(questions, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return base64.b64encode(zlib.compress(raw, 9)).decode("ascii")


@functools.lru_cache(maxsize=8)
def _dealt_booklets(language: str, bank: str) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    """The packed booklets and their titles a new match deals into its state, for a language and bank file:
    packed once (compressing six booklets costs more than the rest of a bot game's set-up), the same texts
    for every match."""
    content = read_booklets(language, bank)
    packed = tuple((topic, pack_booklet(questions)) for topic, questions in content["booklets"].items())
    return packed, tuple(content["titles"].items())


@functools.lru_cache(maxsize=64)
def _parse_booklet(text: str) -> list[list[Any]]:
    return json.loads(zlib.decompress(base64.b64decode(text)).decode("utf-8"))


@functools.lru_cache(maxsize=64)
def _booklet_index(text: str) -> tuple[int, list[Any], bool]:
    """A packed booklet's number of questions, its entries' numbers, and whether they are in order (cached)."""
    entries = _parse_booklet(text)
    numbers = [n for n, _ in entries]
    return sum(len(qs) for _, qs in entries), numbers, all(a <= b for a, b in itertools.pairwise(numbers))


def booklet(state: State, topic: str) -> list[list[Any]]:
    """A booklet dealt into the state: ``[[number, [question, ...]], ...]`` in number order (read-only).

    The state keeps each booklet as one text (:func:`pack_booklet`): the match copies, saves and sends its
    state often, and one short plain text costs next to nothing there, where six hundred questions would not.
    The questions are still in the state, so a record replays with no booklet file."""
    return _parse_booklet(state["booklets"][topic])


def pick_question(state: State, topic: str, number: int) -> tuple[dict[str, Any], bool]:
    """The first unused question numbered ``number`` in the booklet, else the first of the following numbers
    (666 wraps to 111). When the whole booklet is used, it starts again (returns ``True`` then)."""
    text = state["booklets"][topic]
    booklet_ = _parse_booklet(text)
    size, numbers, ordered = _booklet_index(text)
    used = set(state["used"][topic])
    restarted = False
    if size <= len(used):
        state["used"][topic] = []
        used = set()
        restarted = True
    # the first entry numbered ``number`` or more, else the first (a booklet dealt by the game is in number order)
    if ordered:
        start = bisect.bisect_left(numbers, number)
        start = 0 if start == len(numbers) else start
    else:
        start = next((i for i, n in enumerate(numbers) if n >= number), 0)
    for k in range(len(booklet_)):
        for q in booklet_[(start + k) % len(booklet_)][1]:
            if q["id"] not in used:
                return q, restarted
    raise AssertionError("a booklet with questions always has an unused one")  # pragma: no cover


def unpack_booklet(text: str) -> list[list[Any]]:
    """A packed booklet (:func:`pack_booklet`) as its list (read-only, cached)."""
    return _parse_booklet(text)


def made_up_option(state: State, topic: str, question: dict[str, Any], rng: Rng) -> tuple[str, str]:
    """Variant 3: ``(right, made_up)`` for a question printed without options — the right option's text and
    one wrong option of the same kind, written the same way (:mod:`.made_up`)."""
    return option_pair(question, state["booklets"][topic], state["options"]["language"], rng)


def _open_question(state: State, seat: int, at: int | None, rng: Rng) -> list[Event]:
    context = state["context"]
    topic = context["topic"]
    number = int("".join(str(d) for d in context["digits"]))
    context["number"] = number
    question, restarted = pick_question(state, topic, number)
    state["used"][topic].append(question["id"])
    events: list[Event] = []
    if restarted:
        events.append(Event("booklet_restarted", {"topic": topic}))
    options = state["options"]
    direct_only = context["star"] is not None or bool(context["occupants"])
    never = options["variant_experts"] or (direct_only and not options["variant_young"])
    mode = "never" if never else "allowed"
    question = dict(question)
    if options["variant_young"] and not question.get("options") and not options["variant_experts"]:
        right, wrong = made_up_option(state, topic, question, rng)
        first = rng.roll(2) - 1
        question["options"] = [right, wrong] if first == 0 else [wrong, right]
        question["correct"] = first
        question["extra"] = {**question.get("extra", {}), "made_up_option": True}
    card = {
        "id": f"{topic}-{number}",
        "type": "booklet",
        "topic": topic,
        "questions": [question],
        "extra": {"number": number},
    }
    reader = right_of(seat, state["players"])
    opened = QUIZ.open(state, card, reader=reader, answerers=[seat], options=mode, at=at)
    state["stats"]["asked"] += 1
    events.append(
        Event(
            "question",
            {
                "seat": seat,
                "asker": reader,
                "member": answerer(state["teams"], seat),
                "topic": topic,
                "number": number,
                "found": question["extra"].get("number", number),
                "slot": question["extra"].get("slot"),
                "direct_only": mode == "never",
                "star": context["star"],
                "occupants": context["occupants"],
            },
        )
    )
    return events + opened


def _decided(state: State, ask: Ask, rng: Any) -> list[Event]:
    seat = ask["answerers"][0]
    verdict = outcome(ask)
    context = state["context"]
    result = ask["results"][-1]
    state["last"] = {
        **result,
        "seat": seat,
        "asker": ask["reader"],
        "topic": context["topic"],
        "number": context["number"],
    }
    state["ask"] = None
    rotate(state["teams"], seat)
    stats = state["stats"]
    stats["answers"][seat] += 1
    if "this_turn" in stats:  # absent from the start of records made before it was counted
        stats["this_turn"] += 1
    events: list[Event] = []
    if not verdict["correct"]:
        events.append(Event("turn_over", {"seat": seat, "reason": "wrong"}))
        return events + _end_turn(state)
    stats["right"][seat] += 1
    # "one square for an answer after appealing to the options", whatever the kind of the question
    with_options = bool(verdict.get("with_options")) or bool(ask.get("options_shown"))
    steps = MOVE_WITH_OPTIONS if with_options else MOVE_DIRECT
    star = context["star"]
    if star is not None:
        if holds(state["tokens"], seat, star):
            events.append(Event("star_held", {"seat": seat, "colour": star}))
        else:
            events += _give_prize(state, seat, star, "star")
            if state["winner"] is not None:
                return events
    victims = [v for v in context["occupants"] if count(state["tokens"], v) > 0]
    for v in context["occupants"]:
        if v not in victims:
            events.append(Event("nothing_to_steal", {"seat": seat, "victim": v}))
    state["pending"]["steps"] = steps
    if victims:
        state["pending"]["steal_from"] = victims
        return events
    return events + _move(state, seat, steps, "answer")


def _answers_in_turns(stats: dict[str, Any], finished: bool) -> list[int]:
    """How many turns had 0, 1, 2… answers (index: answers in the turn); ``finished`` counts the turn being
    played as well (the game ended in it)."""
    counts = list(stats["answers_in_turn"])
    if finished and stats["turns"] > sum(counts):
        counts += [0] * (stats["this_turn"] + 1 - len(counts))
        counts[stats["this_turn"]] += 1
    return counts


def _end_turn(state: State) -> list[Event]:
    stats = state["stats"]
    if "this_turn" in stats:
        stats["answers_in_turn"] = _answers_in_turns(stats, finished=True)
        stats["this_turn"] = 0
    state["context"] = None
    state["pending"] = _no_pending()
    limit = state["options"]["turn_limit"]
    if limit and state["turn"]["number"] >= limit:
        return [Event("turn_limit", {"turns": state["turn"]["number"]})]
    seat = pass_turn(state["turn"])
    return [Event("turn", {"seat": seat, "number": state["turn"]["number"]})]


def _no_pending() -> dict[str, Any]:
    return {"laps": 0, "steal_from": [], "steps": 0}


# -- the moves ------------------------------------------------------------------------------------------------


def _gate_turn(state: State, seat: Any, at: Any) -> IllegalAction | None:
    current = state["turn"]["seat"]
    if seat != current:
        return refuse("not_your_turn", waiting=current)
    return None


declare_gate(_gate_turn, opens=lambda state, seat, at: seat == state["turn"]["seat"])


def _roll(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    seat = action["seat"]
    die = rng.roll(6)
    state["move_die"] = die
    state["stats"]["turns"] += 1
    return [Event("rolled", {"seat": seat, "die": die}), *_move(state, seat, die, "die")]


def _topic(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    state["context"]["topic"] = action["topic"]
    return [Event("topic_chosen", {"seat": action["seat"], "topic": action["topic"]})]


def _roll_number(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    digits = state["context"]["digits"]
    die = rng.roll(6)
    digits.append(die)
    events = [Event("number_die", {"seat": action["seat"], "die": die, "digits": list(digits)})]
    if len(digits) < NUMBER_DICE:
        return events
    return events + _open_question(state, action["seat"], action.get("at"), rng)


def _roll_whole_number(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    """The book's three rolls in one gesture: every die of the number still to roll, in order, each its own
    ``number_die`` event, then the question. The generator is drawn exactly as by ``roll_number`` taken once
    per die, so the game goes on the same either way."""
    events: list[Event] = []
    while len(state["context"]["digits"]) < NUMBER_DICE:
        events += _roll_number(state, action, rng)
    return events


def _lap_prize(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    seat = action["seat"]
    state["pending"]["laps"] -= 1
    events = _give_prize(state, seat, action["colour"], "lap")
    if state["winner"] is not None:
        return events
    return events + _lap_prizes(state, seat)


def _steal(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    seat, colour = action["seat"], action["colour"]
    victim = state["pending"]["steal_from"].pop(0)
    tokens = state["tokens"]
    if holds(tokens, seat, colour):
        give_back(tokens, victim, colour)
        events = [Event("stolen", {"seat": seat, "victim": victim, "colour": colour, "kept": False})]
    else:
        steal(tokens, seat, victim, colour)
        events = [Event("stolen", {"seat": seat, "victim": victim, "colour": colour, "kept": True})]
        events += _win_check(state, seat)
        if state["winner"] is not None:
            return events
    if state["pending"]["steal_from"]:
        return events
    return events + _move(state, seat, state["pending"]["steps"], "answer")


def _no_steal(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    """The book's "the player *may* steal": the stealer leaves this victim's peg as it is."""
    seat = action["seat"]
    victim = state["pending"]["steal_from"].pop(0)
    events = [Event("steal_declined", {"seat": seat, "victim": victim})]
    if state["pending"]["steal_from"]:
        return events
    return events + _move(state, seat, state["pending"]["steps"], "answer")


def _topics(state: State, seat: Any) -> list[str]:
    return list(TOPICS)


def _topic_refusal(state: State, seat: Any, value: Any) -> IllegalAction:
    return refuse("cm_not_a_booklet", topic=str(value)[:40], allowed=list(TOPICS))


def _lap_domain(state: State, seat: Any) -> list[str]:
    return lap_choices(state, seat) if seat == state["turn"]["seat"] else []


def _lap_refusal(state: State, seat: Any, value: Any) -> IllegalAction:
    return refuse("cm_lap_colour", allowed=_lap_domain(state, seat))


def steal_choices(state: State, seat: int) -> list[str]:
    """The colours ``seat`` may take from the first player waiting to be robbed: those the victim holds that the
    stealer lacks ("place it on their own peg"); only when there is none, any of the victim's (it goes back to
    the box, clarification 2). With the room option ``steal_any_colour``, any of the victim's colours."""
    pending = state["pending"]["steal_from"]
    if not pending:
        return []
    theirs = prizes(state, pending[0])
    if state["options"].get("steal_any_colour"):
        return theirs
    return [c for c in theirs if not holds(state["tokens"], seat, c)] or theirs


def _steal_domain(state: State, seat: Any) -> list[str]:
    return steal_choices(state, seat) if seat == state["turn"]["seat"] else []


def _steal_refusal(state: State, seat: Any, value: Any) -> IllegalAction:
    pending = state["pending"]["steal_from"]
    victim = pending[0] if pending else -1
    if victim >= 0 and value in prizes(state, victim):
        return refuse("cm_steal_held", victim=victim, colour=str(value)[:40], allowed=_steal_domain(state, seat))
    return refuse(
        "cm_steal_colour",
        victim=victim,
        colour=str(value)[:40],
        allowed=_steal_domain(state, seat),
    )


def _colour_labels(state: State, seat: Any) -> dict[str, str]:
    return {c: c for c in PRIZE_COLOURS}


def _adapt(move: Move) -> Move:
    """Two changes to the shared ask step for Carrera's options:

    * asking for the options where they are closed (a star, an occupied square, variant 2) is refused with
      ``ask_options_closed`` for every question, before anything else is looked at: whether the hidden
      question prints options must not show through the refusal;
    * once the options of a list question are read out (variant 3's made-up pair: the whole list, or the list
      with one wrong name), picking one of them is a choice between the two, judged as such."""
    if move.type != "ask_options":
        return move
    base_gate, base_effect = move.gate, move.effect

    def gate(state: State, seat: Any, at: Any) -> IllegalAction | None:
        refusal = base_gate(state, seat, at)
        ask = state.get("ask")
        if refusal is not None and refusal.code == "ask_no_options" and ask and ask["options"] == "never":
            return refuse("ask_options_closed")
        return refusal

    def effect(state: State, action: dict[str, Any], rng: Any) -> list[Event]:
        events = base_effect(state, action, rng)
        ask = state["ask"]
        question = ask["card"]["questions"][ask["index"]]
        if question["kind"] == "list":
            question["kind"] = "choice"
        return events

    # the same gate but for its refusal's code: it opens exactly when the step's own gate does
    declare_gate(gate, needs=gate_needs(base_gate), opens=gate_opens(base_gate))
    return replace(move, gate=gate, effect=effect)


#: The ask step: the player on the right reads from the booklet (the book); the group agrees on the time to
#: answer and to decide, how exact a spelling must be, and whether a surname alone is enough.
QUIZ = QuizStep(
    _decided,
    house_rules=("typos", "surname_alone"),
    answer_seconds=(0, 15, 30, 60, 120),
    confirm_seconds=(0, 20, 60),
    adapt=_adapt,
)


def _current(state: State) -> list[int]:
    return [state["turn"]["seat"]]


def _topic_or_number(state: State) -> str:
    """Arrived on a square: its colour's booklet, the number next; a grey square, the player chooses one."""
    return NUMBER if state["context"]["topic"] is not None else TOPIC


#: The turn flow: each step of a turn with its moves (refused in another step with ``cm_not_this_step``) and who
#: acts. A peg that moved waits for a lap prize when a lap earned one the player may choose, unless it arrived on
#: its square; a right answer on an occupied square waits for the steals, unless the peg moves on at once (or
#: the turn passes, or the game is won).
FLOW = Flow(
    [
        Phase(ROLL, moves=("roll",), to_act=_current),
        Phase(LAP, moves=("lap_prize",), to_act=_current),
        Phase(TOPIC, moves=("topic",), to_act=_current),
        Phase(NUMBER, moves=("roll_number", "roll_whole_number"), to_act=_current),
        Phase(ASK, to_act=QUIZ.waiting),
        Phase(STEAL, moves=("steal", "no_steal"), to_act=_current),
        Phase(OVER),
    ],
    on={
        "turn": ROLL,
        "moved": LAP,
        "arrived": _topic_or_number,
        "topic_chosen": NUMBER,
        "question": ASK,
        "ask_decided": STEAL,
        "won": OVER,
        "turn_limit": OVER,
    },
    refusal="cm_not_this_step",
)


MOVES = MoveTable(
    [
        Move(
            "roll",
            _roll,
            _gate_turn,
            help="roll the die and move your peg",
        ),
        Move(
            "lap_prize",
            _lap_prize,
            _gate_turn,
            params=(Param.choice("colour", _lap_domain, explain=_lap_refusal, labels=_colour_labels),),
            help="choose the colour of your lap prize",
        ),
        Move(
            "topic",
            _topic,
            _gate_turn,
            params=(Param.choice("topic", _topics, explain=_topic_refusal),),
            help="grey square: choose the booklet",
        ),
        Move(
            "roll_number",
            _roll_number,
            _gate_turn,
            help="roll a die of the question number (three in all)",
        ),
        Move(
            "steal",
            _steal,
            _gate_turn,
            params=(Param.choice("colour", _steal_domain, explain=_steal_refusal, labels=_colour_labels),),
            help="choose the colour of the token to take from the player on your square",
        ),
        Move(
            "no_steal",
            _no_steal,
            _gate_turn,
            help="take nothing from the player on your square (stealing is allowed, not required)",
        ),
        # Declared after the others so that the moves listed before it (a bot's first choice, the RL action
        # numbers) stay as they were: the knowing bot still rolls one die at a time.
        Move(
            "roll_whole_number",
            _roll_whole_number,
            _gate_turn,
            help="roll every die of the question number still to roll, one after the other",
        ),
        *QUIZ.moves,
    ],
    flow=FLOW,
)


class CarreraView(TypedDict):
    """What a seat sees (``view``): the board and the pegs, the prizes, the step of the turn, the ask step."""

    phase: str
    #: Whose turn it is, the turn's number, who asks (the player on the right), the team member answering.
    turn: int
    turn_number: int
    asker: int
    member: str | None
    members: list[list[str]]
    language: str
    board: dict[str, Any]
    pegs: list[int]
    #: The prize colours each seat holds, and the box's supply with every seat's tokens.
    prizes: list[list[str]]
    tokens: dict[str, Any]
    titles: dict[str, Any]
    #: The roll-off for the first player: each round's rolls by seat.
    rolloff: list[dict[str, int]]
    move_die: int | None
    #: The square the peg stopped on: its colour, topic, star, the others on it, the question number's dice.
    context: dict[str, Any] | None
    lap_choices: list[str]
    laps_pending: int
    steal_from: list[int]
    ask: AskView | None
    quiz_history: list[dict[str, Any]]
    #: The last question decided: its verdict, answer, who answered and asked, its topic and number.
    last: dict[str, Any] | None
    winner: int | None
    variants: dict[str, bool]
    house: dict[str, Any]


class CarreraDeMente(Game[State, CarreraView]):
    id = "carrera-de-mente"
    title = "Carrera de Mente"
    min_players = 2
    max_players = 6
    acts_in_turn = True
    fixed_state = ("booklets", "board")
    steady_view = ("board", "quiz_history")
    order = 30
    web_module = "carrera-de-mente"
    terminal = "mindtable.games.carrera_de_mente.terminal:run_terminal"
    moves = MOVES
    codes: ClassVar[Mapping[str, str]] = {**CODES, **QUIZ.codes}
    seat_params: ClassVar[Mapping[str, tuple[str, ...]]] = {**SEAT_PARAMS, **QUIZ.seat_params}
    label_params = LABEL_PARAMS
    #: For ``mindtable questions fit``: a game of four asks about 180 questions, about 30 of each booklet.
    quiz_profile = GameProfile(
        "booklets",
        TOPIC_MAP,
        {t: 30 for t in TOPIC_MAP.topics},
        "questions per booklet: about 180 questions in a game of four (six prizes each, answering on until wrong)",
    )
    # 2: the judge reads "300 000" as a number; a list with an extra wrong name is a guess. 3: variant 3's made-up
    # option of the answer's kind (and for lists); a stealer may decline, and takes a colour they lack when the
    # victim has one; closed options are refused alike for every question; one square after any options.
    # Also 3: judge v3 (docs/trivia.md: what players type; with surname_alone off the whole name is asked).
    rules_revision = 3
    #: People at the table see each step of a bot: the quiz step reads its question before answering it.
    room_bot_pace = "normal"
    progress_label = "turns"
    simulation_details: ClassVar[Mapping[str, str]] = {"answers_in_turn": "answers in a turn"}
    option_schema = (*OPTIONS, *QUIZ.options)
    bots: ClassVar[Mapping[str, str]] = {
        "knowing": "mindtable.games.carrera_de_mente.bots:make_bot",
        "random": "mindtable.core.bots:RandomBot",
    }

    def normalize_options(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        if options["variant_experts"] and options["variant_young"]:
            raise InvalidOptions(
                "variant_experts (no options ever) and variant_young (options everywhere) cannot both be on",
                option="variant_young",
            )
        # Files are read (and a bad board or bank refused with InvalidOptions) by initial_state only: a snapshot
        # or a record loads with no board or booklet file present.
        return options

    def initial_state(self, players: int, options: Mapping[str, Any], rng: Rng) -> State:
        first, rounds = roll_off(rng, range(players))
        board_file = option_path("board_file", options["board_file"]) if options["board_file"] else ""
        bank_file = option_path("bank_file", options["bank_file"]) if options["bank_file"] else ""
        board = read_board(options["board"], board_file)
        booklets, titles = _dealt_booklets(options["language"], bank_file)
        members = options["team_members"]
        return {
            "players": players,
            "options": dict(options),
            "board": board,
            "booklets": dict(booklets),
            "titles": dict(titles),
            "used": {t: [] for t in TOPICS},
            "rolloff": [{str(s): r for s, r in rolls.items()} for rolls in rounds],
            "turn": new_turn(players, first),
            "teams": new_teams(
                [[f"{seat + 1}{chr(97 + m)}" for m in range(members)] if members > 1 else [] for seat in range(players)]
            ),
            "phase": ROLL,
            "pegs": [0] * players,
            "tokens": new_supply({c: TOKENS_PER_COLOUR for c in PRIZE_COLOURS}, players),
            "move_die": None,
            "context": None,
            "pending": _no_pending(),
            "ask": None,
            "last": None,
            "winner": None,
            "stats": {
                "turns": 0,
                "asked": 0,
                "answers": [0] * players,
                "right": [0] * players,
                "squares": [0] * players,
                "this_turn": 0,
                "answers_in_turn": [],
            },
        }

    def validate_state(self, state: State, players: int, options: Mapping[str, Any]) -> None:
        for key in ("board", "booklets", "pegs", "tokens", "turn", "phase", "pending"):
            if key not in state:
                raise ValueError(f"missing field {key!r}")
        for topic in TOPICS:
            if not isinstance(state["booklets"].get(topic), str):
                raise ValueError(f"booklets.{topic} must be the packed booklet (a text)")
        if state["phase"] not in PHASES:
            raise ValueError(f"phase must be one of {', '.join(PHASES)}, got {state['phase']!r}")
        if len(state["pegs"]) != players:
            raise ValueError(f"pegs: one per seat ({players}), got {len(state['pegs'])}")
        size = len(state["board"]["squares"])
        for seat, peg in enumerate(state["pegs"]):
            if not isinstance(peg, int) or not 0 <= peg < size:
                raise ValueError(f"pegs[{seat}] must be a square from 0 to {size - 1}, got {peg!r}")
        try:
            check_conservation(state["tokens"])
        except TokenError as exc:
            raise ValueError(f"tokens: {exc}") from None
        for seat, held in enumerate(state["tokens"]["held"]):
            if any(n > 1 for n in held.values()):
                raise ValueError(f"tokens.held[{seat}]: a player holds at most one prize of each colour")

    def view(self, state: State, seat: int | None) -> CarreraView:
        view = self._public(state)
        view["ask"] = QUIZ.view(state, seat)
        return view

    def views(self, state: State, seats: Sequence[int]) -> dict[int, CarreraView]:
        # What every seat sees is built once a step; only the question differs from seat to seat.
        public = self._public(state)
        return {seat: {**public, "ask": QUIZ.view(state, seat)} for seat in seats}

    def bot_views(self, state: State, seats: Sequence[int], to_act: list[int]) -> dict[int, LazyView]:
        return QUIZ.bot_views(state, seats, to_act, lambda: self._public(state))

    def _public(self, state: State) -> CarreraView:
        """The view's part every seat (and a spectator) sees alike: all of it but the question being asked."""
        turn = state["turn"]["seat"]
        players = state["players"]
        pending = state["pending"]
        context = state["context"]
        return {
            "phase": state["phase"],
            "turn": turn,
            "turn_number": state["turn"]["number"],
            "asker": right_of(turn, players),
            "member": answerer(state["teams"], turn),
            "members": [list(t["members"]) for t in state["teams"]],
            "language": state["options"]["language"],
            "board": state["board"],
            "pegs": list(state["pegs"]),
            "prizes": [prizes(state, s) for s in range(players)],
            "tokens": supply_view(state["tokens"]),
            "titles": state["titles"],
            "rolloff": state["rolloff"],
            "move_die": state["move_die"],
            # lists copied too: a view handed out must not change as the game goes on (a replay keeps each step's)
            "context": {k: list(v) if isinstance(v, list) else v for k, v in context.items()} if context else None,
            "lap_choices": lap_choices(state, turn) if state["phase"] == LAP else [],
            "laps_pending": pending["laps"],
            "steal_from": list(pending["steal_from"]),
            "ask": None,
            "last": state["last"],
            "quiz_history": QUIZ.history(state),
            "winner": state["winner"],
            "variants": {
                "short": state["options"]["variant_short"],
                "experts": state["options"]["variant_experts"],
                "young": state["options"]["variant_young"],
            },
            "house": {
                "answer_seconds": state["options"]["answer_seconds"],
                "surname_alone": state["options"]["surname_alone"],
                "descriptions": state["options"]["descriptions"],
                "typos": state["options"]["typos"],
            },
        }

    def result(self, state: State) -> Result | None:
        if state["phase"] != OVER:
            return None
        players = state["players"]
        counts = [len(prizes(state, s)) for s in range(players)]
        if state["winner"] is not None:
            winners: tuple[int, ...] = (state["winner"],)
            reason = "six_colours"
        else:
            best = max(counts)
            winners = tuple(s for s in range(players) if counts[s] == best)
            reason = "turn_limit"
        stats = state["stats"]
        answers = sum(stats["answers"])
        return Result(
            winners,
            tuple(float(c) for c in counts),
            reason,
            {
                "progress": stats["turns"],
                "turns": stats["turns"],
                "answers": answers,
                "right": sum(stats["right"]),
                "answers_per_turn": round(answers / stats["turns"], 3) if stats["turns"] else 0.0,
                **(
                    {"answers_in_turn": _answers_in_turns(stats, finished=True)}
                    if "this_turn" in stats
                    else {}  # a record made before turns were counted keeps its result
                ),
            },
        )

    def read_before(self, view: dict[str, Any], action: Mapping[str, Any]) -> str:
        return QUIZ.read_before(view, action)

    def next_deadline(self, state: State) -> Deadline | None:
        return QUIZ.deadline(state)

    def secrets(self, state: State, players: int) -> list[tuple[tuple[int, ...], str]]:
        ask = state["ask"]
        found = QUIZ.secrets(state)
        if ask is not None and ask["options_shown"]:
            # Once the options are read out, an option's text is no secret even when it is the answer.
            shown = {json.dumps(o) for q in ask["card"]["questions"] for o in q.get("options", ())}
            found = [(seats, text) for seats, text in found if text not in shown]
        return found


GAME = CarreraDeMente()

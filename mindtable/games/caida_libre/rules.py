"""Caída Libre: the rules engine (docs/rules/caida-libre.md quotes the book next to each rule).

A turn: the *asker* (``state["turn"]["seat"]``) draws a card and reads it to the *answerer*, the player on their
left. If the answerer stands on a weapon square, the weapon applies to this question (Sniper and Hook first
ask the answerer to choose a victim or a partner: phase ``weapon``). The card is asked through the shared ask
step (:mod:`mindtable.trivia.quiz`): the asker is its reader, sees the answers and confirms or overrules the
judge. The card's penalty (and the weapon's effect) moves pawns on the IQ scale; then the answerer becomes the
asker. The game ends when a pawn reaches 0, Free Fall; the highest IQ wins.

Phases: ``weapon`` (the answerer chooses a target), ``draw`` (the asker draws), ``ask`` (the card is being
asked), ``over``.
"""

from __future__ import annotations

import functools
import marshal
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar, TypedDict

from mindtable.core.codes import refuse
from mindtable.core.errors import IllegalAction, InvalidOptions
from mindtable.core.events import Deadline, Event, Result
from mindtable.core.flow import Flow, Phase
from mindtable.core.game import Game, State
from mindtable.core.moves import Move, MoveTable, Param, declare_gate, gate_needs, gate_opens
from mindtable.core.options import Option, option_path
from mindtable.core.rng import Rng
from mindtable.core.turns import left_of, new_turn, pass_turn
from mindtable.core.views import LazyView
from mindtable.kit.board import BoardError
from mindtable.kit.deck import deck_view, discard, draw, new_deck
from mindtable.trivia.bank import BankError, Problem
from mindtable.trivia.categories import TopicMap
from mindtable.trivia.judge import judge_answer
from mindtable.trivia.model import question_from_dict
from mindtable.trivia.quiz import Ask, AskView, ask_next, outcome
from mindtable.trivia.sets import GameProfile, QuestionSet, load_set
from mindtable.trivia.step import QuizStep

from .scale import WEAPONS, Scale, clamp, load_scale, weapon_at

HERE = Path(__file__).resolve().parent
#: The codes whose parameters name a seat (pages show the seat's name).
SEAT_PARAMS = {
    "cl_target_first": ("seat",),
    "cl_not_weapon_holder": ("seat",),
    "cl_not_asker": ("asker",),
    "cl_bad_target": ("target", "allowed"),
}
CONTENT = HERE / "content"
LANGUAGES = ("es", "en")
CARD_TYPES = ("double", "roulette", "quote5", "more_or_less", "fake_news", "shootout")
PACKS = ("1", "2", "3", "4", "5", "all")

#: The penalties the book prints for each card type (a double question carries its own on the card).
ROULETTE_PENALTY = 40
QUOTE5_PER_ITEM = 10
QUOTE5_PENALTY_ITEMS = 5  # the five elements asked for
TWO_PART_PENALTY = {0: 0, 1: 20, 2: 50}  # more or less, fake/real news: by the number of wrong answers
SHOOTOUT_PENALTY = 30
#: The weapons' effects, as the book gives them.
SNIPER_GAIN, SNIPER_HIT = 10, 30
HOOK_GAIN = 10
DYNAMITE_GAIN, DYNAMITE_EXTRA = 10, 20
JETPACK_GAIN = 30
ARMAGEDDON_GAIN, ARMAGEDDON_HIT = 10, 20
#: Weapons that need a target chosen by the answerer before the card is drawn.
TARGETED = ("sniper", "hook")

CODES: dict[str, str] = {
    "cl_not_asker": "only the asker, seat {asker}, draws the card",
    "cl_target_first": "seat {seat} stands on the {weapon} and first chooses its target",
    "cl_no_target_now": "there is no weapon target to choose now",
    "cl_not_weapon_holder": "only seat {seat}, who stands on the {weapon}, chooses its target",
    "cl_bad_target": "seat {target} cannot be the {weapon}'s target; choose one of {allowed}",
    "cl_card_in_play": "a card is being asked now: wait until it is decided",
}


# --- content --------------------------------------------------------------------------------------------------


def content_files(language: str, card_type: str) -> list[Path]:
    """The files holding ``card_type``'s cards in ``language``: ``<type>.yaml`` first, then any
    ``<type>-<part>.yaml`` (``double-2.yaml`` …) in name order, so a type's cards may be written in several files."""
    folder = CONTENT / language
    return [folder / f"{card_type}.yaml", *sorted(folder.glob(f"{card_type}-*.yaml"))]


@functools.cache
def _set(language: str, card_type: str) -> QuestionSet:
    """Every card of ``card_type`` in ``language``, from all its files; a card id used twice is refused."""
    first, *more = (load_set(path) for path in content_files(language, card_type))
    cards, seen = list(first.cards), {card.id: first.path.name for card in first.cards}
    for part in more:
        if part.type != first.type:
            raise BankError(
                [Problem(str(part.path), 0, "type", f"is {part.type!r}; files of {card_type} hold {first.type!r}")]
            )
        for card in part.cards:
            if card.id in seen:
                raise BankError(
                    [Problem(str(part.path), 0, "id", f"card id {card.id!r} is already used in {seen[card.id]}")]
                )
            seen[card.id] = part.path.name
            cards.append(card)
    return replace(first, cards=cards, warnings=[w for s in (first, *more) for w in s.warnings])


def deal_cards(language: str, pack: str) -> dict[str, dict[str, Any]]:
    """The cards of ``pack`` (``"all"``: the five packs) in ``language``, by id, as JSON for the state.

    The dict is the match's own; the cards in it are built once a language and pack and shared by every match
    of the process (a new match no longer copies 120 cards): nothing changes a card once dealt — the rules read
    them, an ask step copies the card it asks, and a snapshot or a record is JSON of its own."""
    return dict(_shared_cards(language, pack))


@functools.cache
def _shared_cards(language: str, pack: str) -> dict[str, dict[str, Any]]:
    cards: dict[str, dict[str, Any]] = marshal.loads(_dealt(language, pack))
    return cards


@functools.cache
def _dealt(language: str, pack: str) -> bytes:
    """:func:`deal_cards`' JSON, made once a language and pack (the card files are read once, by :func:`_set`)."""
    out: dict[str, dict[str, Any]] = {}
    for card_type in CARD_TYPES:
        for card in _set(language, card_type).cards:
            if pack == "all" or card.pack == pack:
                out[card.id] = card.to_dict()
    return marshal.dumps(out)


def library_questions(language: str) -> list[Any]:
    """Every question of the shipped cards in ``language`` (what a bot has read)."""
    return [q for card_type in CARD_TYPES for q in _set(language, card_type).questions]


# --- helpers --------------------------------------------------------------------------------------------------


def asker_of(state: State) -> int:
    return int(state["turn"]["seat"])


def answerer_of(state: State) -> int:
    return left_of(asker_of(state), state["players"])


def _now(state: State, action: Mapping[str, Any]) -> int:
    at = action.get("at")
    if at is not None:
        state["now"] = at
    return int(state["now"])


def _start_turn(state: State) -> list[Event]:
    """A new turn: the answerer's weapon square (if any) arms its weapon; Sniper and Hook ask for a target."""
    asker, answerer = asker_of(state), answerer_of(state)
    kind = weapon_at(state["scale"], state["iq"][answerer]) if state["options"]["weapons"] else None
    state["weapon"] = {"kind": kind, "seat": answerer, "target": None} if kind else None
    events = [Event("turn_started", {"asker": asker, "answerer": answerer, "weapon": kind})]
    if kind:
        events.append(Event("weapon_armed", {"seat": answerer, "weapon": kind, "iq": state["iq"][answerer]}))
    return events


def target_choices(state: State, seat: Any = None) -> list[int]:
    """Who the answerer's Sniper or Hook may target: every other player."""
    weapon = state.get("weapon")
    if not weapon:
        return []
    return [s for s in range(state["players"]) if s != weapon["seat"]]


# --- gates ----------------------------------------------------------------------------------------------------


def _gate_target(state: State, seat: Any, at: Any) -> IllegalAction | None:
    if state["phase"] != "weapon":
        return refuse("cl_no_target_now")
    weapon = state["weapon"]
    if seat != weapon["seat"]:
        return refuse("cl_not_weapon_holder", seat=weapon["seat"], weapon=weapon["kind"])
    return None


def _gate_draw(state: State, seat: Any, at: Any) -> IllegalAction | None:
    phase = state["phase"]
    if phase == "weapon":
        weapon = state["weapon"]
        return refuse("cl_target_first", seat=weapon["seat"], weapon=weapon["kind"])
    if phase == "ask":
        return refuse("cl_card_in_play")
    if phase != "draw":
        return refuse("not_now", action="draw")
    if seat != asker_of(state):
        return refuse("cl_not_asker", asker=asker_of(state))
    return None


# What the listings ask instead of the gates (declare_gate): whether each opens, without building its refusal.
declare_gate(_gate_target, opens=lambda state, seat, at: state["phase"] == "weapon" and seat == state["weapon"]["seat"])
declare_gate(_gate_draw, opens=lambda state, seat, at: state["phase"] == "draw" and seat == asker_of(state))


def _target_refusal(state: State, seat: Any, value: Any) -> IllegalAction:
    allowed = target_choices(state)
    weapon = state.get("weapon") or {"kind": "weapon"}
    if type(value) is int and 0 <= value < state["players"]:
        return refuse("cl_bad_target", target=value, weapon=weapon["kind"], allowed=list(allowed))
    return refuse(
        "bad_value", action="target", field="target", allowed=", ".join(map(str, allowed)), value=repr(value)[:40]
    )


# --- effects --------------------------------------------------------------------------------------------------


def _target(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    _now(state, action)
    weapon = state["weapon"]
    weapon["target"] = action["target"]
    return [Event("target_chosen", {"seat": action["seat"], "weapon": weapon["kind"], "target": action["target"]})]


def _draw(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    now = _now(state, action)
    reshuffles = state["deck"]["reshuffles"]
    card_id = draw(state["deck"], rng)
    assert card_id is not None, "the deck and its discards are never both empty"
    card = state["cards"][card_id]
    asker, answerer = asker_of(state), answerer_of(state)
    options = state["options"]
    kind = card["type"]
    limit = options["answer_seconds"] * 1000 or None
    if kind == "quote5":
        limit = options["quote5_seconds"] * 1000
    events = QUIZ.open(
        state,
        card,
        reader=asker,
        answerers=[answerer],
        question=None if kind == "double" else 0,
        choices=[0, 1] if kind == "double" else None,
        options="shown",
        time_limit_ms=limit,
        at=now,
    )
    state["card"] = {"id": card_id, "type": kind, "wrong": 0}
    out = [Event("card_drawn", {"asker": asker, "answerer": answerer, "card_type": kind})]
    if state["deck"]["reshuffles"] != reshuffles:
        out.insert(0, Event("deck_reshuffled", {"cards": len(state["deck"]["draw"]) + 1}))
    return out + events


def _decided(state: State, ask: Ask, rng: Any) -> list[Event]:
    """One question of the card is decided: ask the next one, or score the card."""
    card = state["card"]
    kind = card["type"]
    verdict = outcome(ask)
    result = ask["results"][-1]
    if not verdict["correct"]:
        card["wrong"] += 1
    asked = len(ask["asked"])
    size = len(ask["card"]["questions"])
    penalty: int | None = None
    if kind == "double":
        chosen = ask["card"]["questions"][result["index"]]
        penalty = 0 if verdict["correct"] else int(chosen["extra"]["penalty"])
    elif kind == "roulette":
        penalty = 0 if verdict["correct"] else ROULETTE_PENALTY
    elif kind == "quote5":
        missing = int(verdict.get("missing", 0))
        if state["options"].get("quote5_wrong_names"):
            # house rule: each wrong name counts as a missing one (at most the five asked for)
            wrong = quote5_wrong_names(ask, int(verdict.get("named", 0)))
            card["wrong_names"] = wrong
            missing = min(int(verdict.get("needed", 5)), missing + wrong)
        card["missing"] = missing
        penalty = QUOTE5_PER_ITEM * missing
    elif kind in ("more_or_less", "fake_news"):
        if asked < size:
            return ask_next(ask, asked, state["now"])
        penalty = TWO_PART_PENALTY[min(card["wrong"], 2)]
    elif kind == "shootout":
        if not verdict["correct"]:
            penalty = SHOOTOUT_PENALTY
        elif asked < size:
            return ask_next(ask, asked, state["now"])
        else:
            penalty = 0
    assert penalty is not None, f"unknown card type {kind!r}"
    return _score(state, penalty)


def quote5_wrong_names(ask: Ask, named: int) -> int:
    """How many of the names typed for a Quote 5 are wrong, when ``named`` of them are counted right (by the judge
    or by the asker's ticks): every entry typed (the judge's own reading of the list, repeats left out) less
    ``named``. Only when nothing is counted right may one wrong name go uncounted — five are missing then anyway."""
    question = question_from_dict(ask["card"]["questions"][ask["index"]])
    given = ask.get("given") or ""
    if not given.strip():
        return 0
    # Asked for one item with extras counted as wrong, the judge names every entry: found + wrong.
    probe = judge_answer(replace(question, count=1), given, **{**ask["rules"], "list_extras": "wrong"})
    details = probe.details
    entries = int(details["given"]) if probe.code == "list_extra_wrong" else len(probe.matched_items)
    return max(0, entries - named)


def _move(state: State, seat: int, delta: int, why: str) -> dict[str, Any]:
    before = state["iq"][seat]
    after = clamp(state["scale"], before + delta)
    state["iq"][seat] = after
    return {"seat": seat, "before": before, "after": after, "delta": after - before, "why": why}


def _score(state: State, penalty: int) -> list[Event]:
    """The card is done: its penalty (0: answered correctly) and the weapon's effect move the pawns."""
    ask = state["ask"]
    seat = ask["answerers"][0]
    weapon = state["weapon"]
    kind = weapon["kind"] if weapon else None
    target = weapon["target"] if weapon else None
    victim = int(target) if target is not None else -1  # a Sniper or Hook has its target before the draw
    correct = penalty == 0
    moves: list[dict[str, Any]] = []
    if correct:
        if kind == "sniper":
            moves += [_move(state, seat, SNIPER_GAIN, "sniper"), _move(state, victim, -SNIPER_HIT, "sniper_victim")]
        elif kind == "hook":
            moves += [_move(state, seat, HOOK_GAIN, "hook"), _move(state, victim, HOOK_GAIN, "hook_partner")]
        elif kind == "dynamite":
            moves.append(_move(state, seat, DYNAMITE_GAIN, "dynamite"))
        elif kind == "jetpack":
            moves.append(_move(state, seat, JETPACK_GAIN, "jetpack"))
        elif kind == "armageddon":
            moves.append(_move(state, seat, ARMAGEDDON_GAIN, "armageddon"))
            moves += [
                _move(state, other, -ARMAGEDDON_HIT, "armageddon_victim")
                for other in range(state["players"])
                if other != seat
            ]
    else:
        extra = DYNAMITE_EXTRA if kind == "dynamite" else 0
        moves.append(_move(state, seat, -(penalty + extra), "dynamite" if extra else "penalty"))
    card = state["card"]
    notes: list[Event] = []
    if kind and not correct and card["type"] == "quote5" and card.get("missing", 0) < QUOTE5_PENALTY_ITEMS:
        # "Correct" for a weapon is a card that cost nothing: four names of five is a wrong answer for it.
        verdict = ask["verdict"]
        notes.append(
            Event(
                "cl_partly_wrong",
                {
                    "seat": seat,
                    "weapon": kind,
                    "named": int(verdict.get("named", 0)),
                    "needed": int(verdict.get("needed", QUOTE5_PENALTY_ITEMS)),
                    "penalty": penalty,
                    "extra": DYNAMITE_EXTRA if kind == "dynamite" else 0,
                },
            )
        )
    state["played"] += 1
    state["history"].append(list(state["iq"]))
    summary = {
        "number": state["played"],
        "asker": ask["reader"],
        "answerer": seat,
        "card_type": card["type"],
        "topic": ask["card"].get("topic", ""),
        "penalty": penalty,
        "correct": correct,
        "weapon": kind,
        "target": target,
        "moves": moves,
        "results": list(ask["results"]),
    }
    if card["type"] == "quote5":
        summary["missing"] = card.get("missing", 0)
        if "wrong_names" in card:
            summary["wrong_names"] = card["wrong_names"]
    if notes:
        summary["notes"] = [{"code": n.type, "params": dict(n.data)} for n in notes]
    state["last"] = summary
    discard(state["deck"], card["id"])
    state["ask"] = None
    state["card"] = None
    state["weapon"] = None
    events = [*notes, Event("card_scored", summary)]
    fallen = [s for s in range(state["players"]) if state["iq"][s] == 0]
    if fallen:
        state["fallen"] = fallen
        return [*events, Event("free_fall", {"seats": fallen, "iq": list(state["iq"])})]
    pass_turn(state["turn"])
    return events + _start_turn(state)


def _timed(move: Move) -> Move:
    """An ask move that also keeps ``state["now"]`` (the latest time an action carried). A Quote 5 is named "in
    less than 15 seconds": an answer or a name typed at the deadline itself (15.000 s) is too late."""
    effect, gate = move.effect, move.gate

    def run(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
        _now(state, action)
        return effect(state, action, rng)

    def in_time(state: State, seat: Any, at: Any) -> IllegalAction | None:
        refusal = gate(state, seat, at)
        ask = state.get("ask")
        if refusal is None and ask is not None and state.get("card") and state["card"]["type"] == "quote5":
            deadline = ask.get("deadline")
            if deadline is not None and at is not None and at >= deadline:
                return refuse("ask_time_up", deadline=deadline)
        return refusal

    def late(state: State, at: Any) -> bool:
        ask = state.get("ask")
        if ask is not None and state.get("card") and state["card"]["type"] == "quote5":
            deadline = ask.get("deadline")
            return deadline is not None and at is not None and at >= deadline
        return False

    base_opens = gate_opens(gate)

    def opens(state: State, seat: Any, at: Any) -> bool:
        open_ = gate(state, seat, at) is None if base_opens is None else base_opens(state, seat, at)
        return open_ and not late(state, at)

    if move.type in ("ask_answer", "ask_type"):
        # a stricter gate than the step's: it needs what the step's gate needs; one gate for both moves (they
        # share the step's), so that a listing asks it once
        timed = _TIMED_GATES.get(gate)
        if timed is None:
            timed = _TIMED_GATES[gate] = declare_gate(in_time, needs=gate_needs(gate), opens=opens)
        return replace(move, effect=run, gate=timed)
    return replace(move, effect=run)


#: The step's answer gate -> Caída's timed gate around it (see :func:`_timed`).
_TIMED_GATES: dict[Any, Any] = {}


#: The ask step: the asker on the answerer's right reads the card (the book), its options are part of every
#: question; the group agrees on the time to answer and to judge and on how exact an answer must be. Quote 5:
#: "you lose 10 IQ points for each element you are missing", so a wrong name among them costs nothing.
QUIZ = QuizStep(
    _decided,
    house_rules=("typos", "accents", "surname_alone"),
    fixed_rules={"list_extras": "ignore"},
    answer_seconds=(0, 30, 60),
    confirm_seconds=(0, 20, 60),
    adapt=_timed,
)


def _first_step(state: State) -> str:
    """A turn begins with the Sniper's or the Hook's target when the answerer stands on one, else the draw."""
    weapon = state["weapon"]
    return "weapon" if weapon is not None and weapon["kind"] in TARGETED else "draw"


#: The turn flow: who acts in each phase (every move exists in every phase, its gate saying why not), and the
#: events that lead on: a turn starts with the target or the draw, a card drawn is asked, a Free Fall ends it.
FLOW = Flow(
    [
        Phase("weapon", to_act=lambda state: [state["weapon"]["seat"]], help="choose the weapon's target"),
        Phase("draw", to_act=lambda state: [asker_of(state)], help="draw a card"),
        Phase("ask", to_act=QUIZ.waiting),
        Phase("over"),
    ],
    on={"turn_started": _first_step, "target_chosen": "draw", "card_drawn": "ask", "free_fall": "over"},
)

MOVES = MoveTable(
    [
        Move(
            "target",
            _target,
            _gate_target,
            params=(Param.choice("target", target_choices, explain=_target_refusal),),
            help="choose the Sniper's victim or the Hook's partner",
        ),
        Move("draw", _draw, _gate_draw, help="draw a card and read it to the player on your left"),
        *QUIZ.moves,
    ],
    flow=FLOW,
)


# --- the game -------------------------------------------------------------------------------------------------


#: How the categories of any bank feed the five topics of Shootout; questions of other categories feed only cards
#: without a topic.
TOPIC_MAP = TopicMap(
    topics=("history", "geography", "science", "arts", "sport"),
    feeds={
        "literature": "arts",
        "music": "arts",
        "film": "arts",
        "entertainment": "arts",
        "culture": "arts",
        "technology": "science",
        "politics": "history",
    },
    fallback=None,
)


class CaidaView(TypedDict):
    """What a seat sees (``view``): the IQ scale and the pawns, who asks and who answers, the weapon and the card in
    play, the ask step."""

    phase: str
    language: str
    pack: str
    #: Each seat's IQ, and the top of the scale.
    iq: list[int]
    top: int
    scale: dict[str, Any]
    board: Any
    asker: int
    answerer: int
    #: The seat that started, and who chose it (``room`` or ``random``).
    starter: dict[str, Any]
    #: The answerer's weapon this turn (its kind, its seat, its target), if they stand on one.
    weapon: dict[str, Any] | None
    #: The card being asked: its type and how many of its questions were answered wrong.
    card: dict[str, Any] | None
    ask: AskView | None
    quiz_history: list[dict[str, Any]]
    #: The last card scored: its penalty, the weapon's effect, the pawns' moves, each question's result.
    last: dict[str, Any] | None
    played: int
    deck: dict[str, int]
    fallen: list[int]


class CaidaLibre(Game[State, CaidaView]):
    id = "caida-libre"
    title = "Caída Libre"
    min_players = 2
    max_players = 8
    acts_in_turn = True
    fixed_state = ("cards", "scale")
    steady_view = ("board", "scale", "quiz_history")
    order = 40
    moves = MOVES
    codes: ClassVar[Mapping[str, str]] = {**CODES, **QUIZ.codes}
    #: For ``mindtable questions fit``: a game plays one pack, six cards of each type as the shipped packs are made.
    quiz_profile = GameProfile(
        "typed_cards",
        TOPIC_MAP,
        {t: 6 for t in CARD_TYPES},
        "cards per type: a game plays one pack, six cards of each type as the shipped packs are made",
    )
    seat_params: ClassVar[Mapping[str, tuple[str, ...]]] = {**SEAT_PARAMS, **QUIZ.seat_params}
    # 2: the judge reads "300 000" as a number; a list with an extra wrong name is a guess. 3: a Quote 5 answer
    # at the deadline itself (15.000 s) is too late ("in less than 15 seconds").
    # Also 3: judge v3 (docs/trivia.md: what players type; with surname_alone off the whole name is asked).
    rules_revision = 3
    #: People at the table see each step of a bot: the quiz step reads its question before answering it.
    room_bot_pace = "normal"
    progress_label = "cards played"
    terminal = "mindtable.games.caida_libre.terminal:run_terminal"
    cli_commands = "mindtable.games.caida_libre.study:app"
    web_module = "caida-libre"
    bots: ClassVar[Mapping[str, str]] = {
        "knowing": "mindtable.games.caida_libre.bots:make_bot",
        "random": "mindtable.core.bots:RandomBot",
    }
    #: In a room a knowing bot takes 1.2 s over each move, so the people at the table can follow it.
    room_bot_params: ClassVar[Mapping[str, Mapping[str, Any]]] = {"knowing": {"think_ms": 1200}}
    option_schema = (
        Option("language", str, default="es", choices=LANGUAGES, help="language of the cards"),
        Option("pack", str, default="1", choices=PACKS, help="the card pack the room plays (or all five)"),
        Option(
            "starter",
            int,
            default=-1,
            minimum=-1,
            maximum=7,
            help="seat that starts (the one who considers themselves the most cultured); -1 picks at random",
        ),
        Option("weapons", bool, default=True, help="play with the weapon squares"),
        Option("quote5_seconds", int, default=15, choices=(15, 20, 30), help="seconds for a Quote 5"),
        Option(
            "quote5_wrong_names",
            bool,
            default=False,
            help="house rule: in a Quote 5 each wrong name counts as a missing one (at most five); the book "
            "counts only the missing ones",
        ),
        *QUIZ.options,
        Option(
            "board",
            str,
            default="",
            help="path of another IQ scale board file (empty: the built-in scale)",
            file="board",
        ),
    )

    def normalize_options(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        if options["starter"] >= players:
            raise InvalidOptions(
                f"starter must be -1 (random) or a seat from 0 to {players - 1}, got {options['starter']}",
                option="starter",
            )
        return options

    def initial_state(self, players: int, options: Mapping[str, Any], rng: Rng) -> State:
        # The board file is read here only: a record replays from its start, without the file.
        try:
            scale: Scale = load_scale(option_path("board", options["board"]) if options["board"] else None)
        except BoardError as exc:
            raise InvalidOptions(f"board: {exc}", option="board") from None
        starter = options["starter"]
        chosen_by = "room"
        if starter < 0:
            starter, chosen_by = rng.randint(0, players - 1), "random"
        cards = deal_cards(options["language"], options["pack"])
        state: State = {
            "players": players,
            "options": dict(options),
            "scale": scale,
            "iq": [scale["top"]] * players,
            "turn": new_turn(players, starter),
            "starter": {"seat": starter, "by": chosen_by},
            "phase": "draw",
            "weapon": None,
            "cards": cards,
            "deck": new_deck(sorted(cards), rng),
            "ask": None,
            "card": None,
            "last": None,
            "played": 0,
            "history": [[scale["top"]] * players],
            "fallen": [],
            "now": 0,
        }
        FLOW.advance(state, _start_turn(state))
        return state

    def view(self, state: State, seat: int | None) -> CaidaView:
        view = self._public(state)
        view["ask"] = QUIZ.view(state, seat)
        return view

    def bot_views(self, state: State, seats: Sequence[int], to_act: list[int]) -> dict[int, LazyView]:
        # A bot reads the language at every step (its library), the rest of the public part seldom.
        own = {"language": lambda: state["options"]["language"]}
        return QUIZ.bot_views(state, seats, to_act, lambda: self._public(state), own)

    def _public(self, state: State) -> CaidaView:
        """The view's part every seat (and a spectator) sees alike: all of it but the question being asked."""
        scale = state["scale"]
        card = state["card"]
        return {
            "phase": state["phase"],
            "language": state["options"]["language"],
            "pack": state["options"]["pack"],
            "iq": list(state["iq"]),
            "top": scale["top"],
            "scale": {
                "title": scale["title"],
                "step": scale["step"],
                "squares": [dict(s) for s in scale["squares"]],
            },
            "board": scale["board"],
            "asker": asker_of(state),
            "answerer": answerer_of(state),
            "starter": dict(state["starter"]),
            "weapon": dict(state["weapon"]) if state["weapon"] else None,
            "card": {"type": card["type"], "wrong": card["wrong"]} if card else None,
            "ask": None,
            "last": state["last"],
            "quiz_history": QUIZ.history(state),
            "played": state["played"],
            "deck": deck_view(state["deck"]),
            "fallen": list(state["fallen"]),
        }

    def result(self, state: State) -> Result | None:
        if state["phase"] != "over":
            return None
        iq = state["iq"]
        best = max(iq)
        winners = tuple(s for s, v in enumerate(iq) if v == best)
        return Result(
            winners,
            tuple(float(v) for v in iq),
            "free_fall",
            {"fallen": list(state["fallen"]), "progress": state["played"], "history": state["history"]},
        )

    def read_before(self, view: dict[str, Any], action: Mapping[str, Any]) -> str:
        return QUIZ.read_before(view, action)

    def next_deadline(self, state: State) -> Deadline | None:
        return QUIZ.deadline(state)

    def secrets(self, state: State, players: int) -> list[tuple[tuple[int, ...], str]]:
        return QUIZ.secrets(state)

    def validate_state(self, state: State, players: int, options: Mapping[str, Any]) -> None:
        top = state["scale"]["top"]
        for seat, value in enumerate(state["iq"]):
            if not 0 <= value <= top or value % state["scale"]["step"]:
                raise ValueError(f"iq[{seat}]: must be a multiple of 10 from 0 to {top}, got {value}")


GAME = CaidaLibre()

__all__ = ["CODES", "GAME", "MOVES", "WEAPONS", "CaidaLibre", "deal_cards", "library_questions"]

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
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

from mindtable.core.codes import refuse
from mindtable.core.errors import IllegalAction, InvalidOptions
from mindtable.core.events import Deadline, Event, Result
from mindtable.core.game import Game, State
from mindtable.core.moves import Move, MoveTable, Param
from mindtable.core.options import Option
from mindtable.core.rng import Rng
from mindtable.core.turns import left_of, new_turn, pass_turn
from mindtable.kit.board import BoardError
from mindtable.kit.deck import deck_view, discard, draw, new_deck
from mindtable.trivia.quiz import (
    ASK_CODES,
    ASK_SEAT_PARAMS,
    ask_deadline,
    ask_moves,
    ask_next,
    ask_secrets,
    ask_view,
    open_ask,
    waiting_for,
)
from mindtable.trivia.sets import QuestionSet, load_set

from .scale import WEAPONS, Scale, clamp, load_scale, weapon_at

HERE = Path(__file__).resolve().parent
#: The codes whose parameters name a seat (pages show the seat's name).
SEAT_PARAMS = {
    **ASK_SEAT_PARAMS,
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
    **ASK_CODES,
    "cl_not_asker": "only the asker, seat {asker}, draws the card",
    "cl_target_first": "seat {seat} stands on the {weapon} and first chooses its target",
    "cl_no_target_now": "there is no weapon target to choose now",
    "cl_not_weapon_holder": "only seat {seat}, who stands on the {weapon}, chooses its target",
    "cl_bad_target": "seat {target} cannot be the {weapon}'s target; choose one of {allowed}",
    "cl_card_in_play": "a card is being asked now: wait until it is decided",
}


# --- content --------------------------------------------------------------------------------------------------


@functools.cache
def _set(language: str, card_type: str) -> QuestionSet:
    """Every ``<type>*.yaml`` file of ``language`` (the print run is written in several files), merged, the
    cards sorted by id; an id in two files is an error."""
    files = sorted((CONTENT / language).glob(f"{card_type}*.yaml"))
    if not files:
        raise FileNotFoundError(f"no {card_type}*.yaml card file in {CONTENT / language}")
    sets = [load_set(f) for f in files]
    seen: dict[str, Path] = {}
    for qset in sets:
        for card in qset.cards:
            if card.id in seen:
                raise ValueError(f"card {card.id!r} is in both {seen[card.id].name} and {qset.path.name}")
            seen[card.id] = qset.path
    return replace(sets[0], cards=sorted((c for s in sets for c in s.cards), key=lambda c: c.id))


def deal_cards(language: str, pack: str) -> dict[str, dict[str, Any]]:
    """The cards of ``pack`` (``"all"``: the five packs) in ``language``, by id, as JSON for the state."""
    out: dict[str, dict[str, Any]] = {}
    for card_type in CARD_TYPES:
        for card in _set(language, card_type).cards:
            if pack == "all" or card.pack == pack:
                out[card.id] = card.to_dict()
    return out


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
    state["phase"] = "weapon" if kind in TARGETED else "draw"
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
    state["phase"] = "draw"
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
    rules = {"typos": options["typos"], "accents": options["accents"], "surname_alone": options["surname_alone"]}
    # Quote 5: "you lose 10 IQ points for each element you are missing": a wrong name among them costs nothing.
    rules["list_extras"] = "ignore"
    state["ask"], events = open_ask(
        card,
        reader=asker,
        answerers=[answerer],
        players=state["players"],
        question=None if kind == "double" else 0,
        choices=[0, 1] if kind == "double" else None,
        options="shown",
        time_limit_ms=limit,
        confirm_ms=options["confirm_seconds"] * 1000 or None,
        rules=rules,
        at=now,
    )
    state["card"] = {"id": card_id, "type": kind, "wrong": 0}
    state["phase"] = "ask"
    out = [Event("card_drawn", {"asker": asker, "answerer": answerer, "card_type": kind})]
    if state["deck"]["reshuffles"] != reshuffles:
        out.insert(0, Event("deck_reshuffled", {"cards": len(state["deck"]["draw"]) + 1}))
    return out + events


def _decided(state: State, ask: dict[str, Any], rng: Any) -> list[Event]:
    """One question of the card is decided: ask the next one, or score the card."""
    card = state["card"]
    kind = card["type"]
    verdict = ask["verdict"]
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
    state["last"] = summary
    discard(state["deck"], card["id"])
    state["ask"] = None
    state["card"] = None
    state["weapon"] = None
    events = [Event("card_scored", summary)]
    fallen = [s for s in range(state["players"]) if state["iq"][s] == 0]
    if fallen:
        state["fallen"] = fallen
        state["phase"] = "over"
        return [*events, Event("free_fall", {"seats": fallen, "iq": list(state["iq"])})]
    pass_turn(state["turn"])
    return events + _start_turn(state)


def _timed(move: Move) -> Move:
    """An ask move that also keeps ``state["now"]`` (the latest time an action carried)."""
    effect = move.effect

    def run(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
        _now(state, action)
        return effect(state, action, rng)

    return replace(move, effect=run)


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
        *[_timed(m) for m in ask_moves(on_decided=_decided)],
    ]
)


# --- the game -------------------------------------------------------------------------------------------------


class CaidaLibre(Game):
    id = "caida-libre"
    title = "Caída Libre"
    min_players = 2
    max_players = 8
    order = 40
    moves = MOVES
    codes = CODES
    seat_params = SEAT_PARAMS
    rules_revision = 2  # 2: the judge reads "300 000" as a number; a list with an extra wrong name is a guess
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
        Option("answer_seconds", int, default=0, choices=(0, 30, 60), help="seconds to answer other cards (0: none)"),
        Option("confirm_seconds", int, default=0, choices=(0, 20, 60), help="seconds the asker has to judge (0: none)"),
        Option("typos", str, default="normal", choices=("strict", "normal", "lenient"), help="typo tolerance"),
        Option(
            "accents",
            str,
            default="language",
            choices=("language", "ignore", "strict"),
            help="accents",
        ),
        Option("surname_alone", bool, default=True, help="a surname alone is enough for a person's name"),
        Option("board", str, default="", help="path of another IQ scale board file (empty: the built-in scale)"),
    )

    def normalize_options(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        if options["starter"] >= players:
            raise InvalidOptions(
                f"starter must be -1 (random) or a seat from 0 to {players - 1}, got {options['starter']}",
                option="starter",
            )
        if options["board"]:
            try:
                load_scale(options["board"])
            except BoardError as exc:
                raise InvalidOptions(f"board: {exc}", option="board") from None
        return options

    def initial_state(self, players: int, options: Mapping[str, Any], rng: Rng) -> State:
        scale: Scale = load_scale(options["board"] or None)
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
        _start_turn(state)
        return state

    def to_act(self, state: State, players: int) -> list[int]:
        phase = state["phase"]
        if phase == "weapon":
            return [state["weapon"]["seat"]]
        if phase == "draw":
            return [asker_of(state)]
        if phase == "ask":
            return waiting_for(state["ask"])
        return []

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
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
            "ask": ask_view(state["ask"], seat),
            "last": state["last"],
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

    def next_deadline(self, state: State) -> Deadline | None:
        return ask_deadline(state["ask"])

    def secrets(self, state: State, players: int) -> list[tuple[tuple[int, ...], str]]:
        return ask_secrets(state["ask"])

    def validate_state(self, state: State, players: int, options: Mapping[str, Any]) -> None:
        top = state["scale"]["top"]
        for seat, value in enumerate(state["iq"]):
            if not 0 <= value <= top or value % state["scale"]["step"]:
                raise ValueError(f"iq[{seat}]: must be a multiple of 10 from 0 to {top}, got {value}")


GAME = CaidaLibre()

__all__ = ["CODES", "GAME", "MOVES", "WEAPONS", "CaidaLibre", "deal_cards", "library_questions"]

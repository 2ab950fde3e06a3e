"""The rules of NeuroRace as pure functions over a JSON-ready state.

See ``docs/rules/neurorace.md`` for the sentence of the book each rule implements and every decision taken
where the book is silent.

State layout (all plain JSON)::

    mode, last_level, limit_ms (solo), max_rounds, stay[seat], ages[seat]
    phase            "ready" (cards lie face down; each seat marks ready) | "countdown" (everyone is ready: 3-2-1)
                     | "playing" | "over"
    start_rule       "ready" (revision 3: every seat marks ready, then the countdown's system move ``go`` starts
                     the round) or "anyone" (older matches: any seat says ``start``); absent means "anyone"
    ready[seat]      who has marked ready for the next round; countdown_ms, countdown_ends_at (ms or null)
    round            rounds started so far; round_started_at: "at" of the latest START
    centre[spot]     [tile id, up side index] or null: 60 spots, fixed for a round
    players[seat]    level, card, side, hand {tile, up, spot, at} | null, slots[7] {tile, up, spot} | null,
                     won (cards kept, UNIVERSAL), completed, losses, end_vote
    box[level - 1]   the cards of that level in the box, top first
    solved           [card, side] pairs already completed
    last_stop        the public outcome of the latest check (stop or time up)
    outcome          null | {reason, winners, scores}
"""

from __future__ import annotations

import hashlib
import random
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any, ClassVar

from mindtable.core.codes import refuse
from mindtable.core.errors import IllegalAction, InvalidOptions
from mindtable.core.events import Deadline, Event, Result
from mindtable.core.game import Game, State
from mindtable.core.moves import Move, MoveTable, Param
from mindtable.core.options import Option
from mindtable.core.rng import Rng
from mindtable.games.neurorace.components import TILE_COUNT, TILES, Side, side_dict
from mindtable.games.neurorace.deck import CARDS, LEVELS, SIDE_NAMES
from mindtable.games.neurorace.tasks import PLACES, Task, format_task, layout_problems

MODES = ("basic", "universal", "solo")
CONTENT_DIGEST = (
    "sha256:"
    + hashlib.sha256(
        b"".join(resources.files(__package__).joinpath(name).read_bytes() for name in ("tiles.txt", "deck.txt"))
    ).hexdigest()[:16]
)
READY, COUNTDOWN, PLAYING, OVER = "ready", "countdown", "playing", "over"
PHASES = (READY, COUNTDOWN, PLAYING, OVER)
#: How a round starts: every seat marks ready then a countdown (revision 3), or any seat says START.
BY_READY, BY_ANYONE = "ready", "anyone"
MAX_PLAYERS = 6
HIDDEN = (
    "the down side of every tile in the centre, on a card or in another player's hand; which tile (id) lies "
    "where; the task of a card before START (the card lies face down); the order of the cards in the box"
)


def _parse_int_list(name: str, text: str | None, count: int | None, low: int, high: int) -> list[int] | None:
    if text is None:
        return None
    parts = [part.strip() for part in str(text).split(",") if part.strip()]
    try:
        values = [int(part) for part in parts]
    except ValueError:
        raise InvalidOptions(
            f"option {name!r} must be whole numbers separated by commas (e.g. '1,3,5'), got {text!r}", option=name
        ) from None
    if count is not None and len(values) != count:
        raise InvalidOptions(f"option {name!r} needs one value per player ({count}), got {len(values)}", option=name)
    for value in values:
        if not low <= value <= high:
            raise InvalidOptions(f"option {name!r}: {value} is not between {low} and {high}", option=name)
    return values


def task_of(player: Mapping[str, Any]) -> Task:
    return CARDS[player["card"]].tasks[player["side"]]


def tile_side(tile: int, up: int) -> Side:
    return TILES[tile][up]


def _centre_view(centre: list[Any]) -> list[dict[str, Any]]:
    """The centre's tiles as views show them: ``{"spot", "up": side_dict(...)}``, built inline (speed)."""
    tiles = TILES
    shown = []
    for spot, entry in enumerate(centre):
        if entry is not None:
            side = tiles[entry[0]][entry[1]]
            shown.append({"spot": spot, "up": {"symbol": side[0], "colour": side[1], "number": side[2]}})
    return shown


class _Shown(dict[str, Any]):
    """A read-only dict, shared by the views :meth:`NeuroRace.views` hands to bots (speed).

    Tiles never change, so the dict showing a side (or a centre tile at a spot) can be built once and handed out
    every step: a bot that keeps the centre it last read then compares it with the new one by identity, element
    by element, instead of field by field. Views built together are read-only by contract (``Match.views``); a
    caller that breaks it gets an error here instead of changing every later view. Copies (``copy``, ``pickle``,
    ``dict(...)``) are plain dicts. :meth:`NeuroRace.view` never shares: each call builds fresh dicts.
    """

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("views built together share this part and are read-only: copy it to change it")

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (dict(self),))

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: Any) -> dict[str, Any]:
        import copy

        return copy.deepcopy(dict(self), memo)


#: tile * 2 + up -> the shared dict showing that side (as ``side_dict``).
_SHOWN_SIDES: tuple[_Shown, ...] = tuple(_Shown(side_dict(side)) for tile in TILES for side in tile)


class _SpotEntries(dict[int, "_Shown"]):
    """tile * 2 + up -> the shared centre entry ``{"spot", "up"}`` of one spot, made when first shown."""

    __slots__ = ("spot",)

    def __init__(self, spot: int) -> None:
        super().__init__()
        self.spot = spot

    def __missing__(self, key: int) -> _Shown:
        entry = self[key] = _Shown(spot=self.spot, up=_SHOWN_SIDES[key])
        return entry


_SHOWN_SPOTS: tuple[_SpotEntries, ...] = tuple(_SpotEntries(spot) for spot in range(TILE_COUNT))


#: id(a state's centre) -> (that centre, a copy of it, its shared view entries and its full spots, in spot
#: order). The moves that change the centre keep them up to date (:func:`_centre_changed`); they are used only
#: while the copy still equals the state's centre, so a centre changed any other way is simply read again.
_CENTRES: dict[int, tuple[list[Any], list[Any], list[_Shown], list[int]]] = {}


def _kept_centre(centre: list[Any]) -> tuple[list[Any], list[Any], list[_Shown], list[int]] | None:
    known = _CENTRES.get(id(centre))
    if known is not None and known[0] is centre and known[1] == centre:
        return known
    return None


def _plain_entry(entry: Any) -> bool:
    return entry is None or (
        type(entry) is list
        and len(entry) == 2
        and type(entry[0]) is int
        and 0 <= entry[0] < TILE_COUNT
        and type(entry[1]) is int
        and 0 <= entry[1] <= 1
    )


def _shared_centre_view(centre: list[Any]) -> list[dict[str, Any]]:
    """:func:`_centre_view` as a fresh list of shared read-only entries (see :class:`_Shown`).

    Speed: comparing the centre with the copy kept for it is about eight times cheaper than listing it.
    """
    known = _kept_centre(centre)
    if known is not None:
        return list(known[2])
    if len(centre) != TILE_COUNT or not all(map(_plain_entry, centre)):
        return _centre_view(centre)  # a centre made by hand that no state check would pass: as it always was
    spots = _SHOWN_SPOTS
    shown = [spots[spot][entry[0] * 2 + entry[1]] for spot, entry in enumerate(centre) if entry is not None]
    if len(_CENTRES) >= 64:
        _CENTRES.clear()
    copied = [None if entry is None else list(entry) for entry in centre]
    _CENTRES[id(centre)] = (centre, copied, shown, [entry["spot"] for entry in shown])
    return list(shown)


def _centre_changed(centre: list[Any], spot: int) -> None:
    """Bring the copy and entries kept for ``centre`` up to date after a move changed ``centre[spot]`` (or forget
    them if the copy differs anywhere else: the centre was changed some other way)."""
    known = _CENTRES.get(id(centre))
    if known is None or known[0] is not centre:
        return
    _, copied, shown, full = known
    entry = centre[spot]
    copied[spot] = None if entry is None else list(entry)
    if copied != centre:
        del _CENTRES[id(centre)]
        return
    index = bisect_left(full, spot)
    present = index < len(full) and full[index] == spot
    if entry is None:
        if present:
            del shown[index], full[index]
    elif present:
        shown[index] = _SHOWN_SPOTS[spot][entry[0] * 2 + entry[1]]
    else:
        shown.insert(index, _SHOWN_SPOTS[spot][entry[0] * 2 + entry[1]])
        full.insert(index, spot)


#: (card, side) -> the task's text, as views show it (the deck never changes while playing).
_TASK_TEXTS: dict[tuple[int, int], str] = {}


def _task_text(player: Mapping[str, Any]) -> str:
    key = (player["card"], player["side"])
    text = _TASK_TEXTS.get(key)
    if text is None:
        text = _TASK_TEXTS[key] = format_task(task_of(player))
    return text


#: NeuroRace's reason codes (besides the core's), with their English templates.
CODES = {
    "round_running": "round {round} is already running",
    "countdown_running": "everyone is ready: the round starts at {at} ms",
    "already_ready": "you are already ready; the round starts when every seat is ready",
    "start_by_ready": "a round starts when every seat is ready: say 'ready' (nobody starts it for the others)",
    "start_by_anyone": "this match follows the older rule (any seat says START): say 'start'",
    "no_countdown": "no countdown is running",
    "countdown_not_due": "the countdown ends at {due} ms, not at {at} ms",
    "not_in_mode": "BASIC ends only when someone completes the last level; 'end' is for UNIVERSAL and SOLO",
    "already_voted": "seat {seat} has already agreed to end the game",
    "no_timer": "no timer is running (SOLO mode, during a round)",
    "timer_not_due": "the time is up at {due} ms, not at {at} ms",
    "not_started": "the round has not started: wait for START",
    "round_stopped": "round {round} was stopped by seat {by} at {at} ms; wait for START",
    "round_timed_out": "round {round} ended when the time ran out at {at} ms; wait for START",
    "out_of_time": "the time for this task ran out at {limit} ms",
    "hand_full": "you already hold a tile: place it or return it first",
    "turn_in_hand": "you hold a tile: turn that one (leave out the spot)",
    "hand_empty": "you hold no tile: take one from the centre first",
    "turn_needs_spot": "you hold no tile: to turn a centre tile, say which spot",
    "bad_spot": "'spot' must be a centre spot 0-{last}, got {spot}",
    "tile_taken": "the tile at spot {spot} was taken by seat {by} at {taken_at} ms",
    "tile_on_card": "the tile from spot {spot} lies on seat {by}'s card (place {place})",
    "spot_empty": "spot {spot} is empty",
    "bad_slot": "'slot' must be a place 0-{last}, got {slot}",
    "slot_taken": "place {slot} already has a tile",
    "card_full": "all 7 places are filled: say stop, or take a tile back",
    "slot_too_early": "place {slot} is too early: place {free} to its left is still empty (fill from the left)",
    "nothing_to_take_back": "your card has no tile on it",
    "not_finished": "say stop only when all {places} places are filled; {filled} are",
}
#: Parameters of refusals that name a seat (shown as the player's name).
SEAT_PARAMS: dict[str, tuple[str, ...]] = {
    "already_voted": ("seat",),
    "tile_taken": ("by",),
    "tile_on_card": ("by",),
    "round_stopped": ("by",),
}


# -- the moves: who may make each one and when (gates), and their parameters' domains --------------------------
def start_rule(state: State) -> str:
    """How this match's rounds start (states of revision 2 and older have no field: any seat says START)."""
    return str(state.get("start_rule", BY_ANYONE))


def _gate_ready_phase(state: State, seat: Any, at: Any) -> IllegalAction | None:
    phase = state["phase"]
    if phase == COUNTDOWN:
        return refuse("countdown_running", at=state["countdown_ends_at"])
    if phase != READY:
        return refuse("round_running", round=state["round"])
    return None


def _gate_start(state: State, seat: Any, at: Any) -> IllegalAction | None:
    refusal = _gate_ready_phase(state, seat, at)
    if refusal is not None:
        return refusal
    if start_rule(state) == BY_READY:
        return refuse("start_by_ready")
    return None


def _gate_ready(state: State, seat: int, at: Any) -> IllegalAction | None:
    refusal = _gate_ready_phase(state, seat, at)
    if refusal is not None:
        return refusal
    if start_rule(state) != BY_READY:
        return refuse("start_by_anyone")
    if state["ready"][seat]:
        return refuse("already_ready")
    return None


def _gate_go(state: State, seat: Any, at: Any) -> IllegalAction | None:
    if state["phase"] != COUNTDOWN:
        return refuse("no_countdown")
    due = state["countdown_ends_at"]
    if at is None or at < due:
        return refuse("countdown_not_due", due=due, at=at)
    return None


def _gate_end(state: State, seat: int, at: Any) -> IllegalAction | None:
    refusal = _gate_ready_phase(state, seat, at)
    if refusal is not None:
        return refusal
    if state["mode"] == "basic":
        return refuse("not_in_mode")
    if state["players"][seat]["end_vote"]:
        return refuse("already_voted", seat=seat)
    return None


def _gate_time_up(state: State, seat: Any, at: Any) -> IllegalAction | None:
    due = _time_up_at(state)
    if due is None:
        return refuse("no_timer")
    if at is None or at < due:
        return refuse("timer_not_due", due=due, at=at)
    return None


def _gate_playing(state: State, seat: int, at: Any) -> IllegalAction | None:
    if state["phase"] == COUNTDOWN:
        return refuse("countdown_running", at=state["countdown_ends_at"])
    if state["phase"] != PLAYING:
        last = state["last_stop"]
        if state["round"] and last is not None:
            if last["seat"] is None:
                return refuse("round_timed_out", round=state["round"], at=last["at"])
            return refuse("round_stopped", round=state["round"], by=last["seat"], at=last["at"])
        return refuse("not_started")
    due = _time_up_at(state)
    if due is not None and at is not None and at >= due:
        return refuse("out_of_time", limit=due - 1)
    return None


def _gate_empty_handed(state: State, seat: int, at: Any) -> IllegalAction | None:
    refusal = _gate_playing(state, seat, at)
    if refusal is not None:
        return refusal
    if state["players"][seat]["hand"] is not None:
        return refuse("hand_full")
    return None


def _gate_holding(state: State, seat: int, at: Any) -> IllegalAction | None:
    refusal = _gate_playing(state, seat, at)
    if refusal is not None:
        return refusal
    if state["players"][seat]["hand"] is None:
        return refuse("hand_empty")
    return None


def _gate_place(state: State, seat: int, at: Any) -> IllegalAction | None:
    refusal = _gate_holding(state, seat, at)
    if refusal is not None:
        return refusal
    if _filled(state["players"][seat]) == PLACES:
        return refuse("card_full")
    return None


def _gate_take_back(state: State, seat: int, at: Any) -> IllegalAction | None:
    refusal = _gate_empty_handed(state, seat, at)
    if refusal is not None:
        return refusal
    if _filled(state["players"][seat]) == 0:
        return refuse("nothing_to_take_back")
    return None


def _gate_stop(state: State, seat: int, at: Any) -> IllegalAction | None:
    refusal = _gate_empty_handed(state, seat, at)
    if refusal is not None:
        return refusal
    filled = _filled(state["players"][seat])
    if filled < PLACES:
        return refuse("not_finished", places=PLACES, filled=filled)
    return None


def _full_spots(state: State, seat: Any) -> list[int]:
    known = _kept_centre(state["centre"])  # kept by the views built together (speed)
    if known is not None:
        return list(known[3])
    return [spot for spot, entry in enumerate(state["centre"]) if entry is not None]


def _turn_spots(state: State, seat: int) -> list[Any]:
    return [None] if state["players"][seat]["hand"] is not None else _full_spots(state, seat)


def _spot_refusal(state: State, seat: int, spot: Any) -> IllegalAction:
    if type(spot) is not int or not 0 <= spot < TILE_COUNT:
        return refuse("bad_spot", last=TILE_COUNT - 1, spot=repr(spot))
    for owner, player in enumerate(state["players"]):
        hand = player["hand"]
        if hand is not None and hand["spot"] == spot:
            return refuse("tile_taken", spot=spot, by=owner, taken_at=hand["at"])
        for place, entry in enumerate(player["slots"]):
            if entry is not None and entry["spot"] == spot:
                return refuse("tile_on_card", spot=spot, by=owner, place=place)
    return refuse("spot_empty", spot=spot)


def _turn_refusal(state: State, seat: int, spot: Any) -> IllegalAction:
    holding = state["players"][seat]["hand"] is not None
    if holding:
        return refuse("turn_in_hand")
    if spot is None:
        return refuse("turn_needs_spot")
    return _spot_refusal(state, seat, spot)


def _next_slot(state: State, seat: int) -> list[int]:
    return [_filled(state["players"][seat])]


def _first_free(state: State, seat: int) -> int:
    return _filled(state["players"][seat])


def _slot_refusal(state: State, seat: int, slot: Any) -> IllegalAction:
    free = _filled(state["players"][seat])
    if type(slot) is not int or not 0 <= slot < PLACES:
        return refuse("bad_slot", last=PLACES - 1, slot=repr(slot))
    if slot < free:
        return refuse("slot_taken", slot=slot)
    return refuse("slot_too_early", slot=slot, free=free)


def _effect(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    """Every NeuroRace move's effect: :func:`_apply` (defined below, with the transitions)."""
    return _apply(state, action, rng)


MOVES = MoveTable(
    [
        Move(
            "ready",
            _effect,
            _gate_ready,
            help="I am ready: the round starts after a countdown once every seat is ready",
        ),
        Move(
            "start",
            _effect,
            _gate_start,
            help="START (matches of rules revision 2 and older: any seat starts the round)",
        ),
        Move(
            "go",
            _effect,
            _gate_go,
            system=True,
            help="the countdown ends: everyone turns their card and the round begins",
        ),
        Move("end", _effect, _gate_end, help="agree to end the game now"),
        Move(
            "take",
            _effect,
            _gate_empty_handed,
            params=(Param.choice("spot", _full_spots, explain=_spot_refusal, help="the centre spot"),),
            help="take a tile from the centre",
        ),
        Move(
            "turn",
            _effect,
            _gate_playing,
            params=(
                Param.choice(
                    "spot",
                    _turn_spots,
                    explain=_turn_refusal,
                    help="the centre spot (leave out to turn the tile in your hand)",
                ),
            ),
            help="turn a tile over",
        ),
        Move(
            "place",
            _effect,
            _gate_place,
            params=(
                Param.choice(
                    "slot",
                    _next_slot,
                    default=_first_free,
                    explain=_slot_refusal,
                    help="the next free place on your card",
                ),
            ),
            help="place the tile you hold",
        ),
        Move(
            "return",
            _effect,
            _gate_holding,
            help="put the tile you hold back in the centre",
        ),
        Move(
            "take_back",
            _effect,
            _gate_take_back,
            help="take back the last tile on your card",
        ),
        Move(
            "stop",
            _effect,
            _gate_stop,
            help="STOP: your card is complete",
        ),
        Move(
            "time_up",
            _effect,
            _gate_time_up,
            system=True,
            help="the SOLO timer runs out",
        ),
    ]
)


class NeuroRace(Game):
    """NeuroRace: race to lay tiles that satisfy your task card; BASIC, UNIVERSAL and SOLO modes."""

    id = "neurorace"
    title = "NeuroRace"
    order = 20
    min_players = 1
    max_players = MAX_PLAYERS
    realtime = True
    steady_view = ("last_stop", "hidden")
    cooperative = False
    progress_label = "rounds played"
    option_schema = (
        Option(
            "mode",
            str,
            default=None,
            choices=MODES,
            help="basic (equal players), universal (mixed levels, cards are points) or solo (1 player, timer); "
            "default: solo for 1 player, basic otherwise",
        ),
        Option(
            "last_level",
            int,
            default=10,
            minimum=1,
            maximum=LEVELS,
            help="the level that ends the game (book: 10; 'for small children you can limit the game to 5 levels')",
        ),
        Option(
            "solo_seconds",
            float,
            default=20.0,
            minimum=1.0,
            maximum=3600.0,
            help="SOLO: seconds to complete a task (book: 20)",
        ),
        Option(
            "start_levels",
            str,
            default=None,
            help="UNIVERSAL: each seat's starting level, comma-separated, e.g. '1,3,5' (default: all 1)",
        ),
        Option(
            "ages",
            str,
            default=None,
            help="UNIVERSAL: each seat's age, comma-separated; a tie on cards goes to the younger player",
        ),
        Option(
            "stay_at_level",
            str,
            default=None,
            help="UNIVERSAL: seats (comma-separated) that stay at their level when they win a round",
        ),
        Option(
            "countdown_seconds",
            int,
            default=3,
            minimum=0,
            maximum=10,
            help="seconds of the 3-2-1 countdown once every seat is ready (not in the book; 0: start at once)",
        ),
        Option(
            "max_rounds",
            int,
            default=None,
            minimum=1,
            maximum=100_000,
            help="end the game after this many rounds (not in the book; for simulations)",
        ),
    )
    bots: ClassVar[Mapping[str, str]] = {
        "solver": "mindtable.games.neurorace.bots:SolverBot",
        "random": "mindtable.core.bots:RandomBot",
    }
    terminal = "mindtable.games.neurorace.terminal:run_terminal"
    web_module = "neurorace"
    cli_commands = "mindtable.games.neurorace.cli:app"
    moves = MOVES
    codes = CODES
    seat_params = SEAT_PARAMS
    #: 2: codes with parameters; stop refused while holding a tile (it was accepted but never listed).
    #: 3: a round starts only when every seat is ready, after a countdown (the system move ``go``); matches set
    #: up under revision 2 or older (no ``start_rule`` in their state, or format-1 records) keep ``start``.
    rules_revision = 3

    # -- setup ---------------------------------------------------------------------------------------
    def normalize_options(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        resolved = dict(options)
        mode = resolved["mode"] or ("solo" if players == 1 else "basic")
        if mode == "solo" and players != 1:
            raise InvalidOptions(f"SOLO mode is for 1 player, got {players}", option="mode")
        if mode != "solo" and players < 2:
            raise InvalidOptions(f"{mode.upper()} mode needs 2 to {MAX_PLAYERS} players, got {players}", option="mode")
        resolved["mode"] = mode
        for name in ("start_levels", "ages", "stay_at_level"):
            if resolved[name] is not None and mode != "universal":
                raise InvalidOptions(f"option {name!r} belongs to UNIVERSAL mode, not {mode.upper()}", option=name)
        last = resolved["last_level"]
        levels = _parse_int_list("start_levels", resolved["start_levels"], players, 1, last)
        ages = _parse_int_list("ages", resolved["ages"], players, 0, 150)
        stay = _parse_int_list("stay_at_level", resolved["stay_at_level"], None, 0, players - 1)
        resolved["start_levels"] = None if levels is None else ",".join(map(str, levels))
        resolved["ages"] = None if ages is None else ",".join(map(str, ages))
        resolved["stay_at_level"] = None if stay is None else ",".join(map(str, sorted(set(stay))))
        return resolved

    def initial_state(self, players: int, options: Mapping[str, Any], rng: Rng) -> State:
        starts = _parse_int_list("start_levels", options["start_levels"], players, 1, LEVELS) or [1] * players
        ages = _parse_int_list("ages", options["ages"], players, 0, 150)
        stay = set(_parse_int_list("stay_at_level", options["stay_at_level"], None, 0, players) or [])
        mode = options["mode"]
        # A format-1 record replays with the legacy generator (algorithm 1): those matches were played under
        # the older rule where any seat says START, so they keep it and replay as they were played.
        rule = BY_ANYONE if rng.algorithm == 1 else BY_READY
        state: State = {
            "mode": mode,
            "last_level": options["last_level"],
            "limit_ms": round(options["solo_seconds"] * 1000) if mode == "solo" else None,
            "max_rounds": options["max_rounds"],
            "stay": [seat in stay for seat in range(players)],
            "ages": ages if ages is not None else [None] * players,
            "phase": READY,
            "start_rule": rule,
            "ready": [False] * players,
            "countdown_ms": int(options.get("countdown_seconds", 3)) * 1000,
            "countdown_ends_at": None,
            "round": 0,
            "round_started_at": None,
            "centre": [],
            "players": [
                {
                    "level": starts[seat],
                    "card": None,
                    "side": 0,
                    "hand": None,
                    "slots": [None] * PLACES,
                    "won": [],
                    "completed": 0,
                    "losses": 0,
                    "end_vote": False,
                }
                for seat in range(players)
            ],
            "box": [],
            "solved": [],
            "last_stop": None,
            "outcome": None,
        }
        r = rng.stream()
        for level in range(1, LEVELS + 1):
            pile = [card.id for card in CARDS.values() if card.level == level]
            r.shuffle(pile)
            state["box"].append(pile)
        for seat in range(players):
            _deal(state, seat, starts[seat], r)
        _scatter_tiles(state, r)
        return state

    def validate_state(self, state: State, players: int, options: Mapping[str, Any]) -> None:
        problems = state_problems(state, players)
        if problems:
            raise ValueError("; ".join(problems[:5]))

    def content_digest(self, options: Mapping[str, Any]) -> str | None:
        """The tiles and the task deck are read while playing (a card id names its tasks): pin both files."""
        return CONTENT_DIGEST

    def to_act(self, state: State, players: int) -> list[int]:
        phase = state["phase"]
        if phase == READY:
            if start_rule(state) == BY_READY:
                return [seat for seat in range(players) if not state["ready"][seat]]
            return list(range(players))
        if phase != PLAYING:
            return []
        return list(range(players))

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return _view(state, seat, shared=False)

    def views(self, state: State, seats: Sequence[int]) -> dict[int, dict[str, Any]]:
        # Speed: the public part once for all seats, its tiles shown by shared read-only dicts (see
        # _Shown); a seat's own is "you" and its hand's down side.
        public = _view(state, None, shared=True)
        views = {}
        for seat in seats:
            view = public.copy()
            view["you"] = seat
            hand = state["players"][seat]["hand"]
            if hand is not None:
                players = list(public["players"])
                mine = dict(players[seat])
                mine["hand"] = dict(mine["hand"], down=_SHOWN_SIDES[hand["tile"] * 2 + 1 - hand["up"]])
                players[seat] = mine
                view["players"] = players
            views[seat] = view
        return views

    def result(self, state: State) -> Result | None:
        outcome = state["outcome"]
        if outcome is None:
            return None
        players = state["players"]
        details = {
            "progress": state["round"],
            "rounds": state["round"],
            "levels": [p["level"] for p in players],
            "completed": [p["completed"] for p in players],
            "losses": [p["losses"] for p in players],
            "cards": [len(p["won"]) for p in players],
            "mode": state["mode"],
        }
        if state["mode"] == "solo":
            details["master"] = outcome["reason"] == "master"
        return Result(tuple(outcome["winners"]), tuple(float(s) for s in outcome["scores"]), outcome["reason"], details)

    def next_deadline(self, state: State) -> Deadline | None:
        if state["phase"] == COUNTDOWN:
            return Deadline(int(state["countdown_ends_at"]), {"type": "go", "seat": None})
        due = _time_up_at(state)
        if due is None:
            return None
        return Deadline(due, {"type": "time_up", "seat": None})


def _view(state: State, seat: int | None, shared: bool) -> dict[str, Any]:
    """What ``seat`` sees; ``shared``: tiles are shown by shared read-only dicts (:class:`_Shown`), else fresh."""
    reveal_tasks = state["phase"] in (PLAYING, OVER)
    sides = _SHOWN_SIDES
    players = []
    for index, player in enumerate(state["players"]):
        hand = player["hand"]
        hand_view = None
        if hand is not None:
            up = sides[hand["tile"] * 2 + hand["up"]] if shared else side_dict(tile_side(hand["tile"], hand["up"]))
            hand_view = {"from_spot": hand["spot"], "up": up}
            if index == seat:
                hand_view["down"] = side_dict(tile_side(hand["tile"], 1 - hand["up"]))
        card = player["card"]
        shown = reveal_tasks and card is not None
        if shared:
            slots = [None if entry is None else sides[entry["tile"] * 2 + entry["up"]] for entry in player["slots"]]
        else:
            slots = [
                None if entry is None else side_dict(tile_side(entry["tile"], entry["up"])) for entry in player["slots"]
            ]
        players.append(
            {
                "seat": index,
                "level": player["level"],
                "card": card if reveal_tasks else None,
                "side": SIDE_NAMES[player["side"]] if shown else None,
                "task": _task_text(player) if shown else None,
                "slots": slots,
                "hand": hand_view,
                "completed": player["completed"],
                "losses": player["losses"],
                "cards_won": list(player["won"]),
                "age": state["ages"][index],
                "stays_at_level": state["stay"][index],
                "end_vote": player["end_vote"],
            }
        )
    due = _time_up_at(state)
    return {
        "mode": state["mode"],
        "phase": state["phase"],
        "start_rule": start_rule(state),
        "ready": list(state.get("ready") or [False] * len(state["players"])),
        "countdown_ends_at": state.get("countdown_ends_at"),
        "countdown_ms": state.get("countdown_ms", 0),
        "round": state["round"],
        "last_level": state["last_level"],
        "round_started_at": state["round_started_at"],
        "time_up_at": due,
        "limit_ms": state["limit_ms"],
        "centre": _shared_centre_view(state["centre"]) if shared else _centre_view(state["centre"]),
        "players": players,
        "last_stop": state["last_stop"],
        "you": seat,
        "hidden": HIDDEN,
        "outcome": state["outcome"],
    }


# -- helpers -----------------------------------------------------------------------------------------------
def _filled(player: Mapping[str, Any]) -> int:
    count = 0
    for entry in player["slots"]:
        if entry is None:
            break
        count += 1
    return count


def _time_up_at(state: State) -> int | None:
    """SOLO: the first ms after the limit (a stop at exactly the limit is still in time)."""
    if state["mode"] != "solo" or state["phase"] != PLAYING:
        return None
    return int(state["round_started_at"]) + int(state["limit_ms"]) + 1


def _private_hand(seat: int, hand: Mapping[str, Any]) -> Event:
    tile, up = hand["tile"], hand["up"]
    return Event(
        "holding",
        {"seat": seat, "up": side_dict(tile_side(tile, up)), "down": side_dict(tile_side(tile, 1 - up))},
        to=(seat,),
    )


def _scatter_tiles(state: State, r: random.Random) -> None:
    """All tiles to the centre in random order, each with a random side up."""
    order = list(range(TILE_COUNT))
    r.shuffle(order)
    state["centre"] = [[tile, r.randrange(2)] for tile in order]


def _deal(state: State, seat: int, level: int, r: random.Random, avoid: int | None = None) -> bool:
    """Give ``seat`` a card of ``level`` from the box; skip cards with a side already solved if possible.

    If that level's pile is empty (UNIVERSAL: winners keep cards) the next level up is used. Returns False
    if no card is left at or above ``level``.
    """
    solved = {(card, side) for card, side in state["solved"]}
    player = state["players"][seat]
    for current in range(level, LEVELS + 1):
        pile = state["box"][current - 1]
        if not pile:
            continue

        def rank(card: int) -> int:
            unsolved = sum((card, side) not in solved for side in (0, 1))
            return (2 - unsolved) + (3 if card == avoid else 0)

        best = min(range(len(pile)), key=lambda index: (rank(pile[index]), index))
        card = pile.pop(best)
        sides = [side for side in (0, 1) if (card, side) not in solved] or [0, 1]
        player["card"] = card
        player["side"] = sides[r.randrange(len(sides))]
        player["level"] = current
        return True
    player["card"] = None
    return False


def _mark_ready(state: State, seat: int, at: int) -> list[Event]:
    state["ready"][seat] = True
    events = [Event("ready", {"seat": seat, "at": at})]
    if not all(state["ready"]):
        return events
    wait = int(state.get("countdown_ms", 0))
    if wait <= 0:
        return events + _start(state, at)
    state["phase"] = COUNTDOWN
    state["countdown_ends_at"] = at + wait
    return [*events, Event("countdown", {"at": at, "ends_at": at + wait, "seconds": wait / 1000})]


def _start(state: State, at: int) -> list[Event]:
    state["phase"] = PLAYING
    if "ready" in state:
        state["ready"] = [False] * len(state["players"])
        state["countdown_ends_at"] = None
    state["round"] += 1
    state["round_started_at"] = at
    for player in state["players"]:
        player["end_vote"] = False
    tasks = [
        {
            "seat": seat,
            "level": p["level"],
            "card": p["card"],
            "side": SIDE_NAMES[p["side"]],
            "task": format_task(task_of(p)),
        }
        for seat, p in enumerate(state["players"])
    ]
    return [Event("round_started", {"round": state["round"], "at": at, "tasks": tasks})]


def _vote_end(state: State, seat: int) -> list[Event]:
    state["players"][seat]["end_vote"] = True
    events = [Event("end_vote", {"seat": seat})]
    if all(p["end_vote"] for p in state["players"]):
        _finish(state, "ended")
        events.append(Event("game_over", dict(state["outcome"])))
    return events


def _layout(player: Mapping[str, Any]) -> list[Side | None]:
    return [None if entry is None else tile_side(entry["tile"], entry["up"]) for entry in player["slots"]]


def _stop(state: State, seat: int, at: int, rng: Rng) -> list[Event]:
    player = state["players"][seat]
    task = task_of(player)
    layout = _layout(player)
    problems = layout_problems(task, layout)
    correct = not problems
    check = {
        "seat": seat,
        "at": at,
        "round": state["round"],
        "reason": "stop",
        "correct": correct,
        "level": player["level"],
        "card": player["card"],
        "side": SIDE_NAMES[player["side"]],
        "task": format_task(task),
        "layout": [None if side is None else side_dict(side) for side in layout],
        "problems": problems,
        "elapsed_ms": at - int(state["round_started_at"]),
    }
    return _end_round(state, seat, correct, check, rng)


def _time_up(state: State, at: int, rng: Rng) -> list[Event]:
    player = state["players"][0]
    check = {
        "seat": None,
        "at": at,
        "round": state["round"],
        "reason": "time_up",
        "correct": False,
        "level": player["level"],
        "card": player["card"],
        "side": SIDE_NAMES[player["side"]],
        "task": format_task(task_of(player)),
        "layout": [None if side is None else side_dict(side) for side in _layout(player)],
        "problems": [],
        "elapsed_ms": at - int(state["round_started_at"]),
    }
    return _end_round(state, 0, False, check, rng)


def _end_round(state: State, seat: int, correct: bool, check: dict[str, Any], rng: Rng) -> list[Event]:
    r = rng.stream()
    player = state["players"][seat]
    level, card, side = player["level"], player["card"], player["side"]
    events = [Event("checked", check)]
    state["last_stop"] = check
    # Every tile goes back to the centre, for everyone (the book: "All tiles are discarded to the centre").
    for p in state["players"]:
        p["hand"] = None
        p["slots"] = [None] * PLACES
    _scatter_tiles(state, r)
    state["phase"] = READY
    state["round_started_at"] = None
    if correct:
        player["completed"] += 1
        state["solved"].append([card, side])
        if state["mode"] == "universal":
            player["won"].append(card)
        else:
            state["box"][level - 1].append(card)
        if level >= state["last_level"]:
            _finish(state, "master" if state["mode"] == "solo" and player["losses"] == 0 else "completed")
            events.append(Event("game_over", dict(state["outcome"])))
            return events
        next_level = level if state["mode"] == "universal" and state["stay"][seat] else level + 1
        if not _deal(state, seat, next_level, r):
            _finish(state, "no_cards")
    else:
        player["losses"] += 1
        _deal(state, seat, level, r, avoid=card)
        state["box"][level - 1].append(card)
    events.append(Event("card_drawn", {"seat": seat, "level": player["level"]}))
    limit = state["max_rounds"]
    if state["outcome"] is None and limit is not None and state["round"] >= limit:
        _finish(state, "round_limit")
    if state["outcome"] is not None:
        events.append(Event("game_over", dict(state["outcome"])))
    return events


def _finish(state: State, reason: str) -> None:
    players = state["players"]
    mode = state["mode"]
    scores = [len(p["won"]) if mode == "universal" else p["completed"] for p in players]
    if mode == "solo":
        winners = [0] if reason in ("master", "completed") else []
    elif mode == "basic" and reason == "completed":
        winners = [state["last_stop"]["seat"]]  # the first to complete the last level
    else:
        best = max(scores)
        winners = [s for s, score in enumerate(scores) if score == best]
        ages = state["ages"]
        if mode == "universal" and len(winners) > 1 and all(ages[s] is not None for s in winners):
            youngest = min(ages[s] for s in winners)
            winners = [s for s in winners if ages[s] == youngest]
    state["phase"] = OVER
    state["outcome"] = {"reason": reason, "winners": winners, "scores": scores}


# -- invariants --------------------------------------------------------------------------------------------
def state_problems(state: State, players: int | None = None) -> list[str]:
    """Every broken invariant of a state (empty when it is consistent). Used to load snapshots and by tests."""
    problems: list[str] = []
    for key in ("mode", "phase", "round", "centre", "players", "box", "solved", "last_level", "stay", "ages"):
        if key not in state:
            return [f"missing field {key!r}"]
    if state["mode"] not in MODES:
        problems.append(f"field 'mode' must be one of {', '.join(MODES)}, got {state['mode']!r}")
    if state["phase"] not in PHASES:
        problems.append(f"field 'phase' must be one of {', '.join(PHASES)}, got {state['phase']!r}")
    if start_rule(state) not in (BY_READY, BY_ANYONE):
        problems.append(f"field 'start_rule' must be ready or anyone, got {state['start_rule']!r}")
    ready = state.get("ready")
    if ready is not None and (not isinstance(ready, list) or len(ready) != len(state["players"])):
        problems.append("field 'ready' must hold one true/false per seat")
    if state["phase"] == COUNTDOWN and not isinstance(state.get("countdown_ends_at"), int):
        problems.append("field 'countdown_ends_at' must be set while the countdown runs")
    if players is not None and len(state["players"]) != players:
        problems.append(f"field 'players' has {len(state['players'])} entries for {players} players")
    if state["phase"] == PLAYING and not isinstance(state.get("round_started_at"), int):
        problems.append("field 'round_started_at' must be set while a round is playing")
    if len(state["centre"]) != TILE_COUNT:
        problems.append(f"field 'centre' must have {TILE_COUNT} spots, has {len(state['centre'])}")
    where: dict[int, str] = {}
    spots_out: dict[int, str] = {}

    def note(tile: Any, up: Any, place: str) -> None:
        if not isinstance(tile, int) or not 0 <= tile < TILE_COUNT or up not in (0, 1):
            problems.append(f"{place}: bad tile {tile!r} / side {up!r}")
            return
        if tile in where:
            problems.append(f"tile {tile} is both in {where[tile]} and in {place}")
        where[tile] = place

    for spot, entry in enumerate(state["centre"]):
        if entry is not None:
            if not isinstance(entry, list) or len(entry) != 2:
                problems.append(f"centre spot {spot} must be [tile, up] or null, got {entry!r}")
                continue
            note(entry[0], entry[1], f"centre spot {spot}")
    cards_out = []
    for seat, player in enumerate(state["players"]):
        slots = player["slots"]
        if len(slots) != PLACES:
            problems.append(f"seat {seat} has {len(slots)} places, not {PLACES}")
        filled = _filled(player)
        if any(entry is not None for entry in slots[filled:]):
            problems.append(f"seat {seat}: places are not filled from left to right")
        held = [player["hand"]] if player["hand"] is not None else []
        for index, entry in enumerate([*held, *slots]):
            if entry is None:
                continue
            place = f"seat {seat}'s hand" if held and index == 0 else f"seat {seat}'s card"
            note(entry["tile"], entry["up"], place)
            spot = entry["spot"]
            if not isinstance(spot, int) or not 0 <= spot < TILE_COUNT:
                problems.append(f"{place}: bad spot {spot!r}")
            elif spot in spots_out or (len(state["centre"]) == TILE_COUNT and state["centre"][spot] is not None):
                problems.append(f"{place}: spot {spot} is not free for this tile")
            spots_out[spot] = place
        if state["phase"] != PLAYING and (held or filled):
            problems.append(f"seat {seat} holds or has laid tiles outside a round")
        card = player["card"]
        if card is not None:
            if card not in CARDS:
                problems.append(f"seat {seat}: unknown card {card!r}")
            else:
                cards_out.append(card)
                if CARDS[card].level != player["level"]:
                    problems.append(f"seat {seat}: card {card} is level {CARDS[card].level}, not {player['level']}")
            if player["side"] not in (0, 1):
                problems.append(f"seat {seat}: side must be 0 or 1")
        elif state["phase"] != OVER:
            problems.append(f"seat {seat} has no card")
        cards_out.extend(player["won"])
    if len(where) != TILE_COUNT and not problems:
        problems.append(f"{TILE_COUNT - len(where)} tiles are missing")
    in_box = [card for pile in state["box"] for card in pile]
    for level, pile in enumerate(state["box"], start=1):
        for card in pile:
            if card not in CARDS or CARDS[card].level != level:
                problems.append(f"box level {level} holds card {card!r} of another level")
    if sorted(in_box + cards_out) != sorted(CARDS):
        problems.append("every card must be exactly once in the box, in front of a player or kept as a point")
    return problems


def _apply(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    """The effect of every NeuroRace move (the action passed its gate and parameter checks)."""
    kind = action["type"]
    at = action.get("at", 0)
    if kind in ("start", "go"):
        return _start(state, at)
    if kind == "time_up":
        return _time_up(state, at, rng)
    seat: int = action["seat"]
    if kind == "ready":
        return _mark_ready(state, seat, at)
    if kind == "end":
        return _vote_end(state, seat)
    player = state["players"][seat]
    if kind == "take":
        spot = action["spot"]
        tile, up = state["centre"][spot]
        state["centre"][spot] = None
        _centre_changed(state["centre"], spot)
        player["hand"] = {"tile": tile, "up": up, "spot": spot, "at": at}
        return [
            Event("took", {"seat": seat, "spot": spot, "up": side_dict(tile_side(tile, up)), "at": at}),
            _private_hand(seat, player["hand"]),
        ]
    if kind == "turn":
        if action.get("spot") is not None:
            spot = action["spot"]
            state["centre"][spot][1] ^= 1
            _centre_changed(state["centre"], spot)
            tile, up = state["centre"][spot]
            return [Event("turned", {"seat": seat, "spot": spot, "up": side_dict(tile_side(tile, up)), "at": at})]
        hand = player["hand"]
        hand["up"] ^= 1
        return [
            Event(
                "turned",
                {"seat": seat, "spot": None, "up": side_dict(tile_side(hand["tile"], hand["up"])), "at": at},
            ),
            _private_hand(seat, hand),
        ]
    if kind == "place":
        hand = player["hand"]
        slot = _filled(player)
        player["slots"][slot] = {"tile": hand["tile"], "up": hand["up"], "spot": hand["spot"]}
        player["hand"] = None
        return [
            Event(
                "placed",
                {"seat": seat, "slot": slot, "up": side_dict(tile_side(hand["tile"], hand["up"])), "at": at},
            )
        ]
    if kind == "return":
        hand = player["hand"]
        state["centre"][hand["spot"]] = [hand["tile"], hand["up"]]
        _centre_changed(state["centre"], hand["spot"])
        player["hand"] = None
        return [
            Event(
                "returned",
                {
                    "seat": seat,
                    "spot": hand["spot"],
                    "up": side_dict(tile_side(hand["tile"], hand["up"])),
                    "at": at,
                },
            )
        ]
    if kind == "take_back":
        slot = _filled(player) - 1
        entry = player["slots"][slot]
        player["slots"][slot] = None
        player["hand"] = {"tile": entry["tile"], "up": entry["up"], "spot": entry["spot"], "at": at}
        return [
            Event(
                "took_back",
                {"seat": seat, "slot": slot, "up": side_dict(tile_side(entry["tile"], entry["up"])), "at": at},
            ),
            _private_hand(seat, player["hand"]),
        ]
    if kind == "stop":
        return _stop(state, seat, at, rng)
    raise AssertionError(kind)  # pragma: no cover - check() refuses unknown types

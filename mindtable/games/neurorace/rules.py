"""The rules of NeuroRace as pure functions over a JSON-ready state.

See ``docs/rules/neurorace.md`` for the sentence of the book each rule implements and every decision taken
where the book is silent.

State layout (all plain JSON)::

    mode, last_level, limit_ms (solo), max_rounds, stay[seat], ages[seat]
    phase            "ready" (cards lie face down; anyone may say START) | "playing" | "over"
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

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from mindtable.core.errors import IllegalAction, InvalidOptions
from mindtable.core.events import Deadline, Event, Result
from mindtable.core.game import ActionDict, Game, State
from mindtable.core.options import Option
from mindtable.core.rng import Rng
from mindtable.games.neurorace.components import TILE_COUNT, TILES, Side, side_dict
from mindtable.games.neurorace.deck import CARDS, LEVELS, SIDE_NAMES
from mindtable.games.neurorace.tasks import PLACES, Task, format_task, layout_problems

MODES = ("basic", "universal", "solo")
READY, PLAYING, OVER = "ready", "playing", "over"
ACTION_TYPES = ("start", "take", "turn", "place", "return", "take_back", "stop", "end", "time_up")
MAX_PLAYERS = 6
HIDDEN = (
    "the down side of every tile in the centre, on a card or in another player's hand; which tile (id) lies "
    "where; the task of a card before START (the card lies face down); the order of the cards in the box"
)


def _illegal(code: str, message: str, action: Mapping[str, Any]) -> IllegalAction:
    return IllegalAction(code, message, action)


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


class NeuroRace(Game):
    """NeuroRace: race to lay tiles that satisfy your task card; BASIC, UNIVERSAL and SOLO modes."""

    id = "neurorace"
    title = "NeuroRace"
    min_players = 1
    max_players = MAX_PLAYERS
    realtime = True
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
        state: State = {
            "mode": mode,
            "last_level": options["last_level"],
            "limit_ms": round(options["solo_seconds"] * 1000) if mode == "solo" else None,
            "max_rounds": options["max_rounds"],
            "stay": [seat in stay for seat in range(players)],
            "ages": ages if ages is not None else [None] * players,
            "phase": READY,
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

    # -- queries -------------------------------------------------------------------------------------
    def legal_actions(self, state: State, seat: int) -> list[ActionDict]:
        phase = state["phase"]
        player = state["players"][seat]
        if phase == READY:
            actions: list[ActionDict] = [{"type": "start", "seat": seat}]
            if state["mode"] != "basic" and not player["end_vote"]:
                actions.append({"type": "end", "seat": seat})
            return actions
        if phase != PLAYING:
            return []
        hand = player["hand"]
        filled = _filled(player)
        if hand is not None:
            actions = [{"type": "turn", "seat": seat}, {"type": "return", "seat": seat}]
            if filled < PLACES:
                actions.insert(1, {"type": "place", "seat": seat, "slot": filled})
            return actions
        actions = []
        for spot, entry in enumerate(state["centre"]):
            if entry is not None:
                actions.append({"type": "take", "seat": seat, "spot": spot})
                actions.append({"type": "turn", "seat": seat, "spot": spot})
        if filled:
            actions.append({"type": "take_back", "seat": seat})
        if filled == PLACES:
            actions.append({"type": "stop", "seat": seat})
        return actions

    def check(self, state: State, action: Mapping[str, Any]) -> None:
        kind = action.get("type")
        if kind not in ACTION_TYPES:
            raise _illegal(
                "unknown_action", f"unknown action {kind!r}; NeuroRace actions: {', '.join(ACTION_TYPES)}", action
            )
        phase = state["phase"]
        if phase == OVER:
            raise _illegal("game_over", "the game is over", action)
        seat = action.get("seat")
        at = action.get("at")
        if kind == "time_up":
            if seat is not None:
                raise _illegal("not_a_player_action", "'time_up' is the timer's action; it has no seat", action)
            due = _time_up_at(state)
            if due is None:
                raise _illegal("no_timer", "no timer is running (SOLO mode, during a round)", action)
            if at is None or at < due:
                raise _illegal("too_early", f"the time is up at {due} ms, not at {at} ms", action)
            return
        if seat is None:
            raise _illegal("bad_seat", f"{kind!r} needs the seat of the player who acts", action)
        player = state["players"][seat]
        if kind in ("start", "end"):
            if phase != READY:
                raise _illegal("round_running", f"round {state['round']} is already running", action)
            if kind == "end":
                if state["mode"] == "basic":
                    raise _illegal(
                        "not_in_mode",
                        "BASIC ends only when someone completes the last level; 'end' is for UNIVERSAL and SOLO",
                        action,
                    )
                if player["end_vote"]:
                    raise _illegal("already_voted", f"seat {seat} has already agreed to end the game", action)
            return
        if phase != PLAYING:
            raise _illegal("not_started", _not_started_message(state), action)
        due = _time_up_at(state)
        if due is not None and at is not None and at >= due:
            raise _illegal("time_up", f"the time for this task ran out at {due - 1} ms", action)
        hand = player["hand"]
        filled = _filled(player)
        if kind == "take":
            spot = _spot(action)
            if hand is not None:
                raise _illegal(
                    "hand_full", "you already hold a tile: place it or return it before taking another", action
                )
            if state["centre"][spot] is None:
                raise _illegal("tile_taken", _taken_message(state, spot, at), action)
        elif kind == "turn":
            if "spot" in action and action["spot"] is not None:
                spot = _spot(action)
                if hand is not None:
                    raise _illegal("hand_full", "one hand only: you hold a tile; turn that one (no spot)", action)
                if state["centre"][spot] is None:
                    raise _illegal("tile_taken", _taken_message(state, spot, at), action)
            elif hand is None:
                raise _illegal("hand_empty", "you hold no tile; to turn a centre tile say which spot", action)
        elif kind == "place":
            if hand is None:
                raise _illegal("hand_empty", "you hold no tile; take one from the centre first", action)
            slot = action.get("slot")
            if slot is None:
                slot = filled
            if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < PLACES:
                raise _illegal("bad_slot", f"'slot' must be a place 0-{PLACES - 1}, got {slot!r}", action)
            if slot < filled:
                raise _illegal("slot_taken", f"place {slot} already has a tile", action)
            if filled == PLACES:
                raise _illegal("card_full", "all 7 places are filled: say stop, or take a tile back", action)
            if slot > filled:
                raise _illegal(
                    "too_early",
                    f"place {slot} is too early: place {filled} to its left is still empty "
                    "(places fill from left to right)",
                    action,
                )
        elif kind == "return":
            if hand is None:
                raise _illegal("hand_empty", "you hold no tile to return", action)
        elif kind == "take_back":
            if hand is not None:
                raise _illegal("hand_full", "one hand only: place or return the tile you hold first", action)
            if filled == 0:
                raise _illegal("nothing_to_take_back", "your card has no tile on it", action)
        elif kind == "stop" and filled < PLACES:
            raise _illegal("not_finished", f"say stop only when all {PLACES} places are filled; {filled} are", action)

    def apply(self, state: State, action: Mapping[str, Any], rng: Rng) -> list[Event]:
        kind = action["type"]
        at = action.get("at", 0)
        if kind == "start":
            return _start(state, at)
        if kind == "time_up":
            return _time_up(state, at, rng)
        seat: int = action["seat"]
        if kind == "end":
            return _vote_end(state, seat)
        player = state["players"][seat]
        if kind == "take":
            spot = action["spot"]
            tile, up = state["centre"][spot]
            state["centre"][spot] = None
            player["hand"] = {"tile": tile, "up": up, "spot": spot, "at": at}
            return [
                Event("took", {"seat": seat, "spot": spot, "up": side_dict(tile_side(tile, up)), "at": at}),
                _private_hand(seat, player["hand"]),
            ]
        if kind == "turn":
            if action.get("spot") is not None:
                spot = action["spot"]
                state["centre"][spot][1] ^= 1
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

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        reveal_tasks = state["phase"] != READY
        players = []
        for index, player in enumerate(state["players"]):
            hand = player["hand"]
            hand_view = None
            if hand is not None:
                hand_view = {"from_spot": hand["spot"], "up": side_dict(tile_side(hand["tile"], hand["up"]))}
                if index == seat:
                    hand_view["down"] = side_dict(tile_side(hand["tile"], 1 - hand["up"]))
            card = player["card"]
            players.append(
                {
                    "seat": index,
                    "level": player["level"],
                    "card": card if reveal_tasks else None,
                    "side": SIDE_NAMES[player["side"]] if reveal_tasks and card is not None else None,
                    "task": format_task(task_of(player)) if reveal_tasks and card is not None else None,
                    "slots": [
                        None if entry is None else side_dict(tile_side(entry["tile"], entry["up"]))
                        for entry in player["slots"]
                    ],
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
            "round": state["round"],
            "last_level": state["last_level"],
            "round_started_at": state["round_started_at"],
            "time_up_at": due,
            "limit_ms": state["limit_ms"],
            "centre": [
                {"spot": spot, "up": side_dict(tile_side(entry[0], entry[1]))}
                for spot, entry in enumerate(state["centre"])
                if entry is not None
            ],
            "players": players,
            "last_stop": state["last_stop"],
            "you": seat,
            "hidden": HIDDEN,
            "outcome": state["outcome"],
        }

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
        due = _time_up_at(state)
        if due is None:
            return None
        return Deadline(due, {"type": "time_up", "seat": None})


# -- helpers -----------------------------------------------------------------------------------------------
def _filled(player: Mapping[str, Any]) -> int:
    count = 0
    for entry in player["slots"]:
        if entry is None:
            break
        count += 1
    return count


def _spot(action: Mapping[str, Any]) -> int:
    spot = action.get("spot")
    if isinstance(spot, bool) or not isinstance(spot, int) or not 0 <= spot < TILE_COUNT:
        raise _illegal("bad_spot", f"'spot' must be a centre spot 0-{TILE_COUNT - 1}, got {spot!r}", action)
    return spot


def _time_up_at(state: State) -> int | None:
    """SOLO: the first ms after the limit (a stop at exactly the limit is still in time)."""
    if state["mode"] != "solo" or state["phase"] != PLAYING:
        return None
    return int(state["round_started_at"]) + int(state["limit_ms"]) + 1


def _not_started_message(state: State) -> str:
    last = state["last_stop"]
    if state["round"] and last is not None:
        who = "the timer" if last["seat"] is None else f"seat {last['seat']}"
        return f"round {state['round']} was stopped by {who} at {last['at']} ms; wait for START"
    return "the round has not started: wait for START"


def _taken_message(state: State, spot: int, at: Any) -> str:
    for seat, player in enumerate(state["players"]):
        hand = player["hand"]
        if hand is not None and hand["spot"] == spot:
            return f"the tile at spot {spot} was taken by seat {seat} at {hand['at']} ms, before your action at {at} ms"
        for slot, entry in enumerate(player["slots"]):
            if entry is not None and entry["spot"] == spot:
                return f"the tile from spot {spot} lies on seat {seat}'s card (place {slot})"
    return f"spot {spot} is empty"


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


def _start(state: State, at: int) -> list[Event]:
    state["phase"] = PLAYING
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
    if state["phase"] not in (READY, PLAYING, OVER):
        problems.append(f"field 'phase' must be ready, playing or over, got {state['phase']!r}")
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

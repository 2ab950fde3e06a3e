"""The rules of The Mind as pure functions over a JSON-ready state.

See ``docs/rules/the-mind.md`` for the sentence of the book each rule implements.
"""

from __future__ import annotations

import itertools
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import Any, ClassVar

from mindtable.core.codes import refuse
from mindtable.core.errors import IllegalAction, InvalidOptions
from mindtable.core.events import Event, Result
from mindtable.core.game import Game, State
from mindtable.core.moves import Move, MoveTable, Param
from mindtable.core.options import Option
from mindtable.core.rng import Rng

CARDS = range(1, 101)
MAX_LIVES = 5
MAX_STARS = 3
#: Players -> (lives, stars, last level), from setup step 1 of the book.
SETUP = {2: (2, 1, 12), 3: (3, 1, 10), 4: (4, 1, 8)}
#: Level -> reward printed in the corner of its level card, granted on completing that level.
REWARDS = {2: "star", 3: "life", 5: "star", 6: "life", 8: "star", 9: "life"}

_CARD = itemgetter("card")
REFOCUS, PLAYING, WON, LOST, FINISHED = "refocus", "playing", "won", "lost", "finished"
OVER_PHASES = (WON, LOST, FINISHED)


#: The Mind's reason codes (besides the core's), with their English templates.
CODES = {
    "not_refocusing": "hands go on the table only before a level or after a stop or star",
    "already_ready": "you are already ready",
    "no_proposal": "nobody has proposed anything to agree with or reject",
    "already_agreed": "you have already agreed to the proposal",
    "not_blind": "only a blind-mode run can be ended by the team",
    "level_running": "the team may stop only before a level begins",
    "proposal_pending": "a proposal is waiting for agreement; play is paused",
    "not_playing": "everyone must be ready (hands on the table) first",
    "no_cards": "you have no card left to play",
    "not_lowest": "you may only play your lowest card, {lowest}, not {card}",
    "no_stars": "the team has no star left",
    "stop_not_used": "in this game the table notices cards out of order by itself; there is no stop call",
    "stop_blind": "in blind mode the cards lie face down: the pile is checked when the level ends; no stop call",
    "not_proposer": "only seat {by}, who proposed it, may withdraw the proposal",
    "nothing_played": "no card has been played in this level yet",
}
#: Parameters of refusals that name a seat (shown as the player's name).
SEAT_PARAMS: dict[str, tuple[str, ...]] = {"not_proposer": ("by",)}


# -- the moves: who may make each one and when (gates), and what it does (effects) ----------------------------
# Gates return the refusal (or None). Refusals without parameters are built once: listing runs every gate.
ALREADY_READY = refuse("already_ready")
NO_PROPOSAL, ALREADY_AGREED = refuse("no_proposal"), refuse("already_agreed")
NOT_BLIND, LEVEL_RUNNING, PROPOSAL_PENDING = refuse("not_blind"), refuse("level_running"), refuse("proposal_pending")
NO_CARDS, NO_STARS = refuse("no_cards"), refuse("no_stars")
STOP_NOT_USED, NOTHING_PLAYED = refuse("stop_not_used"), refuse("nothing_played")
STOP_BLIND = refuse("stop_blind")
#: The rules revision a state was set up under is in the state (``revision``); states of revision 2 and older
#: have no such field. Revision 3: an unstopped mistake is charged when it becomes evident (players detection),
#: a blind run lost after a win says so (``blind_lost``).
REVISION = 3


def revision(state: State) -> int:
    return int(state.get("revision", 2))


def _gate_ready(state: State, seat: int, at: Any) -> IllegalAction | None:
    return ALREADY_READY if state["ready"][seat] else None


def _gate_vote(state: State, seat: int, at: Any) -> IllegalAction | None:
    proposal = state["proposal"]
    if proposal is None:
        return NO_PROPOSAL
    return ALREADY_AGREED if seat in proposal["agreed"] else None


def _gate_propose_end(state: State, seat: int, at: Any) -> IllegalAction | None:
    if state["mode"] != "blind":
        return NOT_BLIND
    if state["phase"] != REFOCUS or state["pile"] or _any_discards(state):
        return LEVEL_RUNNING
    return PROPOSAL_PENDING if state["proposal"] is not None else None


def _gate_play(state: State, seat: int, at: Any) -> IllegalAction | None:
    if state["proposal"] is not None:
        return PROPOSAL_PENDING
    return NO_CARDS if not state["hands"][seat] and not state["set_aside"][seat] else None


def _gate_star(state: State, seat: int, at: Any) -> IllegalAction | None:
    if state["proposal"] is not None:
        return PROPOSAL_PENDING
    return NO_STARS if state["stars"] <= 0 else None


def _gate_stop(state: State, seat: int, at: Any) -> IllegalAction | None:
    if state["proposal"] is not None:
        return PROPOSAL_PENDING
    if state["detection"] != "players":
        return STOP_NOT_USED
    if state["mode"] != "normal":
        return STOP_BLIND
    return NOTHING_PLAYED if not state["pile"] else None


def _lowest_only(state: State, seat: int) -> list[int]:
    lowest = lowest_card(state, seat)
    return [] if lowest is None else [lowest]


def _lowest_only_value(state: State, seat: int) -> int | None:
    return lowest_card(state, seat)


def _not_lowest(state: State, seat: int, card: Any) -> IllegalAction:
    return refuse("not_lowest", lowest=lowest_card(state, seat), card=card)


def _propose(kind: str) -> Any:
    def effect(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
        seat = action["seat"]
        state["proposal"] = {"kind": kind, "by": seat, "agreed": [seat]}
        return [Event("proposed", {"seat": seat, "kind": kind}), *_maybe_carry_proposal(state, rng)]

    return effect


def _agree(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    seat = action["seat"]
    state["proposal"]["agreed"].append(seat)
    return [Event("agreed", {"seat": seat}), *_maybe_carry_proposal(state, rng)]


def _gate_withdraw(state: State, seat: int, at: Any) -> IllegalAction | None:
    proposal = state["proposal"]
    if proposal is None:
        return NO_PROPOSAL
    by = proposal.get("by")
    return refuse("not_proposer", by=by) if by != seat else None


def _withdraw(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    proposal = state["proposal"]
    state["proposal"] = None
    return [Event("withdrawn", {"seat": action["seat"], "kind": proposal["kind"]})]


def _reject(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    proposal = state["proposal"]
    state["proposal"] = None
    return [Event("rejected", {"seat": action["seat"], "kind": proposal["kind"]})]


class TheMind(Game):
    """The Mind: a cooperative real-time game; play the cards 1-100 in ascending order without talking."""

    id = "the-mind"
    title = "The Mind"
    order = 10
    min_players = 2
    max_players = 4
    realtime = True
    cooperative = True
    progress_label = "levels completed"
    option_schema = (
        Option(
            "detection",
            str,
            default="table",
            choices=("table", "players"),
            help="who notices a card played out of order: 'table' (at once, the online default) "
            "or 'players' (someone must call stop, as printed)",
        ),
        Option("lives", int, default=None, minimum=1, maximum=MAX_LIVES, help="starting lives (book: = players)"),
        Option("stars", int, default=None, minimum=0, maximum=MAX_STARS, help="starting stars (book: 1)"),
        Option(
            "last_level",
            int,
            default=None,
            minimum=1,
            maximum=50,
            help="the level that wins the game (book: 12 / 10 / 8 for 2 / 3 / 4 players)",
        ),
        Option("blind_after_win", bool, default=False, help="after a win, go on in blind mode from level 1"),
        Option("start_blind", bool, default=False, help="play blind mode from the start"),
    )
    bots: ClassVar[Mapping[str, str]] = {
        "proportional": "mindtable.games.the_mind.bots:ProportionalBot",
        "random-timing": "mindtable.games.the_mind.bots:RandomTimingBot",
        "random": "mindtable.core.bots:RandomBot",
    }
    terminal = "mindtable.games.the_mind.terminal:run_terminal"
    batch_simulator = "mindtable.games.the_mind.vector:simulate_batch"
    web_module = "the-mind"
    codes = CODES
    seat_params = SEAT_PARAMS
    #: 2: the generator's algorithm 2 deals only the cards dealt (records of algorithm 1 replay as before).
    #: 3: players detection charges an unstopped mistake once it is evident; a blind run lost after a win
    #: ends with ``blind_lost``. Matches set up before (no ``revision`` in their state) keep the old rules.
    rules_revision = REVISION

    # -- setup ---------------------------------------------------------------------------------------
    def normalize_options(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        lives, stars, last_level = SETUP[players]
        resolved = dict(options)
        resolved["lives"] = lives if options["lives"] is None else options["lives"]
        resolved["stars"] = stars if options["stars"] is None else options["stars"]
        resolved["last_level"] = last_level if options["last_level"] is None else options["last_level"]
        if resolved["last_level"] * players > len(CARDS):
            raise InvalidOptions(
                f"last_level {resolved['last_level']} needs {resolved['last_level'] * players} cards for "
                f"{players} players; the deck has {len(CARDS)}",
                option="last_level",
            )
        return resolved

    def initial_state(self, players: int, options: Mapping[str, Any], rng: Rng) -> State:
        state: State = {
            "players": players,
            "mode": "blind" if options["start_blind"] else "normal",
            "detection": options["detection"],
            "last_level": options["last_level"],
            "blind_after_win": options["blind_after_win"],
            "level": 0,
            "lives": options["lives"],
            "stars": options["stars"],
            "phase": REFOCUS,
            # Hands, set-aside cards, pile, discards and ready flags are filled in by the first deal (below).
            "hands": None,
            "set_aside": None,
            "pile": None,
            "discards": None,
            "ready": None,
            "proposal": None,
            "unchecked_error": False,
            "levels_completed": 0,
            "blind_levels": 0,
            "normal_won": False,
        }
        if rng.algorithm != 1:  # format-1 records (the legacy generator) were played under the old rules
            state["revision"] = REVISION
        _deal(state, 1, rng)  # the events of the first deal are not kept: nobody has joined yet
        return state

    def validate_state(self, state: State, players: int, options: Mapping[str, Any]) -> None:
        validate_state(state, players)

    def to_act(self, state: State, players: int) -> list[int]:
        proposal = state["proposal"]
        if proposal is not None:
            return [seat for seat in range(players) if seat not in proposal["agreed"]]
        if state["phase"] == REFOCUS:
            return [seat for seat in range(players) if not state["ready"][seat]]
        return [seat for seat in range(players) if state["hands"][seat] or state["set_aside"][seat]]

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        blind = state["mode"] == "blind"
        pile = state["pile"]
        return {
            "players": state["players"],
            "seat": seat,
            "mode": state["mode"],
            "detection": state["detection"],
            "phase": state["phase"],
            "level": state["level"],
            "last_level": None if blind else state["last_level"],
            "cards_each": state["level"],
            "lives": state["lives"],
            "stars": state["stars"],
            "max_lives": MAX_LIVES,
            "max_stars": MAX_STARS,
            "reward": REWARDS.get(state["level"]),
            "hand": list(state["hands"][seat]) if seat is not None else None,
            "hand_counts": list(map(len, state["hands"])),
            "set_aside": list(map(list, state["set_aside"])),
            "discards": list(map(list, state["discards"])),
            "pile": [{"seat": p["seat"]} for p in pile] if blind else list(map(dict, pile)),
            "top": None if blind or not pile else pile[-1]["card"],
            "highest_played": None if blind or not pile else max(map(_CARD, pile)),
            "ready": list(state["ready"]),
            "proposal": None
            if state["proposal"] is None
            else dict(state["proposal"], agreed=list(state["proposal"]["agreed"])),
            "levels_completed": state["levels_completed"],
            "blind_levels": state["blind_levels"],
            "normal_won": state["normal_won"],
        }

    def views(self, state: State, seats: Sequence[int]) -> dict[int, dict[str, Any]]:
        # Speed: the public part once for all seats; only "seat" and "hand" are a seat's own.
        public = self.view(state, None)
        hands = state["hands"]
        views = {}
        for seat in seats:
            view = public.copy()
            view["seat"] = seat
            view["hand"] = list(hands[seat])
            views[seat] = view
        return views

    def result(self, state: State) -> Result | None:
        phase = state["phase"]
        if phase not in OVER_PHASES:
            return None
        players = state["players"]
        won = phase in (WON, FINISHED) or state["normal_won"]
        progress = state["levels_completed"]
        details = {
            "progress": progress,
            "level_reached": state["level"],
            "lives": state["lives"],
            "stars": state["stars"],
            "blind_levels": state["blind_levels"],
            "mode": state["mode"],
        }
        reason = {WON: "won", LOST: "lost", FINISHED: "blind_finished"}[phase]
        if phase == LOST and state["normal_won"] and revision(state) >= 3:
            # The team won the game, then lost its last life in the blind run that followed: say both.
            reason = "blind_lost"
            details["won_levels"] = state["last_level"]
        if revision(state) >= 3:
            # Every card still held when the game ended, for the game-over table (hands are no secret then).
            details["hands"] = [sorted(state["hands"][s] + state["set_aside"][s]) for s in range(players)]
        return Result(tuple(range(players)) if won else (), (float(progress),) * players, reason, details)


# -- helpers used by the transitions -------------------------------------------------------------------
def lowest_card(state: State, seat: int) -> int | None:
    """The card ``seat`` must play next: the lowest of its hand and its set-aside cards."""
    hand = state["hands"][seat]
    aside = state["set_aside"][seat]
    if hand and aside:
        return min(hand[0], aside[0])
    if hand:
        return int(hand[0])
    if aside:
        return int(aside[0])
    return None


def _any_discards(state: State) -> bool:
    return any(state["discards"])


def _no_cards_in_play(state: State) -> bool:
    """Whether every hand and every set-aside pile is empty (the level is done)."""
    for cards in state["hands"]:
        if cards:
            return False
    return not any(state["set_aside"])


def _lower_card_exists(state: State, card: int) -> bool:
    for cards in state["hands"]:
        if cards and cards[0] < card:
            return True
    for cards in state["set_aside"]:  # noqa: SIM110 -- a loop is quicker than any() on a generator here
        if cards and cards[0] < card:
            return True
    return False


def _deal(state: State, level: int, rng: Rng) -> None:
    players = state["players"]
    deck = rng.deal(CARDS, level * players)
    state["level"] = level
    if level == 1:
        state["hands"] = [[card] for card in deck]
    else:
        state["hands"] = [sorted(deck[i * level : (i + 1) * level]) for i in range(players)]
    state["set_aside"] = [[] for _ in range(players)]
    state["discards"] = [[] for _ in range(players)]
    state["pile"] = []
    state["unchecked_error"] = False
    state["phase"] = REFOCUS
    state["ready"] = [False] * players


def _start_level(state: State, level: int, rng: Rng) -> list[Event]:
    _deal(state, level, rng)
    players = state["players"]
    events = [
        Event(
            "level_started",
            {
                "level": level,
                "cards_each": level,
                "lives": state["lives"],
                "stars": state["stars"],
                "mode": state["mode"],
            },
        )
    ]
    events += [
        Event("dealt", {"seat": seat, "hand": list(state["hands"][seat])}, to=(seat,)) for seat in range(players)
    ]
    return events


def _refocus(state: State) -> None:
    state["phase"] = REFOCUS
    state["ready"] = [False] * state["players"]


def _ready(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    seat = action["seat"]
    state["ready"][seat] = True
    events = [Event("ready", {"seat": seat})]
    if all(state["ready"]):
        state["phase"] = PLAYING
        events.append(Event("focused", {"level": state["level"]}))
    return events


def _take_card(state: State, seat: int) -> int:
    hand = state["hands"][seat]
    aside = state["set_aside"][seat]
    if aside and (not hand or aside[0] < hand[0]):
        return int(aside.pop(0))
    return int(hand.pop(0))


def _play(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    seat = action["seat"]
    hand = state["hands"][seat]
    aside = state["set_aside"][seat]
    card = int(aside.pop(0)) if aside and (not hand or aside[0] < hand[0]) else int(hand.pop(0))  # _take_card
    pile = state["pile"]
    # The highest card before this one matters only while a mistake is unchecked.
    highest = max((entry["card"] for entry in pile), default=0) if state["unchecked_error"] else 0
    pile.append({"seat": seat, "card": card})
    if state["mode"] == "blind":
        events = [Event("card_played", {"seat": seat, "face_down": True})]
        return events + _after_card(state, rng)
    events = [Event("card_played", {"seat": seat, "card": card})]
    if state["unchecked_error"] and card < highest and revision(state) >= 3:
        # Nobody called stop, but a card below one already on the pile shows the mistake to everyone.
        return events + _lose_life_and_set_aside(state, highest, _played_by(state, highest), "evident", rng)
    if _lower_card_exists(state, card):
        if state["detection"] == "table":
            return events + _lose_life_and_set_aside(state, card, seat, "out_of_order", rng)
        state["unchecked_error"] = True
    elif _no_cards_in_play(state):
        return events + _complete_level(state, rng)
    return events


def _stop(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    seat = action["seat"]
    if not state["unchecked_error"]:
        return [Event("stop_called", {"seat": seat, "error": False})]
    highest = max(p["card"] for p in state["pile"])
    events = [Event("stop_called", {"seat": seat, "error": True})]
    by = _played_by(state, highest) if revision(state) >= 3 else None
    return events + _lose_life_and_set_aside(state, highest, by, "stop", rng)


def _played_by(state: State, card: int) -> int | None:
    """Who played ``card`` (the highest card of an unchecked mistake is always one played out of order)."""
    return next((entry["seat"] for entry in state["pile"] if entry["card"] == card), None)


def _lose_life_and_set_aside(state: State, card: int, seat: int | None, cause: str, rng: Rng) -> list[Event]:
    moved: dict[str, list[int]] = {}
    for owner, hand in enumerate(state["hands"]):
        lower = hand[: bisect_left(hand, card)]  # hands are kept in order: the cards below ``card`` come first
        if lower:
            del hand[: len(lower)]
            state["set_aside"][owner] = sorted(state["set_aside"][owner] + lower)
            moved[str(owner)] = lower
    state["lives"] -= 1
    state["unchecked_error"] = False
    events = [
        Event(
            "life_lost",
            {"cause": cause, "card": card, "seat": seat, "lives": state["lives"], "set_aside": moved},
        )
    ]
    if state["lives"] <= 0:
        state["lives"] = 0
        state["phase"] = LOST
        events.append(Event("game_lost", {"level": state["level"]}))
        return events
    if _no_cards_in_play(state):
        return events + _complete_level(state, rng)
    _refocus(state)
    return events


def _maybe_carry_proposal(state: State, rng: Rng) -> list[Event]:
    proposal = state["proposal"]
    if len(proposal["agreed"]) < state["players"]:
        return []
    state["proposal"] = None
    if proposal["kind"] == "end":
        state["phase"] = FINISHED
        return [Event("blind_ended", {"blind_levels": state["blind_levels"]})]
    state["stars"] -= 1
    discarded: dict[str, int] = {}
    for seat in range(state["players"]):
        if lowest_card(state, seat) is not None:
            card = _take_card(state, seat)
            state["discards"][seat].append(card)
            discarded[str(seat)] = card
    events = [Event("star_used", {"stars": state["stars"], "discarded": discarded})]
    highest = max((entry["card"] for entry in state["pile"]), default=0)
    if (
        state["unchecked_error"]
        and revision(state) >= 3
        and state["mode"] == "normal"
        and any(card < highest for card in discarded.values())
    ):
        # The discards lie face up: one below a card on the pile shows the unstopped mistake.
        return events + _lose_life_and_set_aside(state, highest, _played_by(state, highest), "evident", rng)
    if _no_cards_in_play(state):
        return events + _complete_level(state, rng)
    _refocus(state)
    return events


def _after_card(state: State, rng: Rng) -> list[Event]:
    if _no_cards_in_play(state):
        return _complete_level(state, rng)
    return []


def _complete_level(state: State, rng: Rng) -> list[Event]:
    level = state["level"]
    events: list[Event] = []
    blind = state["mode"] == "blind"
    if blind:
        cards = [p["card"] for p in state["pile"]]
        in_order = all(a < b for a, b in itertools.pairwise(cards))
        events.append(Event("pile_revealed", {"cards": cards, "in_order": in_order}))
        if not in_order:
            state["lives"] -= 1
            events.append(
                Event(
                    "life_lost",
                    {"cause": "blind_pile", "card": None, "seat": None, "lives": state["lives"], "set_aside": {}},
                )
            )
            if state["lives"] <= 0:
                state["lives"] = 0
                state["phase"] = LOST
                events.append(Event("game_lost", {"level": level}))
                return events
        state["blind_levels"] += 1
    else:
        state["levels_completed"] += 1
    reward = REWARDS.get(level)
    granted = False
    if reward == "life" and state["lives"] < MAX_LIVES:
        state["lives"] += 1
        granted = True
    elif reward == "star" and state["stars"] < MAX_STARS:
        state["stars"] += 1
        granted = True
    events.append(
        Event(
            "level_completed",
            {"level": level, "reward": reward, "granted": granted, "lives": state["lives"], "stars": state["stars"]},
        )
    )
    if not blind and level >= state["last_level"]:
        state["normal_won"] = True
        events.append(Event("game_won", {"level": level}))
        if not state["blind_after_win"]:
            state["phase"] = WON
            return events
        state["mode"] = "blind"
        events.append(Event("blind_started", {"lives": state["lives"], "stars": state["stars"]}))
        return events + _start_level(state, 1, rng)
    next_level = level + 1
    if next_level * state["players"] > len(CARDS):
        state["phase"] = FINISHED
        events.append(Event("blind_ended", {"blind_levels": state["blind_levels"]}))
        return events
    return events + _start_level(state, next_level, rng)


def validate_state(state: State, players: int) -> None:
    """Check a loaded state; raise ValueError naming the field. Sorts hands and set-aside cards."""
    if state.get("players") != players:
        raise ValueError(f"'players' is {state.get('players')!r} but the snapshot says {players}")
    for name in ("hands", "set_aside", "discards", "ready"):
        value = state.get(name)
        if not isinstance(value, list) or len(value) != players:
            raise ValueError(f"{name!r} must be a list with one entry per seat ({players})")
    seen: set[int] = set()

    def note(card: Any, where: str) -> None:
        if isinstance(card, bool) or not isinstance(card, int) or card not in CARDS:
            raise ValueError(f"{where}: {card!r} is not a card from 1 to 100")
        if card in seen:
            raise ValueError(f"{where}: card {card} appears twice")
        seen.add(card)

    for name in ("hands", "set_aside", "discards"):
        for seat, cards in enumerate(state[name]):
            if not isinstance(cards, list):
                raise ValueError(f"{name}[{seat}] must be a list of cards")
            for card in cards:
                note(card, f"{name}[{seat}]")
            if name != "discards":
                cards.sort()
    if not isinstance(state.get("pile"), list):
        raise ValueError("'pile' must be a list of {'seat': s, 'card': c}")
    for index, entry in enumerate(state["pile"]):
        if not isinstance(entry, dict) or entry.get("seat") not in range(players):
            raise ValueError(f"pile[{index}] must be {{'seat': 0..{players - 1}, 'card': 1..100}}")
        note(entry.get("card"), f"pile[{index}]")
    for name, cap in (("lives", MAX_LIVES), ("stars", MAX_STARS)):
        value = state.get(name)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= cap:
            raise ValueError(f"{name!r} must be a whole number from 0 to {cap}, got {value!r}")
    if state.get("phase") not in (REFOCUS, PLAYING, *OVER_PHASES):
        raise ValueError(f"'phase' must be one of refocus, playing, won, lost, finished, got {state.get('phase')!r}")
    if state.get("mode") not in ("normal", "blind"):
        raise ValueError(f"'mode' must be 'normal' or 'blind', got {state.get('mode')!r}")
    if state.get("detection") not in ("table", "players"):
        raise ValueError(f"'detection' must be 'table' or 'players', got {state.get('detection')!r}")
    level = state.get("level")
    if isinstance(level, bool) or not isinstance(level, int) or level < 1:
        raise ValueError(f"'level' must be a whole number >= 1, got {level!r}")
    proposal = state.get("proposal")
    if proposal is not None and (
        not isinstance(proposal, dict)
        or proposal.get("kind") not in ("star", "end")
        or not isinstance(proposal.get("agreed"), list)
    ):
        raise ValueError("'proposal' must be null or {'kind': 'star'|'end', 'by': seat, 'agreed': [seats]}")
    for name, default in (
        ("unchecked_error", False),
        ("levels_completed", level - 1 if state.get("mode") == "normal" else 0),
        ("blind_levels", 0),
        ("normal_won", False),
        ("blind_after_win", False),
    ):
        state.setdefault(name, default)
    state.setdefault("last_level", SETUP[players][2])


MOVES = MoveTable(
    [
        Move(
            "ready",
            _ready,
            _gate_ready,
            phases=(REFOCUS,),
            phase_refusal="not_refocusing",
            help="put your hand on the table: ready to (re)start",
        ),
        Move(
            "play",
            _play,
            _gate_play,
            phases=(PLAYING,),
            phase_refusal="not_playing",
            params=(
                Param.choice(
                    "card",
                    _lowest_only,
                    default=_lowest_only_value,
                    explain=_not_lowest,
                    help="your lowest card (it is the only one you may play)",
                ),
            ),
            help="play your lowest card",
        ),
        Move(
            "stop",
            _stop,
            _gate_stop,
            phases=(PLAYING,),
            phase_refusal="not_playing",
            help="call stop: a card was played out of order",
        ),
        Move(
            "propose_star",
            _propose("star"),
            _gate_star,
            phases=(PLAYING,),
            phase_refusal="not_playing",
            help="propose a throwing star",
        ),
        Move("propose_end", _propose("end"), _gate_propose_end, help="propose to end the blind run"),
        Move("agree", _agree, _gate_vote, help="agree to the proposal"),
        Move("withdraw", _withdraw, _gate_withdraw, help="take back your own proposal"),
        Move("reject", _reject, _gate_vote, help="reject the proposal"),
    ],
    phase_key="phase",
)

TheMind.moves = MOVES  # declared after the effects it names

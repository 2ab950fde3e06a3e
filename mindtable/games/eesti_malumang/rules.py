"""Eesti mälumäng: the rules engine (pure state transitions on the core's move table and the quiz table's ask step).

The rulebook (``../shared/rules/004_72efee67ca72a733.txt``) is the specification; every rule, its
sentence of the book, its code and its test are listed in ``docs/rules/eesti-malumang.md``.

A turn, in the standard game:

1. ``place`` (setup, in seat order): each player puts a piece on an Estonia space (several may share one); after
   the last piece the die decides who starts (highest roll, ties roll again); play goes clockwise.
2. ``roll``: the die; the piece may then go either way (``move`` to one of the listed squares, one per direction;
   with a single possible square — clockwise-only play — it moves at once).
3. The colour of the square names the category; on an Estonia space the player chooses it (``category``).
4. The player on the left draws the top card of the next pile and reads the question (the ask step:
   ``ask_answer`` / ``ask_pass`` by the player, ``ask_confirm`` / ``ask_overrule`` by the reader).
5. Right: the Estonia card of that colour (turn passes), or, already holding it, roll again. Wrong: turn passes.
6. With all six colours the piece heads for any Estonia space (a roll that passes one stops there), and from the
   next turn follows the finish path without the die (``path``): a right answer on a circle moves on.
7. On the finish square the player on the left chooses the category (``final_category``); right wins.

Variants (option ``variant``): ``outer_track`` (a card for every right answer; ends when the 36 cards are
taken — or fewer with the house option ``cards_per_colour``, for a short game; most cards wins),
``cards_only`` (no board; a right answer keeps the question card; ends when the agreed time runs out — a
server-side deadline, ``em_time_up`` — most cards wins); option ``clockwise_only``; teams (``team_members``,
``team_answer``).
"""

from __future__ import annotations

import base64
import hashlib
import json
import zlib
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any, ClassVar, TypedDict

import yaml

from mindtable.core.codes import refuse
from mindtable.core.errors import IllegalAction, InvalidOptions
from mindtable.core.events import Deadline, Event, Result
from mindtable.core.flow import Flow, Phase
from mindtable.core.game import Game, State
from mindtable.core.moves import Move, MoveTable, Param, declare_gate
from mindtable.core.options import Option, option_path
from mindtable.core.rng import Rng
from mindtable.core.turns import grant_extra_turn, left_of, new_teams, new_turn, pass_turn, roll_off, rotate
from mindtable.core.views import LazyView
from mindtable.kit.board import Board, BoardError, Landing, parse_board, reachable
from mindtable.kit.dice import roll
from mindtable.trivia.categories import TopicMap
from mindtable.trivia.quiz import Ask, AskView, outcome
from mindtable.trivia.sets import CARD_CATEGORIES, GameProfile, load_set
from mindtable.trivia.step import QuizStep

HERE = Path(__file__).resolve().parent
BOARD_FILE = HERE / "board.yaml"
CONTENT = HERE / "content"
LANGUAGES = ("et", "en")
CATEGORIES = CARD_CATEGORIES  # history, culture, science, geography, sport, varia
#: How the categories of any bank feed the cards' six (``mindtable questions fit``, cards made from plain
#: questions); varia takes the rest.
TOPIC_MAP = TopicMap(
    topics=CATEGORIES,
    feeds={
        "arts": "culture",
        "literature": "culture",
        "music": "culture",
        "film": "culture",
        "entertainment": "culture",
        "mythology": "culture",
        "technology": "science",
        "politics": "history",
    },
    fallback="varia",
)
#: "36 Estonia cards (6 different colours)": six of each colour (the house option ``cards_per_colour`` may use
#: fewer, e.g. one of each colour for a short variant-1 game).
CARDS_PER_COLOUR = 6
PILES = 4
VARIANTS = ("standard", "outer_track", "cards_only")
ESTONIA = "estonia"
FINISH_PATH = "finish"

CODES: dict[str, str] = {
    "em_wait": "waiting for seat {seat} to {step}",
    "em_not_estonia": "{square!r} is not an Estonia space; the Estonia spaces are {allowed}",
    "em_not_reachable": "the die shows {die}: the piece can reach {allowed}, not {square!r}",
    "em_not_category": "{category!r} is not a category; the categories are {allowed}",
    "em_roll_first": "roll the die first",
    "em_path_no_die": "your piece is on the finish path: no die now, take the question of your circle",
    "em_left_chooses": "on the finish square the player to the left, seat {seat}, chooses the category",
    "em_clockwise_only": "pieces move only clockwise (variant 3): the die's {die} already took your piece to {square}",
    "em_moved_already": "the die's {die} already took your piece to {square}: there was one square to reach",
    "em_choose_landing": "you rolled {die}: now choose where to move, one of {allowed}",
    "em_no_square": "say which square: one of {allowed}",
    "em_no_category": "say which category: one of {allowed}",
    "em_time_not_due": "the agreed game time runs until {ends_at} ms; it is not up at {at} ms",
    "em_time_needs_at": "the game time's end must carry its time ('at'): the agreed time runs until {ends_at} ms",
}

#: The codes' parameters that name a seat (surfaces say the seat's name).
SEAT_PARAMS: dict[str, tuple[str, ...]] = {"em_wait": ("seat",), "em_left_chooses": ("seat",)}
#: Parameters that are ids a page shows by their label (``em.category.<id>``).
LABEL_PARAMS: dict[str, dict[str, str]] = {
    "em_not_category": {"category": "em.category", "allowed": "em.category"},
    "em_no_category": {"allowed": "em.category"},
}


# --- content and board ----------------------------------------------------------------------------------------


@cache
def content_cards(language: str) -> dict[str, dict[str, Any]]:
    """Every question card of ``language`` as JSON (read once; dealt into each match's state)."""
    cards: dict[str, dict[str, Any]] = {}
    for path in sorted((CONTENT / language).glob("*.yaml")):
        for card in load_set(path).cards:
            cards[card.id] = card.to_dict()
    return cards


def content_files(language: str | None = None) -> list[Path]:
    langs = LANGUAGES if language is None else (language,)
    return [p for lang in langs for p in sorted((CONTENT / lang).glob("*.yaml"))]


def board_problems(board: Board) -> list[str]:
    """What makes ``board`` unusable for this game (empty when it is fine)."""
    problems = []
    tracks = list(board.tracks)
    outer = board.tracks[tracks[0]]
    if not board.squares[outer[0]].next or board.squares[outer[-1]].next != (outer[0],):
        problems.append(f"the first track ({tracks[0]!r}) must be the outer loop (loop: true)")
    corners = [s for s in outer if board.squares[s].special == ESTONIA]
    if not corners:
        problems.append("the outer track has no Estonia space (special: estonia)")
    for sid in outer:
        if sid in corners:
            continue
        if board.topic_of(sid) not in CATEGORIES:
            problems.append(f"square {sid!r}: its colour must name one of the categories {', '.join(CATEGORIES)}")
    for corner in corners:
        path = finish_path(board, corner)
        if not path or board.squares[path[-1]].kind != "finish":
            problems.append(f"Estonia space {corner!r}: no branch 'path: finish' leading to a finish square")
            continue
        for sid in path[:-1]:
            if board.topic_of(sid) not in CATEGORIES:
                problems.append(f"finish path square {sid!r}: its colour must name a category")
    return problems


def finish_path(board: Board, corner: str) -> list[str]:
    """The squares from an Estonia space to the finish: its question circles, then the finish square."""
    path: list[str] = []
    here = next((to for to, name in board.squares[corner].branches if name == FINISH_PATH), None)
    while here is not None and here not in path and len(path) < 50:
        path.append(here)
        if board.squares[here].kind == "finish":
            break
        nxt = board.squares[here].next
        here = nxt[0] if nxt else None
    return path


def read_board_file(path: str | Path) -> dict[str, Any]:
    """A board file's data, checked for this game; raises InvalidOptions naming the file and the problem."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise InvalidOptions(
            f"board_file {str(path)!r} cannot be read: {exc.strerror or exc}", option="board_file"
        ) from None
    try:
        board = parse_board(text, str(path))
    except BoardError as exc:
        raise InvalidOptions(f"board_file: {exc}", option="board_file") from None
    problems = board_problems(board)
    if problems:
        raise InvalidOptions(f"board_file {str(path)!r}: {problems[0]}", option="board_file")
    data: dict[str, Any] = yaml.safe_load(text)
    return data


_CARDS: dict[str, dict[str, dict[str, Any]]] = {}


def pack_cards(cards: Mapping[str, Any]) -> str:
    """The match's question cards as one text: their JSON, zlib-compressed, in base64.

    Every match pins the whole box of cards (six questions a card) in its state so that a record replays
    with no content file; as one short ASCII text a snapshot, a comparison or a replay copies them as one value
    (as plain JSON objects they made every snapshot ~30 times slower). :func:`unpack_cards` reads it back.
    """
    raw = json.dumps(cards, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")
    return base64.b64encode(zlib.compress(raw, 9)).decode("ascii")


@cache
def packed_content(language: str) -> str:
    return pack_cards(content_cards(language))


def unpack_cards(text: str) -> dict[str, dict[str, Any]]:
    cards: dict[str, dict[str, Any]] = json.loads(zlib.decompress(base64.b64decode(text)).decode("utf-8"))
    return cards


def cards_of(state: State) -> dict[str, dict[str, Any]]:
    """The match's question cards by id, from the text pinned in its state (unpacked once per text)."""
    text: str = state["cards"]
    cards = _CARDS.get(text)
    if cards is None:
        if len(_CARDS) > 8:
            _CARDS.clear()
        cards = _CARDS[text] = unpack_cards(text)
    return cards


_BOARDS: dict[str, Board] = {}
_BOARD_VIEWS: dict[str, dict[str, Any]] = {}


def board_key(data: Mapping[str, Any]) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]


def board_of(state: State) -> Board:
    """The match's board, rebuilt from the data pinned in its state (never from a file)."""
    key = state["board_key"]
    board = _BOARDS.get(key)
    if board is None:
        board = _BOARDS[key] = parse_board(json.dumps(state["board"]), "<state>")
    return board


def board_view(state: State) -> dict[str, Any]:
    key = state["board_key"]
    out = _BOARD_VIEWS.get(key)
    if out is None:
        board = board_of(state)
        out = _BOARD_VIEWS[key] = {
            **board.to_dict(),
            "estonia": estonia_spaces(board),
            "paths": {c: finish_path(board, c) for c in estonia_spaces(board)},
        }
    return out


def estonia_spaces(board: Board) -> list[str]:
    outer = board.tracks[next(iter(board.tracks))]
    return [s for s in outer if board.squares[s].special == ESTONIA]


# --- helpers --------------------------------------------------------------------------------------------------


def held_all(state: State, seat: int) -> bool:
    return all(state["held"][seat].get(c, 0) > 0 for c in CATEGORIES)


def on_path(state: State, seat: int) -> bool:
    """Whether the seat's piece plays the finish path this turn (no die)."""
    if state["variant"] != "standard":
        return False
    square = state["pawns"][seat]
    board = board_of(state)
    sq = board.squares[square]
    if sq.track != next(iter(board.tracks)):
        return True  # a circle of a finish path, or the finish square
    return sq.special == ESTONIA and held_all(state, seat)


def asker_of(state: State, seat: int) -> int:
    """ "The player to your left" reads the question (and chooses the final category)."""
    return left_of(seat, state["players"])


def turn_phase(state: State) -> str:
    """The phase a turn begins in: the die (``roll``); on the finish path its circle's question (``path``) or, on
    the finish square, the category the player on the left chooses (``final_category``); in variant 2 the
    category (``category``), unless the die names it (house rule ``cards_category=die``)."""
    seat = state["turn"]["seat"]
    if state["variant"] == "cards_only":
        return "category" if state["options"]["cards_category"] == "answerer" else "roll"
    if on_path(state, seat):
        square = state["pawns"][seat]
        return "final_category" if board_of(state).squares[square].kind == "finish" else "path"
    return "roll"


def _begin_turn(state: State) -> None:
    state["landings"] = []


def _end_turn(state: State) -> list[Event]:
    seat = pass_turn(state["turn"])
    _begin_turn(state)
    return [Event("turn", {"seat": seat, "phase": turn_phase(state), "number": state["turn"]["number"]})]


def _draw(state: State, rng: Rng) -> str | None:
    """The top card of the next pile (the piles are used in turn); the discards are reshuffled into four new
    piles when every pile is empty. ``None`` when no card is left anywhere."""
    piles = state["piles"]
    for step in range(PILES):
        index = (state["next_pile"] + step) % PILES
        if piles[index]:
            state["next_pile"] = (index + 1) % PILES
            card_id: str = piles[index].pop(0)
            state["drawn_from"] = index
            return card_id
    if not state["discard"]:
        return None
    cards = list(state["discard"])
    rng.shuffle(cards)
    state["discard"] = []
    state["piles"] = [cards[i::PILES] for i in range(PILES)]
    state["reshuffles"] += 1
    return _draw(state, rng)


def _ask(state: State, seat: int, category: str, reason: str, at: int | None, rng: Rng) -> list[Event]:
    card_id = _draw(state, rng)
    if card_id is None:
        state["ended"] = "cards_out"
        return [Event("cards_out", {})]
    reader = asker_of(state, seat)
    events = QUIZ.open(
        state, cards_of(state)[card_id], reader=reader, answerers=[seat], question=category, options="never", at=at
    )
    state["asking"] = {
        "seat": seat,
        "reader": reader,
        "category": category,
        "reason": reason,
        "square": state["pawns"][seat] if state["pawns"] else None,
        "pile": state["drawn_from"],
        "member": _member(state, seat),
    }
    head = Event("question", {k: v for k, v in state["asking"].items()})
    return [head, *events]


def _turn_seat(state: State) -> int | None:
    turn = state["turn"]
    return turn["seat"] if turn else None


def _held_view(state: State) -> list[dict[str, int]]:
    return [dict(h) for h in state["held"]]


def _stats_view(state: State) -> list[dict[str, list[int]]]:
    return [{c: list(v) for c, v in s.items()} for s in state["stats"]]


def _board_part(state: State) -> dict[str, Any] | None:
    return board_view(state) if state["board"] is not None else None


def _complete_view(state: State) -> list[bool]:
    return [state["variant"] == "standard" and held_all(state, s) for s in range(state["players"])]


def _last_view(state: State) -> dict[str, Any] | None:
    """The last question's verdict: ``seat`` the answering player, ``decided_by`` who decided it. A state saved
    before ``decided_by`` was kept (its ``seat`` overwrote the decider) gets it back from the rules: the reader,
    the player to the answerer's left, decides; a pass is the answerer's own; a time-out is nobody's."""
    last = state["last"]
    if last is None or "decided_by" in last:
        return last
    by = last.get("by")
    decider = asker_of(state, last["seat"]) if by == "reader" else last["seat"] if by == "pass" else None
    return {**last, "decided_by": decider}


def _member(state: State, seat: int) -> str | None:
    teams = state["teams"]
    if not teams or state["options"]["team_answer"] != "rotate":
        return None
    team = teams[seat]
    return str(team["members"][team["next"] % len(team["members"])])


# --- gates ------------------------------------------------------------------------------------------------------


def _wait(state: State, seat: int) -> IllegalAction:
    return refuse("em_wait", seat=seat, step=FLOW.help(state["phase"]))


def _gate_place(state: State, seat: Any, at: Any) -> IllegalAction | None:
    if seat != state["placing"]:
        return _wait(state, state["placing"])
    return None


def _gate_turn(state: State, seat: Any, at: Any) -> IllegalAction | None:
    if seat != state["turn"]["seat"]:
        return _wait(state, state["turn"]["seat"])
    return None


def _gate_roll(state: State, seat: Any, at: Any) -> IllegalAction | None:
    if state["phase"] == "place":
        return _wait(state, state["placing"])
    if state["phase"] == "over":
        return refuse("not_now", action="roll")
    refusal = _gate_turn(state, seat, at)
    if refusal is not None:
        return refusal
    phase = state["phase"]
    if phase == "roll":
        return None
    if phase == "final_category":
        return refuse("em_left_chooses", seat=asker_of(state, seat))
    if phase == "path" or (state["variant"] == "standard" and on_path(state, seat)):
        return refuse("em_path_no_die")
    if phase == "move":
        return refuse("em_choose_landing", die=state["die"], allowed=_landing_squares(state, seat))
    return refuse("not_now", action="roll")


def _gate_move(state: State, seat: Any, at: Any) -> IllegalAction | None:
    """Moving is choosing one of the squares the die reaches; anything else says what is wrong instead."""
    if state["phase"] == "place":
        return _wait(state, state["placing"])
    if state["phase"] == "over":
        return refuse("not_now", action="move")
    refusal = _gate_turn(state, seat, at)
    if refusal is not None:
        return refusal
    phase = state["phase"]
    if phase == "move":
        return None
    if state["variant"] == "cards_only":
        return refuse("not_now", action="move")
    if phase == "final_category":
        return refuse("em_left_chooses", seat=asker_of(state, seat))
    if phase == "path" or (state["variant"] == "standard" and on_path(state, seat)):
        return refuse("em_path_no_die")
    if phase == "roll":
        return refuse("em_roll_first")
    if phase in ("ask", "category") and state.get("die"):
        # the die reached one square only and the piece went there
        code = "em_clockwise_only" if state["options"]["clockwise_only"] else "em_moved_already"
        return refuse(code, die=state["die"], square=state["pawns"][seat])
    return refuse("not_now", action="move")


def _gate_final(state: State, seat: Any, at: Any) -> IllegalAction | None:
    chooser = asker_of(state, state["turn"]["seat"])
    if seat != chooser:
        return refuse("em_left_chooses", seat=chooser)
    return None


def _gate_time_up(state: State, seat: Any, at: Any) -> IllegalAction | None:
    if state["variant"] != "cards_only" or state["time_over"] or state["phase"] == "over":
        return refuse("not_now", action="em_time_up")
    # A timer's action is accepted only when its deadline is due: it carries its time, at or after the end.
    if at is None:
        return refuse("em_time_needs_at", ends_at=state["ends_at"])
    if at < state["ends_at"]:
        return refuse("em_time_not_due", ends_at=state["ends_at"], at=at)
    return None


# What the listings ask instead of the gates (declare_gate): whether each opens, without building its refusal.
declare_gate(_gate_place, opens=lambda state, seat, at: seat == state["placing"])
declare_gate(_gate_turn, opens=lambda state, seat, at: seat == state["turn"]["seat"])
declare_gate(_gate_roll, opens=lambda state, seat, at: state["phase"] == "roll" and seat == state["turn"]["seat"])
declare_gate(_gate_move, opens=lambda state, seat, at: state["phase"] == "move" and seat == state["turn"]["seat"])
declare_gate(_gate_final, opens=lambda state, seat, at: seat == asker_of(state, state["turn"]["seat"]))


# --- domains ----------------------------------------------------------------------------------------------------


def _corners(state: State, seat: Any) -> list[str]:
    return estonia_spaces(board_of(state))


def _explain_corner(state: State, seat: Any, value: Any) -> IllegalAction:
    if value is None:
        return refuse("em_no_square", allowed=list(_corners(state, seat)))
    return refuse("em_not_estonia", square=str(value), allowed=list(_corners(state, seat)))


def _landing_squares(state: State, seat: Any) -> list[str]:
    out: list[str] = []
    for landing in state["landings"]:
        if landing["square"] not in out:
            out.append(landing["square"])
    return out


def _explain_landing(state: State, seat: Any, value: Any) -> IllegalAction:
    if value is None:
        return refuse("em_no_square", allowed=_landing_squares(state, seat))
    return refuse("em_not_reachable", die=state["die"], square=str(value), allowed=_landing_squares(state, seat))


def _landing_labels(state: State, seat: Any) -> dict[str, str]:
    labels: dict[str, str] = {}
    for landing in state["landings"]:
        name = f"{landing['direction']}: {landing['square']}"
        labels[landing["square"]] = labels[landing["square"]] + " / " + name if landing["square"] in labels else name
    return labels


def _categories(state: State, seat: Any) -> list[str]:
    return list(CATEGORIES)


def _explain_category(state: State, seat: Any, value: Any) -> IllegalAction:
    if value is None:
        return refuse("em_no_category", allowed=list(CATEGORIES))
    return refuse("em_not_category", category=str(value), allowed=list(CATEGORIES))


# --- effects ------------------------------------------------------------------------------------------------------


def _place(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    seat, square = action["seat"], action["square"]
    state["pawns"][seat] = square
    events = [Event("placed", {"seat": seat, "square": square})]
    if seat + 1 < state["players"]:
        state["placing"] = seat + 1
        return events
    state["placing"] = None
    return events + _start(state, rng)


def _start(state: State, rng: Rng) -> list[Event]:
    """ "Then the die is rolled, and the player who rolls the highest number starts. Turn order goes clockwise.\""""
    first, rounds = roll_off(rng, range(state["players"]))
    state["start_rolls"] = [{str(k): v for k, v in r.items()} for r in rounds]
    state["turn"] = new_turn(state["players"], first)
    _begin_turn(state)
    return [Event("first_player", {"seat": first, "rolls": state["start_rolls"]})]


def _directions(state: State) -> str:
    return "forward" if state["options"]["clockwise_only"] else "both"


#: (board key, square, die, directions, complete) -> the landings of that roll (see :func:`_landings`).
_LANDINGS: dict[tuple[Any, ...], tuple[tuple[str, str, tuple[str, ...], int], ...]] = {}


def _landings(
    key: str, state: State, square: str, die: int, directions: str, complete: bool
) -> tuple[tuple[str, str, tuple[str, ...], int], ...]:
    """Where a die of ``die`` takes a piece on ``square``: (square, direction, path, steps) of each landing, in
    the board's order. The same for the same board (its key), square, die, directions and whether the piece
    holds every colour (it then stops on an Estonia space): worked out once, kept (at most a few thousand)."""
    cache_key = (key, square, die, directions, complete)
    found = _LANDINGS.get(cache_key)
    if found is None:
        board = board_of(state)
        stop_at = estonia_spaces(board) if complete else ()
        landings: list[Landing] = reachable(board, square, die, directions, stop_at=stop_at)
        found = tuple(
            (
                lnd.square,
                "clockwise" if lnd.direction == "forward" else "anticlockwise",
                tuple(lnd.path),
                die - lnd.steps_left,
            )
            for lnd in landings
        )
        if len(_LANDINGS) >= 8192:
            _LANDINGS.clear()
        _LANDINGS[cache_key] = found
    return found


def _roll(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    seat = action["seat"]
    die = roll(rng)[0]
    state["die"] = die
    if state["variant"] == "cards_only":  # the die names the category (house rule cards_category=die)
        category = CATEGORIES[die - 1]
        events = [Event("rolled", {"seat": seat, "die": die, "category": category})]
        return events + _ask(state, seat, category, "cards", action.get("at"), rng)
    complete = state["variant"] == "standard" and held_all(state, seat)
    found = _landings(state["board_key"], state, state["pawns"][seat], die, _directions(state), complete)
    state["landings"] = [
        {"square": square, "direction": direction, "path": list(path), "steps": steps}
        for square, direction, path, steps in found
    ]
    squares = _landing_squares(state, seat)
    events = [Event("rolled", {"seat": seat, "die": die, "landings": list(state["landings"])})]
    if len(squares) == 1:
        return events + _land(state, seat, squares[0], action.get("at"), rng)
    return events


def _move(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    return _land(state, action["seat"], action["to"], action.get("at"), rng)


def _land(state: State, seat: int, square: str, at: int | None, rng: Rng) -> list[Event]:
    board = board_of(state)
    landing = next(lnd for lnd in state["landings"] if lnd["square"] == square)
    state["pawns"][seat] = square
    state["landings"] = []
    events = [
        Event("moved", {"seat": seat, "square": square, "direction": landing["direction"], "steps": landing["steps"]})
    ]
    if state["variant"] == "standard" and held_all(state, seat) and board.squares[square].special == ESTONIA:
        # "head for the Estonia space ... After reaching the Estonia space, you may begin moving toward the
        # finish square on your next turn."
        events.append(Event("reached_estonia", {"seat": seat, "square": square}))
        return events + _end_turn(state)
    topic = board.topic_of(square)
    if topic is None:  # an Estonia space: the player chooses the category
        return events
    return events + _ask(state, seat, topic, "track", at, rng)


def _category(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    reason = "cards" if state["variant"] == "cards_only" else "track"
    return _ask(state, action["seat"], action["category"], reason, action.get("at"), rng)


def _path(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    seat = action["seat"]
    board = board_of(state)
    square = state["pawns"][seat]
    events: list[Event] = []
    if board.squares[square].special == ESTONIA:
        first = finish_path(board, square)[0]
        state["pawns"][seat] = first
        events.append(Event("entered_path", {"seat": seat, "square": first}))
        square = first
    topic = board.topic_of(square)
    assert topic is not None
    return events + _ask(state, seat, topic, "path", action.get("at"), rng)


def _final_category(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    seat = state["turn"]["seat"]
    events = [Event("final_category", {"seat": action["seat"], "for": seat, "category": action["category"]})]
    return events + _ask(state, seat, action["category"], "final", action.get("at"), rng)


def _time_up(state: State, action: dict[str, Any], rng: Rng) -> list[Event]:
    state["time_over"] = True
    events = [Event("game_time_up", {"at": state["ends_at"]})]
    if state["phase"] != "ask":  # a question being asked is finished first
        state["ended"] = "time"
    return events


def _next_on_path(board: Board, square: str) -> str:
    nxt = board.squares[square].next
    return nxt[0]


def _decided(state: State, ask: Ask, rng: Any) -> list[Event]:
    asking = state["asking"]
    seat, category, reason = asking["seat"], asking["category"], asking["reason"]
    verdict = outcome(ask)
    correct = bool(verdict["correct"])
    card_id = ask["card"]["id"]
    stats = state["stats"][seat].setdefault(category, [0, 0])
    stats[0 if correct else 1] += 1
    # The quiz table's result names who decided the verdict in ``seat`` (the reader, or the answerer who
    # passed); here ``seat`` is the answering player and the decider is kept as ``decided_by``.
    result = ask["results"][-1]
    state["last"] = {**result, "seat": seat, "decided_by": result.get("seat"), "category": category, "reason": reason}
    state["ask"] = None
    state["asking"] = None
    if state["teams"] and state["options"]["team_answer"] == "rotate":
        rotate(state["teams"], seat)
    events: list[Event] = []
    variant = state["variant"]
    kept = False
    if correct:
        if reason == "cards":
            state["kept"][seat].append(card_id)
            kept = True
            events.append(Event("card_kept", {"seat": seat, "card": card_id}))
        elif reason == "track":
            supply = state["supply"]
            has = state["held"][seat].get(category, 0)
            if (variant == "standard" and has) or supply[category] == 0:
                grant_extra_turn(state["turn"])
                events.append(Event("roll_again", {"seat": seat, "category": category}))
            else:
                supply[category] -= 1
                state["held"][seat][category] = has + 1
                events.append(Event("estonia_card", {"seat": seat, "category": category, "left": supply[category]}))
        elif reason == "path":
            board = board_of(state)
            square = _next_on_path(board, state["pawns"][seat])
            state["pawns"][seat] = square
            events.append(Event("advanced", {"seat": seat, "square": square}))
        elif reason == "final":
            state["winner"] = seat
            state["ended"] = "finish"
            events.append(Event("won", {"seat": seat}))
    elif reason in ("path", "final"):
        events.append(Event("stays", {"seat": seat, "square": state["pawns"][seat]}))
    if not kept:
        state["discard"].append(card_id)
    if state["ended"]:
        return events
    if variant == "outer_track" and not any(state["supply"].values()):
        state["ended"] = "cards_taken"
        return [*events, Event("all_cards_taken", {})]
    if variant == "cards_only" and state["time_over"]:
        state["ended"] = "time"
        return events
    return events + _end_turn(state)


#: The ask step: the player on the right reads the card's question of the category, never with options (the
#: cards print none); every house rule of the judge is the group's to set, and the times to answer and decide.
QUIZ = QuizStep(_decided, house_rules="all", answer_seconds=(0, 30, 60, 120), confirm_seconds=(0, 30))


def _placing(state: State) -> list[int]:
    return [state["placing"]]


def _current(state: State) -> list[int]:
    return [state["turn"]["seat"]]


def _chooser(state: State) -> list[int]:
    return [asker_of(state, state["turn"]["seat"])]


#: The turn flow: each phase with the moves that exist only in it, who acts, and what it waits for (the words of
#: ``em_wait``); ``roll`` and ``move`` exist in every phase, their gates saying why not (roll first, no die on
#: the finish path...). The events lead on: a roll with several squares to reach waits for the ``move``; a
#: piece moved to an Estonia space waits for the ``category`` (a square of a colour asks at once); a question
#: is the ask step; a new turn begins in :func:`turn_phase`; the game is ``over`` when it has ``ended``.
FLOW = Flow(
    [
        Phase("place", moves=("place",), to_act=_placing, help="place a piece on an Estonia space"),
        Phase("roll", to_act=_current, help="roll the die"),
        Phase("move", to_act=_current, help="choose where to move"),
        Phase("category", moves=("category",), to_act=_current, help="choose the category"),
        Phase("path", moves=("path",), to_act=_current, help="take the question of the finish path"),
        Phase(
            "final_category",
            moves=("final_category",),
            to_act=_chooser,
            help="choose the category of the final question",
        ),
        Phase("ask", to_act=QUIZ.waiting),
        Phase("over"),
    ],
    on={"first_player": turn_phase, "turn": turn_phase, "rolled": "move", "moved": "category", "question": "ask"},
    ended=lambda state: state["ended"] is not None,
)

MOVES = MoveTable(
    [
        Move(
            "place",
            _place,
            _gate_place,
            params=(Param.choice("square", _corners, explain=_explain_corner),),
            help="put your piece on an Estonia space (several pieces may share one)",
        ),
        Move("roll", _roll, _gate_roll, help="roll the die"),
        Move(
            "move",
            _move,
            _gate_move,
            params=(Param.choice("to", _landing_squares, explain=_explain_landing, labels=_landing_labels),),
            help="move your piece: one square in each direction",
        ),
        Move(
            "category",
            _category,
            _gate_turn,
            params=(Param.choice("category", _categories, explain=_explain_category),),
            help="choose the category (Estonia space)",
        ),
        Move("path", _path, _gate_turn, help="take the question of your finish-path circle"),
        Move(
            "final_category",
            _final_category,
            _gate_final,
            params=(Param.choice("category", _categories, explain=_explain_category),),
            help="(the player to the left) choose the category of the final question",
        ),
        *QUIZ.moves,
        Move("em_time_up", _time_up, _gate_time_up, system=True),
    ],
    flow=FLOW,
)


def _option_schema() -> tuple[Option, ...]:
    return (
        Option("language", str, default="et", choices=LANGUAGES, help="language of the question cards"),
        Option(
            "variant",
            str,
            default="standard",
            choices=VARIANTS,
            help="standard; outer_track (variant 1); cards_only (variant 2)",
        ),
        Option("clockwise_only", bool, default=False, help="variant 3: pieces move only clockwise"),
        Option(
            "game_minutes", int, default=30, minimum=1, maximum=240, help="cards_only: the agreed game time, in minutes"
        ),
        Option(
            "cards_category",
            str,
            default="answerer",
            choices=("answerer", "die"),
            help="cards_only: who names the category (the answering player, or the die)",
        ),
        Option(
            "team_members", int, default=1, minimum=1, maximum=6, help="variant 4: players in each team (1: no teams)"
        ),
        Option(
            "team_answer",
            str,
            default="rotate",
            choices=("rotate", "consult"),
            help="teams: a different member answers each time, or the team consults and gives one answer",
        ),
        Option("board_file", str, default="", help="another board file (YAML) to play on", file="board"),
        Option(
            "cards_per_colour",
            int,
            default=CARDS_PER_COLOUR,
            minimum=1,
            maximum=CARDS_PER_COLOUR,
            help="Estonia cards of each colour (the book: 6, 36 in all); fewer make a shorter game of variant 1",
        ),
        *QUIZ.options,
    )


class EestiView(TypedDict):
    """What a seat sees (``view``): the board and the pieces, the Estonia cards, the piles, the step of the turn, the
    question being asked and the last one decided."""

    variant: str
    language: str
    phase: str
    #: The seat placing its piece (setup), whose turn it is, and who reads to them (the player on the left).
    placing: int | None
    turn: int | None
    asker: int | None
    direction: str
    start_rolls: list[dict[str, int]]
    pawns: list[str | None]
    #: The Estonia cards each seat holds by colour, and how many; the supply of each colour.
    held: list[dict[str, int]]
    cards: list[int]
    supply: dict[str, int]
    #: Question cards each seat kept (variant 2).
    kept: list[int]
    #: Right and wrong answers by seat and category.
    stats: list[dict[str, list[int]]]
    piles: list[int]
    discard: int
    die: int | None
    #: The squares the die reaches, one per direction.
    landings: list[dict[str, Any]]
    #: The question being asked: the answering seat, the reader, the category, why it is asked.
    asking: dict[str, Any] | None
    ask: AskView | None
    quiz_history: list[dict[str, Any]]
    last: dict[str, Any] | None
    winner: int | None
    ended: str | None
    ends_at: int | None
    time_over: bool
    teams: list[dict[str, Any]]
    team_answer: str | None
    categories: list[str]
    board: dict[str, Any] | None
    #: Whether each seat holds all six colours (standard game).
    complete: list[bool]


class EestiMalumang(Game[State, EestiView]):
    id = "eesti-malumang"
    title = "Eesti mälumäng"
    min_players = 2
    max_players = 6
    acts_in_turn = True
    fixed_state = ("cards", "board")
    steady_view = ("board", "quiz_history")
    order = 50
    moves = MOVES
    codes: ClassVar[Mapping[str, str]] = {**CODES, **QUIZ.codes}
    seat_params: ClassVar[Mapping[str, tuple[str, ...]]] = {**SEAT_PARAMS, **QUIZ.seat_params}
    label_params = LABEL_PARAMS
    #: For ``mindtable questions fit``: one card per question asked, about 80 in a game of four.
    quiz_profile = GameProfile(
        "category_cards",
        TOPIC_MAP,
        {"cards": 80},
        "category cards: one card per question asked, about 80 in a game of four (the box holds 400)",
    )
    # 2: the judge reads "300 000" as a number; a list with an extra wrong name is a guess. 3: the end of variant
    # 2's game time is taken only when due (an em_time_up without its time, or before the end, is refused).
    # Also 3: judge v3 (docs/trivia.md: what players type; with surname_alone off the whole name is asked).
    rules_revision = 3
    #: People at the table see each step of a bot: the quiz step reads its question before answering it.
    room_bot_pace = "normal"
    web_module = "eesti-malumang"
    progress_label = "questions asked"
    terminal = "mindtable.games.eesti_malumang.terminal:run_terminal"
    option_schema = _option_schema()
    bots: ClassVar[Mapping[str, str]] = {
        "knowing": "mindtable.games.eesti_malumang.bots:make_bot",
        "random": "mindtable.core.bots:RandomBot",
    }

    def normalize_options(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        per_colour = options["cards_per_colour"]
        if per_colour != CARDS_PER_COLOUR and options["variant"] == "cards_only":
            raise InvalidOptions(
                f"cards_per_colour: variant 2 (cards_only) uses no Estonia cards; leave it at {CARDS_PER_COLOUR}",
                option="cards_per_colour",
            )
        if options["variant"] == "standard" and per_colour < players:
            raise InvalidOptions(
                f"cards_per_colour: in the standard game every player needs a card of each colour, so with {players}"
                f" players there must be at least {players} of each colour, not {per_colour}",
                option="cards_per_colour",
            )
        return options

    def initial_state(self, players: int, options: Mapping[str, Any], rng: Rng) -> State:
        variant = options["variant"]
        # The board file is read here only: a record replays from its start, without the file.
        board_file = options["board_file"]
        board_data = read_board_file(option_path("board_file", board_file)) if board_file else _default_board_data()
        cards = content_cards(options["language"])
        order = sorted(cards)
        rng.shuffle(order)
        state: State = {
            "players": players,
            "options": dict(options),
            "variant": variant,
            "board": board_data if variant != "cards_only" else None,
            "board_key": board_key(board_data) if variant != "cards_only" else None,
            # The cards are pinned in the state as one value, packed (see pack_cards).
            "cards": packed_content(options["language"]),
            "piles": [order[i::PILES] for i in range(PILES)],
            "next_pile": 0,
            "drawn_from": None,
            "discard": [],
            "reshuffles": 0,
            "phase": "place",
            "placing": 0,
            "turn": None,
            "start_rolls": [],
            "pawns": [None] * players if variant != "cards_only" else [],
            "held": [{} for _ in range(players)],
            "supply": {c: options["cards_per_colour"] for c in CATEGORIES},
            "kept": [[] for _ in range(players)],
            "stats": [{} for _ in range(players)],
            "teams": new_teams([[str(m + 1) for m in range(options["team_members"])] for _ in range(players)])
            if options["team_members"] > 1
            else [],
            "die": None,
            "landings": [],
            "ask": None,
            "asking": None,
            "last": None,
            "winner": None,
            "ended": None,
            "ends_at": options["game_minutes"] * 60_000 if variant == "cards_only" else None,
            "time_over": False,
        }
        if variant == "cards_only":
            state["placing"] = None
            FLOW.advance(state, _start(state, rng))
        return state

    def validate_state(self, state: State, players: int, options: Mapping[str, Any]) -> None:
        for key in ("phase", "turn", "pawns", "held", "supply", "piles", "cards", "variant"):
            if key not in state:
                raise ValueError(f"missing {key!r}")
        if state["variant"] != "cards_only":
            board = board_of(state)
            for seat, square in enumerate(state["pawns"]):
                if square is not None and square not in board.squares:
                    raise ValueError(f"pawns[{seat}]: no square {square!r} on the board")

    def view(self, state: State, seat: int | None) -> EestiView:
        view = self._public(state)
        view["ask"] = QUIZ.view(state, seat)
        return view

    def bot_views(self, state: State, seats: Sequence[int], to_act: list[int]) -> dict[int, LazyView]:
        # A bot reads the variant at every step (its thinking time), the rest of the public part on the board.
        # The board bot's choices read a few parts more, each built apart as its part of the public view is.
        own = {
            "variant": lambda: state["variant"],
            "turn": lambda: _turn_seat(state),
            "held": lambda: _held_view(state),
            "supply": lambda: dict(state["supply"]),
            "stats": lambda: _stats_view(state),
            "board": lambda: _board_part(state),
            "complete": lambda: _complete_view(state),
        }
        return QUIZ.bot_views(state, seats, to_act, lambda: self._public(state), own)

    def _public(self, state: State) -> EestiView:
        """The view's part every seat (and a spectator) sees alike: all of it but the question being asked."""
        current = _turn_seat(state)
        out: EestiView = {
            "variant": state["variant"],
            "language": state["options"]["language"],
            "phase": state["phase"],
            "placing": state["placing"],
            "turn": current,
            "asker": asker_of(state, current) if current is not None else None,
            "direction": "clockwise",
            "start_rolls": state["start_rolls"],
            "pawns": list(state["pawns"]),
            "held": _held_view(state),
            "cards": [sum(h.values()) for h in state["held"]],
            "supply": dict(state["supply"]),
            "kept": [len(k) for k in state["kept"]],
            "stats": _stats_view(state),
            "piles": [len(p) for p in state["piles"]],
            "discard": len(state["discard"]),
            "die": state["die"],
            "landings": list(state["landings"]),
            "asking": state["asking"],
            "ask": None,
            "last": _last_view(state),
            "quiz_history": QUIZ.history(state),
            "winner": state["winner"],
            "ended": state["ended"],
            "ends_at": state["ends_at"],
            "time_over": state["time_over"],
            "teams": [
                {"members": len(t["members"]), "answering": _member(state, s)} for s, t in enumerate(state["teams"])
            ],
            "team_answer": state["options"]["team_answer"] if state["teams"] else None,
            "categories": list(CATEGORIES),
            "board": _board_part(state),
            "complete": _complete_view(state),
        }
        return out

    def result(self, state: State) -> Result | None:
        if state["phase"] != "over":
            return None
        players = state["players"]
        variant = state["variant"]
        if variant == "cards_only":
            scores = [float(len(k)) for k in state["kept"]]
        else:
            scores = [float(sum(h.values())) for h in state["held"]]
        if state["winner"] is not None:
            winners: tuple[int, ...] = (state["winner"],)
            scores[state["winner"]] += 1
        else:
            best = max(scores)
            winners = tuple(s for s in range(players) if scores[s] == best)  # ties share the win
        questions = sum(v[0] + v[1] for s in state["stats"] for v in s.values())
        return Result(
            winners,
            tuple(scores),
            state["ended"] or "over",
            {
                "progress": questions,
                "questions": questions,
                "most_cards": max(scores),
                "turns": state["turn"]["number"],
            },
        )

    def read_before(self, view: dict[str, Any], action: Mapping[str, Any]) -> str:
        return QUIZ.read_before(view, action)

    def next_deadline(self, state: State) -> Deadline | None:
        deadlines = []
        step = QUIZ.deadline(state)
        if step is not None:
            deadlines.append(step)
        if state["variant"] == "cards_only" and not state["time_over"] and state["phase"] != "over":
            deadlines.append(Deadline(state["ends_at"], {"type": "em_time_up"}))
        return min(deadlines, key=lambda d: d.at) if deadlines else None

    def secrets(self, state: State, players: int) -> list[tuple[tuple[int, ...], str]]:
        return QUIZ.secrets(state)


@cache
def _default_board_text() -> str:
    return BOARD_FILE.read_text(encoding="utf-8")


@cache
def _default_board_json() -> str:
    return json.dumps(yaml.safe_load(_default_board_text()))


def _default_board_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(_default_board_json())
    return data


GAME = EestiMalumang()

"""Eesti mälumäng as a PettingZoo AEC environment (``eesti_malumang_v0``).

```python
from mindtable.rl import eesti_malumang
env = eesti_malumang.env(players=3, options={"language": "en"}, knows={"player_0": 0.8})
```

| | |
|---|---|
| import | `from mindtable.rl import eesti_malumang` |
| agents | `player_<seat>` for each seat not in `bots` (2–6 seats) |
| actions | `Discrete(66)` on the shipped board (table below) |
| observations | `Dict(observation=Box(0, 1, (38 + 10 × players,), float32), action_mask=Box(0, 1, (66,), int8))` |
| rewards | at the end: +1 the winner (ties share the win when the game ends on time), -1 the others |
| | (`reward="score"`: +1 for each card won, as it happens; variant 2: each card kept) |
| termination | the match ends: every agent terminates; `max_cycles` (default 10000 agent steps) truncates |

**Actions** (`env.unwrapped.choices`): 0 `know` (answer from the seat's knowledge model: the game's knowing
bot, ``knows`` its chance to remember an answer, per category with ``bot_params={"player_0": {"history":
0.9}}``), 1 `pass`, 2 `options` and 3–6 `pick_a`…`pick_d` (Eesti cards read no options: always masked), then
`place:<square>` for the four Estonia spaces (where to start), `roll`, `move:<square>` for every square of the
board (where the die's count takes the piece: the mask offers the landings), `category:<category>` (on an
Estonia space), `path` (take the path to the finish), `final_category:<category>` (the player to the left names
the last question's category). The categories are history, culture, science, geography, sport, varia. The
reader confirming the judge is done by the environment. No time passes between decisions (actions carry no
time): an answer clock never runs out, and variant 2 (cards only) ends when the cards run out rather than when
its agreed game time is up.

**Observation** (`env.unwrapped.feature_names`): the ask step (answering now, the question's kind one-hot …);
the phase one-hot (place, roll, move, category, path, final_category, ask, over); the variant one-hot
(standard, outer_track, cards_only); whether it is this seat's turn, whether this seat asks; the die (/6); the
category being asked, one-hot; the supply per category (/6); then per seat, this seat first: its piece's
square (the index in the board's list / the count; 0 before it is placed), on an Estonia space, the six
categories held (1 held), all six held, the cards kept (variant 2's score, /30).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import mindtable
from mindtable.games.eesti_malumang.rules import CATEGORIES, QUIZ, VARIANTS, asker_of, board_view

from ._quiz import QuizEnv, one_hot, wrap

__all__ = ["EestiEnv", "env", "raw_env"]

PHASES = ("place", "roll", "move", "category", "path", "final_category", "ask", "over")


class EestiEnv(QuizEnv):
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "eesti_malumang_v0",
        "is_parallelizable": False,
    }
    game_id = "eesti-malumang"
    quiz_step = QUIZ

    def __init__(self, players: int = 3, **kwargs: Any) -> None:
        self.feature_names = (
            *(f"phase={p}" for p in PHASES),
            *(f"variant={v}" for v in VARIANTS),
            "my_turn",
            "i_ask",
            "die/6",
            *(f"asking={c}" for c in CATEGORIES),
            *(f"supply.{c}/6" for c in CATEGORIES),
            *(
                name
                for rel in range(players)
                for name in (
                    f"seat+{rel}.square",
                    f"seat+{rel}.on_estonia",
                    *(f"seat+{rel}.held.{c}" for c in CATEGORIES),
                    f"seat+{rel}.complete",
                    f"seat+{rel}.kept/30",
                )
            ),
        )
        #: state_features' parts (for one board): the supply by its cards; a seat's by its square, the variant,
        #: its cards and categories
        self._blocks: tuple[Any, dict[tuple[Any, ...], list[float]]] = (None, {})
        super().__init__(players=players, **kwargs)

    def _board(self) -> Mapping[str, Any]:
        """The board the squares come from; variant 2 has none, and keeps the same action space (all masked)."""
        board: Mapping[str, Any] | None = self.match.view(None)["board"]
        if board is None:
            standard = {**self.game_options, "variant": "standard"}
            match = mindtable.new_match(self.game_id, players=self.players, seed=0, options=standard)
            board = match.view(None)["board"]
        assert board is not None
        return board

    def domain(self, move_type: str, param: str) -> list[Any]:
        if move_type == "place":
            return list(self._board()["estonia"])
        if move_type == "move":
            return [s["id"] for s in self._board()["squares"]]
        return list(CATEGORIES) if move_type in ("category", "final_category") else []

    def score(self, view: Mapping[str, Any], seat: int) -> float:
        if view["variant"] == "cards_only":
            return float(_count(view["kept"][seat]))
        return float(sum(view["held"][seat].values()))

    def features(self, view: Mapping[str, Any], seat: int) -> list[float]:
        held_by = view["held"]
        players = len(held_by)
        pawns = view["pawns"] or [None] * players  # no pieces in variant 2 (cards only)
        board = view["board"] or _NO_BOARD
        where, estonia = self._squares(board)
        asking = view.get("asking") or {}
        supply = view.get("supply") or {}
        complete, kept = view["complete"], view["kept"]
        out = one_hot(view["phase"], PHASES)
        out += one_hot(view["variant"], VARIANTS)
        out += (
            1.0 if view["turn"] == seat else 0.0,
            1.0 if view["asker"] == seat else 0.0,
            (view.get("die") or 0) / 6,
        )
        out += one_hot(asking.get("category"), CATEGORIES)
        out += [min(supply.get(c, 0), 6) / 6 for c in CATEGORIES]
        count = max(len(where), 1)
        for rel in range(players):
            s = (seat + rel) % players
            square = pawns[s]
            held = held_by[s]
            out += (
                where.get(square, 0) / count if square else 0.0,
                1.0 if square in estonia else 0.0,
            )
            out += [1.0 if held.get(c) else 0.0 for c in CATEGORIES]
            out += (1.0 if complete[s] else 0.0, min(_count(kept[s]), 30) / 30)
        return out

    def state_features(self, state: dict[str, Any], seat: int, ask: Mapping[str, Any] | None) -> list[float]:
        held_by = state["held"]
        players = len(held_by)
        pawns = state["pawns"] or [None] * players
        board = board_view(state) if state["board"] is not None else _NO_BOARD  # one object per board: cached
        where, estonia = self._squares(board)
        asking = state["asking"] or {}
        supply = state["supply"] or {}
        variant = state["variant"]
        kept = state["kept"]
        turn = state["turn"]
        current = turn["seat"] if turn else None
        out = one_hot(state["phase"], PHASES)
        out += one_hot(variant, VARIANTS)
        out += (
            1.0 if current == seat else 0.0,
            1.0 if current is not None and asker_of(state, current) == seat else 0.0,
            (state["die"] or 0) / 6,
        )
        out += one_hot(asking.get("category"), CATEGORIES)
        blocks = self._blocks
        if blocks[0] is not where:  # another board: its squares' features are others
            blocks = self._blocks = (where, {})
        seats = blocks[1]
        key: tuple[Any, ...] = tuple(supply.items())
        block = seats.get(key)
        if block is None:
            block = seats[key] = [min(supply.get(c, 0), 6) / 6 for c in CATEGORIES]
        out += block
        count = max(len(where), 1)
        standard = variant == "standard"
        for rel in range(players):
            s = (seat + rel) % players
            square = pawns[s]
            held = held_by[s]
            key = (square, standard, len(kept[s]), *held.items())
            block = seats.get(key)
            if block is None:  # a seat's square, categories and cards: few combinations, each built once
                if len(seats) >= 65536:
                    seats.clear()
                get = held.get
                flags = [1.0 if get(c) else 0.0 for c in CATEGORIES]  # each a count, 0 or more
                block = seats[key] = [
                    where.get(square, 0) / count if square else 0.0,
                    1.0 if square in estonia else 0.0,
                    *flags,
                    # the view's "complete": the standard game's held_all (every category's count above 0)
                    1.0 if standard and 0.0 not in flags else 0.0,
                    min(len(kept[s]), 30) / 30,
                ]
            out += block
        return out

    def _squares(self, board: Mapping[str, Any]) -> tuple[dict[Any, int], frozenset[Any]]:
        """The board's square ids -> their index, and its Estonia spaces (kept while the view shows the same
        board object: a match's board never changes)."""
        cached = getattr(self, "_squares_of", None)
        if cached is None or cached[0] is not board:
            where = {s["id"]: i for i, s in enumerate(board["squares"])}
            cached = self._squares_of = (board, where, frozenset(board["estonia"]))
        return cached[1], cached[2]


_NO_BOARD: Mapping[str, Any] = {"squares": [], "estonia": []}


def _count(kept: Any) -> int:
    return len(kept) if isinstance(kept, (list, tuple)) else int(kept or 0)


def raw_env(**kwargs: Any) -> EestiEnv:
    """The environment without wrappers (see the module docstring for the parameters)."""
    return EestiEnv(**kwargs)


def env(**kwargs: Any) -> Any:
    """The environment with PettingZoo's order-enforcing wrapper: ``players``, ``options`` (the game's),
    ``knows``, ``bot_params``, ``bots``, ``max_cycles``, ``reward``, ``render_mode``."""
    return wrap(raw_env(**kwargs))

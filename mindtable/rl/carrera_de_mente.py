"""Carrera de Mente as a PettingZoo AEC environment (``carrera_de_mente_v0``).

```python
from mindtable.rl import carrera_de_mente
env = carrera_de_mente.env(players=3, bots={1: "knowing", 2: "knowing"}, knows=0.5)
```

| | |
|---|---|
| import | `from mindtable.rl import carrera_de_mente` |
| agents | `player_<seat>` for each seat not in `bots` (2–6 seats) |
| actions | `Discrete(29)` (table below) |
| observations | `Dict(observation=Box(0, 1, (36 + 8 × players,), float32), action_mask=Box(0, 1, (29,), int8))` |
| rewards | at the end: +1 the winner (six colours; `turn_limit`: the most colours, ties all win), -1 the others |
| | (`reward="score"`: +1 for each colour won, -1 for each lost, as it happens) |
| termination | the match ends: every agent terminates; `max_cycles` (default 10000 agent steps) truncates |

**Actions** (`env.unwrapped.choices`): 0 `know` (answer from the seat's knowledge model: the game's knowing
bot, with `knows` — its chance to remember a medium question, scaled per booklet and difficulty as
`docs/rules/carrera-de-mente.md` "Bots" says), 1 `pass`, 2 `options` (ask for the options: a right answer then
moves one square instead of five), 3–6 `pick_a`…`pick_d` (name an option once they are read out), 7 `roll`,
8–13 `lap_prize:<colour>`, 14–19 `topic:<booklet>` (grey square), 20 `roll_number` (one die of the question
number), 21–26 `steal:<colour>`, 27 `no_steal`, 28 `roll_whole_number` (the dice of the number still to roll).
The colours are green, yellow, skyblue, pink, brown, orange; the booklets sports, science,
history_geography, entertainment, arts, cambalache. The asker confirming the judge is done by the environment.

**Observation** (`env.unwrapped.feature_names` names each entry): the ask step (answering now, choosing,
options available / shown, number of options, the question's kind one-hot, a list's count); the phase
one-hot (roll, lap, topic, number, ask, steal, over); the square the turn is on (its booklet one-hot, grey,
star); whether it is this seat's turn, whether this seat asks; laps pending; the supply per colour (/6); then
per seat, this seat first and the others in seat order after it: the peg (its square / the last square), the
six prizes (1 held), the tokens held (/6).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from mindtable.core.turns import right_of
from mindtable.games.carrera_de_mente.content import PRIZE_COLOURS, TOPICS
from mindtable.games.carrera_de_mente.rules import PHASES, QUIZ

from ._quiz import QuizEnv, one_hot, wrap

__all__ = ["CarreraEnv", "env", "raw_env"]


class CarreraEnv(QuizEnv):
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "carrera_de_mente_v0",
        "is_parallelizable": False,
    }
    game_id = "carrera-de-mente"
    quiz_step = QUIZ

    def __init__(self, players: int = 3, **kwargs: Any) -> None:
        self.feature_names = (
            *(f"phase={p}" for p in PHASES),
            *(f"square.topic={t}" for t in TOPICS),
            "square.grey",
            "square.star",
            "my_turn",
            "i_ask",
            "laps_pending",
            *(f"supply.{c}/6" for c in PRIZE_COLOURS),
            *(
                name
                for rel in range(players)
                for name in (
                    f"seat+{rel}.peg",
                    *(f"seat+{rel}.prize.{c}" for c in PRIZE_COLOURS),
                    f"seat+{rel}.tokens/6",
                )
            ),
        )
        super().__init__(players=players, **kwargs)
        #: state_features' parts: the supply by its tokens; a seat's by its peg, the board's last square and its tokens
        self._blocks: dict[tuple[Any, ...], list[float]] = {}

    def domain(self, move_type: str, param: str) -> list[Any]:
        if move_type == "topic":
            return list(TOPICS)
        return list(PRIZE_COLOURS) if move_type in ("lap_prize", "steal") else []

    def score(self, view: Mapping[str, Any], seat: int) -> float:
        return float(len(view["prizes"][seat]))

    def features(self, view: Mapping[str, Any], seat: int) -> list[float]:
        pegs = view["pegs"]
        players = len(pegs)
        context = view.get("context") or {}
        last = max(len(view["board"]["squares"]) - 1, 1)
        supply = view["tokens"]["supply"]
        held = view["tokens"]["held"]
        prizes = view["prizes"]
        out = one_hot(view["phase"], PHASES)
        out += one_hot(context.get("topic"), TOPICS)
        out += (
            1.0 if context.get("colour") == "grey" else 0.0,
            1.0 if context.get("star") else 0.0,
            1.0 if view["turn"] == seat else 0.0,
            1.0 if view["asker"] == seat else 0.0,
            1.0 if view["laps_pending"] > 0 else 0.0,
        )
        out += [supply.get(c, 0) / 6 for c in PRIZE_COLOURS]
        for rel in range(players):
            s = (seat + rel) % players
            won = prizes[s]
            out.append(pegs[s] / last)
            out += [1.0 if c in won else 0.0 for c in PRIZE_COLOURS]
            out.append(min(sum(held[s].values()), 6) / 6)
        return out

    def state_features(self, state: dict[str, Any], seat: int, ask: Mapping[str, Any] | None) -> list[float]:
        pegs = state["pegs"]
        players = len(pegs)
        context = state["context"] or {}
        last = max(len(state["board"]["squares"]) - 1, 1)
        tokens = state["tokens"]
        supply = tokens["supply"]
        held = tokens["held"]
        turn = state["turn"]["seat"]
        out = one_hot(state["phase"], PHASES)
        out += one_hot(context.get("topic"), TOPICS)
        out += (
            1.0 if context.get("colour") == "grey" else 0.0,
            1.0 if context.get("star") else 0.0,
            1.0 if turn == seat else 0.0,
            1.0 if right_of(turn, state["players"]) == seat else 0.0,
            1.0 if state["pending"]["laps"] > 0 else 0.0,
        )
        blocks = self._blocks
        key = tuple(supply.items())
        block = blocks.get(key)
        if block is None:
            block = blocks[key] = [supply.get(c, 0) / 6 for c in PRIZE_COLOURS]
        out += block
        for rel in range(players):
            s = (seat + rel) % players
            mine = held[s]
            key = (pegs[s], last, *mine.items())
            block = blocks.get(key)
            if block is None:  # a seat's peg and tokens: few combinations, each built once
                if len(blocks) >= 65536:
                    blocks.clear()
                block = blocks[key] = [
                    pegs[s] / last,
                    *(1.0 if mine.get(c, 0) > 0 else 0.0 for c in PRIZE_COLOURS),  # the prizes view: held, n > 0
                    min(sum(mine.values()), 6) / 6,
                ]
            out += block
        return out


def raw_env(**kwargs: Any) -> CarreraEnv:
    """The environment without wrappers (see the module docstring for the parameters)."""
    return CarreraEnv(**kwargs)


def env(**kwargs: Any) -> Any:
    """The environment with PettingZoo's order-enforcing wrapper: ``players``, ``options`` (the game's),
    ``knows``, ``bot_params``, ``bots``, ``max_cycles``, ``reward``, ``render_mode``."""
    return wrap(raw_env(**kwargs))

"""NeuroRace as a PettingZoo Parallel environment in discrete time (``neurorace_v0``), and SOLO as a
Gymnasium environment (``mindtable/NeuroRaceSolo-v0``).

```python
from mindtable.rl import neurorace
env = neurorace.parallel_env(players=2, options={"mode": "basic"}, tick_ms=250)
solo = neurorace.SoloEnv()            # or gymnasium.make("mindtable/NeuroRaceSolo-v0") after importing this
```

| | |
|---|---|
| import | `from mindtable.rl import neurorace` (`parallel_env`, `env` as AEC, `SoloEnv`) |
| agents | `player_0` … `player_{n-1}` (1–6; BASIC, UNIVERSAL or SOLO as the game's `mode` option) |
| actions | `Discrete(126)`: 0 `wait`, 1–60 `take:<spot>`, 61 `turn` (the tile in hand), 62–121 `turn:<spot>`, |
| | 122 `place`, 123 `return`, 124 `take_back`, 125 `stop` |
| observations | `Dict(centre=Box(0, 1, (60, 12)), hand=Box(0, 1, (2, 12)), slots=Box(0, 1, (7, 12)),` |
| | `task=Box(0, 1, (7, 14)), observation=Box(0, 1, (21 + 3 × (players - 1),)), action_mask=Box(0, 1, (126,), int8))` |
| time | one step is `tick_ms` (default 250) ms of the match's clock: a pick per tick |
| rewards | per agent: +1 for each card it completes, -1 for each loss (a wrong STOP, the SOLO timer), over the tick |
| termination | the match ends (last level, all cards, the SOLO master); `max_cycles` (default 5000 ticks) truncates |

The actions are the game's moves in declared order, one per value the game can list: `take` a centre spot,
`turn` the tile in hand or one in the centre (a peek costs time, as at the table), `place` the held tile in the
next free place of your card, `return` it, `take_back` the last tile laid, `stop` (your card is complete). The
environment marks every seat `ready` before each round (the countdown then runs on the clock); `end` (agreeing
to end the game early) is not offered.

**Observation** — a side (12 numbers): present, symbol one-hot (sun, moon, lightning, any), colour one-hot
(red, yellow, green, blue, purple, any), number (/99). `centre[spot]`: the up side of the tile there (never its
down side); `hand`: the held tile's up and down side (a player sees both sides of the tile in their hand);
`slots`: the tiles laid on the seat's card; `task` (14 per place): kind one-hot (symbol, colour, both, first
digit, last digit), symbol one-hot (3), colour one-hot (5), digit (/9) — all 0 before the card is turned.
`observation`: the phase one-hot (ready, countdown, playing, over), the SOLO time left (/the limit), level (/10),
cards completed (/10), losses (/10), the six signs between places (`<`, `>` each), places filled (/7), then per
other seat: its level (/10), places filled (/7), cards completed (/10).

**SOLO in Gymnasium** (`SoloEnv`): the same spaces for the one seat; `step` returns `(obs, reward, terminated,
truncated, info)`. Gymnasium has no masks, so an action outside `obs["action_mask"]` is taken as `wait`
(reported in `info["illegal"]`) unless `illegal="raise"`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo.utils import parallel_to_aec

from mindtable.games.neurorace.components import ANY, COLOURS, SYMBOLS, TILE_COUNT
from mindtable.games.neurorace.tasks import PLACES, parse_task

from ._realtime import TickEnv

__all__ = ["NeuroRaceEnv", "SoloEnv", "env", "parallel_env", "raw_env"]

PHASES = ("ready", "countdown", "playing", "over")
SIDE = 12
KINDS = ("symbol", "colour", "both", "first", "last")


_EMPTY = np.zeros(SIDE, np.float32)
_SIDES: dict[tuple[str, str, int], np.ndarray] = {}


def side_features(side: Mapping[str, Any] | None) -> np.ndarray:
    """A side's 12 numbers (see the module docstring); all 0 for no tile. Read-only (shared)."""
    if not side:
        return _EMPTY
    key = (side["symbol"], side["colour"], int(side["number"]))
    found = _SIDES.get(key)
    if found is None:
        found = _SIDES[key] = np.asarray(
            [
                1.0,
                *(float(key[0] == s) for s in (*SYMBOLS, ANY)),
                *(float(key[1] == c) for c in (*COLOURS, ANY)),
                key[2] / 99,
            ],
            np.float32,
        )
    return found


class NeuroRaceEnv(TickEnv):
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "neurorace_v0", "is_parallelizable": True}
    game_id = "neurorace"
    automatic = frozenset({"ready"})
    excluded = frozenset({"start", "end"})

    def __init__(self, players: int = 2, **kwargs: Any) -> None:
        self._tasks: dict[str, Any] = {}
        super().__init__(players=players, **kwargs)

    def domain(self, move_type: str) -> list[Any]:
        spots = list(range(TILE_COUNT))
        return [None, *spots] if move_type == "turn" else spots

    def feature_names(self) -> list[str]:
        return [
            *(f"phase={p}" for p in PHASES),
            "time_left",
            "level/10",
            "completed/10",
            "losses/10",
            *(f"sign{i}{s}" for i in range(PLACES - 1) for s in "<>"),
            "filled/7",
            *(
                name
                for rel in range(1, self.players)
                for name in (f"seat+{rel}.level/10", f"seat+{rel}.filled/7", f"seat+{rel}.completed/10")
            ),
        ]

    def extra_spaces(self) -> dict[str, spaces.Space]:
        return {
            "centre": spaces.Box(0.0, 1.0, (TILE_COUNT, SIDE), np.float32),
            "hand": spaces.Box(0.0, 1.0, (2, SIDE), np.float32),
            "slots": spaces.Box(0.0, 1.0, (PLACES, SIDE), np.float32),
            "task": spaces.Box(0.0, 1.0, (PLACES, 14), np.float32),
        }

    def _task(self, text: str | None) -> tuple[np.ndarray, list[float]]:
        cached = self._tasks.get(text or "")
        if cached is None:
            places = np.zeros((PLACES, 14), np.float32)
            signs = [0.0] * (2 * (PLACES - 1))
            if text:
                task = parse_task(text)
                for i, place in enumerate(task.places):
                    places[i, KINDS.index(place.kind)] = 1
                    if place.symbol in SYMBOLS:
                        places[i, 5 + SYMBOLS.index(place.symbol)] = 1
                    if place.colour in COLOURS:
                        places[i, 8 + COLOURS.index(place.colour)] = 1
                    places[i, 13] = (place.digit or 0) / 9
                for i, sign in enumerate(task.signs):
                    if sign is not None:
                        signs[2 * i + "<>".index(sign)] = 1.0
            cached = self._tasks[text or ""] = (places, signs)
        return cached

    def features(self, view: Mapping[str, Any], seat: int) -> dict[str, np.ndarray]:
        me = view["players"][seat]
        centre = np.zeros((TILE_COUNT, SIDE), np.float32)
        for entry in view["centre"]:
            centre[entry["spot"]] = side_features(entry["up"])
        hand = me["hand"] or {}
        places, signs = self._task(me["task"])
        players = len(view["players"])
        limit = view.get("limit_ms") or 0
        due = view.get("time_up_at")
        left = max(0.0, (due - self.now) / limit) if limit and due is not None else 0.0
        vector = [
            *(float(view["phase"] == p) for p in PHASES),
            min(left, 1.0),
            me["level"] / 10,
            min(me["completed"], 10) / 10,
            min(me["losses"], 10) / 10,
            *signs,
            sum(s is not None for s in me["slots"]) / PLACES,
        ]
        for rel in range(1, players):
            other = view["players"][(seat + rel) % players]
            vector += [
                other["level"] / 10,
                sum(s is not None for s in other["slots"]) / PLACES,
                min(other["completed"], 10) / 10,
            ]
        return {
            "observation": np.asarray(vector, np.float32),
            "centre": centre,
            "hand": np.asarray([side_features(hand.get("up")), side_features(hand.get("down"))], np.float32),
            "slots": np.asarray([side_features(s) for s in me["slots"]], np.float32),
            "task": places.copy(),
        }

    def score(self, view: Mapping[str, Any], seat: int) -> float:
        me = view["players"][seat]
        return float(me["completed"] - me["losses"])


def parallel_env(**kwargs: Any) -> NeuroRaceEnv:
    """The Parallel environment: ``players``, ``options`` (the game's, e.g. ``{"mode": "universal"}``),
    ``tick_ms``, ``max_cycles``, ``illegal``, ``render_mode``."""
    return NeuroRaceEnv(**kwargs)


raw_env = parallel_env


def env(**kwargs: Any) -> Any:
    """The same environment seen as AEC (PettingZoo's ``parallel_to_aec``)."""
    return parallel_to_aec(parallel_env(**kwargs))


class SoloEnv(gymnasium.Env):
    """NeuroRace SOLO for one agent (see the module docstring): ``options`` (the game's, ``mode`` is solo),
    ``tick_ms``, ``max_cycles``, ``illegal`` ("wait", the default, or "raise")."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"]}

    def __init__(
        self,
        options: Mapping[str, Any] | None = None,
        tick_ms: int | None = None,
        max_cycles: int | None = None,
        illegal: str = "wait",
        render_mode: str | None = None,
    ) -> None:
        self.inner = NeuroRaceEnv(
            players=1,
            options={**dict(options or {}), "mode": "solo"},
            tick_ms=tick_ms,
            max_cycles=max_cycles,
            illegal=illegal,
            render_mode=render_mode,
        )
        self.render_mode = render_mode
        self.observation_space = self.inner.observation_space("player_0")
        self.action_space = self.inner.action_space("player_0")
        self.choices = self.inner.choices

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        observations, infos = self.inner.reset(seed=seed)
        return observations["player_0"], infos["player_0"]

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self.inner.agents:
            raise RuntimeError("the episode is over: call reset() first")
        observations, rewards, terminations, truncations, infos = self.inner.step({"player_0": action})
        a = "player_0"
        return observations[a], rewards[a], terminations[a], truncations[a], infos[a]

    def render(self) -> str | None:
        return self.inner.render()


gymnasium.register("mindtable/NeuroRaceSolo-v0", entry_point="mindtable.rl.neurorace:SoloEnv")

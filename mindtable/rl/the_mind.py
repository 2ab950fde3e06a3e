"""The Mind as a PettingZoo Parallel environment in discrete time (``the_mind_v0``).

```python
from mindtable.rl import the_mind
env = the_mind.parallel_env(players=2, tick_ms=500)
observations, infos = env.reset(seed=7)
```

| | |
|---|---|
| import | `from mindtable.rl import the_mind` (`parallel_env`, and `env` for the AEC view of it) |
| agents | `player_0` … `player_{n-1}` (2–4), cooperative |
| actions | `Discrete(8)`: 0 `wait`, 1 `play` (your lowest card), 2 `stop`, 3 `propose_star`, 4 `propose_end`, |
| | 5 `agree`, 6 `withdraw`, 7 `reject` |
| observations | `Dict(hand=MultiBinary(100), observation=Box(0, 1, (16 + players,), float32),` |
| | `action_mask=Box(0, 1, (8,), int8))` |
| time | one step is `tick_ms` (default 250) ms of the match's clock |
| rewards | every agent alike: +1 per level completed, +1 per life won, -1 per life lost, over the tick |
| termination | the team wins the last level or loses its last life; `max_cycles` (default 5000 ticks) truncates |

The actions are the game's moves in their declared order (`ready` is done by the environment: every hand goes
on the table at once before each level and after each stop or star, so a tick is never spent waiting for a
hand). `play` always plays the seat's lowest card (the only one the rules allow). `stop` is legal only with
`detection="players"`; `propose_end`, in blind mode; `agree` / `reject` answer a pending proposal (a throwing
star: everyone must agree; play pauses meanwhile), `withdraw` takes back your own. The cards in a tick are
played in an order drawn by chance (see :mod:`mindtable.rl._realtime`): two players who play in the same tick
are as likely to be in either order — which is the game's whole difficulty.

**Observation**: `hand` — 1 for each card 1–100 in the seat's own hand (no other hand is ever shown). The
vector (`env.feature_names()`): the lowest and second-lowest card in hand (/100, 0 when none), cards in hand
(/the level), the top of the pile (/100; 0 when none, or in blind mode), the time since the pile last changed
(/10 s, capped), the level (/50), lives (/5), stars (/3), the phase one-hot (refocus, playing, won, lost,
finished), a proposal pending, it is a star, this seat agreed, blind mode, then each other seat's cards in hand
(/the level; seat order after this seat).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo.utils import parallel_to_aec

from ._realtime import TickEnv

__all__ = ["TheMindEnv", "env", "parallel_env", "raw_env"]

PHASES = ("refocus", "playing", "won", "lost", "finished")


class TheMindEnv(TickEnv):
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "the_mind_v0", "is_parallelizable": True}
    game_id = "the-mind"
    automatic = frozenset({"ready"})

    def domain(self, move_type: str) -> list[Any]:
        return [None]

    def feature_names(self) -> list[str]:
        return [
            "lowest/100",
            "second/100",
            "hand/level",
            "top/100",
            "since_change/10s",
            "level/50",
            "lives/5",
            "stars/3",
            *(f"phase={p}" for p in PHASES),
            "proposal",
            "proposal.star",
            "proposal.agreed",
            "blind",
            *(f"seat+{rel}.hand/level" for rel in range(1, self.players)),
        ]

    def extra_spaces(self) -> dict[str, spaces.Space]:
        return {"hand": spaces.MultiBinary(100)}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, Any], Any]:
        self._pile_seen: tuple[int, int] = (-1, 0)  # (pile length, time it last changed)
        return super().reset(seed=seed, options=options)

    def features(self, view: Mapping[str, Any], seat: int) -> dict[str, np.ndarray]:
        hand = sorted(view["hand"] or ())
        level = max(view["level"], 1)
        length = len(view["pile"])
        if length != self._pile_seen[0]:
            self._pile_seen = (length, self.now)
        proposal = view.get("proposal") or {}
        counts = view["hand_counts"]
        players = len(counts)
        vector = [
            hand[0] / 100 if hand else 0.0,
            hand[1] / 100 if len(hand) > 1 else 0.0,
            len(hand) / level,
            (view.get("top") or 0) / 100,
            min((self.now - self._pile_seen[1]) / 10_000, 1.0),
            view["level"] / 50,
            view["lives"] / 5,
            view["stars"] / 3,
            *(float(view["phase"] == p) for p in PHASES),
            float(bool(proposal)),
            float(proposal.get("kind") == "star"),
            float(seat in (proposal.get("agreed") or ())),
            float(view["mode"] == "blind"),
            *(counts[(seat + rel) % players] / level for rel in range(1, players)),
        ]
        cards = np.zeros(100, np.int8)
        for card in hand:
            cards[card - 1] = 1
        return {"observation": np.asarray(vector, np.float32), "hand": cards}

    def score(self, view: Mapping[str, Any], seat: int) -> float:
        return float(view["levels_completed"] + view["lives"])


def parallel_env(**kwargs: Any) -> TheMindEnv:
    """The Parallel environment: ``players``, ``options`` (the game's), ``tick_ms``, ``max_cycles``, ``render_mode``."""
    return TheMindEnv(**kwargs)


raw_env = parallel_env


def env(**kwargs: Any) -> Any:
    """The same environment seen as AEC (PettingZoo's ``parallel_to_aec``)."""
    return parallel_to_aec(parallel_env(**kwargs))

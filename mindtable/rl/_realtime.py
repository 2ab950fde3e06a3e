"""The PettingZoo Parallel environment the two real-time games share, in discrete time.

Real time becomes ticks: step ``t`` happens at ``t × tick_ms`` milliseconds of the match's clock. At each
step every live agent gives one action; ``wait`` (action 0) is always legal. How a tick goes:

1. The agents' actions are checked against their masks (an action outside the mask raises ``ValueError``
   naming it, and nothing of the tick happens — PettingZoo's convention; ``illegal="wait"`` takes it as wait
   instead and says so in ``infos[agent]["illegal"]``, for learners and checks that sample without the mask),
   then applied one after another at the tick's time, in an order
   drawn each tick from the environment's seeded generator (nobody is always first: two players moving "at the
   same moment" are ordered by chance, as at a table). An action that an earlier one in the same tick made
   illegal (two players taking the same tile, a card played after the level ended) is skipped and reported in
   that agent's ``infos[agent]["skipped"]``.
2. The clock moves on to the next tick; the game's own deadlines due by then (a countdown's end, the SOLO timer)
   happen at their exact times, and what nobody decides is done for everyone (``ready`` at the start of a
   level or round: each game's page says).
3. Rewards are the change of the game's score over the tick (each game's page); the match's end terminates all
   agents; ``max_cycles`` ticks truncate them.

Observations: a ``Dict`` with ``observation`` (a ``Box`` of the seat's view, numbers in [0, 1]) and
``action_mask`` (``Box(0, 1, (n,), int8)`` from ``match.legal_actions(seat)``), and game-specific entries. The
same seed and the same actions give the same episode.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

import mindtable
from mindtable.core.errors import IllegalAction


class TickEnv(ParallelEnv):
    """The shared Parallel environment (see the module docstring); each game subclasses it."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "tick_v0", "is_parallelizable": True}
    game_id: ClassVar[str] = ""
    #: Moves the environment does for everyone (never an agent's action), and moves it never offers.
    automatic: ClassVar[frozenset[str]] = frozenset()
    excluded: ClassVar[frozenset[str]] = frozenset()
    default_tick_ms: ClassVar[int] = 250
    default_max_cycles: ClassVar[int] = 5_000

    def __init__(
        self,
        players: int = 2,
        options: Mapping[str, Any] | None = None,
        tick_ms: int | None = None,
        max_cycles: int | None = None,
        illegal: str = "raise",
        render_mode: str | None = None,
    ) -> None:
        if illegal not in ("raise", "wait"):
            raise ValueError(
                f"illegal must be 'raise' (an action outside the mask is an error) or 'wait', not {illegal!r}"
            )
        self.illegal = illegal
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.players = players
        self.game_options = dict(options or {})
        self.tick_ms = self.default_tick_ms if tick_ms is None else int(tick_ms)
        if not 1 <= self.tick_ms <= 60_000:
            raise ValueError(f"tick_ms must be from 1 to 60000 milliseconds, got {tick_ms!r}")
        self.max_cycles = self.default_max_cycles if max_cycles is None else max_cycles
        self.match = mindtable.new_match(self.game_id, players=players, seed=0, options=self.game_options)
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agents: list[str] = []
        self.choices: list[str] = ["wait"]
        self._index: dict[tuple[str, Any], int] = {}
        self._params: dict[str, str | None] = {}
        self._moves: list[tuple[str, Any]] = [("wait", None)]  # choice -> (move type, parameter value)
        table = self.match.game.moves
        assert table is not None
        for move_type, move in table.by_type.items():
            if move.system or move_type in self.automatic or move_type in self.excluded:
                continue
            param = move.params[0] if move.params else None
            values: list[Any] = [None] if param is None or param.default is not None else self.domain(move_type)
            self._params[move_type] = None if param is None or param.default is not None else param.name
            for value in values:
                self._index[(move_type, value)] = len(self.choices)
                self.choices.append(move_type if value is None else f"{move_type}:{value}")
                self._moves.append((move_type, value))
        self._action_spaces = {a: spaces.Discrete(len(self.choices)) for a in self.possible_agents}
        self._observation_spaces = {
            a: spaces.Dict(
                {
                    **self.extra_spaces(),
                    "observation": spaces.Box(0.0, 1.0, (len(self.feature_names()),), np.float32),
                    "action_mask": spaces.Box(0, 1, (len(self.choices),), np.int8),
                }
            )
            for a in self.possible_agents
        }

    # -- what each game gives ---------------------------------------------------------------------------
    def domain(self, move_type: str) -> list[Any]:
        """Every value of ``move_type``'s parameter the game can list (``None``: the parameter left out)."""
        raise NotImplementedError

    def feature_names(self) -> list[str]:
        raise NotImplementedError

    def extra_spaces(self) -> dict[str, spaces.Space]:
        return {}

    def features(self, view: Mapping[str, Any], seat: int) -> dict[str, np.ndarray]:
        """``observation`` (named by :meth:`feature_names`) and any extra entries, from ``view`` only."""
        raise NotImplementedError

    def score(self, view: Mapping[str, Any], seat: int) -> float:
        """The number whose change over a tick is the seat's reward."""
        raise NotImplementedError

    # -- spaces --------------------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    @property
    def now(self) -> int:
        """The match's time at this step (ms)."""
        return self._tick * self.tick_ms

    # -- playing ---------------------------------------------------------------------------------------------
    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        if seed is not None:
            self._seeder = random.Random(seed)
        elif not hasattr(self, "_seeder"):
            self._seeder = random.Random(0)
        self._seed = self._seeder.randrange(2**31)
        self._order = random.Random(self._seed ^ 0x5EED)
        self.match = mindtable.new_match(self.game_id, players=self.players, seed=self._seed, options=self.game_options)
        self.agents = list(self.possible_agents)
        self._tick = 0
        self._masks: dict[str, np.ndarray] = {}
        self._automatic()
        self._scores = {a: self.score(self.match.view(s), s) for s, a in enumerate(self.agents)}
        return self._observations(), {a: {} for a in self.agents}

    def _automatic(self) -> None:
        """The game's deadlines due by now, and the moves the environment does for everyone."""
        match = self.match
        for _ in range(10_000):
            if match.is_over:
                return
            deadline = match.next_deadline()
            if deadline is not None and deadline.at <= self.now:
                match.apply({**deadline.due_action(), "at": max(deadline.at, match.clock)})
                continue
            done = False
            for seat in match.to_act():
                for entry in match.legal_actions(seat):
                    if entry["type"] in self.automatic:
                        match.apply({"type": entry["type"], "seat": seat, "at": max(self.now, match.clock)})
                        done = True
                        break
            if not done:
                return
        raise RuntimeError(f"{self.game_id}: 10000 automatic moves in one tick")

    def mask(self, seat: int) -> np.ndarray:
        mask = np.zeros(len(self.choices), np.int8)
        mask[0] = 1
        if self.match.is_over:
            return mask
        for entry in self.match.legal_actions(seat):
            kind = entry["type"]
            if kind not in self._params:
                continue
            param = self._params[kind]
            index = self._index.get((kind, None if param is None else entry.get(param)))
            if index is not None:
                mask[index] = 1
        return mask

    def _observations(self) -> dict[str, Any]:
        views = self.match.views(list(range(self.players)))
        out = {}
        for agent in self.agents:
            seat = int(agent.rpartition("_")[2])
            obs = self.features(views[seat], seat)
            obs["observation"] = np.clip(np.asarray(obs["observation"], np.float32), 0.0, 1.0)
            obs["action_mask"] = self.mask(seat)
            out[agent] = obs
        self._masks = {agent: obs["action_mask"] for agent, obs in out.items()}  # for the next step's checks
        return out

    def action_dict(self, seat: int, action: int) -> dict[str, Any] | None:
        """The match's action for choice ``action`` of ``seat`` now (``None`` for wait)."""
        if action == 0:
            return None
        kind, value = self._moves[action]
        out: dict[str, Any] = {"type": kind, "seat": seat, "at": max(self.now, self.match.clock)}
        param = self._params[kind]
        if param is not None and value is not None:
            out[param] = value
        return out

    def check_action(self, agent: str, action: Any, mask: np.ndarray) -> int:
        """The action as an int, or ``ValueError`` (what, whose, what is legal); with ``illegal="wait"`` an
        integer of the space outside the mask is taken as wait (0) instead."""
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise ValueError(f"{agent}: an action is an integer 0..{len(self.choices) - 1}, not {action!r}")
        action = int(action)
        if self.illegal == "wait" and 0 <= action < len(self.choices) and not mask[action]:
            return 0
        if not 0 <= action < len(self.choices) or not mask[action]:
            legal = [f"{i}={self.choices[i]}" for i in np.flatnonzero(mask)]
            what = self.choices[action] if 0 <= action < len(self.choices) else "outside the space"
            raise ValueError(f"{agent}: action {action} ({what}) is not legal now; legal: {', '.join(legal)}")
        return action

    def step(
        self, actions: Mapping[str, Any]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]:
        unknown = set(actions) - set(self.agents)
        if unknown:
            raise ValueError(f"actions for agents that are not playing: {sorted(unknown)}; playing: {self.agents}")
        chosen = {}
        for agent, action in actions.items():
            seat = int(agent.rpartition("_")[2])
            mask = self._masks.get(agent)
            chosen[agent] = self.check_action(agent, action, self.mask(seat) if mask is None else mask)
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        for agent, action in actions.items():
            if chosen[agent] != int(action):
                infos[agent]["illegal"] = {"action": self.choices[int(action)], "taken_as": "wait"}
        order = sorted(chosen)
        self._order.shuffle(order)
        for agent in order:
            seat = int(agent.rpartition("_")[2])
            action = self.action_dict(seat, chosen[agent])
            if action is None or self.match.is_over:
                continue
            try:
                self.match.apply(action)
            except IllegalAction as exc:
                infos[agent]["skipped"] = {"action": self.choices[chosen[agent]], "why": exc.message}
        self._tick += 1
        self._automatic()
        views = self.match.views(list(range(self.players)))
        rewards = {}
        for agent in self.agents:
            seat = int(agent.rpartition("_")[2])
            score = self.score(views[seat], seat)
            rewards[agent] = float(score - self._scores[agent])
            self._scores[agent] = score
        over = self.match.is_over
        truncated = not over and self._tick >= self.max_cycles
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, truncated)
        if over:
            assert self.match.result is not None
            for agent in self.agents:
                infos[agent]["result"] = self.match.result.to_dict()
        observations = self._observations()
        if over or truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return f"{self.game_id} seed={self._seed} tick={self._tick} t={self.now}ms over={self.match.is_over}"

    def close(self) -> None:
        pass

    def state(self) -> np.ndarray:  # PettingZoo's optional global state: not offered (hidden hands)
        raise NotImplementedError("the global state would show hidden hands; use each agent's observation")

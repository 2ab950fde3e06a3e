"""The PettingZoo AEC environment the three quiz games share (each game's module documents its own spaces).

How a quiz game becomes an AEC environment:

* **Agents** are ``player_0`` … ``player_{n-1}``, one per seat, except the seats given to ``bots`` (seat ->
  the name of one of the game's bots, e.g. ``{1: "knowing"}``), which the environment plays itself with that
  bot, seeing only that seat's observation like any bot.
* **Actions** are one ``Discrete(n)`` space, the same for every agent and every step: first the seven answer
  choices (:data:`ANSWER_CHOICES`), then every action shape the game's move table can ever list, in the order
  the moves are declared (a move without parameters is one action; a move with a choice parameter is one
  action per value the game can ever offer: a colour, a booklet, a square, a seat). ``choices`` on the
  environment lists them as readable labels. The space is gymnasium's ``Discrete(n)`` (a subclass,
  :class:`MaskedDiscrete`, whose ``sample(mask)`` draws the same action from the same seed as gymnasium's, in a
  fifth of the time).
* **Answers.** A typed answer becomes a discrete choice: ``know`` (answer from knowledge), ``pass``,
  ``options`` (ask for the options to be read out, where the game allows), ``pick_a`` … ``pick_d`` (name that
  option; a blind guess unless the agent learned something). ``know`` types what the seat's *knowledge model*
  says: the game's own knowing bot for that seat (built with the environment's ``knows`` and ``bot_params``),
  which has read the public question files and remembers an answer with its probability (per topic and
  difficulty, drawn from its own seeded generator keyed by the question, so the same question asked again gets
  the same outcome): then it types the answer as printed; with the options read out it may recognise the
  right one; otherwise it types ``"?"`` (judged wrong), or guesses a true/false statement. Nothing of the
  answer reaches the observation: observations hold only what ``match.view(seat)`` shows (read from the
  state's public parts directly, for speed; a test compares them with the view's at every step).
* **The table's own duties** — the reader confirming the judge's suggestion, a table vote, the game's
  deadlines — are done by the environment as the game's bots do them (confirm the suggestion, vote with it),
  so agents are asked only for the game's decisions.
* **Observations**: ``{"observation": Box(0, 1, (k,), float32), "action_mask": Box(0, 1, (n,), int8)}``;
  the mask is computed from ``match.legal_actions(seat)``. An agent that is not the one to act sees an all-zero
  mask (it is never selected then).
* **Rewards** (``reward="win"``, the default) are 0 until the match ends; then +1 for each winner and -1 for
  each other agent (all 0 when nobody wins). With ``reward="score"`` each step's reward is instead the change of
  the seat's score (each game's page: colours, IQ, cards), a dense signal for simple learners. All agents
  terminate together at the end; ``max_cycles`` (agent steps) truncates all agents instead.
* **Bad actions** follow PettingZoo's convention for masked environments: an action outside the mask (or not
  an integer of the space) raises ``ValueError`` naming the action, the agent and the legal choices, and
  changes nothing; stepping a terminated or truncated agent needs ``None``.
* **Options** are the game's (``options=``), with one exception: ``undo_seconds`` (a room's few seconds to take
  a verdict back) must stay 0, so that a verdict counts at once; any other value is refused with ``ValueError``.
* **Determinism**: ``reset(seed=s)`` seeds the match and the knowledge models; the same seed and the same
  actions give the same episode (``reset()`` without a seed continues from the last seed's generator).
"""

from __future__ import annotations

import array
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import mindtable
from mindtable.core.bots import Bot, Observation
from mindtable.core.match import Match
from mindtable.trivia.quiz import options_available
from mindtable.trivia.step import QuizStep

#: The answer choices, always the first seven actions.
ANSWER_CHOICES = ("know", "pass", "options", "pick_a", "pick_b", "pick_c", "pick_d")
LETTERS = "abcd"
#: Table duties the environment does itself.
_TABLE_DUTIES = frozenset(("ask_confirm", "ask_overrule", "ask_vote", "ask_call_vote", "ask_type"))
_ANSWER_MOVES = frozenset(("ask_answer", "ask_pass", "ask_options"))
#: A verdict's few seconds to be taken back (a room's ``undo_seconds``): never in an environment, which keeps it 0.
_PENDING_MOVES = frozenset(("ask_undo", "ask_final"))
#: Question kinds, for the one-hot in every quiz observation.
KINDS = ("text", "truefalse", "choice", "number", "list", "higher")
#: The shared part of every quiz observation (see :func:`quiz_features`).
QUIZ_FEATURES = (
    "ask.answering",
    "ask.choosing",
    "ask.options_available",
    "ask.options_shown",
    "ask.options/4",
    *(f"ask.kind={k}" for k in KINDS),
    "ask.list_count/10",
)


def quiz_features(view: Mapping[str, Any]) -> list[float]:
    """The ask step as the seat sees it: whether it answers or chooses now, the options, the question's kind."""
    ask = view.get("ask")
    if not ask:
        return list(_NO_ASK)
    answering = ask.get("role") == "answerer"
    phase = ask.get("phase")
    question = ask.get("question") or {}
    options = question.get("options") or ()
    out = [
        1.0 if answering and phase == "answer" else 0.0,
        1.0 if answering and phase == "choose" else 0.0,
        1.0 if ask.get("options_available") else 0.0,
        1.0 if ask.get("options_shown") else 0.0,
        min(len(options), 4) / 4,
    ]
    out += one_hot(question.get("kind"), KINDS)
    out.append(min(int(question.get("count") or 0), 10) / 10)
    return out


#: quiz_features of a view with no ask step.
_NO_ASK = (0.0,) * (5 + len(KINDS) + 1)
#: one_hot's vectors, by the tuple of values: value -> its one-hot (built once per tuple).
_HOTS: dict[tuple[Any, ...], tuple[dict[Any, list[float]], list[float]]] = {}


def one_hot(value: Any, values: Sequence[Any]) -> list[float]:
    """``[float(value == v) for v in values]`` (a new list), from a table built once per tuple of values."""
    if type(values) is not tuple:
        return [float(value == v) for v in values]
    try:
        table, zeros = _HOTS[values]
    except KeyError:
        table = {}
        for v in values:
            table.setdefault(v, [float(v == w) for w in values])
        zeros = [0.0] * len(values)
        _HOTS[values] = table, zeros
    except TypeError:  # values that cannot be keys
        return [float(value == v) for v in values]
    try:
        hot = table.get(value)
    except TypeError:  # a value that cannot be a key
        return [float(value == v) for v in values]
    if hot is None:
        return [float(value == v) for v in values] if type(value) not in _PLAIN else zeros[:]
    return hot[:]


#: Types whose equality is a key's: a value of them missing from a one-hot's table equals none of its values.
_PLAIN = frozenset((str, int, float, bool, type(None)))
_INT8 = np.dtype(np.int8)
#: The bits of float32 1.0: a float32 whose bits, read as an unsigned integer, are no more is in [0, 1] (a negative
#: one has the sign bit, one above 1 or a NaN has more).
_ONE_BITS = int(np.float32(1.0).view(np.uint32))


def observation_vector(values: Sequence[float]) -> np.ndarray:
    """``values`` as a float32 vector clipped to the observation space's [0, 1] (``np.array(values, np.float32)``,
    clipped: the same numbers, built through ``array.array``, three times faster; most vectors need no clipping)."""
    vector = np.frombuffer(array.array("f", values), np.float32)
    if vector.view(np.uint32).max() > _ONE_BITS:
        np.clip(vector, 0.0, 1.0, out=vector)
    return vector


class MaskedDiscrete(spaces.Discrete):
    """Gymnasium's ``Discrete(n)``, whose ``sample(mask)`` draws the same action from the same generator faster.

    ``Discrete.sample(mask)`` checks the mask with four NumPy reductions, then draws with
    ``np_random.choice(np.where(mask == 1)[0])``: about 14 µs, whatever ``n``. Here a valid mask (an ``int8``
    array of shape ``(n,)`` holding only 0 and 1) is checked on its bytes, its legal actions are remembered by
    mask, and the draw is the one ``choice`` makes (``np_random.integers(0, k)``, then that legal action): the same
    action and the same generator state after it, for every seed (``tests/rl`` compares the two). Anything else
    (no mask, a probability, a mask that is not valid) goes to ``Discrete.sample``, with its errors."""

    def __init__(self, n: int, seed: int | None = None) -> None:
        super().__init__(n, seed=seed)
        #: mask bytes -> the legal actions (masks repeat: a game offers few sets of moves)
        self._legal_by_mask: dict[bytes, tuple[int, ...]] = {}

    def sample(self, mask: Any = None, probability: Any = None) -> Any:
        if (
            probability is not None
            or type(mask) is not np.ndarray
            or (mask.dtype is not _INT8 and mask.dtype != _INT8)
            or mask.shape != (self.n,)
        ):
            return super().sample(mask, probability)
        raw = mask.tobytes()
        legal = self._legal_by_mask.get(raw)
        if legal is None:
            if raw.translate(None, b"\x00\x01"):  # a value other than 0 and 1: Discrete's own error
                return super().sample(mask)
            if len(self._legal_by_mask) >= 4096:
                self._legal_by_mask.clear()
            legal = self._legal_by_mask[raw] = tuple(i for i, b in enumerate(raw) if b)
        if not legal:
            return self.start
        return self.start + self.dtype.type(legal[self.np_random.integers(0, len(legal))])


class QuizEnv(AECEnv):
    """The shared AEC environment (see the module docstring); each game subclasses it with its features."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "quiz_v0", "is_parallelizable": False}
    game_id: ClassVar[str] = ""
    #: Names of the game's own features, in the order :meth:`features` returns them (after QUIZ_FEATURES).
    feature_names: tuple[str, ...] = ()
    default_max_cycles: ClassVar[int] = 10_000

    def __init__(
        self,
        players: int = 3,
        options: Mapping[str, Any] | None = None,
        knows: float | Mapping[str, float] | None = None,
        bot_params: Mapping[str, Mapping[str, Any]] | None = None,
        bots: Mapping[int, str] | None = None,
        max_cycles: int | None = None,
        reward: str = "win",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if reward not in ("win", "score"):
            raise ValueError(f"reward must be 'win' (+1/-1 at the end) or 'score' (the score's change), not {reward!r}")
        self.reward = reward
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.players = players
        self.game_options = dict(options or {})
        if self.game_options.get("undo_seconds"):
            # A verdict taken back is a room's mercy for a slip of the finger: an agent's verdicts count at once.
            raise ValueError(
                f"options: undo_seconds must be 0 in an environment (a verdict counts at once), "
                f"not {self.game_options['undo_seconds']!r}"
            )
        self.bot_seats = dict(bots or {})
        for seat in self.bot_seats:
            if type(seat) is not int or not 0 <= seat < players:
                raise ValueError(f"bots: seat {seat!r} is not a seat of a {players}-player game (0 to {players - 1})")
        self.max_cycles = self.default_max_cycles if max_cycles is None else max_cycles
        # A first match checks the options (and gives the board the domains come from).
        self._seed = 0
        self.match = mindtable.new_match(self.game_id, players=players, seed=0, options=self.game_options)
        self.seat_of = {f"player_{s}": s for s in range(players) if s not in self.bot_seats}
        if not self.seat_of:
            raise ValueError("bots: every seat is a bot; leave at least one seat to an agent")
        self.possible_agents = list(self.seat_of)
        self.agents: list[str] = []
        unknown = set(bot_params or {}) - set(self.possible_agents)
        if unknown or (isinstance(knows, Mapping) and set(knows) - set(self.possible_agents)):
            raise ValueError(f"knows/bot_params name unknown agents; the agents are {self.possible_agents}")
        self._knows = knows
        self._bot_params = {a: dict(p) for a, p in (bot_params or {}).items()}
        self.choices: list[str] = list(ANSWER_CHOICES)
        self._index: dict[tuple[str, Any], int] = {}
        self._moves: list[tuple[str, Any]] = [("", None)] * len(ANSWER_CHOICES)  # choice -> (move type, value)
        for move_type, param, values in self.action_domains():
            for value in values:
                self._index[(move_type, value)] = len(self.choices)
                self._moves.append((move_type, value))
                self.choices.append(move_type if param is None else f"{move_type}:{value}")
        self._params = {move_type: param for move_type, param, _ in self.action_domains()}
        size = len(QUIZ_FEATURES) + len(self.feature_names)
        self._observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (len(self.choices),), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._action_spaces = {a: MaskedDiscrete(len(self.choices)) for a in self.possible_agents}
        #: action_of, decoded once: seat -> [the match's action of each choice] (None for know, which needs a mind)
        self._decoded: dict[int, list[Any]] = {
            seat: [None, *(self._action_of(seat, a) for a in range(1, len(self.choices)))] for seat in range(players)
        }
        #: the masks built so far, by the choices they allow (read-only, shared by observations: observe() copies)
        self._masks: dict[tuple[int, ...], np.ndarray] = {}
        self._no_mask = np.zeros(len(self.choices), np.int8)
        self._no_mask.flags.writeable = False

    # -- what each game gives -----------------------------------------------------------------------------
    def action_domains(self) -> list[tuple[str, str | None, list[Any]]]:
        """Every action shape the game can list, from its move table: (type, parameter, values), declared order.

        The values of a choice parameter come from :meth:`domain`; answer moves, table duties and a pending verdict's
        moves are left out.
        """
        out: list[tuple[str, str | None, list[Any]]] = []
        table = self.match.game.moves
        assert table is not None
        for move_type, move in table.by_type.items():
            if move.system or move_type in _TABLE_DUTIES or move_type in _ANSWER_MOVES or move_type in _PENDING_MOVES:
                continue
            if not move.params:
                out.append((move_type, None, [None]))
            else:
                param = move.params[0].name
                values = self.domain(move_type, param)
                if values:  # a move this game never lists with a choice (Carrera's ask_choose) is left out
                    out.append((move_type, param, values))
        return out

    def domain(self, move_type: str, param: str) -> list[Any]:
        """Every value the game can ever offer for ``param`` of ``move_type`` (each game says; [] for none)."""
        raise NotImplementedError

    def score(self, view: Mapping[str, Any], seat: int) -> float:
        """The seat's score in ``view``, whose change is the reward with ``reward="score"`` (each game says)."""
        raise NotImplementedError

    def features(self, view: Mapping[str, Any], seat: int) -> list[float]:
        """The game's own features of ``view`` (seat ``seat``'s), each in [0, 1], named by feature_names."""
        raise NotImplementedError

    #: The game's quiz step (its ``QUIZ``): with :meth:`state_features`, observations are built from the state.
    quiz_step: ClassVar[QuizStep | None] = None

    def state_features(self, state: dict[str, Any], seat: int, ask: Mapping[str, Any] | None) -> list[float]:
        """:meth:`features` of ``match.view(seat)``, read from the match's state directly (``ask`` is the ask
        step in the state, answers and all: read only what the seat's view shows of it): the same values
        without building the view. Each game gives it
        with its ``quiz_step``; ``tests/rl`` checks it against :meth:`features` at every step of episodes."""
        raise NotImplementedError

    # -- spaces --------------------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    # -- playing ---------------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeder = random.Random(seed)
        elif not hasattr(self, "_seeder"):
            self._seeder = random.Random(0)
        self._seed = self._seeder.randrange(2**31)
        self.match = mindtable.new_match(self.game_id, players=self.players, seed=self._seed, options=self.game_options)
        self._minds: dict[int, Bot] = {}
        for agent, seat in self.seat_of.items():
            params = dict(self._bot_params.get(agent, {}))
            knows = self._knows.get(agent) if isinstance(self._knows, Mapping) else self._knows
            if knows is not None:
                params["knows"] = knows
            self._minds[seat] = self.match.game.make_bot("knowing", seat=seat, seed=self._seed, **params)
        self._table_bots: dict[int, Bot] = {
            seat: self.match.game.make_bot(name, seat=seat, seed=self._seed) for seat, name in self.bot_seats.items()
        }
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._cycles = 0
        self._version = 0  # counts the actions applied by step(): observations are kept for one version
        self._observed: dict[str, tuple[Any, dict[str, np.ndarray]]] = {}
        self._seen: tuple[Any, dict[str, Any]] | None = None  # (key, view) of the latest observation computed
        scored = self.reward == "score"  # scores are read only for score rewards (one view per seat)
        if scored:
            self._scores = {a: self.score(self.match.view(s), s) for a, s in self.seat_of.items()}
        self._advance()
        self.agent_selection = self._next_agent()
        if self.match.is_over:  # the bots' seats played the whole game before an agent was asked anything
            if scored:
                for a, seat in self.seat_of.items():
                    self.rewards[a] = self.score(self.match.view(seat), seat) - self._scores[a]
            self._finish()
            self._accumulate_rewards()
        if scored:
            self._scores = {a: self.score(self.match.view(s), s) for a, s in self.seat_of.items()}

    def _advance(self) -> None:
        # The seat an agent decides for and its legal actions, listed once a step (mask, check and "know" read it).
        self._turn = table_turn(self.match, self._table_bots)

    def _next_agent(self) -> str:
        if self._turn is None:
            return self.agents[0]
        return f"player_{self._turn[0]}"

    def mask(self, agent: str) -> np.ndarray:
        """The action mask of ``agent`` now: 1 for each choice that is legal (all 0 when it is not to act)."""
        return self.observe(agent)["action_mask"]

    def _mask(self, agent: str, picks: int) -> np.ndarray:
        """The mask of ``agent`` now (``picks``: how many options are read out), shared: callers copy it."""
        if self.match.is_over or agent != getattr(self, "agent_selection", None):
            return self._no_mask
        return self._mask_of_legal(self._legal(self.seat_of[agent]), picks)

    def _legal(self, seat: int) -> list[dict[str, Any]]:
        """``match.legal_actions(seat)``, the listing of this step when ``seat`` is the one deciding."""
        turn = self._turn
        return turn[1] if turn is not None and turn[0] == seat else self.match.legal_actions(seat)

    def mask_of(self, match: Match, seat: int, view: Mapping[str, Any] | None = None) -> np.ndarray:
        """The choices legal for ``seat`` in ``match`` now, from ``match.legal_actions(seat)`` and its view."""
        if match.is_over:
            return np.zeros(len(self.choices), np.int8)
        if view is None and self.quiz_step is not None:
            picks = self._ask_parts(self.quiz_step.current(match.state), seat, match)[1]
            return self._mask_of_legal(match.legal_actions(seat), picks).copy()
        return self._mask_from(match.legal_actions(seat), match.view(seat) if view is None else view)

    def _mask_from(self, legal: Sequence[Mapping[str, Any]], view: Mapping[str, Any]) -> np.ndarray:
        """The mask of ``legal`` with ``view``'s ask step (how many options it reads out): a new array."""
        ask = view.get("ask") or {}
        question = ask.get("question") or {}
        picks = min(len(question.get("options") or ()), 4) if ask.get("options_shown") else 0
        return self._mask_of_legal(legal, picks).copy()

    def _mask_of_legal(self, legal: Sequence[Mapping[str, Any]], picks: int) -> np.ndarray:
        """The mask of the listing ``legal`` (``picks`` options read out: ``pick_a`` … with an answer), kept by the
        set of choices it allows (a game offers few): shared, never to be changed."""
        on: list[int] = []
        params, index = self._params, self._index
        for entry in legal:
            kind = entry["type"]
            if kind == "ask_answer":
                on.append(0)
                on.extend(range(3, 3 + picks))
            elif kind == "ask_pass":
                on.append(1)
            elif kind == "ask_options":
                on.append(2)
            else:
                param = params.get(kind)
                choice = index.get((kind, None if param is None else entry.get(param)))
                if choice is not None:
                    on.append(choice)
        key = tuple(on)
        mask = self._masks.get(key)
        if mask is None:
            if len(self._masks) >= 4096:
                self._masks.clear()
            mask = np.zeros(len(self.choices), np.int8)
            mask[on] = 1
            mask.flags.writeable = False
            mask = self._masks[key] = mask
        return mask

    def _ask_parts(self, ask: Any, seat: int, match: Match) -> tuple[list[float], int]:
        """:func:`quiz_features` of ``match.view(seat)``, and how many options it reads out (``pick_a`` …), read
        from the ask step ``ask`` in the state (the seat's role, the phase, the question's kind, count and options
        shown, whether options are available) without building the view: ``tests/rl`` checks it against the view."""
        if type(seat) is not int or not 0 <= seat < match.players:
            match.view(seat)  # the match's own refusal of a bad seat
        if ask is None:
            return list(_NO_ASK), 0
        index = ask["index"]
        shown = ask["options_shown"]
        if index is None:
            kind = None
            count = 0
            picks = 0
            available = False
        else:
            q = ask["card"]["questions"][index]
            kind = q["kind"]
            count = (q.get("count") or len(q.get("items", ()))) if kind == "list" else 0
            options = q.get("options") if shown else None
            picks = min(len(options), 4) if options else 0
            available = options_available(ask)
        phase = ask["phase"]
        answering = seat != ask["reader"] and seat in ask["answerers"]
        out = [
            1.0 if answering and phase == "answer" else 0.0,
            1.0 if answering and phase == "choose" else 0.0,
            1.0 if available else 0.0,
            1.0 if shown else 0.0,
            picks / 4,
        ]
        out += one_hot(kind, KINDS)
        out.append(min(int(count or 0), 10) / 10)
        return out, picks

    def vector_of(self, match: Match, seat: int, view: Mapping[str, Any] | None = None) -> np.ndarray:
        """The ``observation`` vector of ``seat`` (named by QUIZ_FEATURES + feature_names), from its view."""
        if view is None and self.quiz_step is not None:
            ask = self.quiz_step.current(match.state)
            values = self._ask_parts(ask, seat, match)[0]
            values += self.state_features(match.state, seat, ask)
        else:
            view = match.view(seat) if view is None else view
            values = quiz_features(view)
            values += self.features(view, seat)
        return observation_vector(values)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        obs = self._observation(agent)
        return {"observation": obs["observation"].copy(), "action_mask": obs["action_mask"].copy()}

    def _observation(self, agent: str) -> dict[str, np.ndarray]:
        """The observation of ``agent``, kept until the next action (last() and step() both need it): one view per
        agent per step. Callers copy it before handing it out."""
        key = (self._version, self.agent_selection)
        cached = self._observed.get(agent)
        if cached is not None and cached[0] == key:
            return cached[1]
        seat = self.seat_of[agent]
        match = self.match
        step = self.quiz_step
        if step is not None:  # built from the state: the seat's view is never built whole
            state = match.state
            ask = step.current(state)
            values, picks = self._ask_parts(ask, seat, match)
            values += self.state_features(state, seat, ask)
            obs = {"observation": observation_vector(values), "action_mask": self._mask(agent, picks)}
        else:
            view = match.view(seat)
            ask_view = view.get("ask") or {}
            shown = (ask_view.get("question") or {}).get("options") or ()
            picks = min(len(shown), 4) if ask_view.get("options_shown") else 0
            obs = {"observation": self.vector_of(match, seat, view), "action_mask": self._mask(agent, picks)}
            if agent == self.agent_selection:
                self._seen = (key, view)
        self._observed[agent] = (key, obs)
        return obs

    def _action_dict(self, agent: str, action: int) -> dict[str, Any]:
        seat = self.seat_of[agent]
        if action == 0:
            seen = self._seen
            view: Mapping[str, Any] | None
            if seen is not None and seen[0] == (self._version, agent):
                view = seen[1]
            else:  # the view a bot gets from play_out: equal to match.view(seat), built as the bot reads it
                view = self.match.bot_views([seat])[seat]
            text = known_answer(self._minds[seat], self.match, seat, self._legal(seat), view)
            return {"type": "ask_answer", "seat": seat, "text": text}
        return self.action_of(seat, action)

    def action_of(self, seat: int, action: int) -> dict[str, Any]:
        """The match's action for choice ``action`` (not ``know``, which needs a knowledge model) of ``seat``."""
        try:
            return dict(self._decoded[seat][action])
        except (KeyError, IndexError, TypeError):
            return self._action_of(seat, action)

    def _action_of(self, seat: int, action: int) -> dict[str, Any]:
        if action == 1:
            return {"type": "ask_pass", "seat": seat}
        if action == 2:
            return {"type": "ask_options", "seat": seat}
        if action < len(ANSWER_CHOICES):
            return {"type": "ask_answer", "seat": seat, "text": LETTERS[action - 3]}
        move_type, value = self._moves[action]
        param = self._params[move_type]
        out: dict[str, Any] = {"type": move_type, "seat": seat}
        if param is not None:
            out[param] = value
        return out

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError(f"{agent} is done (terminated or truncated): step it with None, not {action!r}")
            self._was_dead_step(action)
            return
        mask = self._observation(agent)["action_mask"]
        if type(action) is not int:
            if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
                raise ValueError(f"{agent}: an action is an integer 0..{len(self.choices) - 1}, not {action!r}")
            action = int(action)
        if not 0 <= action < len(self.choices) or not mask[action]:
            legal = [f"{i}={self.choices[i]}" for i in np.flatnonzero(mask)]
            what = self.choices[action] if 0 <= action < len(self.choices) else "outside the space"
            raise ValueError(f"{agent}: action {action} ({what}) is not legal now; legal: {', '.join(legal)}")
        self._cumulative_rewards[agent] = 0.0
        self.match.apply(self._action_dict(agent, action))
        self._advance()
        self._version += 1
        self._cycles += 1
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.reward == "score":
            for a, seat in self.seat_of.items():
                score = self.score(self.match.view(seat), seat)
                self.rewards[a] = score - self._scores[a]
                self._scores[a] = score
        result = self.match.result
        if result is not None:
            self._finish()
        elif self._cycles >= self.max_cycles:
            for a in self.agents:
                self.truncations[a] = True
        if result is None and self._cycles < self.max_cycles:
            self.agent_selection = self._next_agent()
        if result is not None or self.reward != "win":  # win rewards are all 0 until the end: nothing to add
            self._accumulate_rewards()

    def _finish(self) -> None:
        """The match is over: every agent terminates, with the win rewards (``reward="win"``)."""
        result = self.match.result
        assert result is not None
        winners = {f"player_{s}" for s in result.winners}
        for a in self.agents:
            if self.reward == "win":
                self.rewards[a] = 0.0 if not result.winners else (1.0 if a in winners else -1.0)
            self.terminations[a] = True
            self.infos[a] = {"result": result.to_dict()}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        view = self.match.view(None)
        view.pop("board", None)
        view.pop("scale", None)
        return f"{self.game_id} seed={self._seed} to_act={view.get('to_act')} phase={view.get('phase')}"

    def close(self) -> None:
        pass


def known_answer(
    mind: Bot,
    match: Match,
    seat: int,
    legal: Sequence[Mapping[str, Any]] | None = None,
    view: Mapping[str, Any] | None = None,
) -> str:
    """What ``mind`` (a knowing bot) types for the question put to ``seat``, seeing only the seat's view.

    ``legal`` and ``view`` are the seat's legal actions and view now, when the caller has them already."""
    listed = match.legal_actions(seat) if legal is None else legal
    answers = [dict(a) for a in listed if a["type"] == "ask_answer"]
    seen: Any = match.view(seat) if view is None else view  # a dict, or the equal read-only view play_out gives
    decision = mind.decide(Observation(seat, seen, answers, match.clock))
    return "?" if decision is None else str(decision.action.get("text", "?"))


def play_table(match: Match, table_bots: Mapping[int, Bot]) -> None:
    """Play what no agent decides (deadlines, the reader's and voters' duties, bot seats) until an agent is to
    act or the match is over."""
    table_turn(match, table_bots)


def table_turn(match: Match, table_bots: Mapping[int, Bot]) -> tuple[int, list[dict[str, Any]]] | None:
    """:func:`play_table`, then the seat an agent decides for and its legal actions (``None``: the match is over).

    The seat is :func:`deciding_seat`'s: play stops at the first seat to act that is no bot's and has more than
    table duties to do, and every seat listed before it had nothing to do."""
    for _ in range(100_000):
        if match.is_over:
            return None
        seats = match.to_act()
        if not seats:
            deadline = match.next_deadline()
            if deadline is None:
                raise RuntimeError(f"{match.game.id}: nobody is to act and no deadline is pending")
            match.apply(deadline.due_action())
            continue
        for seat in seats:
            legal = match.legal_actions(seat)
            types = {a["type"] for a in legal}
            if seat in table_bots:
                # Drafts (ask_type) change nothing a bot waits for: a random bot could type the same draft for ever.
                moves = [a for a in legal if a["type"] != "ask_type"]
                decision = table_bots[seat].decide(Observation(seat, match.view(seat), moves, match.clock))
                if decision is not None:
                    match.apply({**decision.action, "seat": seat})
                    break
            elif "ask_confirm" in types:
                match.apply({"type": "ask_confirm", "seat": seat})
                break
            elif "ask_vote" in types:
                suggestion = ((match.view(seat).get("ask") or {}).get("suggestion")) or {}
                verdict = "right" if suggestion.get("correct") else "wrong"
                match.apply({"type": "ask_vote", "seat": seat, "verdict": verdict})
                break
            elif types - _TABLE_DUTIES:
                return seat, legal  # an agent decides
        else:
            raise RuntimeError(f"{match.game.id}: seats {seats} are to act but none of them can")
    raise RuntimeError(f"{match.game.id}: the table played 100000 steps without an agent")


def deciding_seat(match: Match, table_bots: Mapping[int, Bot]) -> int:
    """The seat an agent decides for now (after :func:`play_table`)."""
    for seat in match.to_act():
        if seat not in table_bots:
            legal = {a["type"] for a in match.legal_actions(seat)}
            if legal - _TABLE_DUTIES:
                return seat
    raise RuntimeError(f"{match.game.id}: no agent is to act")


def wrap(env: QuizEnv) -> Any:
    """PettingZoo's order-enforcing wrapper (the environment checks actions itself, with clear errors)."""
    return OrderEnforcing(env)


def _forwarded(name: str) -> property:
    """The wrapped environment's attribute ``name``, read without the wrapper's ``__getattr__`` (which Python calls
    only after a failed lookup: the slow way, taken several times a step by ``last()`` and every agent loop)."""

    def get(self: Any) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")  # the wrapper's own refusal
        return getattr(self.env, name)

    def put(self: Any, value: Any) -> None:
        setattr(self.env, name, value)

    return property(get, put, doc=f"The environment's ``{name}``.")


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper``, with the attributes read at every step forwarded directly."""

    agent_selection = _forwarded("agent_selection")
    agents = _forwarded("agents")
    rewards = _forwarded("rewards")
    terminations = _forwarded("terminations")
    truncations = _forwarded("truncations")
    infos = _forwarded("infos")
    _cumulative_rewards = _forwarded("_cumulative_rewards")

    # The calls of every step, straight to the environment once it is reset (before, the wrapper's own errors).
    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            return super().last(observe)
        result: tuple[Any, float, bool, bool, dict[str, Any]] = self.env.last(observe)
        return result

    def observe(self, agent: str) -> Any:
        if not self._has_reset:
            return super().observe(agent)
        return self.env.observe(agent)

    def step(self, action: Any) -> None:
        if not self._has_reset or not self.env.agents:
            super().step(action)
            return
        self._has_updated = True
        self.env.step(action)

    def action_space(self, agent: str) -> spaces.Space:
        return self.env.action_space(agent)

    def __str__(self) -> str:
        return str(self.env)

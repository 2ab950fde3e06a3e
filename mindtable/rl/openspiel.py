"""The three turn-based quiz games as OpenSpiel Python games.

```python
import pyspiel
import mindtable.rl.openspiel  # registers the games
game = pyspiel.load_game("mindtable_carrera_de_mente", {"players": 2, "seed": 7})
state = game.new_initial_state()
```

| short name | game | default options |
|---|---|---|
| `mindtable_carrera_de_mente` | Carrera de Mente | `{"board": "small"}` |
| `mindtable_caida_libre` | Caída Libre | `{"language": "en"}` |
| `mindtable_eesti_malumang` | Eesti mälumäng | `{"language": "en"}` |

**Parameters**: `players` (default 2), `seed` (the match's seed, default 0), `knows` (every player's
knowledge model: the game's knowing bot with that `knows`; default 0.5), `max_moves` (player moves before
the game stops with all returns 0; default 3000), `options` (the game's options as `name:value` pairs separated
by spaces, e.g. `"board:small turn_limit:12"`: OpenSpiel's game strings cannot hold `,` or `=`; the table's
defaults when empty).

**Game type**: sequential, explicit stochastic, imperfect information, general sum, terminal rewards
(+1 each winner, -1 each other player; 0 for all when stopped by `max_moves`). The actions are the PettingZoo
environment's (:mod:`mindtable.rl.carrera_de_mente` and the others: the seven answer choices, then every move
shape), with the same legal actions. Observation string and tensor: the PettingZoo observation vector of the
player (built from its view only); no information state is offered.

**Chance**: the *knowledge model* is an explicit chance node. After a player chooses `know` (answer from
knowledge), a chance node decides whether it remembers: outcome 1 (`right`) with the probability its knowing
bot gives that question (its `knows` scaled by the question's booklet and difficulty, as the bot reads them from
the public files; with the options read out, also the chance of recognising the right one), else outcome 0
(`wrong`). Right types the answer as the bot would (every item of a list); wrong types `"?"`. The dice and
shuffles come from the match's own generator, seeded by `seed`: they are part of the table like a pre-shuffled
deck (the same history gives the same state, as OpenSpiel requires), not chance nodes. So a search (MCTS) that
clones the state knows the coming dice and question order — it is an oracle baseline — but never whether it
will remember an answer, which stays a chance node. The reader's confirming of the judge is done by the game.
"""

from __future__ import annotations

import copy
import marshal
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import numpy as np
import pyspiel

import mindtable
from mindtable.core.bots import Bot
from mindtable.core.match import Match
from mindtable.core.registry import get_game
from mindtable.core.rng import Rng
from mindtable.trivia.quiz_bots import KnowledgeBot

from ._quiz import QuizEnv, deciding_seat, known_answer, play_table
from .caida_libre import CaidaEnv
from .carrera_de_mente import CarreraEnv
from .eesti_malumang import EestiEnv

__all__ = ["GAMES", "QuizGame", "QuizState"]

#: short name -> (environment class, its default options).
GAMES: dict[str, tuple[type[QuizEnv], dict[str, Any]]] = {
    "mindtable_carrera_de_mente": (CarreraEnv, {"board": "small"}),
    "mindtable_caida_libre": (CaidaEnv, {"language": "en"}),
    "mindtable_eesti_malumang": (EestiEnv, {"language": "en"}),
}
WRONG, RIGHT = 0, 1


def parse_options(text: str, where: str = "options") -> dict[str, Any]:
    """The game's options from ``"name:value name:value"`` (OpenSpiel's game strings cannot hold ``,`` or ``=``):
    whole numbers, ``true``/``false`` and text.

    >>> parse_options("board:small turn_limit:12 variant_short:true")
    {'board': 'small', 'turn_limit': 12, 'variant_short': True}
    """
    options: dict[str, Any] = {}
    for part in text.split():
        name, sep, value = part.partition(":")
        if not sep or not name:
            raise ValueError(f"{where}: options are name:value pairs separated by spaces, got {part!r} in {text!r}")
        if value.lower() in ("true", "false"):
            options[name] = value.lower() == "true"
        else:
            try:
                options[name] = int(value)
            except ValueError:
                options[name] = value
    return options


def _knowing(bot: Bot) -> KnowledgeBot:
    inner = getattr(bot, "inner", bot)  # Eesti's bot wraps a KnowledgeBot
    assert isinstance(inner, KnowledgeBot)
    return inner


class QuizGame(pyspiel.Game):
    """One of :data:`GAMES` (the class is registered once per short name with its own GameType)."""

    short_name = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        env_class, defaults = GAMES[self.short_name]
        params = {**_DEFAULTS, **dict(params or {})}
        players = int(params["players"])
        options = {**defaults, **parse_options(str(params["options"]), self.short_name)}
        env = env_class(players=players, options=options)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(env.choices),
            max_chance_outcomes=2,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=int(params["max_moves"]) * 2,
        )
        super().__init__(_TYPES[self.short_name], info, params)
        # Attributes only after the base class is set up (pybind resets what was set before).
        self.env, self.players, self.options = env, players, options
        self.seed = int(params["seed"])
        self.knows = float(params["knows"])
        self.max_moves = int(params["max_moves"])
        self._minds: dict[int, tuple[Bot, Bot]] | None = None
        self._initial: _MatchBox | None = None

    def minds(self) -> dict[int, tuple[Bot, Bot]]:
        """Per seat: its knowing bot (the knowledge model) and the same bot knowing everything (to type answers)."""
        if self._minds is None:
            make = self.env.match.game.make_bot
            minds = {}
            for seat in range(self.players):
                mind = make("knowing", seat=seat, seed=self.seed, knows=self.knows)
                perfect = make("knowing", seat=seat, seed=self.seed)
                sure = _knowing(perfect)
                sure.profile = replace(
                    sure.profile, default=1.0, by_topic={}, by_difficulty={}, recognise=None, with_options=1.0
                )
                minds[seat] = (mind, perfect)
            self._minds = minds
        return self._minds

    def initial_box(self) -> _MatchBox:
        """The match at the start (made once; each initial state gets a copy)."""
        if self._initial is None:
            match = mindtable.new_match(self.env.game_id, players=self.players, seed=self.seed, options=self.options)
            play_table(match, {})
            self._initial = _MatchBox(match)
        return self._initial

    def new_initial_state(self) -> QuizState:
        return QuizState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> QuizObserver:
        return QuizObserver(self)


class _Shared:
    """Something every clone of a state shares (OpenSpiel clones a Python state by deep-copying its attributes)."""

    __slots__ = ("game",)

    def __init__(self, game: QuizGame) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # pickled (OpenSpiel's serialisation) as the game's name and parameters
        game = self.game
        return (_shared_game, (game.short_name, dict(game.get_parameters())))


class _MatchBox:
    """A state's match; a clone gets a copy of its state and generator (not of the game or the record)."""

    __slots__ = ("match",)

    def __init__(self, match: Match) -> None:
        self.match = match

    def __deepcopy__(self, memo: dict[int, Any]) -> _MatchBox:
        m = self.match
        try:
            state = marshal.loads(marshal.dumps(m.state))
        except (ValueError, TypeError):
            state = copy.deepcopy(m.state)
        return _MatchBox(Match(m.game, m.players, m.options, m.seed, state, Rng.from_dict(m.rng.to_dict()), m.clock))

    def __reduce__(self) -> tuple[Any, ...]:  # pickled as the match's snapshot
        return (_match_box, (self.match.snapshot(),))


def _shared_game(short_name: str, params: dict[str, Any]) -> _Shared:
    return _Shared(pyspiel.load_game(short_name, params))


def _match_box(snapshot: dict[str, Any]) -> _MatchBox:
    return _MatchBox(Match.from_snapshot(snapshot))


class QuizState(pyspiel.State):
    def __init__(self, game: QuizGame) -> None:
        super().__init__(game)
        self._shared = _Shared(game)
        self._box: _MatchBox | None = None  # made when first needed: a clone gets the original's instead
        self._pending: tuple[int, float] | None = None  # (seat, chance of remembering) after "know"
        self._moves = 0
        self._current: int | None = None  # current_player(), kept until the next action

    @property
    def _game(self) -> QuizGame:
        return self._shared.game

    @property
    def match(self) -> Match:
        if self._box is None:
            self._box = copy.deepcopy(self._game.initial_box())
        return self._box.match

    # -- who moves --------------------------------------------------------------------------------------
    def current_player(self) -> int:
        if self._current is None:
            if self.is_terminal():
                self._current = int(pyspiel.PlayerId.TERMINAL)
            elif self._pending is not None:
                self._current = int(pyspiel.PlayerId.CHANCE)
            else:
                self._current = deciding_seat(self.match, {})
        return self._current

    def is_terminal(self) -> bool:
        return self.match.is_over or self._moves >= self._game.max_moves

    def _legal_actions(self, player: int) -> list[int]:
        return [int(i) for i in np.flatnonzero(self._game.env.mask_of(self.match, player))]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self._pending is not None
        p = self._pending[1]
        return [(a, q) for a, q in ((WRONG, 1.0 - p), (RIGHT, p)) if q > 0]

    def _remember_chance(self, seat: int) -> float:
        mind, perfect = self._game.minds()[seat]
        known_answer(perfect, self.match, seat)  # lets a bot that reads its cards by language load them
        ask = self.match.view(seat)["ask"]
        question = ask["question"]
        known = _knowing(perfect).library.find(question["prompt"])
        if known is None:
            return 0.0
        profile = _knowing(mind).profile
        topic = question.get("category") or question.get("topic") or ""
        chance = profile.chance(topic, known.difficulty)
        options = question.get("options") if ask.get("options_shown") else None
        if options:
            chance += (1 - chance) * profile.options_chance(topic, known.difficulty, len(options))
        return round(min(max(chance, 0.0), 1.0), 9)

    def _apply_action(self, action: int) -> None:
        self._current = None
        if self._pending is not None:
            seat = self._pending[0]
            self._pending = None
            _, perfect = self._game.minds()[seat]
            text = known_answer(perfect, self.match, seat) if action == RIGHT else "?"
            self.match.apply({"type": "ask_answer", "seat": seat, "text": text})
        else:
            seat = deciding_seat(self.match, {})
            if action == 0:
                self._pending = (seat, self._remember_chance(seat))
                self._moves += 1
                return
            self.match.apply(self._game.env.action_of(seat, action))
            self._moves += 1
        play_table(self.match, {})

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return "right" if action == RIGHT else "wrong"
        return self._game.env.choices[action]

    def returns(self) -> list[float]:
        result = self.match.result
        if result is None or not result.winners:
            return [0.0] * self._game.players
        return [1.0 if s in result.winners else -1.0 for s in range(self._game.players)]

    def __str__(self) -> str:
        view = self.match.view(None)
        return f"{self._game.env.game_id} phase={view.get('phase')} to_act={view.get('to_act')} moves={self._moves}"


class QuizObserver:
    """The player's PettingZoo observation vector as OpenSpiel's observation tensor and string."""

    def __init__(self, game: QuizGame) -> None:
        self.game = game
        size = game.env.observation_space(game.env.possible_agents[0])["observation"].shape[0]
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: QuizState, player: int) -> None:
        self.tensor[:] = self.game.env.vector_of(state.match, player)

    def string_from(self, state: QuizState, player: int) -> str:
        vector = self.game.env.vector_of(state.match, player)
        return " ".join(f"{v:.3g}" for v in vector)


_DEFAULTS: dict[str, Any] = {"players": 2, "seed": 0, "knows": 0.5, "max_moves": 3000, "options": ""}
_TYPES: dict[str, Any] = {}


def _register() -> None:
    for short_name, (env_class, _) in GAMES.items():
        name = env_class.__name__.replace("Env", "Game")
        game_class = type(name, (QuizGame,), {"short_name": short_name, "__module__": __name__})
        globals()[name] = game_class  # found by name when OpenSpiel pickles a game
        title = short_name.removeprefix("mindtable_").replace("_", " ").title()
        _TYPES[short_name] = pyspiel.GameType(
            short_name=short_name,
            long_name=f"mindtable {title}",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.GENERAL_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=get_game(env_class.game_id).max_players,
            min_num_players=2,
            provides_information_state_string=False,
            provides_information_state_tensor=False,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification=dict(_DEFAULTS),
        )
        if short_name not in pyspiel.registered_names():
            pyspiel.register_game(_TYPES[short_name], game_class)


_register()

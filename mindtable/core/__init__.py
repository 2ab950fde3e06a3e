"""The game-agnostic core: the game protocol, matches, records, options, randomness, bots, the registry."""

from mindtable.core.bots import Bot, Decision, Observation, RandomBot, observe
from mindtable.core.errors import (
    GameNotAvailable,
    IllegalAction,
    InvalidOptions,
    InvalidSnapshot,
    MindtableError,
    ReplayMismatch,
    UnknownGame,
)
from mindtable.core.events import Action, Deadline, Event, Result, events_for
from mindtable.core.flow import Flow, Phase
from mindtable.core.game import Game
from mindtable.core.match import Match, load_record, new_match, replay, replay_steps
from mindtable.core.options import Option, validate_options
from mindtable.core.registry import available_game_ids, game_ids, get_game, register_game
from mindtable.core.rng import Rng

__all__ = [
    "Action",
    "Bot",
    "Deadline",
    "Decision",
    "Event",
    "Flow",
    "Game",
    "GameNotAvailable",
    "IllegalAction",
    "InvalidOptions",
    "InvalidSnapshot",
    "Match",
    "MindtableError",
    "Observation",
    "Option",
    "Phase",
    "RandomBot",
    "ReplayMismatch",
    "Result",
    "Rng",
    "UnknownGame",
    "available_game_ids",
    "events_for",
    "game_ids",
    "get_game",
    "load_record",
    "new_match",
    "observe",
    "register_game",
    "replay",
    "replay_steps",
    "validate_options",
]

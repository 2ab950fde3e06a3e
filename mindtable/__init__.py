"""mindtable: rules engines, bots, simulation and online play for five mind games.

>>> import mindtable
>>> match = mindtable.new_match("the-mind", players=3, seed=42)
>>> match.view(0)["level"]
1
"""

from mindtable.core import (
    Action,
    Bot,
    Deadline,
    Decision,
    Event,
    Game,
    GameNotAvailable,
    IllegalAction,
    InvalidOptions,
    InvalidSnapshot,
    Match,
    MindtableError,
    Observation,
    Option,
    RandomBot,
    ReplayMismatch,
    Result,
    UnknownGame,
    available_game_ids,
    events_for,
    game_ids,
    get_game,
    load_record,
    new_match,
    register_game,
    replay,
)

__version__ = "0.1.0"

__all__ = [
    "Action",
    "Bot",
    "Deadline",
    "Decision",
    "Event",
    "Game",
    "GameNotAvailable",
    "IllegalAction",
    "InvalidOptions",
    "InvalidSnapshot",
    "Match",
    "MindtableError",
    "Observation",
    "Option",
    "RandomBot",
    "ReplayMismatch",
    "Result",
    "UnknownGame",
    "available_game_ids",
    "events_for",
    "game_ids",
    "get_game",
    "load_record",
    "new_match",
    "register_game",
    "replay",
]

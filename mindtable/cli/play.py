"""``mindtable play``: play any game that has a terminal UI, against bots.

The command is game-agnostic: it builds the match with :func:`mindtable.new_match`, a bot for every seat
that is not human with ``Game.make_bot``, and hands over to the game's terminal hook (``Game.terminal``,
``run_terminal(match, human_seats, bots)``). Humans take the first seats.
"""

from __future__ import annotations

import inspect
import json
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from mindtable.core.bot_params import validate_bot_params
from mindtable.core.bots import Bot
from mindtable.core.errors import GameNotAvailable, MindtableError, UnknownGame
from mindtable.core.game import Game
from mindtable.core.hooks import HookError, resolve
from mindtable.core.match import new_match
from mindtable.core.registry import get_game
from mindtable.kit.words import LANGUAGES, surface_language, surface_words

error_console = Console(stderr=True)
#: The command's own words (``i18n/<language>.json`` beside this package), in the language the screen speaks.
WORDS = Path(__file__).resolve().parent / "i18n"


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``message`` as an error and leave with exit code ``code``."""
    error_console.print(f"[bold red]Error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def parse_pairs(pairs: list[str] | None, what: str, typed: bool = False) -> dict[str, Any]:
    """``["k=v", ...]`` as a dict; ``typed`` reads values as JSON when they parse (3, 0.5, true), else text."""
    result: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            fail(f"{what} {pair!r} must look like key=value")
        if typed:
            try:
                result[key] = json.loads(value)
            except json.JSONDecodeError:
                result[key] = value
        else:
            result[key] = value
    return result


def game_option_flags(args: list[str]) -> dict[str, Any]:
    """Game options given as their own flags: ``--mode solo`` or ``--last-level=5`` (dashes become ``_``)."""
    result: dict[str, Any] = {}
    tokens = list(args)
    while tokens:
        token = tokens.pop(0)
        if not token.startswith("--") or len(token) < 3:
            fail(f"unexpected argument {token!r}; game options look like --name value or --option name=value")
        name, sep, value = token[2:].partition("=")
        if not sep:
            if not tokens or tokens[0].startswith("--"):
                fail(f"game option --{name} needs a value, e.g. --{name} VALUE")
            value = tokens.pop(0)
        result[name.replace("-", "_")] = value
    return result


COMMAND_WITH_GAME_OPTIONS = {"allow_extra_args": True, "ignore_unknown_options": True}


def resolve_game(game_id: str) -> Game:
    """The game, or a clear error listing the games that can be played."""
    try:
        return get_game(game_id)
    except (UnknownGame, GameNotAvailable) as exc:
        fail(f"{exc}\nSee `mindtable games` for the list.")


def load_hook(target: str) -> Callable[..., Any]:
    try:
        hook: Callable[..., Any] = resolve(target, "hook")
    except HookError as exc:
        fail(str(exc))
    return hook


def language_argument(hook: Callable[..., Any], language: str) -> dict[str, str]:
    """``{"language": language}`` for a hook that takes it (every built-in screen does; a plugin's screen written
    before screens spoke languages does not, and keeps working in its own words)."""
    try:
        parameters = inspect.signature(hook).parameters
    except (TypeError, ValueError):
        return {}
    takes = "language" in parameters or any(p.kind is p.VAR_KEYWORD for p in parameters.values())
    return {"language": language} if takes else {}


GameArgument = Annotated[str, typer.Argument(metavar="GAME", help="The game id (see `mindtable games`).")]
GameOptionOption = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="A game option key=value (repeatable).")
]
BotParamOption = Annotated[
    list[str] | None, typer.Option("--bot-param", help="A bot parameter key=value (repeatable).")
]


def _known_language(value: str | None) -> str | None:
    """``--language`` as given, or a clear error naming the languages there are."""
    if value is not None and value not in LANGUAGES:
        fail(f"--language must be one of {', '.join(LANGUAGES)}, got {value!r}")
    return value


LanguageOption = Annotated[
    str | None,
    typer.Option(
        "--language",
        "-l",
        callback=_known_language,
        help=f"The language the screen speaks: {', '.join(LANGUAGES)} (default: the game's language option, "
        "else your locale, else en).",
    ),
]
PlayersOption = Annotated[
    int | None, typer.Option("--players", "-p", help="Seats at the table (default: the fewest the game allows).")
]


def play(
    ctx: typer.Context,
    game_id: GameArgument,
    players: PlayersOption = None,
    humans: Annotated[
        int, typer.Option("--humans", help="How many seats are people at this keyboard (0: watch the bots).")
    ] = 1,
    bot: Annotated[
        str | None, typer.Option("--bot", "-b", help="The bot for the other seats (default: the game's first).")
    ] = None,
    option: GameOptionOption = None,
    bot_param: BotParamOption = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the deal (default: random, printed).")] = None,
    save: Annotated[Path | None, typer.Option("--save", help="Write the record of the game to this JSON file.")] = None,
    language: LanguageOption = None,
) -> None:
    """Play GAME in this terminal against bots. Game options may also be given as flags: --mode solo."""
    game = resolve_game(game_id)
    if players is None:
        players = game.min_players
    if humans < 0 or humans > players:
        fail(f"--humans must be from 0 to the number of players ({players}), got {humans}")
    options = parse_pairs(option, "--option") | game_option_flags(ctx.args)
    params = parse_pairs(bot_param, "--bot-param", typed=True)
    if seed is None:
        seed = secrets.randbelow(2**31)
    try:
        match = new_match(game.id, players, seed=seed, options=options)
    except MindtableError as exc:
        fail(str(exc))
    human_seats = list(range(humans))
    bot_name = bot if bot is not None else next(iter(game.bots))
    bots: dict[int, Bot] = {}
    try:
        if bot_name in game.bots:  # checked as a room checks them; an unknown bot is refused by make_bot
            params = validate_bot_params(game, bot_name, params)
        for seat in range(humans, players):
            bots[seat] = game.make_bot(bot_name, seat=seat, seed=seed, **params)
    except (MindtableError, ValueError) as exc:
        fail(str(exc))
    if game.terminal:
        run_terminal = load_hook(game.terminal)
    else:
        from mindtable.cli.table import run_table as run_terminal  # the generic terminal, for every game
    speaks = surface_language(language, match.options)
    try:
        run_terminal(match, human_seats, bots, **language_argument(run_terminal, speaks))
    except KeyboardInterrupt:
        pass
    except MindtableError as exc:
        if not match.actions:
            fail(str(exc))
        error_console.print(f"[bold red]Error:[/] {escape(str(exc))}", highlight=False, soft_wrap=True)
    say = surface_words(speaks, WORDS)
    Console().print(say("cli.seed_again", seed=seed), highlight=False)
    if save is not None:
        try:
            save.write_text(json.dumps(match.record(), indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            fail(f"cannot write the record to {save}: {exc}")
        Console().print(say("cli.record_saved", path=save), highlight=False)


def register(app: typer.Typer) -> None:
    app.command("play", context_settings=COMMAND_WITH_GAME_OPTIONS)(play)

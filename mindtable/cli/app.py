"""The ``mindtable`` Typer application.

Each command group lives in its own module under ``mindtable.cli`` with a ``register(app)`` function;
games may add a command group of their own through ``Game.cli_commands``.
"""

from __future__ import annotations

import importlib.util
import sys
from typing import Any

import typer
from typer.core import TyperOption


def _no_flag_type(display: Any) -> Any:
    """Help screens show no type for on/off flags (typer would print ``<bool>`` after ``--help`` and friends)."""

    def display_type_rich(self: TyperOption, ctx: Any) -> str | None:
        return None if self.is_flag else display(self, ctx)

    return display_type_rich


TyperOption.display_type_rich = _no_flag_type(TyperOption.display_type_rich)  # type: ignore[method-assign]

app = typer.Typer(
    name="mindtable",
    help="Play, host, simulate and study five mind games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

COMMAND_MODULES = (
    "mindtable.cli.games",
    "mindtable.cli.play",
    "mindtable.cli.simulate",
    "mindtable.cli.replay",
    "mindtable.cli.questions",
    "mindtable.cli.serve",
)


def _register_commands() -> None:
    for module_name in COMMAND_MODULES:
        if importlib.util.find_spec(module_name) is None:
            continue
        importlib.import_module(module_name).register(app)
    from mindtable.core.errors import MindtableError
    from mindtable.core.hooks import resolve
    from mindtable.core.registry import available_game_ids, get_game

    for game_id in available_game_ids():
        try:
            target = getattr(get_game(game_id), "cli_commands", None)
            if target:
                app.add_typer(resolve(target, f"the commands of {game_id!r}"), name=game_id)
        except MindtableError as exc:  # one broken plugin never breaks the whole CLI
            sys.stderr.write(f"mindtable: skipping the commands of {game_id!r}: {exc}\n")


_register_commands()


def main() -> None:
    app()

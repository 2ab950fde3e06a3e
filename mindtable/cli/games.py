"""``mindtable games``: the games, their player counts, bots and options."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from mindtable.core.errors import MindtableError
from mindtable.core.registry import game_ids, get_game


def _describe(game_id: str) -> dict[str, Any]:
    try:
        game = get_game(game_id)
    except MindtableError as exc:
        return {"id": game_id, "available": False, "reason": str(exc)}
    info = game.describe()
    info["available"] = True
    info["terminal"] = bool(game.terminal)
    info["batch_simulator"] = bool(game.batch_simulator)
    info["progress_label"] = game.progress_label
    return info


def _options_table(info: dict[str, Any]) -> Table:
    table = Table(title=f"Options of {info['title']} (--option name=value)", title_style="bold", title_justify="left")
    # Allowed values wrap at their separators, so a long list of choices never squeezes the meaning into a
    # column of single words on an 80-column terminal.
    table.add_column("Option", style="bold", no_wrap=True)
    table.add_column("Default", style="cyan", no_wrap=True)
    table.add_column("Allowed", max_width=22)
    table.add_column("Meaning", min_width=24, ratio=1)
    for option in info["options"]:
        default = option["default"]
        if option["choices"]:
            allowed = " | ".join(map(str, option["choices"]))
        elif option["minimum"] is not None or option["maximum"] is not None:
            allowed = f"{option['type']} {_num(option['minimum'])}..{_num(option['maximum'])}"
        else:
            allowed = option["type"]
        table.add_row(
            option["name"],
            "(book)" if default is None else (default if isinstance(default, str) else json.dumps(default)),
            allowed,
            option["help"],
        )
    return table


def _num(value: Any) -> str:
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else str(value)


def games(
    as_json: Annotated[bool, typer.Option("--json", help="Print the list as JSON instead of a table.")] = False,
) -> None:
    """List the games: players, real time or not, bots and options (with defaults)."""
    described = [_describe(game_id) for game_id in game_ids()]
    if as_json:
        typer.echo(json.dumps(described, indent=2))
        return
    table = Table(title="mindtable games", title_style="bold")
    # Headers whole at 80 columns: a game not yet playable says so in its title rather than in a column.
    table.add_column("Game id", style="bold", no_wrap=True)
    table.add_column("Title")
    table.add_column("Players", justify="center", no_wrap=True)
    table.add_column("Real time", justify="center", no_wrap=True)
    table.add_column("Bots")
    for info in described:
        if not info["available"]:
            table.add_row(Text(info["id"], style="dim"), Text("not yet playable", style="yellow"), "", "", "")
            continue
        players = (
            str(info["min_players"])
            if info["min_players"] == info["max_players"]
            else f"{info['min_players']}-{info['max_players']}"
        )
        if len(table.rows):
            table.add_section()
        table.add_row(
            info["id"],
            info["title"] + ("\n(co-op)" if info["cooperative"] else ""),
            players,
            "yes" if info["realtime"] else "no",
            "\n".join(info["bots"]),
        )
    console = Console()
    console.print(table)
    playable = [info for info in described if info["available"]]
    own = [info["id"] for info in playable if info.get("terminal")]
    generic = [info["id"] for info in playable if not info.get("terminal")]
    console.print("Play in this terminal (mindtable play GAME): every game above", highlight=False)
    console.print(f"  with a board of its own: {', '.join(own) if own else 'none'}", highlight=False)
    if generic:
        console.print(f"  in the generic terminal: {', '.join(generic)}", highlight=False)
    batch = [info["id"] for info in playable if info.get("batch_simulator")]
    console.print(f"Fast batch simulation: {', '.join(batch) if batch else 'none yet'}", highlight=False)
    for info in described:
        if info["available"] and info["options"]:
            console.print()
            console.print(_options_table(info))
    console.print("\n[dim](book) = as the rulebook says for the number of players.[/]")


def register(app: typer.Typer) -> None:
    app.command("games")(games)

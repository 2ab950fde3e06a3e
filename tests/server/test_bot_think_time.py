"""A room's quiz bots take their time (``room_bot_params``: Caída Libre's knowing bot thinks 1.2 s over each
move), so people at the table can follow; the creator may give another think time (``bot_params``)."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import httpx

#: The room default of Caída Libre's knowing bot (mindtable.games.caida_libre.rules.CaidaLibre).
THINK_MS = 1200


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


async def first_clocks(server: Any, helpers: Any, count: int, **body: Any) -> list[int]:
    """The match clock of the first ``count`` states after the start of an all-bot Caída Libre room."""
    created = await helpers.create_room(
        server.http,
        game="caida-libre",
        players=2,
        bots={"0": "knowing", "1": "knowing"},
        options={"language": "en", "starter": 0},
        **body,
    )
    return list(await helpers.state_clocks(server.ws, created["code"], count))


def test_a_rooms_quiz_bot_waits_its_think_time_before_each_move(server, helpers) -> None:
    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=server.http) as http:
            games = (await http.get("/api/games")).json()
        described = next(game for game in games if game["id"] == "caida-libre")
        assert described["room_bot_params"] == {"knowing": {"think_ms": THINK_MS}}
        clocks = await first_clocks(server, helpers, 3)  # draw, answer (or topic), confirm
        assert clocks[0] >= THINK_MS, clocks
        assert all(later - earlier >= THINK_MS for earlier, later in itertools.pairwise(clocks)), clocks

    run(scenario())


def test_the_creator_gives_a_room_bot_another_think_time(server, helpers) -> None:
    async def scenario() -> None:
        quick = {"think_ms": 0}
        clocks = await first_clocks(server, helpers, 3, bot_params={"0": quick, "1": quick}, bot_pace="off")
        assert clocks[-1] < 3 * THINK_MS, clocks  # three moves without the room's 1.2 s each (nor its pace)
        refused = None
        async with httpx.AsyncClient(base_url=server.http) as http:
            refused = await http.post(
                "/api/rooms",
                json={
                    "game": "caida-libre",
                    "players": 2,
                    "name": "Ana",
                    "bots": {"1": "knowing"},
                    "bot_params": {"1": {"think_ms": -5}},
                },
            )
        assert refused.status_code == 422
        assert "think_ms" in refused.text and "from 0" in refused.text

    run(scenario())

"""A room's bots take a person's pace (``bot_pace``: the game's ``room_bot_pace`` unless the creator gives one):
each step of a bot comes its think time after the step before on the room's clock, so people at the table see
the bot's question and its answer; a room may choose another pace, and a bad one is refused saying what is
allowed. (How the pace counts — think time, reading — is tests/core/test_pace.py, on the virtual clock.)"""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import httpx

#: A quick pace for the test: 0.15 s per step (a question read in proportion).
QUICK = 0.15


async def _clocks(server: Any, helpers: Any, count: int, **body: Any) -> tuple[str, list[int]]:
    """The room's code and the match clock of the first ``count`` states after the start of an all-bot room."""
    created = await helpers.create_room(
        server.http,
        game="carrera-de-mente",
        players=2,
        bots={"0": "knowing", "1": "knowing"},
        options={"board": "small"},
        **body,
    )
    return created["code"], await helpers.state_clocks(server.ws, created["code"], count)


def test_a_rooms_bots_take_their_pace_over_each_step(server, helpers) -> None:
    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=server.http) as http:
            games = {g["id"]: g for g in (await http.get("/api/games")).json()}
        assert games["carrera-de-mente"]["room_bot_pace"] == "normal"
        assert games["the-mind"]["room_bot_pace"] == "off"
        code, clocks = await _clocks(server, helpers, 4, bot_pace=QUICK)
        assert clocks[0] >= QUICK * 1000, clocks
        assert all(later - earlier >= QUICK * 1000 for earlier, later in itertools.pairwise(clocks)), clocks
        async with httpx.AsyncClient(base_url=server.http) as http:
            room = (await http.get(f"/api/rooms/{code}")).json()
        assert room["bot_pace"] == QUICK

    asyncio.run(scenario())


def test_a_room_is_paced_normally_unless_its_creator_says_otherwise(server, helpers) -> None:
    async def scenario() -> None:
        made = await helpers.create_room(server.http, game="carrera-de-mente", players=2, bots={"1": "knowing"})
        async with httpx.AsyncClient(base_url=server.http) as http:
            room = (await http.get(f"/api/rooms/{made['code']}")).json()
            assert room["bot_pace"] == "normal"
            # off: the bots play at once (four steps well within one normal think time of 1.5 s)
            _, clocks = await _clocks(server, helpers, 4, bot_pace="off")
            assert clocks[-1] < 1500, clocks
            for bad in ("fast", 61, -1, True, "1"):
                refused = await http.post(
                    "/api/rooms", json={"game": "carrera-de-mente", "players": 2, "name": "Ana", "bot_pace": bad}
                )
                assert refused.status_code == 422, (bad, refused.text)
                assert "bot_pace" in refused.text and "'off', 'normal' or 'slow'" in refused.text, refused.text

    asyncio.run(scenario())

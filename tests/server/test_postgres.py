"""The PostgreSQL backend: migrations, the action log, and a restart, against 127.0.0.1:5432/test."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import sqlalchemy as sa

pytestmark = pytest.mark.postgres

FAST = {"tempo_ms": 5, "reaction_ms": 10, "ready_ms": 10}


def test_postgres_backend_keeps_rooms_across_a_restart(pg_url, start_server, helpers) -> None:
    first = start_server(pg_url)

    async def play_a_little() -> tuple[dict[str, Any], dict[str, Any], int]:
        created = await helpers.create_room(first.http, players=2, name="Ana")
        joined = await helpers.join_room(first.http, created["code"])
        ana = await helpers.Client(first.ws, created["code"], created["token"]).connect()
        bo = await helpers.Client(first.ws, created["code"], joined["token"]).connect()
        for client in (ana, bo):
            await client.act({"type": "ready"}, "r")
            assert (await client.next(helpers.kind("accepted")))["step"] in (1, 2)
        state = await ana.next(lambda f: f["kind"] == "state" and f["step"] == 2)
        for client in (ana, bo):
            await client.close()
        return created, joined, len(state["view"]["hand"])

    created, joined, cards = asyncio.run(play_a_little())
    first.kill9()
    engine = sa.create_engine(pg_url)
    with engine.connect() as connection:
        assert connection.execute(sa.text("SELECT count(*) FROM actions")).scalar() == 2
        assert connection.execute(sa.text("SELECT version_num FROM alembic_version")).scalar() == "0004"
    engine.dispose()

    second = start_server(pg_url)

    async def finish() -> None:
        ana = await helpers.Client(second.ws, created["code"], created["token"]).connect()
        bo = await helpers.Client(second.ws, created["code"], joined["token"]).connect()
        snapshot = await ana.next(helpers.kind("state"))
        assert snapshot["step"] == 2 and snapshot["view"]["phase"] == "playing"
        assert len(snapshot["view"]["hand"]) == cards
        players = [helpers.PlayingClient(ana, 0, **FAST), helpers.PlayingClient(bo, 1, **FAST)]
        reached = lambda f: f.get("kind") == "state" and f["step"] >= 6  # noqa: E731
        await asyncio.gather(*(p.run(reached, timeout=30) for p in players))
        for client in (ana, bo):
            await client.close()

    asyncio.run(finish())
    second.stop()
    assert "Traceback" not in second.log(), second.log()

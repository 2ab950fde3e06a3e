"""A server killed with SIGKILL at any moment and started again keeps every acknowledged action."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import sqlalchemy as sa

FAST = {"tempo_ms": 30, "reaction_ms": 20, "ready_ms": 20}


def stored_actions(db_file: str, code: str) -> list[dict[str, Any]]:
    engine = sa.create_engine(f"sqlite:///{db_file}")
    with engine.connect() as connection:
        rows = connection.execute(
            sa.text(
                "SELECT a.idx, a.action FROM actions a JOIN rooms r ON r.id = a.room_id "
                "WHERE r.code = :code ORDER BY a.idx"
            ),
            {"code": code},
        ).all()
    engine.dispose()
    assert [idx for idx, _ in rows] == list(range(len(rows)))
    return [json.loads(text) for _, text in rows]


def test_sigkill_and_restart_keeps_every_acknowledged_action(start_server, tmp_path, helpers) -> None:
    db_file = str(tmp_path / "kill.sqlite3")
    first = start_server(db_file)

    async def before_kill() -> tuple[dict[str, Any], dict[str, Any], list[Any]]:
        created = await helpers.create_room(
            first.http,
            players=3,
            name="Ana",
            bots={"2": "proportional"},
            bot_params={"2": FAST},
            options={"lives": 5, "stars": 3},
            grace_s=30,
        )
        joined = await helpers.join_room(first.http, created["code"])
        ana = await helpers.Client(first.ws, created["code"], created["token"]).connect()
        bo = await helpers.Client(first.ws, created["code"], joined["token"]).connect()
        players = [helpers.PlayingClient(ana, 0, **FAST), helpers.PlayingClient(bo, 1, **FAST)]

        async def kill_soon() -> None:
            # Kill while actions are in flight: once a few have been acknowledged.
            while sum(len(p.accepted) for p in players) < 6:
                await asyncio.sleep(0.01)
            first.kill9()

        tasks = [asyncio.ensure_future(p.run(lambda f: False, timeout=30)) for p in players]
        await kill_soon()
        await asyncio.gather(*tasks, return_exceptions=True)
        return created, joined, players

    created, joined, players = asyncio.run(before_kill())
    code = created["code"]
    stored = stored_actions(db_file, code)
    acknowledged = 0
    for player in players:
        for accepted in player.accepted:
            sent = player.sent[accepted["id"]]
            action = stored[accepted["step"] - 1]
            assert action["seat"] == player.seat and action["type"] == sent["type"]
            acknowledged += 1
        # Every state a client saw was built on committed actions.
        steps = [f["step"] for f in player.client.frames if f.get("kind") == "state"]
        assert max(steps) <= len(stored)
    assert acknowledged >= 6

    second = start_server(db_file)

    async def after_restart() -> None:
        ana = helpers.Client(second.ws, code, created["token"])
        await ana.connect(last_seq=players[0].client.last_seq, stream=players[0].client.stream)
        assert ana.frames[0]["resumed"] is False
        snapshot = await ana.next(helpers.kind("state"))
        # The server bot may already have moved again since the restart.
        assert snapshot["step"] >= len(stored) and snapshot["status"] == "playing"
        bo = await helpers.Client(second.ws, code, joined["token"]).connect()
        resumed = [helpers.PlayingClient(ana, 0, **FAST), helpers.PlayingClient(bo, 1, **FAST)]
        target = len(stored) + 8
        reached = lambda f: f.get("kind") == "over" or (f.get("kind") == "state" and f["step"] >= target)  # noqa: E731
        await asyncio.gather(*(p.run(reached, timeout=30) for p in resumed))
        assert sum(len(p.accepted) for p in resumed) > 0
        for client in (ana, bo):
            await client.close()

    asyncio.run(after_restart())
    again = stored_actions(db_file, code)
    assert again[: len(stored)] == stored and len(again) > len(stored)
    times = [action["at"] for action in again]
    assert times == sorted(times)
    second.stop()
    assert "Traceback" not in second.log(), second.log()

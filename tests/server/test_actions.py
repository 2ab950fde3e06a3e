"""Issue 15, item 2 (server side): what is applied, stored and broadcast is one JSON value; a storage error
never leaves an unsaved action in memory; a failing handler is logged, never swallowed."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import pytest

from mindtable.server import create_app
from mindtable.server.manager import RoomManager
from mindtable.server.room import Room, Settings
from mindtable.server.storage import Storage, load_by_code


class Recorder:
    """Stands in for a connection: keeps what the room sends to it."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def send_message(self, message: dict[str, Any]) -> None:
        self.sent.append(message)


async def _playing_room(manager: RoomManager) -> Room:
    room, _, _ = await manager.create(
        game_id="the-mind", players=2, options={}, bots={}, bot_params={}, name="Ana", seat=None, settings=Settings()
    )
    await manager.join(room.code, "Bo", None)
    assert room.status == "playing"
    return room


def test_a_storage_error_takes_the_action_back(tmp_path: Path) -> None:
    async def scenario() -> None:
        storage = Storage(f"sqlite:///{tmp_path / 'fail.sqlite3'}")
        await asyncio.to_thread(storage.start)
        manager = RoomManager(storage)
        room = await _playing_room(manager)
        before = room.match.snapshot()
        real_append = storage.append

        async def failing(*args: Any) -> None:
            raise OSError("disk full")

        storage.append = failing  # type: ignore[method-assign]
        conn = Recorder()
        await room.act(0, {"type": "ready"}, conn=conn, client_id="r1")  # type: ignore[arg-type]
        assert conn.sent[-1]["kind"] == "rejected" and conn.sent[-1]["code"] == "storage_error"
        assert room.match.snapshot() == before and room.match.actions == [] and room.steps == 0
        storage.append = real_append  # type: ignore[method-assign]
        await room.act(0, {"type": "ready", "note": "not declared"}, conn=conn, client_id="r2")  # type: ignore[arg-type]
        assert conn.sent[-1]["kind"] == "rejected" and conn.sent[-1]["code"] == "unknown_field"  # the engine's own
        assert conn.sent[-1]["params"]["field"] == "note"
        await room.act(0, {"type": "ready"}, conn=conn, client_id="r3")  # type: ignore[arg-type]
        assert conn.sent[-1]["kind"] == "accepted"
        stored = await storage.run(lambda c: load_by_code(c, room.code))
        assert stored is not None
        # Memory, the database and the record hold the same action, byte for byte.
        assert stored.actions == room.match.actions == room.match.record()["actions"]
        json.dumps(room.match.record(), allow_nan=False).encode("utf-8")
        await manager.shutdown()
        await asyncio.to_thread(storage.stop)

    asyncio.run(scenario())


@pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")
def test_a_failing_handler_is_logged_and_the_client_told(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from starlette.testclient import TestClient

    app = create_app(db_url=str(tmp_path / "handler.sqlite3"), static_dir=tmp_path)
    with TestClient(app) as client:
        created = client.post("/api/rooms", json={"game": "the-mind", "players": 2}).json()
        client.post(f"/api/rooms/{created['code']}/join", json={"name": "Bo"})

        async def broken(*_args: Any, **_kwargs: Any) -> None:
            raise RuntimeError("a bug in the room")

        original = Room.act
        Room.act = broken  # type: ignore[method-assign]
        try:
            url = f"/ws/{created['code']}?token={created['token']}"
            with caplog.at_level(logging.ERROR, logger="mindtable.server"), client.websocket_connect(url) as ws:
                ws.send_json({"type": "hello", "last_seq": 0})
                while ws.receive_json()["kind"] != "state":
                    pass
                ws.send_json({"type": "action", "id": "a", "action": {"type": "ready"}})
                answer = ws.receive_json()
                while answer["kind"] != "error":
                    answer = ws.receive_json()
                assert answer["code"] == "server_error"
        finally:
            Room.act = original  # type: ignore[method-assign]
    assert any("WebSocket handler failed" in r.getMessage() and r.exc_info for r in caplog.records)


def test_a_rejected_frame_marks_the_parameters_that_are_seats_and_ids_with_labels(tmp_path: Path) -> None:
    """The engine refuses a Carrera de Mente steal of a colour the victim lacks: the rejected frame keeps the
    parameters as sent (numbers, ids) and says which name a seat and which are ids with a label, for the page."""

    async def scenario() -> None:
        storage = Storage(f"sqlite:///{tmp_path / 'labels.sqlite3'}")
        await asyncio.to_thread(storage.start)
        manager = RoomManager(storage)
        room, _, _ = await manager.create(
            game_id="carrera-de-mente",
            players=2,
            options={},
            bots={},
            bot_params={},
            name="Ana",
            seat=None,
            settings=Settings(),
        )
        conn = Recorder()
        params = {"victim": 1, "colour": "pink", "allowed": ["brown", "green"]}
        room._reject(conn, "r1", "cm_steal_colour", "refused", params)  # type: ignore[arg-type]
        frame = conn.sent[-1]
        assert frame["kind"] == "rejected" and frame["params"] == params
        assert frame["seats"] == ["victim"]
        assert frame["labels"] == {"colour": "cm.colour", "allowed": "cm.colour"}
        await manager.shutdown()
        await asyncio.to_thread(storage.stop)

    asyncio.run(scenario())

"""Issue 16 (server side): a name asked for in words, every registered game in the lobby, a finished room that
says so, /docs that works offline, a bad --db in one line, bots named "Ada (bot)", rooms a bot finished."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from mindtable.cli.app import app as cli
from mindtable.server import create_app
from mindtable.server.manager import RoomManager
from mindtable.server.room import Settings
from mindtable.server.storage import Storage, database_problem

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with TestClient(create_app(db_url=str(tmp_path / "visit.sqlite3"))) as http:
        yield http


@pytest.mark.parametrize(
    ("name", "code", "params"),
    [
        ("", "name_required", {}),
        ("   ", "name_required", {}),
        ("x" * 41, "name_too_long", {"max": 40}),
        ("!!!", "name_needs_letter", {}),
    ],
)
def test_a_missing_or_unusable_name_gets_its_own_code_on_create_and_join(client, name, code, params) -> None:
    created = client.post("/api/rooms", json={"game": "the-mind", "players": 2, "name": name})
    assert created.status_code == 422
    assert created.json()["detail"]["code"] == code and created.json()["detail"]["params"] == params
    room = client.post("/api/rooms", json={"game": "the-mind", "players": 2, "name": "Ana"}).json()
    joined = client.post(f"/api/rooms/{room['code']}/join", json={"name": name})
    assert joined.status_code == 422 and joined.json()["detail"]["code"] == code
    assert "name" in joined.json()["detail"]["message"]


def test_other_body_errors_still_list_the_fields(client) -> None:
    response = client.post("/api/rooms", json={"game": "the-mind", "players": "two"})
    assert response.status_code == 422 and response.json()["detail"][0]["loc"] == ["body", "players"]


def test_the_lobby_lists_every_registered_game_and_marks_the_coming_ones(client) -> None:
    from mindtable.core.registry import available_game_ids, game_ids

    games = client.get("/api/games").json()
    ids = [game["id"] for game in games]
    assert ids[:2] == ["the-mind", "neurorace"]
    # every installed game (plugins too), in the registry's order; the playable ones marked so
    assert ids == [game_id for game_id in game_ids() if game_id in ids] and set(available_game_ids()) <= set(ids)
    available = {game["id"]: game["available"] for game in games}
    assert all(available[game_id] for game_id in available_game_ids())
    caida = next(game for game in games if game["id"] == "caida-libre")
    assert caida["title"] == "Caída Libre" and caida["min_players"] == 2 and caida["max_players"] == 8


def test_the_api_documentation_loads_its_scripts_from_this_server(client) -> None:
    page = client.get("/docs")
    assert page.status_code == 200
    assert "cdn" not in page.text.lower() and "/docs-assets/swagger-ui-bundle.js" in page.text
    script = client.get("/docs-assets/swagger-ui-bundle.js")
    assert script.status_code == 200 and len(script.content) > 100_000
    redoc = client.get("/redoc")
    assert "/docs-assets/redoc.standalone.js" in redoc.text and "fonts.googleapis" not in redoc.text
    assert client.get("/docs-assets/redoc.standalone.js").status_code == 200


def test_a_bad_database_is_one_line_and_a_non_zero_exit_before_anything_is_served(tmp_path: Path) -> None:
    runner = CliRunner()
    for db in ("nosuch://x", str(tmp_path / "no" / "such" / "folder" / "x.sqlite3")):
        result = runner.invoke(cli, ["serve", "--db", db])
        assert result.exit_code == 2
        assert "serving" not in result.output and "Traceback" not in result.output
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("Error:"), result.output
    assert "folder exists" in (database_problem(str(tmp_path / "no" / "x.db")) or "")
    assert database_problem(str(tmp_path / "fine.sqlite3")) is None


def _with_manager(tmp_path: Path, scenario: Any) -> None:
    async def run() -> None:
        storage = Storage(f"sqlite:///{tmp_path / 'rooms.sqlite3'}")
        await asyncio.to_thread(storage.start)
        manager = RoomManager(storage)
        try:
            await scenario(manager)
        finally:
            await manager.shutdown()
            await asyncio.to_thread(storage.stop)

    asyncio.run(run())


def test_joining_a_finished_room_says_the_game_is_over_and_where_its_replay_is(tmp_path: Path) -> None:
    from mindtable.server.room import RoomError

    async def scenario(manager: RoomManager) -> None:
        room, _, _ = await manager.create(
            game_id="the-mind",
            players=2,
            options={"last_level": 1},
            bots={"1": "proportional"},
            bot_params={},
            name="Ana",
            seat=0,
            settings=Settings(),
        )
        room.status = "over"
        with pytest.raises(RoomError) as info:
            await manager.join(room.code, "Bo", None)
        error = info.value
        assert (error.status, error.code) == (409, "room_over")
        assert error.params == {"code": room.code, "game": "the-mind", "replay": f"replay.html?code={room.code}"}

    _with_manager(tmp_path, scenario)


def test_bots_are_named_and_a_seat_a_bot_finished_is_reported_and_not_listed(tmp_path: Path) -> None:
    async def scenario(manager: RoomManager) -> None:
        room, _, token = await manager.create(
            game_id="the-mind",
            players=2,
            options={"last_level": 1},
            bots={"1": "proportional"},
            bot_params={},
            name="Bob",
            seat=0,
            settings=Settings(),
        )
        assert room.status == "playing"
        seats = room.to_dict()["seats"]
        assert [s["name"] for s in seats] == ["Bob", "Alan (bot)"] and seats[1]["player"] is None
        assert room.code in [r["code"] for r in manager.public_rooms()]
        await manager.leave(room.code, token)  # Bob closes the tab: a bot takes his seat
        seats = room.to_dict()["seats"]
        assert seats[0]["name"] == "Ada (bot)" and seats[0]["player"] == "Bob" and seats[0]["replaced"]
        assert room.code not in [r["code"] for r in manager.public_rooms()]  # only bots remain
        # Play the level out (one card each) for both seats, as the bots would.
        for _ in range(4):
            if room.status == "over":
                break
            for index in (0, 1):
                legal = room.match.legal_actions(index)
                if legal:
                    await room.act(index, {"type": legal[0]["type"]})
        assert room.status == "over"
        shown = room.to_dict()["result"]
        assert shown["details"]["bot_finished"] == [0]
        assert room.match.result is not None and "bot_finished" not in room.match.result.details  # the record's
        over = [m for m in _sent(room) if m.get("kind") == "over"]
        assert over and over[-1]["result"]["details"]["bot_finished"] == [0]

    _with_manager(tmp_path, scenario)


def test_a_room_created_with_bots_only_is_not_listed_as_an_open_game(tmp_path: Path) -> None:
    async def scenario(manager: RoomManager) -> None:
        room, seat, _ = await manager.create(
            game_id="the-mind",
            players=2,
            options={},
            bots={"0": "proportional", "1": "proportional"},
            bot_params={},
            name="Ana",
            seat=None,
            settings=Settings(),
        )
        assert seat is None and room.status == "playing"
        assert manager.public_rooms() == []

    _with_manager(tmp_path, scenario)


def _sent(room: Any) -> list[dict[str, Any]]:
    """The messages the room pushed to seat 1's stream."""
    return [json.loads("{" + text.split(",", 1)[1]) for text in room.streams[1].kept() if text]

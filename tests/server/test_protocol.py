"""The lobby and the WebSocket protocol, through real HTTP and WebSocket clients against a real server."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import websockets

import mindtable

FAST = {"tempo_ms": 5, "reaction_ms": 10, "ready_ms": 10}


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


def test_games_rooms_and_openapi(server, helpers) -> None:
    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=server.http) as http:
            games = (await http.get("/api/games")).json()
            assert "the-mind" in [game["id"] for game in games]
            openapi = (await http.get("/openapi.json")).json()
            assert {"/api/rooms", "/api/rooms/{code}/join", "/api/rooms/{code}/record"} <= set(openapi["paths"])
            created = await helpers.create_room(server.http, players=3, name="Ana", options={"lives": 5})
            code = created["code"]
            assert len(code) == 6 and set(code) <= set("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
            assert created["seat"] == 0 and created["room"]["status"] == "waiting"
            assert created["room"]["options"]["lives"] == 5
            listed = (await http.get("/api/rooms")).json()
            assert code in [room["code"] for room in listed]
            room = (await http.get(f"/api/rooms/{code.lower()}")).json()
            assert [seat["kind"] for seat in room["seats"]] == ["human", "open", "open"]
            joined = (await http.post(f"/api/rooms/{code}/join", json={"name": "Bo", "seat": 2})).json()
            assert joined["seat"] == 2
            taken = await http.post(f"/api/rooms/{code}/join", json={"name": "Cy", "seat": 2})
            assert taken.status_code == 409 and taken.json()["detail"]["code"] == "seat_taken"
            last = (await http.post(f"/api/rooms/{code}/join", json={"name": "Cy"})).json()
            assert last["seat"] == 1 and last["room"]["status"] == "playing"
            full = await http.post(f"/api/rooms/{code}/join", json={"name": "Di"})
            assert full.status_code == 409 and full.json()["detail"]["code"] == "room_full"
            assert (await http.get("/api/rooms/ZZZZZZ")).status_code == 404
            record = await http.get(f"/api/rooms/{code}/record")
            assert record.status_code == 403 and record.json()["detail"]["code"] == "not_over"
            steps = await http.get(f"/api/rooms/{code}/replay")
            assert steps.status_code == 403 and steps.json()["detail"]["code"] == "not_over"

    run(scenario())


def test_bad_room_requests_get_specific_errors(server) -> None:
    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=server.http) as http:
            cases = [
                ({"game": "chess", "players": 2}, 404, "unknown_game"),
                ({"game": "the-mind", "players": 9}, 422, "bad_options"),
                ({"game": "the-mind", "players": 2, "options": {"lifes": 3}}, 422, "bad_options"),
                ({"game": "the-mind", "players": 2, "bots": {"1": "genius"}}, 422, "bad_bot"),
                ({"game": "the-mind", "players": 2, "bots": {"5": "proportional"}}, 422, "bad_seat"),
                (
                    {
                        "game": "the-mind",
                        "players": 2,
                        "bots": {"1": "proportional"},
                        "bot_params": {"1": {"tempo_ms": -1}},
                    },
                    422,
                    "bad_bot",
                ),
            ]
            for body, status, code in cases:
                response = await http.post("/api/rooms", json=body)
                assert response.status_code == status, (body, response.text)
                assert response.json()["detail"]["code"] == code
                assert response.json()["detail"]["message"]
            response = await http.post("/api/rooms", json={"game": "the-mind", "players": 2, "colour": "red"})
            assert response.status_code == 422 and "colour" in response.text
            response = await http.post("/api/rooms/ABCDEF/leave", headers={"Authorization": "Bearer nope"})
            assert response.status_code == 404

    run(scenario())


def test_actions_are_stamped_checked_and_broadcast(server, helpers) -> None:
    async def scenario() -> None:
        created = await helpers.create_room(server.http, name="Ana")
        code = created["code"]
        ana = await helpers.Client(server.ws, code, created["token"]).connect()
        welcome = ana.frames[0]
        assert welcome["kind"] == "welcome" and welcome["seat"] == 0 and welcome["resumed"] is False
        assert welcome["game"]["id"] == "the-mind" and welcome["room"]["code"] == code
        snapshot = await ana.next(helpers.kind("state"))
        assert snapshot["status"] == "waiting" and snapshot["legal"] == [] and len(snapshot["view"]["hand"]) == 1
        # Acting before the match starts is refused with a reason.
        await ana.act({"type": "ready"}, "early")
        refused = await ana.next(helpers.kind("rejected"))
        assert refused["id"] == "early" and refused["code"] == "not_playing"

        joined = await helpers.join_room(server.http, code)
        bo = await helpers.Client(server.ws, code, joined["token"]).connect()
        started = await ana.next(lambda f: f["kind"] == "state" and f["status"] == "playing")
        assert {"type": "ready", "seat": 0} in started["legal"]
        await bo.next(lambda f: f["kind"] == "state" and f["status"] == "playing")

        # The client's "seat" and "at" are ignored: the token decides who acts, the server's clock when.
        await ana.act({"type": "ready", "seat": 1, "at": 99999999}, "r1")
        accepted = await ana.next(helpers.kind("accepted"))
        assert accepted == {"kind": "accepted", "id": "r1", "step": 1}
        events = await bo.next(helpers.kind("events"))
        assert events["events"] == [{"type": "ready", "seat": 0}] and events["step"] == 1
        state = await bo.next(helpers.kind("state"))
        assert state["view"]["ready"] == [True, False] and state["step"] == 1
        assert 0 <= state["clock"] < 60_000

        # An illegal action gets the engine's code and reason, and changes nothing.
        await ana.act({"type": "ready"}, "r2")
        rejected = await ana.next(helpers.kind("rejected"))
        assert rejected["id"] == "r2" and rejected["code"] == "already_ready" and "already ready" in rejected["message"]
        await ana.act({"type": "dance"}, "r3")
        assert (await ana.next(helpers.kind("rejected")))["code"] == "unknown_action"

        await bo.act({"type": "ready"}, "b1")
        await bo.next(helpers.kind("accepted"))
        playing = await ana.next(lambda f: f["kind"] == "state" and f["step"] == 2)
        assert playing["view"]["phase"] == "playing" and "play" in [a["type"] for a in playing["legal"]]
        # Spectators see the table, no hand, and cannot act.
        watcher = await helpers.Client(server.ws, code).connect()
        assert watcher.frames[0]["seat"] is None
        view = (await watcher.next(helpers.kind("state")))["view"]
        assert view["hand"] is None and view["hand_counts"] == [1, 1]
        await watcher.act({"type": "play"})
        assert (await watcher.next(helpers.kind("error")))["code"] == "not_a_seat"
        for client in (ana, bo, watcher):
            await client.close()

    run(scenario())


def test_bad_token_and_unknown_room_are_refused(server, helpers) -> None:
    async def scenario() -> None:
        created = await helpers.create_room(server.http)
        for url, code, close in (
            (f"{server.ws}/ws/{created['code']}?token=forged", "bad_token", 4401),
            (f"{server.ws}/ws/QQQQQQ", "unknown_room", 4404),
        ):
            async with websockets.connect(url) as ws:
                error = json.loads(await asyncio.wait_for(ws.recv(), 5))
                assert error["kind"] == "error" and error["code"] == code
                try:
                    await asyncio.wait_for(ws.recv(), 5)
                except websockets.ConnectionClosed as exc:
                    assert exc.rcvd is not None and exc.rcvd.code == close
        # Another room's token opens nothing here.
        other = await helpers.create_room(server.http)
        async with websockets.connect(f"{server.ws}/ws/{created['code']}?token={other['token']}") as ws:
            assert json.loads(await asyncio.wait_for(ws.recv(), 5))["code"] == "bad_token"

    run(scenario())


def test_limits_size_rate_and_schema(server, helpers) -> None:
    async def scenario() -> None:
        created = await helpers.create_room(server.http)
        client = await helpers.Client(server.ws, created["code"], created["token"]).connect()
        await client.send({"type": "ping", "pad": "x" * 5000})
        assert (await client.next(helpers.kind("error")))["code"] == "too_large"
        await client.send("{not json")
        assert (await client.next(helpers.kind("error")))["code"] == "bad_json"
        await client.send({"type": "action", "action": {"type": "ready"}, "extra": 1})
        error = await client.next(helpers.kind("error"))
        assert error["code"] == "bad_message" and "extra" in error["message"]
        await client.send(b"\x00\x01")
        assert (await client.next(helpers.kind("error")))["code"] == "bad_message"
        await asyncio.sleep(1.1)  # refill the bucket
        await asyncio.gather(*(client.send({"type": "ping"}) for _ in range(100)))
        answers = [await client.next(lambda f: f["kind"] in ("pong", "error")) for _ in range(100)]
        pongs = sum(1 for a in answers if a["kind"] == "pong")
        limited = [a for a in answers if a["kind"] == "error"]
        assert 20 <= pongs < 100 and limited and all(a["code"] == "rate_limited" for a in limited)
        await client.close()

    run(scenario())


def test_reconnect_gets_exactly_the_missed_messages(server, helpers) -> None:
    async def scenario() -> None:
        created = await helpers.create_room(server.http)
        joined = await helpers.join_room(server.http, created["code"])
        steady = await helpers.Client(server.ws, created["code"], created["token"]).connect()
        flaky = await helpers.Client(server.ws, created["code"], created["token"]).connect()
        bo = await helpers.Client(server.ws, created["code"], joined["token"]).connect()
        await flaky.next(helpers.kind("state"))
        await flaky.close()
        last_seq, stream = flaky.last_seq, flaky.stream
        await bo.act({"type": "ready"}, "b1")
        await bo.next(helpers.kind("accepted"))
        await steady.act({"type": "ready"}, "a1")
        await steady.next(helpers.kind("accepted"))
        await steady.next(lambda f: f["kind"] == "state" and f["step"] == 2)

        again = helpers.Client(server.ws, created["code"], created["token"])
        await again.connect(last_seq=last_seq, stream=stream)
        welcome = again.frames[0]
        assert welcome["resumed"] is True
        missed = [f for f in steady.frames if "seq" in f and f["kind"] != "welcome" and f["seq"] > last_seq]
        got = [await again.recv() for _ in missed]
        assert got == missed
        assert [f["seq"] for f in got] == list(range(last_seq + 1, welcome["seq"] + 1))
        # A stale stream id (e.g. after a restart) gets a snapshot instead.
        fresh = helpers.Client(server.ws, created["code"], created["token"])
        await fresh.connect(last_seq=last_seq, stream="0000")
        assert fresh.frames[0]["resumed"] is False
        snapshot = await fresh.next(helpers.kind("state"))
        assert snapshot["seq"] == fresh.frames[0]["seq"] and snapshot["step"] == 2
        for client in (steady, again, fresh, bo):
            await client.close()

    run(scenario())


def test_bots_play_and_record_is_published_when_over(server, helpers) -> None:
    async def scenario() -> None:
        created = await helpers.create_room(
            server.http,
            players=2,
            bots={"0": "proportional", "1": "random-timing"},
            bot_params={"0": FAST, "1": {"max_wait_ms": 50, "reaction_ms": 5, "ready_ms": 5}},
            options={"last_level": 2},
        )
        assert created["seat"] is None and created["token"] is None
        watcher = await helpers.Client(server.ws, created["code"]).connect()
        over = await watcher.next(helpers.kind("over"), timeout=30)
        async with httpx.AsyncClient(base_url=server.http) as http:
            record = (await http.get(f"/api/rooms/{created['code']}/record")).json()
            room = (await http.get(f"/api/rooms/{created['code']}")).json()
        assert room["status"] == "over" and room["result"] == over["result"]
        replayed = mindtable.replay(record)
        assert replayed.result is not None
        shown = dict(over["result"], details=dict(over["result"]["details"]))
        assert shown["details"].pop("bot_finished") == []  # the room adds it: no seat was left to a bot
        assert replayed.result.to_dict() == shown
        times = [action["at"] for action in record["actions"]]
        assert times == sorted(times)
        async with httpx.AsyncClient(base_url=server.http) as http:
            steps = (await http.get(f"/api/rooms/{created['code']}/replay")).json()["steps"]
        assert len(steps) == len(record["actions"]) + 1 and steps[0]["action"] is None
        assert [step["action"] for step in steps[1:]] == record["actions"]
        assert all(step["view"]["hand"] is None for step in steps), "a replay is a spectator's view: no hands"
        assert steps[-1]["view"] == replayed.view(None)
        async with httpx.AsyncClient(base_url=server.http) as http:
            as_bob = (await http.get(f"/api/rooms/{created['code']}/replay?seat=1")).json()
            no_seat = await http.get(f"/api/rooms/{created['code']}/replay?seat=2")
        # the game is over: the replay may be seen as one seat saw it, that seat's hand included
        assert as_bob["seat"] == 1 and as_bob["steps"][0]["view"]["hand"] == record["start"]["state"]["hands"][1]
        assert as_bob["steps"][-1]["view"] == replayed.view(1)
        assert no_seat.status_code == 422 and no_seat.json()["detail"]["code"] == "bad_seat"
        assert no_seat.json()["detail"]["params"] == {"last": 1, "seat": 2}
        await watcher.close()

    run(scenario())


def test_grace_period_bot_takes_over_and_token_reclaims(server, helpers) -> None:
    async def scenario() -> None:
        created = await helpers.create_room(
            server.http, bots={"1": "proportional"}, bot_params={"1": FAST}, grace_s=0.3
        )
        code, token = created["code"], created["token"]
        watcher = await helpers.Client(server.ws, code).connect()
        ana = await helpers.Client(server.ws, code, token).connect()
        await watcher.next(lambda f: f["kind"] == "presence" and f["seats"][0]["connected"])
        await ana.close()
        replaced = await watcher.next(lambda f: f["kind"] == "presence" and f["seats"][0]["replaced"])
        assert replaced["seats"][0]["kind"] == "bot" and replaced["seats"][0]["name"] is not None
        # The bot now plays seat 0.
        await watcher.next(lambda f: f["kind"] == "events" and {"type": "ready", "seat": 0} in f["events"])
        back = await helpers.Client(server.ws, code, token).connect()
        assert back.frames[0]["seat"] == 0
        presence = await watcher.next(
            lambda f: f["kind"] == "presence" and not f["seats"][0]["replaced"] and f["seats"][0]["connected"]
        )
        assert presence["seats"][0]["kind"] == "human"
        for client in (watcher, back):
            await client.close()

    run(scenario())


def test_leave_and_rematch(server, helpers) -> None:
    async def scenario() -> None:
        created = await helpers.create_room(server.http, players=3, name="Ana")
        code = created["code"]
        async with httpx.AsyncClient(base_url=server.http) as http:
            joined = (await http.post(f"/api/rooms/{code}/join", json={"name": "Bo"})).json()
            left = await http.post(f"/api/rooms/{code}/leave", headers={"Authorization": f"Bearer {joined['token']}"})
            assert left.json() == {"ok": True}
            room = (await http.get(f"/api/rooms/{code}")).json()
            assert room["seats"][1]["kind"] == "open"
            forbidden = await http.post(
                f"/api/rooms/{code}/leave", headers={"Authorization": f"Bearer {joined['token']}"}
            )
            assert forbidden.status_code == 401
            early = await http.post(
                f"/api/rooms/{code}/rematch", headers={"Authorization": f"Bearer {created['token']}"}
            )
            assert early.status_code == 409

        finished = await helpers.create_room(
            server.http,
            bots={"1": "random-timing"},
            name="Ana",
            bot_params={"1": {"max_wait_ms": 20, "reaction_ms": 5, "ready_ms": 5}},
            options={"last_level": 1, "lives": 1},
        )
        ana = await helpers.Client(server.ws, finished["code"], finished["token"]).connect()
        player = helpers.PlayingClient(ana, 0, **FAST)
        await player.run(helpers.kind("over"), timeout=20)
        async with httpx.AsyncClient(base_url=server.http) as http:
            again = (
                await http.post(
                    f"/api/rooms/{finished['code']}/rematch", headers={"Authorization": f"Bearer {finished['token']}"}
                )
            ).json()
        assert again["seat"] == 0 and again["code"] != finished["code"]
        assert again["room"]["seats"][1]["bot"] == "random-timing" and again["room"]["options"]["last_level"] == 1
        notice = await ana.next(lambda f: f["kind"] == "presence" and f["rematch"])
        assert notice["rematch"] == again["code"]
        await ana.close()

    run(scenario())


@pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")
def test_static_pages_and_the_serve_command(tmp_path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    from fastapi.testclient import TestClient

    from mindtable.server import create_app

    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "index.html").write_text("<h1>lobby</h1>")
    with TestClient(create_app(db_url=str(tmp_path / "t.sqlite3"), static_dir=tmp_path / "web")) as client:
        assert "lobby" in client.get("/").text
        assert client.get("/api/games").status_code == 200
        assert client.get("/nothing.html").status_code == 404

    # `mindtable serve` creates mindtable.sqlite3 in the current directory by default.
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    script = "import sys; from mindtable.cli import main; sys.argv = ['mindtable'] + sys.argv[1:]; main()"
    process = subprocess.Popen(
        [sys.executable, "-c", script, "serve", "--port", str(port), "--log-level", "warning"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ},
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline and process.poll() is None, "mindtable serve did not start"
            time.sleep(0.1)
        assert (tmp_path / "mindtable.sqlite3").exists()
    finally:
        process.send_signal(signal.SIGTERM)
        output = process.communicate(timeout=15)[0].decode()
    assert f"http://127.0.0.1:{port}/" in output


def test_leaving_a_match_hands_the_seat_to_a_bot_until_reclaimed(server, helpers) -> None:
    async def scenario() -> None:
        created = await helpers.create_room(server.http, bots={"1": "proportional"}, bot_params={"1": FAST})
        code, token = created["code"], created["token"]
        ana = await helpers.Client(server.ws, code, token).connect()
        watcher = await helpers.Client(server.ws, code).connect()
        async with httpx.AsyncClient(base_url=server.http) as http:
            left = await http.post(f"/api/rooms/{code}/leave", headers={"Authorization": f"Bearer {token}"})
            assert left.json() == {"ok": True}
        # The leaver's connection is closed with 4000; the bot plays the seat at once.
        try:
            await ana.next(lambda f: False, timeout=5)
        except websockets.ConnectionClosed as exc:
            assert exc.rcvd is not None and exc.rcvd.code == 4000
        await watcher.next(lambda f: f["kind"] == "presence" and f["seats"][0]["replaced"])
        await watcher.next(lambda f: f["kind"] == "events" and {"type": "ready", "seat": 0} in f["events"])
        back = await helpers.Client(server.ws, code, token).connect()
        assert back.frames[0]["seat"] == 0 and back.frames[0]["room"]["seats"][0]["kind"] == "human"
        for client in (watcher, back):
            await client.close()

    run(scenario())

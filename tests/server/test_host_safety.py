"""Safe to host in public: a browser never makes the server open a path; content comes from the host's folders
by name or from the group's own upload; leaving ends every connection of a seat token; tokens stay out of logs;
rematch holds survive a restart."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from mindtable.server import create_app
from mindtable.server.run import RedactTokens

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")

QUIZ_YAML = """\
title: Pub quiz
language: en
questions:
  - id: pub-001
    category: geography
    question: Which river flows through Vienna, Budapest and Belgrade?
    answer: the DANUBE
  - id: pub-002
    category: science
    question: Which gas do plants take in from the air to make sugar in photosynthesis?
    answer: CARBON DIOXIDE
    accept: [CO2]
  - id: pub-003
    category: sport
    question: How many players of one team are on the field in a game of rugby union?
    answer: 15
    value: 15
  - id: pub-004
    category: film
    question: Which film director made "Psycho" (1960)?
    answer: Alfred HITCHCOCK
    person: true
  - id: pub-005
    category: literature
    question: In which city is Shakespeare's "Romeo and Juliet" set?
    answer: VERONA
  - id: pub-006
    category: food
    question: Which country does the cheese feta come from?
    answer: GREECE
"""

QUIZ_CSV = """question,answer,category
Which river flows through Vienna?,Danube,geography
Which planet is nearest the Sun?,Mercury,science
How many players of one team are on the field in rugby union?,15,sport
Who directed the film Psycho?,Hitchcock,film
In which city is Romeo and Juliet set?,Verona,literature
Which country does feta cheese come from?,Greece,food
"""


def client_at(app: Any, address: str) -> TestClient:
    return TestClient(app, client=(address, 50000))


@pytest.fixture
def app(tmp_path: Path) -> Any:
    folder = tmp_path / "content"
    (folder / "quizzes").mkdir(parents=True)
    (folder / "quizzes" / "pub.yaml").write_text(QUIZ_YAML, encoding="utf-8")
    (folder / "notes.txt").write_text("not a question file", encoding="utf-8")
    return create_app(db_url=str(tmp_path / "safe.sqlite3"), content=[folder])


def carrera(options: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"game": "carrera-de-mente", "players": 2, "name": "Ana", "options": options, **extra}


@pytest.mark.parametrize(
    ("game", "option"),
    [
        ("carrera-de-mente", "bank_file"),
        ("carrera-de-mente", "board_file"),
        ("eesti-malumang", "board_file"),
        ("caida-libre", "board"),
    ],
)
@pytest.mark.parametrize("path", ["/etc/shadow", "/etc/passwd", "/dev/zero", "/dev/stdin", "/", "../../etc"])
def test_a_room_option_never_opens_a_path_a_browser_names(app, game, option, path) -> None:
    with TestClient(app) as http:
        response = http.post("/api/rooms", json={"game": game, "players": 2, "name": "Ana", "options": {option: path}})
        assert response.status_code == 422
        detail = response.json()["detail"]
        assert detail["code"] == "bad_options" and detail["params"]["option"] == option
        assert "never opens a path" in detail["message"]
        assert "root:" not in json.dumps(detail)  # nothing of any file comes back
        # and the same refusal whether the path exists or not: nothing is learnt about the server's files
        other = http.post(
            "/api/rooms", json={"game": game, "players": 2, "name": "Ana", "options": {option: path + "-nope"}}
        ).json()["detail"]
        assert other["message"].replace(path + "-nope", path) == detail["message"]


def test_the_lobby_lists_what_the_host_offers_and_a_room_plays_it_by_name(app) -> None:
    with TestClient(app) as http:
        games = {game["id"]: game for game in http.get("/api/games").json()}
        options = {o["name"]: o for o in games["carrera-de-mente"]["options"]}
        assert options["bank_file"]["file"] == "bank"
        assert options["bank_file"]["offered"] == ["host:quizzes/", "host:quizzes/pub"]  # a folder, a file
        assert options["board_file"]["offered"] == []  # a question file is no board
        created = http.post("/api/rooms", json=carrera({"bank_file": "host:quizzes/pub"}))
        assert created.status_code == 201, created.text
        room = created.json()["room"]
        assert room["options"]["bank_file"] == "host:quizzes/pub"  # a name, never the host's path
        assert str(Path.cwd()) not in json.dumps(room)
        refused = http.post("/api/rooms", json=carrera({"bank_file": "host:notes"})).json()["detail"]
        assert refused["code"] == "bad_options" and refused["params"]["offered"] == [
            "host:quizzes/",
            "host:quizzes/pub",
        ]


def test_an_upload_is_checked_kept_and_usable_only_by_its_sender_for_one_room(app) -> None:
    with client_at(app, "10.1.1.1") as ana, client_at(app, "10.2.2.2") as eve:
        sent = ana.post(
            "/api/uploads",
            params={"game": "carrera-de-mente", "option": "bank_file", "name": "quiz night.csv"},
            content=QUIZ_CSV.encode(),
        )
        assert sent.status_code == 201, sent.text
        upload = sent.json()
        assert upload["value"].startswith("upload:") and upload["name"] == "quiz night.yaml"  # CSV kept as YAML
        stolen = eve.post("/api/rooms", json=carrera({"bank_file": upload["value"]}))
        assert stolen.status_code == 422 and stolen.json()["detail"]["code"] == "bad_options"
        created = ana.post("/api/rooms", json=carrera({"bank_file": upload["value"]}))
        assert created.status_code == 201, created.text
        code = created.json()["code"]
        again = ana.post("/api/rooms", json=carrera({"bank_file": upload["value"]}))
        assert again.status_code == 422  # it belongs to that room now
        joined = eve.post(f"/api/rooms/{code}/join", json={"name": "Eve"})
        assert joined.status_code == 200
        match = app.state.manager.rooms[code].match
        from mindtable.games.carrera_de_mente.rules import _parse_booklet as unpack_booklet

        dealt = json.dumps([unpack_booklet(text) for text in match.state["booklets"].values()])
        assert "Vienna" in dealt and "Eiffel" not in dealt  # the group's own questions, and only those
        assert "upload:" in json.dumps(match.record()["options"]) and "/tmp" not in json.dumps(match.record())


@pytest.mark.parametrize(
    ("name", "body", "code"),
    [
        ("quiz.exe", b"x", "bad_upload"),
        ("quiz.yaml", b"", "bad_upload"),
        ("quiz.yaml", b"questions:\n  - id: a\n    question: What?\n", "bad_upload"),
        ("quiz.yaml", b"questions: [1, 2", "bad_upload"),
    ],
)
def test_a_bad_upload_is_refused_with_line_and_field_and_nothing_is_kept(app, tmp_path, name, body, code) -> None:
    with TestClient(app) as http:
        response = http.post(
            "/api/uploads", params={"game": "carrera-de-mente", "option": "bank_file", "name": name}, content=body
        )
        assert response.status_code == 422, response.text
        detail = response.json()["detail"]
        assert detail["code"] == code
        assert "mindtable-upload" not in json.dumps(detail)  # the server's own paths never show
    if b"question: What?" in body:
        problems = detail["params"]["problems"]
        assert problems[0]["line"] == 2 and problems[0]["field"] == "questions[0].answer"
    with sqlite3.connect(tmp_path / "safe.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM uploads").fetchone()[0] == 0


def test_an_upload_over_the_size_cap_is_refused_before_it_is_read(tmp_path) -> None:
    from mindtable.server.limits import Limits

    app = create_app(db_url=str(tmp_path / "cap.sqlite3"), limits=Limits(upload_max_bytes=1000))
    with TestClient(app) as http:
        response = http.post(
            "/api/uploads",
            params={"game": "carrera-de-mente", "option": "bank_file", "name": "big.yaml"},
            content=b"#" * 5000,
        )
        assert response.status_code == 413 and response.json()["detail"]["code"] == "too_large"


def test_an_upload_that_would_exhaust_memory_fails_in_its_own_process(tmp_path) -> None:
    from mindtable.server.limits import Limits

    # A YAML "billion laughs": tiny on the wire, huge once its aliases are expanded.
    bomb = 'a: &a ["x","x","x","x","x","x","x","x","x"]\n'
    for level in "bcdefghij":
        prev = chr(ord(level) - 1)
        bomb += f"{level}: &{level} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]\n"
    bomb += "questions: *j\n"
    app = create_app(db_url=str(tmp_path / "bomb.sqlite3"), limits=Limits(upload_timeout_s=10))
    with TestClient(app) as http:
        response = http.post(
            "/api/uploads",
            params={"game": "carrera-de-mente", "option": "bank_file", "name": "bomb.yaml"},
            content=bomb.encode(),
        )
        assert response.status_code == 422
        assert response.json()["detail"]["code"] in ("upload_too_big", "upload_too_slow", "bad_upload")
        assert http.get("/api/games").status_code == 200  # the server is still answering


def test_a_socket_opened_before_leaving_gets_no_seat_after_it(app) -> None:
    with TestClient(app) as http:
        created = http.post("/api/rooms", json={"game": "the-mind", "players": 2, "name": "Ana"}).json()
        code, token = created["code"], created["token"]
        with http.websocket_connect(f"/ws/{code}?token={token}") as early:
            assert http.post(f"/api/rooms/{code}/leave", headers={"Authorization": f"Bearer {token}"}).json()["ok"]
            bo = http.post(f"/api/rooms/{code}/join", json={"name": "Bo"}).json()
            assert bo["seat"] == 0  # someone else has the seat now
            # the socket that was open before the leave was closed by it: it never gets Bo's hand
            with pytest.raises(Exception):  # noqa: B017 - closed by the server (4000), whatever the client says
                early.send_json({"type": "hello", "last_seq": 0})
                for _ in range(5):
                    frame = early.receive_json()
                    assert frame.get("kind") != "state", frame


def test_a_token_that_stops_opening_the_seat_before_the_hello_attaches_nothing(app) -> None:
    with TestClient(app) as http:
        created = http.post("/api/rooms", json={"game": "the-mind", "players": 2, "name": "Ana"}).json()
        code, token = created["code"], created["token"]
        with http.websocket_connect(f"/ws/{code}") as ws:  # the token comes in the hello
            http.post(f"/api/rooms/{code}/leave", headers={"Authorization": f"Bearer {token}"})
            http.post(f"/api/rooms/{code}/join", json={"name": "Bo"})
            ws.send_json({"type": "hello", "last_seq": 0, "token": token})
            frame = ws.receive_json()
            assert frame["kind"] == "error" and frame["code"] == "bad_token"


def test_the_token_in_the_hello_opens_the_seat(app) -> None:
    with TestClient(app) as http:
        created = http.post("/api/rooms", json={"game": "the-mind", "players": 2, "name": "Ana"}).json()
        with http.websocket_connect(f"/ws/{created['code']}") as ws:
            ws.send_json({"type": "hello", "last_seq": 0, "token": created["token"]})
            assert ws.receive_json()["seat"] == 0


def test_no_log_line_carries_a_seat_token(caplog) -> None:
    logger = logging.getLogger("uvicorn.error")
    logger.addFilter(RedactTokens())
    try:
        with caplog.at_level(logging.INFO, logger="uvicorn.error"):
            logger.info('%s - "WebSocket %s" [accepted]', "127.0.0.1:5000", "/ws/ABCDEF?token=abc123secret")
            logger.info("GET /api/x?a=1&token=abc123secret")
    finally:
        logger.filters = [f for f in logger.filters if not isinstance(f, RedactTokens)]
    assert "abc123secret" not in caplog.text and caplog.text.count("<redacted>") == 2


def test_a_server_log_has_no_token_of_a_client_that_sent_it_in_the_address(start_server, tmp_path, helpers) -> None:
    import websockets

    server = start_server(str(tmp_path / "log.sqlite3"), log_level="info")

    async def scenario() -> str:
        created = await helpers.create_room(server.http, name="Ana")
        async with websockets.connect(f"{server.ws}/ws/{created['code']}?token={created['token']}") as ws:
            await ws.send(json.dumps({"type": "hello", "last_seq": 0}))
            assert json.loads(await ws.recv())["kind"] == "welcome"
        return str(created["token"])

    token = asyncio.run(scenario())
    server.stop()
    assert "WebSocket /ws/" in server.log()  # the line that used to carry it is there…
    assert token not in server.log()  # …without the token


def test_rematch_seat_holds_survive_a_restart(start_server, tmp_path, helpers) -> None:
    import httpx

    db = str(tmp_path / "holds.sqlite3")
    server = start_server(db)

    async def play() -> tuple[str, str, str]:
        created = await helpers.create_room(server.http, players=2, name="Ana", options={"last_level": 1, "lives": 1})
        code = created["code"]
        joined = await helpers.join_room(server.http, code)
        ana = await helpers.Client(server.ws, code, created["token"]).connect()
        bo = await helpers.Client(server.ws, code, joined["token"]).connect()
        fast = {"max_wait_ms": 20, "reaction_ms": 5, "ready_ms": 5}
        players = [
            helpers.PlayingClient(ana, 0, "random-timing", **fast),
            helpers.PlayingClient(bo, 1, "random-timing", **fast),
        ]
        await asyncio.gather(*(p.run(helpers.kind("over"), timeout=30) for p in players))
        for client in (ana, bo):
            await client.close()
        async with httpx.AsyncClient(base_url=server.http, timeout=10) as http:
            again = await http.post(
                f"/api/rooms/{code}/rematch", headers={"Authorization": f"Bearer {created['token']}"}
            )
            return code, again.json()["code"], str(joined["token"])

    old, new, bo_token = asyncio.run(play())
    server.stop()
    server = start_server(db)  # the holds come back with the rooms

    async def after() -> None:
        async with httpx.AsyncClient(base_url=server.http, timeout=10) as http:
            room = (await http.get(f"/api/rooms/{new}")).json()
            assert [seat["seat"] for seat in room["seats"] if seat["reserved"]] == [1]
            stranger = await http.post(f"/api/rooms/{new}/join", json={"name": "Eve"})
            assert stranger.status_code == 409 and stranger.json()["detail"]["code"] == "seat_reserved"
            back = await http.post(f"/api/rooms/{old}/rematch", headers={"Authorization": f"Bearer {bo_token}"})
            assert back.json()["code"] == new and back.json()["seat"] == 1

    asyncio.run(after())


# -- floods ----------------------------------------------------------------------------------------------------
def test_room_limits_count_a_network_as_well_as_an_address(tmp_path) -> None:
    from mindtable.server.limits import Limits

    limits = Limits(rooms_per_address=2, rooms_per_network=3, room_creates_burst=100, rest_burst=1000)
    app = create_app(db_url=str(tmp_path / "net.sqlite3"), limits=limits)
    made = []
    with TestClient(app):
        for host in ("198.51.100.1", "198.51.100.2", "198.51.100.3"):
            with client_at(app, host) as http:
                for _ in range(2):
                    made.append(http.post("/api/rooms", json={"game": "the-mind", "players": 2}).status_code)
        with client_at(app, "203.0.113.9") as elsewhere:
            other = elsewhere.post("/api/rooms", json={"game": "the-mind", "players": 2})
    assert made.count(201) == 3 and made.count(429) == 3  # three rooms from the whole /24
    assert other.status_code == 201  # another network is not held back


def test_concurrent_creates_never_pass_the_global_cap(start_server, tmp_path, helpers) -> None:
    import httpx

    from tests.server.conftest import ONE_CLIENT_IS_MANY

    server = start_server(str(tmp_path / "cap.sqlite3"), limits={**ONE_CLIENT_IS_MANY, "max_rooms": 5})

    async def flood() -> list[int]:
        async with httpx.AsyncClient(base_url=server.http, timeout=20) as http:
            answers = await asyncio.gather(
                *(http.post("/api/rooms", json={"game": "caida-libre", "players": 2}) for _ in range(30))
            )
        return [answer.status_code for answer in answers]

    codes = asyncio.run(flood())
    assert codes.count(201) == 5 and codes.count(503) == 25


def test_a_room_nobody_joined_expires_early_also_across_a_restart(tmp_path) -> None:
    import time

    from mindtable.server.limits import Limits

    db = str(tmp_path / "early.sqlite3")
    limits = Limits(unjoined_room_ttl_s=1.0, rest_burst=1000)
    with TestClient(create_app(db_url=db, limits=limits)) as http:
        unused = http.post("/api/rooms", json={"game": "the-mind", "players": 2}).json()["code"]
        used = http.post("/api/rooms", json={"game": "the-mind", "players": 2}).json()
        with http.websocket_connect(f"/ws/{used['code']}") as ws:
            ws.send_json({"type": "hello", "last_seq": 0, "token": used["token"]})
            assert ws.receive_json()["kind"] == "welcome"
        flooded = http.post("/api/rooms", json={"game": "the-mind", "players": 2}).json()["code"]
    time.sleep(1.6)
    # the server was down while the room went stale: the restart does not load it
    with TestClient(create_app(db_url=db, limits=limits)) as http:
        assert http.get(f"/api/rooms/{flooded}").status_code == 404
        assert http.get(f"/api/rooms/{used['code']}").status_code == 200  # someone connected: it waits 3 h
        time.sleep(1.6)
        assert http.get(f"/api/rooms/{unused}").status_code == 404


# -- strict types on REST, as on the WebSocket ------------------------------------------------------------------
@pytest.mark.parametrize(
    "body",
    [
        {"game": "the-mind", "players": "2"},
        {"game": "the-mind", "players": True},
        {"game": "the-mind", "players": 2, "seat": True},
        {"game": "the-mind", "players": 2, "public": "yes"},
        {"game": "the-mind", "players": 2, "bots": {"01": "proportional"}},
        {"game": "the-mind", "players": 2, "options": {"last_level": "3"}},
        {"game": "the-mind", "players": 2, "options": {"last_level": True}},
        {"game": "carrera-de-mente", "players": 2, "options": {"variant_short": 1}},
    ],
)
def test_rest_bodies_are_typed_strictly(app, body) -> None:
    with TestClient(app) as http:
        response = http.post("/api/rooms", json=body)
        assert response.status_code == 422, response.text
        assert http.get("/api/rooms").json() == []  # nothing was created


def test_a_seat_given_as_true_joins_no_seat(app) -> None:
    with TestClient(app) as http:
        created = http.post("/api/rooms", json={"game": "the-mind", "players": 3, "name": "Ana"}).json()
        joined = http.post(f"/api/rooms/{created['code']}/join", json={"name": "Bo", "seat": True})
        assert joined.status_code == 422
        assert [s["kind"] for s in http.get(f"/api/rooms/{created['code']}").json()["seats"]] == [
            "human",
            "open",
            "open",
        ]


def test_a_whole_number_written_2_0_is_2_as_json_has_it(app) -> None:
    with TestClient(app) as http:
        created = http.post("/api/rooms", json={"game": "the-mind", "players": 2.0, "options": {"last_level": 3.0}})
        assert created.status_code == 201, created.text
        room = created.json()["room"]
        assert room["players"] == 2 and room["options"]["last_level"] == 3
        assert type(room["options"]["last_level"]) is int


def test_broken_frames_cost_one_log_line_not_a_traceback_each(start_server, tmp_path, helpers) -> None:
    import os

    server = start_server(str(tmp_path / "frames.sqlite3"))

    async def send_broken(times: int) -> None:
        created = await helpers.create_room(server.http)
        for _ in range(times):
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            writer.write(
                (
                    f"GET /ws/{created['code']} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
                ).encode()
            )
            await reader.readuntil(b"\r\n\r\n")
            payload, mask = b"\xff\xfe\xfd", os.urandom(4)
            writer.write(
                bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            )
            await writer.drain()
            await asyncio.sleep(0.05)
            writer.close()

    asyncio.run(send_broken(20))
    server.stop()
    log = server.log()
    assert "Traceback" not in log and log.count("Invalid UTF-8") == 1, log[-2000:]


def test_a_room_only_bots_play_stands_still_while_nobody_watches(tmp_path) -> None:
    import time

    from mindtable.server.limits import Limits

    quick = {"think_ms": 100}  # a move every tenth of a second: a game of many moves
    body = {
        "game": "caida-libre",
        "players": 4,
        "bots": {str(seat): "knowing" for seat in range(4)},
        "bot_params": {str(seat): quick for seat in range(4)},
        "bot_pace": "off",  # only the bots' own tenth of a second
    }
    app = create_app(db_url=str(tmp_path / "bots.sqlite3"), limits=Limits(bot_room_grace_s=0.5))
    with TestClient(app) as http:
        code = http.post("/api/rooms", json=body).json()["code"]
        room = app.state.manager.rooms[code]
        time.sleep(1.5)
        paused_at = room.steps
        assert room.paused_clock is not None and paused_at > 0
        time.sleep(0.8)
        assert room.steps == paused_at  # nobody watches: the bots use no time of the server
        with http.websocket_connect(f"/ws/{code}") as ws:
            ws.send_json({"type": "hello", "last_seq": 0})
            assert ws.receive_json()["kind"] == "welcome"
            time.sleep(0.5)
            assert room.paused_clock is None and (room.steps > paused_at or room.status == "over")


# -- memory: what is kept for reconnecting clients is bounded per room and in all -------------------------------
def test_kept_messages_are_bounded_by_bytes_per_room_and_in_all() -> None:
    from mindtable.server.streams import ResumeBudget, Stream

    budget = ResumeBudget(total=30_000, per_room=10_000)
    rooms = [[0] for _ in range(5)]
    streams = [Stream(budget=budget, room=rooms[i // 2]) for i in range(10)]  # two streams a room
    message = '"kind":"events","pad":"' + "x" * 200 + '"}'
    for _ in range(300):
        for stream in streams:
            stream.push_body(message)
    assert all(kept[0] <= 10_000 for kept in rooms)
    assert budget.used <= 30_000 + 300 and budget.used == sum(kept[0] for kept in rooms)
    first = streams[0]
    assert first.since(first.id, 1) is None  # the early messages were let go: this client gets a snapshot
    assert first.since(first.id, first.seq - 3) is not None  # the latest are kept for a quick reconnect
    for stream in streams:
        stream.clear()
    assert budget.used == 0


# -- connections the application never sees ---------------------------------------------------------------------
def test_half_sent_requests_are_timed_capped_per_address_and_sized(start_server, tmp_path) -> None:
    import time

    from tests.server.conftest import ONE_CLIENT_IS_MANY

    limits = {**ONE_CLIENT_IS_MANY, "unfinished_requests_per_address": 4, "header_timeout_s": 1.0}
    server = start_server(str(tmp_path / "loris.sqlite3"), limits=limits)

    async def scenario() -> None:
        slow = []
        for _ in range(8):
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            writer.write(b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Slow: ")  # never finished
            await writer.drain()
            slow.append((reader, writer))
        await asyncio.sleep(0.3)
        closed_at_once = [r for r, _ in slow if r.at_eof() or (await _read_soon(r, 0.1)) == b""]
        assert len(closed_at_once) == 4  # only four half-sent requests per address are held
        started = time.monotonic()
        answers = [await asyncio.wait_for(r.read(), 5) for r, _ in slow[:4]]
        assert all(a.startswith(b"HTTP/1.1 408") for a in answers), answers
        assert time.monotonic() - started < 2.0
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20000 + b"\r\n\r\n")
        await writer.drain()
        try:
            refused = await asyncio.wait_for(reader.read(), 5)
        except ConnectionResetError:  # closed while the rest was still coming: refused all the same
            refused = b"HTTP/1.1 431"
        assert refused.startswith(b"HTTP/1.1 431")
        for _, w in slow:
            w.close()

    asyncio.run(scenario())
    import httpx

    assert httpx.get(server.http + "/api/games", timeout=5).status_code == 200  # honest clients still get in


async def _read_soon(reader: asyncio.StreamReader, timeout: float) -> bytes | None:
    try:
        return await asyncio.wait_for(reader.read(1), timeout)
    except TimeoutError:
        return None
    except ConnectionResetError:  # refused with a reset: closed
        return b""


def test_a_rematch_room_counts_against_the_address_that_asked_for_it(tmp_path) -> None:
    from mindtable.server.limits import Limits

    app = create_app(db_url=str(tmp_path / "rematch.sqlite3"), limits=Limits(rooms_per_address=1, rest_burst=1000))
    with client_at(app, "192.0.2.10") as http:
        first = http.post("/api/rooms", json={"game": "the-mind", "players": 2, "name": "Ana"}).json()
        app.state.manager.rooms[first["code"]].status = "over"  # as if played to the end
        assert http.post("/api/rooms", json={"game": "the-mind", "players": 2}).status_code == 201
        again = http.post(f"/api/rooms/{first['code']}/rematch", headers={"Authorization": f"Bearer {first['token']}"})
        assert again.status_code == 429 and again.json()["detail"]["code"] == "too_many_rooms"


def test_large_answers_are_compressed_for_clients_that_accept_it(app) -> None:
    with TestClient(app) as http:
        games = http.get("/api/games", headers={"Accept-Encoding": "gzip"})
        assert games.headers.get("content-encoding") == "gzip" and games.json()  # httpx decodes it again
        plain = http.get("/api/games", headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers and plain.json() == games.json()

"""The FastAPI application: the REST lobby, the WebSocket play endpoint and the static web pages.

>>> app = create_app(db_url="sqlite:///:memory:")
>>> sorted(route.path for route in app.routes if route.path.startswith("/api/rooms"))[:2]
['/api/rooms', '/api/rooms']
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Header, Request, WebSocket
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, field_validator
from starlette.websockets import WebSocketDisconnect

from mindtable.core import available_game_ids, get_game
from mindtable.core.match import replay_steps
from mindtable.server.protocol import ProtocolError, parse_message
from mindtable.server.rooms import Connection, Room, RoomError, RoomManager, Settings
from mindtable.server.storage import Storage, normalize_url

log = logging.getLogger("mindtable.server")

STATIC_DIR = Path(__file__).resolve().parent.parent / "web" / "static"
#: Largest client message accepted over the WebSocket (bytes).
MAX_MESSAGE_BYTES = 4096
#: Frames larger than this are not even read: uvicorn closes the connection (code 1009).
WS_MAX_FRAME = 65536
#: Garbage-collector thresholds when tuned: young collections every 50,000 allocations, full ones rarely.
GC_THRESHOLDS = (50_000, 50, 100)
#: Largest REST request body.
MAX_BODY_BYTES = 65536


# -- REST models ---------------------------------------------------------------------------------------
def _clean_name(value: str) -> str:
    value = "".join(ch for ch in value if ch.isprintable()).strip()
    if not value:
        raise ValueError("name must contain at least one visible character")
    return value


class CreateRoom(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str = Field(description="a game id from GET /api/games", max_length=64)
    players: int = Field(description="number of seats", ge=1, le=64)
    options: dict[str, Any] = Field(default_factory=dict, description="match options (see the game's 'options')")
    bots: dict[str, str] = Field(default_factory=dict, description='seat -> bot name, e.g. {"1": "proportional"}')
    bot_params: dict[str, dict[str, Any]] = Field(default_factory=dict, description="seat -> bot parameters")
    public: bool = Field(True, description="listed by GET /api/rooms")
    name: str = Field("Player", min_length=1, max_length=40, description="the creator's name")
    seat: int | None = Field(None, ge=0, description="the creator's seat (default: the lowest human seat)")
    turn_timer_s: float | None = Field(
        None, gt=0, le=86400, description="turn-based games: seconds a seat has to act before a bot acts for it"
    )
    grace_s: float = Field(60.0, ge=0, le=86400, description="seconds a disconnected seat waits before a bot takes it")
    replace_with_bot: bool = Field(True, description="hand a seat to a bot after the grace period or on leaving")
    replacement_bot: str | None = Field(None, max_length=64, description="bot for replaced seats (default: first)")

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return _clean_name(value)


class JoinRoom(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field("Player", min_length=1, max_length=40)
    seat: int | None = Field(None, ge=0)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return _clean_name(value)


class SeatOut(BaseModel):
    seat: int
    name: str | None
    kind: str = Field(description="human, bot or open")
    bot: str | None
    connected: bool
    replaced: bool = Field(description="a human seat currently played by a bot; its token reclaims it")


class RoomOut(BaseModel):
    code: str
    game: str
    players: int
    options: dict[str, Any]
    public: bool
    status: str = Field(description="waiting, playing or over")
    seats: list[SeatOut]
    result: dict[str, Any] | None
    turn_timer_s: float | None
    grace_s: float
    replace_with_bot: bool
    replacement_bot: str | None
    spectators: int
    rematch: str | None = Field(description="code of the rematch room, once someone asked for one")


class SeatGranted(BaseModel):
    code: str
    seat: int | None = Field(description="your seat (null: every seat is a bot; watch as a spectator)")
    token: str | None = Field(description="your seat token: keep it secret; it opens /ws/{code}?token=...")
    room: RoomOut


class Ok(BaseModel):
    ok: bool


class ErrorOut(BaseModel):
    detail: dict[str, str]


ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorOut},
    403: {"model": ErrorOut},
    404: {"model": ErrorOut},
    409: {"model": ErrorOut},
    503: {"model": ErrorOut},
}


def _bearer(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


def _seat_granted(room: Room, seat: int | None, token: str | None) -> dict[str, Any]:
    """The answer of every lobby call that hands out a seat (create, join, rematch)."""
    return {"code": room.code, "seat": seat, "token": token, "room": room.to_dict()}


def create_app(
    db_url: str | None = None,
    *,
    static_dir: str | Path | None = None,
    rate_per_s: float = 20.0,
    max_message_bytes: int = MAX_MESSAGE_BYTES,
    max_rooms: int = 5000,
    hello_timeout_s: float = 30.0,
    tune_gc: bool = False,
) -> FastAPI:
    """Build the server. ``db_url``: a SQLAlchemy URL or SQLite path (default ``mindtable.sqlite3``).

    ``tune_gc`` adjusts the process-wide garbage collector for latency (``mindtable serve`` sets it).
    """
    url = normalize_url(db_url)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = Storage(url)
        await asyncio.to_thread(storage.start)
        manager = RoomManager(storage, max_rooms=max_rooms, rate_per_s=rate_per_s)
        await manager.load()
        if tune_gc:
            # Everything loaded so far lives as long as the server: keep the collector from scanning it
            # again, and collect young objects less often (fewer, shorter pauses for every room).
            gc.collect()
            gc.freeze()
            gc.set_threshold(*GC_THRESHOLDS)
        app.state.manager = manager
        app.state.storage = storage
        try:
            yield
        finally:
            await manager.shutdown()
            await asyncio.to_thread(storage.stop)

    app = FastAPI(
        title="mindtable",
        summary="Lobby and live play for mindtable's games",
        description="REST lobby under /api; live play over the WebSocket /ws/{code}. See docs/protocol.md.",
        version="1",
        lifespan=lifespan,
    )

    def manager_of(request: Request | WebSocket) -> RoomManager:
        manager: RoomManager = request.app.state.manager
        return manager

    @app.exception_handler(RoomError)
    async def room_error(_request: Request, exc: RoomError) -> JSONResponse:
        return JSONResponse({"detail": {"code": exc.code, "message": exc.message}}, status_code=exc.status)

    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)

    # -- REST --------------------------------------------------------------------------------------
    @app.get("/api/games", summary="Every playable game", tags=["lobby"])
    async def games() -> list[dict[str, Any]]:
        return [get_game(game_id).describe() for game_id in available_game_ids()]

    @app.post(
        "/api/rooms",
        status_code=201,
        response_model=SeatGranted,
        responses=ERRORS,
        tags=["lobby"],
        summary="Create a room; the creator takes the lowest free human seat",
    )
    async def create_room(body: CreateRoom, request: Request) -> dict[str, Any]:
        room, seat, token = await manager_of(request).create(
            game_id=body.game,
            players=body.players,
            options=body.options,
            bots=body.bots,
            bot_params=body.bot_params,
            name=body.name,
            seat=body.seat,
            settings=Settings(
                public=body.public,
                turn_timer_s=body.turn_timer_s,
                grace_s=body.grace_s,
                replace_with_bot=body.replace_with_bot,
                replacement_bot=body.replacement_bot,
            ),
        )
        return _seat_granted(room, seat, token)

    @app.get("/api/rooms", response_model=list[RoomOut], tags=["lobby"], summary="Public rooms, waiting or playing")
    async def list_rooms(request: Request) -> list[dict[str, Any]]:
        return manager_of(request).public_rooms()

    @app.get("/api/rooms/{code}", response_model=RoomOut, responses=ERRORS, tags=["lobby"], summary="One room")
    async def get_room(code: str, request: Request) -> dict[str, Any]:
        return (await manager_of(request).require(code)).to_dict()

    @app.post(
        "/api/rooms/{code}/join",
        response_model=SeatGranted,
        responses=ERRORS,
        tags=["lobby"],
        summary="Take a free seat (409 when full)",
    )
    async def join_room(code: str, body: JoinRoom, request: Request) -> dict[str, Any]:
        room, seat, token = await manager_of(request).join(code, body.name, body.seat)
        return _seat_granted(room, seat, token)

    @app.post(
        "/api/rooms/{code}/leave",
        response_model=Ok,
        responses=ERRORS,
        tags=["lobby"],
        summary="Leave your seat (header Authorization: Bearer <token>)",
    )
    async def leave_room(code: str, request: Request, authorization: str | None = Header(None)) -> dict[str, Any]:
        await manager_of(request).leave(code, _bearer(authorization))
        return {"ok": True}

    @app.post(
        "/api/rooms/{code}/rematch",
        response_model=SeatGranted,
        responses=ERRORS,
        tags=["lobby"],
        summary="A new room with the same settings; you keep your seat (header token)",
    )
    async def rematch_room(code: str, request: Request, authorization: str | None = Header(None)) -> dict[str, Any]:
        room, seat, token = await manager_of(request).rematch(code, _bearer(authorization))
        return _seat_granted(room, seat, token)

    async def finished_room(code: str, request: Request, what: str) -> Any:
        room = await manager_of(request).require(code)
        if room.status != "over":
            raise RoomError(403, "not_over", f"the {what} is published once the match is over (it shows every hand)")
        return room

    @app.get(
        "/api/rooms/{code}/record",
        responses=ERRORS,
        tags=["lobby"],
        summary="The match record, once the match is over (403 before)",
    )
    async def room_record(code: str, request: Request) -> dict[str, Any]:
        room = await finished_room(code, request, "record")
        return room.match.record()

    @app.get(
        "/api/rooms/{code}/replay",
        responses=ERRORS,
        tags=["lobby"],
        summary="The finished match step by step: each action with the spectator's view and public events",
    )
    async def room_replay(code: str, request: Request) -> dict[str, Any]:
        room = await finished_room(code, request, "replay")
        return {"steps": replay_steps(room.match.record(), None)}

    # -- WebSocket ---------------------------------------------------------------------------------
    @app.websocket("/ws/{code}")
    async def play(websocket: WebSocket, code: str) -> None:
        await websocket.accept()
        manager = manager_of(websocket)
        conn = Connection(websocket, manager.rate_per_s)
        room = None
        try:
            room = await manager.get(code)
            if room is None:
                conn.error("unknown_room", f"there is no room {code.strip().upper()!r}; check the code")
                conn.close(4404)
                return
            token = websocket.query_params.get("token")
            seat = manager.seat_for_token(room, token)
            if token and seat is None:
                conn.error("bad_token", "this token opens no seat of this room; connect without one to watch")
                conn.close(4401)
                room = None
                return
            conn.seat = seat
            hello = await _hello(websocket, conn, max_message_bytes, hello_timeout_s)
            if hello is None:
                room = None
                return
            await room.attach(conn, seat, hello["last_seq"], hello["stream"])
            while not conn.closed:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                parsed = _parse(conn, message, max_message_bytes)
                if parsed is None:
                    continue
                kind = parsed["type"]
                if kind == "ping":
                    conn.send_message({"kind": "pong"})
                elif kind == "hello":
                    conn.error("bad_message", "hello is only the first message of a connection")
                elif seat is None:
                    conn.error("not_a_seat", "spectators cannot act; join the room to get a seat token")
                else:
                    await room.act(seat, parsed["action"], conn=conn, client_id=parsed["id"])
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            if room is not None:
                room.detach(conn)
            conn.close()
            await conn.wait_closed()

    if static_dir is None:
        static_dir = STATIC_DIR
    app.mount("/", StaticFiles(directory=str(static_dir), html=True, check_dir=False), name="web")
    return app


class BodyLimit:
    """Pure ASGI middleware refusing HTTP bodies whose declared length is over ``limit`` (413)."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            for name, value in scope.get("headers", ()):
                if name == b"content-length" and (not value.isdigit() or int(value) > self.limit):
                    response = JSONResponse(
                        {
                            "detail": {
                                "code": "too_large",
                                "message": f"request bodies are limited to {self.limit} bytes",
                            }
                        },
                        status_code=413,
                    )
                    await response(scope, receive, send)
                    return
        await self.app(scope, receive, send)


def _parse(conn: Connection, message: Mapping[str, Any], max_bytes: int) -> dict[str, Any] | None:
    if not conn.allow():
        conn.error("rate_limited", f"more than {conn._rate:g} messages per second; this one was dropped")
        if conn.refused > 200:
            conn.close(1008)
        return None
    try:
        text = message.get("text")
        return parse_message(text if text is not None else message.get("bytes"), max_bytes)
    except ProtocolError as exc:
        conn.error(exc.code, exc.message)
        return None


async def _hello(websocket: WebSocket, conn: Connection, max_bytes: int, timeout: float) -> dict[str, Any] | None:
    """Wait for the client's hello; answer anything else with an error."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not conn.closed:
        try:
            message = await asyncio.wait_for(websocket.receive(), max(end - loop.time(), 0.001))
        except TimeoutError:
            conn.error("bad_message", f"no hello within {timeout:g} s; closing")
            conn.close(1008)
            return None
        if message["type"] == "websocket.disconnect":
            return None
        parsed = _parse(conn, message, max_bytes)
        if parsed is None:
            continue
        if parsed["type"] == "hello":
            return parsed
        if parsed["type"] == "ping":
            conn.send_message({"kind": "pong"})
            continue
        conn.error("bad_message", 'the first message must be {"type": "hello", "last_seq": 0}')
    return None

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
import os
import re
import time
from collections.abc import AsyncIterator, Iterable, Mapping
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect

from mindtable.core import get_game
from mindtable.core.match import replay_steps
from mindtable.core.registry import announced_games, game_ids
from mindtable.server import storage as db
from mindtable.server.content import (
    HOST,
    SUFFIXES,
    UPLOAD,
    HostContent,
    UploadLimits,
    UploadRejected,
    check_upload,
    new_upload_id,
    safe_upload_name,
)
from mindtable.server.limits import TRUSTED_PROXIES_ENV, Limits, Network, client_address, parse_networks
from mindtable.server.protocol import ProtocolError, parse_message, safe_text
from mindtable.server.rooms import Connection, Room, RoomError, RoomManager, Settings, hash_token
from mindtable.server.storage import Storage, normalize_url

log = logging.getLogger("mindtable.server")

STATIC_DIR = Path(__file__).resolve().parent.parent / "web" / "static"
#: Largest client message accepted over the WebSocket (bytes); the default of ``Limits.ws_max_message_bytes``.
MAX_MESSAGE_BYTES = 4096
#: Frames larger than this are not even read: uvicorn closes the connection (code 1009).
WS_MAX_FRAME = 65536
#: Garbage-collector thresholds when tuned: young collections every 50,000 allocations, full ones rarely.
GC_THRESHOLDS = (50_000, 50, 100)
#: Largest REST request body; the default of ``Limits.max_body_bytes``.
MAX_BODY_BYTES = 65536
#: A name needs a letter or a digit (of any script); the OpenAPI document states the same pattern.
NAME_PATTERN = r"\w"


# -- REST models ---------------------------------------------------------------------------------------
def _clean_name(value: str) -> str:
    if not re.search(NAME_PATTERN, value):
        raise ValueError("a name needs at least one letter or digit")
    # Invisible and control characters (and lone surrogates) are dropped; a letter or digit always remains.
    return "".join(ch for ch in value if ch.isprintable()).strip()


def _integral(value: Any) -> Any:
    # JSON has one number type: 2.0 is the whole number 2 (JSON Schema's "integer" says so too); "2" and true
    # are not numbers.
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


#: A whole number as JSON writes it (2 or 2.0; never "2" or true).
JsonInt = Annotated[int, BeforeValidator(_integral)]
#: A seat number (the bounds inside the type, so the schema of ``SeatNumber | None`` keeps them).
SeatNumber = Annotated[int, Field(ge=0, le=63), BeforeValidator(_integral)]

#: Strict types, as on the WebSocket: ``true`` is no seat, ``"2"`` and ``2.0`` are no player count.
MODEL_CONFIG = ConfigDict(extra="forbid", allow_inf_nan=False, regex_engine="python-re", strict=True)


class CreateRoom(BaseModel):
    model_config = MODEL_CONFIG

    game: str = Field(description="a game id from GET /api/games", max_length=64)
    players: JsonInt = Field(description="number of seats", ge=1, le=64)
    options: dict[str, Any] = Field(default_factory=dict, description="match options (see the game's 'options')")
    bots: dict[str, str] = Field(default_factory=dict, description='seat -> bot name, e.g. {"1": "proportional"}')
    bot_params: dict[str, dict[str, Any]] = Field(default_factory=dict, description="seat -> bot parameters")
    public: bool = Field(True, description="listed by GET /api/rooms")
    name: str = Field(
        "Player",
        min_length=1,
        max_length=40,
        pattern=NAME_PATTERN,
        description="the creator's name (needs a letter or digit; invisible characters are dropped)",
    )
    seat: SeatNumber | None = Field(None, description="the creator's seat (default: the lowest human seat)")
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
    model_config = MODEL_CONFIG

    name: str = Field(
        "Player",
        min_length=1,
        max_length=40,
        pattern=NAME_PATTERN,
        description="your name (needs a letter or digit; invisible characters are dropped)",
    )
    seat: SeatNumber | None = Field(None, description="the seat to take (default: the lowest free one)")

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return _clean_name(value)


class SeatOut(BaseModel):
    seat: int
    name: str | None = Field(
        description="the name the table shows: the person's, or for a bot (also one playing a replaced seat) "
        "its name with '(bot)', e.g. 'Ada (bot)'; null for an open seat"
    )
    player: str | None = Field(
        None, description="a replaced seat: the name of the person who left it (their token reclaims it)"
    )
    kind: str = Field(description="human, bot or open")
    bot: str | None
    connected: bool
    replaced: bool = Field(description="a human seat currently played by a bot; its token reclaims it")
    reserved: bool = Field(description="an open seat of a rematch room held for its player of the previous match")


class RoomOut(BaseModel):
    code: str
    game: str
    players: int
    options: dict[str, Any]
    public: bool
    status: str = Field(description="waiting, playing or over")
    seats: list[SeatOut]
    result: dict[str, Any] | None = Field(
        description="the engine's result once over, with details.bot_finished: the seats a replacement bot "
        "finished after their player left (no title or win is credited to that player)"
    )
    turn_timer_s: float | None
    grace_s: float
    replace_with_bot: bool
    replacement_bot: str | None
    spectators: int
    rematch: str | None = Field(description="code of the rematch room, once someone asked for one")
    integrity: str = Field(
        description="ok; mismatch or broken when the stored record does not replay as stored (the room is closed)"
    )
    integrity_message: str | None = Field(description="what did not replay, when integrity is not ok")
    notices: list[dict[str, Any]] = Field(
        default_factory=list,
        description="codes with parameters: the room's record was made under other rules (rules_changed), "
        "content (content_changed) or before records pinned their start (old_format)",
    )


class SeatGranted(BaseModel):
    code: str
    seat: int | None = Field(description="your seat (null: every seat is a bot; watch as a spectator)")
    token: str | None = Field(description="your seat token: keep it secret; it opens /ws/{code}?token=...")
    room: RoomOut


class Ok(BaseModel):
    ok: bool


class UploadProblem(BaseModel):
    line: int | None
    field: str | None
    message: str
    severity: str | None = None


class UploadOut(BaseModel):
    value: str = Field(description="what to give the option when creating the room: upload:ID")
    name: str = Field(description="the file as kept (a CSV, GIFT or JSON bank is kept as the project's YAML)")
    bytes: int
    warnings: list[UploadProblem] = Field(description="what the importer could not carry over, line by line")


class ErrorDetail(BaseModel):
    code: str
    message: str
    params: dict[str, Any] = Field(
        default_factory=dict, description="the code's parameters, for a page to say it in its own words"
    )


class ErrorOut(BaseModel):
    detail: ErrorDetail


class FieldError(BaseModel):
    loc: list[str | int]
    msg: str
    type: str


class ValidationOut(BaseModel):
    detail: list[FieldError]


_WHY: dict[int, str] = {
    400: "bad_body: the body is not JSON text (e.g. not UTF-8)",
    401: "bad_token: the seat token is missing or opens no seat of this room",
    403: "not_over: published once the match is over",
    404: "unknown_room or unknown_game",
    409: "room_full, seat_taken, seat_reserved, room_over, not_over or room_broken",
    413: "too_large: the body is over the limit (max_body_bytes)",
    422: "a body that does not match the schema (a list of field errors), or bad_options, bad_bot, bad_seat, or "
    "for the player's name: name_required, name_too_long {max}, name_needs_letter, bad_name",
    429: "rate_limited or too_many_rooms: a per-address limit (see Retry-After)",
    503: "too_many_rooms (the server is full) or storage_error",
}


def answers(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The documented error answers of a route."""
    out: dict[int | str, dict[str, Any]] = {}
    for status in statuses:
        model: Any = ErrorOut
        if status == 422:
            model = ValidationOut | ErrorOut
        out[status] = {"model": model, "description": _WHY[status]}
    return out


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
    limits: Limits | None = None,
    trusted_proxies: str | Iterable[str] | None = None,
    rate_per_s: float | None = None,
    max_message_bytes: int | None = None,
    max_rooms: int | None = None,
    hello_timeout_s: float | None = None,
    tune_gc: bool = False,
    content: Iterable[str | os.PathLike[str]] = (),
) -> FastAPI:
    """Build the server. ``db_url``: a SQLAlchemy URL or SQLite path (default ``mindtable.sqlite3``).

    ``limits`` (default: :meth:`Limits.from_overrides`, i.e. the defaults and any ``MINDTABLE_LIMIT_*``
    variables) holds every limit; ``rate_per_s``, ``max_message_bytes``, ``max_rooms`` and
    ``hello_timeout_s`` override single ones. ``trusted_proxies`` (default: ``MINDTABLE_TRUSTED_PROXIES``)
    lists the reverse proxies whose ``X-Forwarded-For`` names the client. ``tune_gc`` adjusts the
    process-wide garbage collector for latency (``mindtable serve`` sets it). ``content``: folders whose
    question and board files rooms may choose by name (``mindtable serve --content DIR``).
    """
    content_folders = [Path(folder) for folder in content]
    for folder in content_folders:
        if not folder.is_dir():
            raise ValueError(f"content folder {str(folder)!r} is not a folder")

    url = normalize_url(db_url)
    limits = limits or Limits.from_overrides()
    overrides = {
        "ws_rate_per_s": rate_per_s,
        "ws_max_message_bytes": max_message_bytes,
        "max_rooms": max_rooms,
        "ws_hello_timeout_s": hello_timeout_s,
    }
    limits = limits.with_overrides({k: v for k, v in overrides.items() if v is not None})
    trusted = parse_networks(os.environ.get(TRUSTED_PROXIES_ENV) if trusted_proxies is None else trusted_proxies)
    max_message_bytes = limits.ws_max_message_bytes
    hello_timeout_s = limits.ws_hello_timeout_s

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = Storage(url)
        await asyncio.to_thread(storage.start)
        host_content = await asyncio.to_thread(HostContent.scan, content_folders)
        app.state.content = host_content
        manager = RoomManager(storage, limits=limits, content=host_content)
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

    docs_assets = _docs_assets()
    app = FastAPI(
        title="mindtable",
        summary="Lobby and live play for mindtable's games",
        description="REST lobby under /api; live play over the WebSocket /ws/{code}. See docs/protocol.md.",
        version="1",
        lifespan=lifespan,
        # FastAPI's own /docs and /redoc load their scripts from a CDN (blank offline): served locally below.
        docs_url=None,
        redoc_url=None,
    )
    if docs_assets is not None:
        _serve_docs(app, docs_assets)

    def manager_of(request: Request | WebSocket) -> RoomManager:
        manager: RoomManager = request.app.state.manager
        return manager

    app.state.limits = limits

    @app.exception_handler(RoomError)
    async def room_error(request: Request, exc: RoomError) -> JSONResponse:
        headers = {}
        if exc.code == "unknown_room":
            # Failed lookups cost from their own small budget: room codes cannot be probed quickly.
            manager_of(request).book.take("miss", address_of(request))
        if exc.status == 429:
            headers["Retry-After"] = "60"
        detail = {"code": exc.code, "message": safe_text(exc.message), "params": exc.params}
        return JSONResponse({"detail": detail}, status_code=exc.status, headers=headers)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = "bad_body" if exc.status_code == 400 else f"http_{exc.status_code}"
        return JSONResponse(
            {"detail": {"code": code, "message": safe_text(str(exc.detail))}},
            status_code=exc.status_code,
            headers=exc.headers,
        )

    @app.exception_handler(RequestValidationError)
    async def invalid_body(_request: Request, exc: RequestValidationError) -> JSONResponse:
        # The name is what a person types on the page: a problem with it gets its own code, in words.
        named = name_problem(exc.errors())
        if named is not None:
            code, message, params = named
            return JSONResponse({"detail": {"code": code, "message": message, "params": params}}, status_code=422)
        # FastAPI's default answer echoes the input, which may not even be JSON (NaN, lone surrogates).
        errors = [
            {
                "loc": [item if isinstance(item, int) else safe_text(str(item), 80) for item in error.get("loc", ())],
                "msg": safe_text(str(error.get("msg", "")), 300),
                "type": safe_text(str(error.get("type", "")), 80),
            }
            for error in list(exc.errors())[:20]
        ]
        return JSONResponse({"detail": errors}, status_code=422)

    app.add_middleware(Guard, owner=app, limits=limits, trusted=trusted)

    # -- REST --------------------------------------------------------------------------------------
    @app.get(
        "/api/games",
        summary="Every registered game: playable ones (available: true) and announced ones (available: false)",
        tags=["lobby"],
        responses=answers(429),
    )
    async def games(request: Request) -> list[dict[str, Any]]:
        return list_games(getattr(request.app.state, "content", None))

    @app.post(
        UPLOADS_PATH,
        status_code=201,
        response_model=UploadOut,
        responses=answers(404, 413, 422, 429, 503),
        tags=["lobby"],
        summary="Send a question or board file for a room you will create (the body is the file)",
        openapi_extra={
            "requestBody": {
                "required": True,
                "description": "the file itself, as bytes (at most upload_max_bytes)",
                "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}},
            }
        },
    )
    async def upload(
        request: Request,
        game: str = Query(description="the game the file is for", max_length=64),
        option: str = Query(description="the game's file option (one whose 'file' is set)", max_length=64),
        name: str = Query(
            description="the file's name; its suffix gives the format (.yaml, .csv, .gift, .json, .txt)",
            max_length=200,
        ),
    ) -> dict[str, Any]:
        """The file is checked as the game will read it — in a separate process, with a time and memory
        limit — and kept for a room you create next with the option set to the answer's ``value``. Only you
        (your address) can use it, and only that room and its rematches see it. Problems answer 422
        ``bad_upload`` with ``params.problems``: each ``{line, field, message}``."""
        manager = manager_of(request)
        address = address_of(request)
        try:
            found = get_game(game)
        except Exception:
            raise RoomError(404, "unknown_game", f"there is no game {safe_text(game, 64)!r}") from None
        spec = next((o for o in found.option_schema if o.name == option and o.file), None)
        if spec is None or spec.file is None:
            names = [o.name for o in found.option_schema if o.file]
            raise RoomError(
                422,
                "bad_upload",
                f"{found.id} has no file option {safe_text(option, 64)!r}; file options: {', '.join(names) or 'none'}",
                {"options": names},
            )
        safe = safe_upload_name(name, spec.file)
        if safe is None:
            allowed = list(SUFFIXES[spec.file])
            raise RoomError(
                422,
                "bad_upload",
                f"a {spec.file} file must end in one of {', '.join(allowed)}, got {safe_text(name, 80)!r}",
                {"suffixes": allowed},
            )
        if not manager.book.take("upload", address):
            raise RoomError(429, "rate_limited", "too many files sent from your address lately; wait a few minutes")
        data = await request.body()
        if not data:
            raise RoomError(422, "bad_upload", "the body is empty: send the file itself")
        lim = manager.limits
        try:
            async with manager.upload_slots:
                checked = await check_upload(
                    found.id,
                    option,
                    spec.file,
                    safe,
                    data,
                    UploadLimits(lim.upload_max_bytes, lim.upload_timeout_s, lim.upload_memory_bytes),
                )
        except UploadRejected as exc:
            raise RoomError(413 if exc.code == "too_large" else 422, exc.code, exc.message, exc.params) from None
        upload_id = new_upload_id()
        row = {
            "id": upload_id,
            "game": found.id,
            "option": option,
            "name": checked["name"],
            "data": checked["data"],
            "owner": manager.owner_of(address),
            "room_id": None,
            "created_at": time.time(),
        }
        await manager.storage.run(lambda c: db.insert_upload(c, row))
        return {
            "value": UPLOAD + upload_id,
            "name": checked["name"],
            "bytes": len(checked["data"]),
            "warnings": checked["warnings"],
        }

    @app.post(
        "/api/rooms",
        status_code=201,
        response_model=SeatGranted,
        responses=answers(400, 404, 409, 413, 422, 429, 503),
        tags=["lobby"],
        summary="Create a room; the creator takes the lowest free human seat",
    )
    async def create_room(body: CreateRoom, request: Request) -> dict[str, Any]:
        room, seat, token = await manager_of(request).create(
            address=address_of(request),
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

    @app.get(
        "/api/rooms",
        response_model=list[RoomOut],
        responses=answers(429),
        tags=["lobby"],
        summary="Public rooms, waiting or playing",
    )
    async def list_rooms(request: Request) -> list[dict[str, Any]]:
        return manager_of(request).public_rooms()

    @app.get(
        "/api/rooms/{code}",
        response_model=RoomOut,
        responses=answers(404, 409, 429, 503),
        tags=["lobby"],
        summary="One room",
    )
    async def get_room(code: str, request: Request) -> dict[str, Any]:
        return (await manager_of(request).require(code)).to_dict()

    @app.post(
        "/api/rooms/{code}/join",
        response_model=SeatGranted,
        responses=answers(400, 404, 409, 413, 422, 429, 503),
        tags=["lobby"],
        summary="Take a free seat (409 when full)",
    )
    async def join_room(code: str, body: JoinRoom, request: Request) -> dict[str, Any]:
        room, seat, token = await manager_of(request).join(code, body.name, body.seat)
        return _seat_granted(room, seat, token)

    @app.post(
        "/api/rooms/{code}/leave",
        response_model=Ok,
        responses=answers(401, 404, 409, 413, 429, 503),
        tags=["lobby"],
        summary="Leave your seat (header Authorization: Bearer <token>)",
    )
    async def leave_room(code: str, request: Request, authorization: str | None = Header(None)) -> dict[str, Any]:
        await manager_of(request).leave(code, _bearer(authorization))
        return {"ok": True}

    @app.post(
        "/api/rooms/{code}/rematch",
        response_model=SeatGranted,
        responses=answers(401, 404, 409, 413, 429, 503),
        tags=["lobby"],
        summary="A new room with the same settings; you keep your seat (header token)",
    )
    async def rematch_room(code: str, request: Request, authorization: str | None = Header(None)) -> dict[str, Any]:
        room, seat, token = await manager_of(request).rematch(code, _bearer(authorization), address_of(request))
        return _seat_granted(room, seat, token)

    async def finished_room(code: str, request: Request, what: str) -> Any:
        room = await manager_of(request).require(code)
        if room.status != "over":
            raise RoomError(403, "not_over", f"the {what} is published once the match is over (it shows every hand)")
        if room.integrity != "ok":
            raise RoomError(
                409, "room_broken", f"the stored record of this room does not replay: {room.integrity_message}"
            )
        return room

    @app.get(
        "/api/rooms/{code}/record",
        responses=answers(403, 404, 409, 429, 503),
        tags=["lobby"],
        summary="The match record, once the match is over (403 before)",
    )
    async def room_record(code: str, request: Request) -> dict[str, Any]:
        room = await finished_room(code, request, "record")
        return room.match.record()

    @app.get(
        "/api/rooms/{code}/replay",
        responses=answers(403, 404, 409, 429, 503),
        tags=["lobby"],
        summary="The finished match step by step: each action with the view and events of one seat, or of a spectator",
    )
    async def room_replay(code: str, request: Request, seat: int | None = None) -> dict[str, Any]:
        """``?seat=N`` replays the game as seat N saw it (its hand included): once a match is over every hand
        may be shown, as the record does. Without it, the spectator's view."""
        room = await finished_room(code, request, "replay")
        if seat is not None and not 0 <= seat < room.players:
            last = room.players - 1
            raise RoomError(422, "bad_seat", f"seat must be from 0 to {last}, got {seat}", {"last": last, "seat": seat})
        return {"steps": replay_steps(room.match.record(), seat), "seat": seat}

    # -- WebSocket ---------------------------------------------------------------------------------
    @app.websocket("/ws/{code}")
    async def play(websocket: WebSocket, code: str) -> None:
        manager = manager_of(websocket)
        address = address_of(websocket)
        book = manager.book
        await websocket.accept()
        conn = Connection(websocket, manager.limits, address, book)
        if not book.take("connect", address):
            conn.error("rate_limited", "too many new connections from your address; wait a little and reconnect")
            conn.close(1008)
            await conn.wait_closed()
            return
        if not book.open_connection(address):
            conn.error(
                "too_many_connections",
                f"your address already has {manager.limits.ws_connections_per_address} open connections; "
                "close one first",
            )
            conn.close(1008)
            await conn.wait_closed()
            return
        room: Room | None = None
        watched: str | None = None
        try:
            if not book.has("miss", address):
                conn.error("rate_limited", "too many lookups of unknown rooms from your address; wait a minute")
                conn.close(1008)
                return
            try:
                room = await manager.get(code)
            except RoomError as exc:
                conn.error(exc.code, safe_text(exc.message))
                conn.close(4409 if exc.status == 409 else 1011)
                return
            if room is None:
                book.take("miss", address)
                conn.error("unknown_room", f"there is no room {safe_text(code.strip().upper(), 20)!r}; check the code")
                conn.close(4404)
                return
            # The seat token comes in the hello (never in the address, which access logs print); `?token=`
            # from older clients is still read, and redacted from the access log (see `redact_tokens`).
            token = websocket.query_params.get("token")
            if token:
                watched = hash_token(token)
                manager.watch_token(watched, conn)
                if manager.seat_for_token(room, token) is None:
                    conn.error("bad_token", "this token opens no seat of this room; connect without one to watch")
                    conn.close(4401)
                    room = None
                    return
            hello = await _hello(websocket, conn, max_message_bytes, hello_timeout_s)
            if hello is None:
                room = None
                return
            if hello.get("token") and hello["token"] != token:
                if watched is not None:
                    manager.unwatch_token(watched, conn)
                token = hello["token"]
                watched = hash_token(token)
                manager.watch_token(watched, conn)
            seat = manager.seat_for_token(room, token)
            if token and seat is None:
                conn.error("bad_token", "this token opens no seat of this room; connect without one to watch")
                conn.close(4401)
                room = None
                return
            conn.seat = seat
            joined = room
            conn.on_drop = lambda: joined.detach(conn)
            if not await room.attach(conn, seat, hello["last_seq"], hello["stream"], watched):
                room = None
                return
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
        except WebSocketDisconnect:
            pass
        except Exception:
            if conn.closed:
                # The connection was already going (closed by us or dropped): nothing was lost.
                log.debug("room %s: WebSocket handler ended on a closed connection", code, exc_info=True)
            else:
                log.exception("room %s: the WebSocket handler failed; closing the connection", code)
                conn.error("server_error", "the server failed on this connection; reconnect to continue")
                conn.close(1011)
        finally:
            book.close_connection(address)
            if watched is not None:
                manager.unwatch_token(watched, conn)
            if room is not None:
                room.detach(conn)
            conn.close()
            await conn.wait_closed()

    if static_dir is None:
        static_dir = STATIC_DIR
    app.mount("/", StaticFiles(directory=str(static_dir), html=True, check_dir=False), name="web")

    return app


def list_games(content: HostContent | None = None) -> list[dict[str, Any]]:
    """Every registered game in lobby order: playable ones with their description (``available: true``),
    announced ones (no engine yet) with ``available: false``, so a lobby can show them as coming. A file
    option lists what the host offers for it (``offered``: values ``host:NAME``)."""
    announced = {game.id: game for game in announced_games()}
    listed = []
    for game_id in game_ids():
        if game_id in announced:
            listed.append(announced[game_id].describe())
            continue
        try:
            described = {**get_game(game_id).describe(), "available": True}
            for option in described.get("options", ()):
                if isinstance(option, dict) and option.get("file"):
                    names = content.offered(game_id, option["name"]) if content is not None else []
                    option["offered"] = [HOST + name for name in names]
            listed.append(described)
        except Exception as exc:  # a broken plugin is left out, never breaks the lobby
            log.warning("game %s is not listed: %s", game_id, exc)
    return listed


#: Largest name a player may give (the models' max_length).
MAX_NAME = 40


def name_problem(errors: Iterable[Mapping[str, Any]]) -> tuple[str, str, dict[str, Any]] | None:
    """A specific code for a problem with the body's ``name`` (what a person types), or ``None``."""
    for error in errors:
        loc = tuple(error.get("loc", ()))
        if loc[-1:] != ("name",) or loc[:1] != ("body",):
            continue
        kind = str(error.get("type", ""))
        value = error.get("input")
        if kind == "string_too_short" or (isinstance(value, str) and not value.strip()):
            return "name_required", "enter a name so the others know who you are", {}
        if kind == "string_too_long":
            return "name_too_long", f"a name may be at most {MAX_NAME} characters long", {"max": MAX_NAME}
        if kind in ("string_pattern_mismatch", "value_error"):
            return "name_needs_letter", "a name needs at least one letter or digit", {}
        return "bad_name", "the name must be text of 1 to 40 characters with a letter or digit", {"max": MAX_NAME}
    return None


#: Where the Swagger UI and ReDoc scripts are served from (never under /api).
DOCS_ASSETS_URL = "/docs-assets"


def _docs_assets() -> Path | None:
    """The folder of the Swagger UI and ReDoc files shipped by the ``fastapi-offline`` package, if installed."""
    try:
        import fastapi_offline
    except ImportError:
        return None
    folder = Path(fastapi_offline.__file__).parent / "static"
    needed = ("swagger-ui-bundle.js", "swagger-ui.css", "redoc.standalone.js")
    return folder if all((folder / name).is_file() for name in needed) else None


def _serve_docs(app: FastAPI, folder: Path) -> None:
    """``/docs`` (Swagger UI) and ``/redoc`` with their scripts served by this server: they work offline."""
    from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
    from fastapi.responses import HTMLResponse

    app.mount(DOCS_ASSETS_URL, StaticFiles(directory=str(folder)), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url="/openapi.json",
            title="mindtable API",
            swagger_js_url=f"{DOCS_ASSETS_URL}/swagger-ui-bundle.js",
            swagger_css_url=f"{DOCS_ASSETS_URL}/swagger-ui.css",
            swagger_favicon_url=f"{DOCS_ASSETS_URL}/favicon.png",
        )

    @app.get("/redoc", include_in_schema=False)
    async def redoc() -> HTMLResponse:
        return get_redoc_html(
            openapi_url="/openapi.json",
            title="mindtable API",
            redoc_js_url=f"{DOCS_ASSETS_URL}/redoc.standalone.js",
            redoc_favicon_url=f"{DOCS_ASSETS_URL}/favicon.png",
            with_google_fonts=False,
        )


def address_of(connection: Request | WebSocket) -> str:
    """The client's address as the guard resolved it (trusted proxies taken into account)."""
    return str(connection.scope.get("mindtable.address") or (connection.client.host if connection.client else "?"))


def _error(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"detail": {"code": code, "message": message}}, status_code=status, headers=headers)


_ROOM_PATH = re.compile(r"^/api/rooms/[^/]+")


class Guard:
    """Pure ASGI middleware in front of everything: who the client is (trusted proxies), per-address REST
    limits, ``405`` with the right ``Allow`` for the API's paths, and the body limit on what is actually read
    (``Content-Length`` or chunked alike)."""

    def __init__(self, app: Any, owner: FastAPI, limits: Limits, trusted: list[Network]) -> None:
        self.app = app
        self.owner = owner
        self.limits = limits
        self.trusted = trusted
        self._routes: list[APIRoute] | None = None

    def _allowed(self, path: str) -> set[str] | None:
        """The methods the API serves at ``path`` (``None``: no API route there)."""
        if self._routes is None:
            self._routes = [r for r in self.owner.routes if isinstance(r, APIRoute)]
        methods: set[str] = set()
        for route in self._routes:
            if route.path_regex.match(path):
                methods |= route.methods or set()
        if not methods:
            return None
        if "GET" in methods:
            methods.add("HEAD")
        return methods

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind == "websocket":
            scope["mindtable.address"] = client_address(scope, self.trusted)
            scope["mindtable.raw_send"] = send
            await self.app(scope, receive, send)
            return
        if kind != "http" or not scope["path"].startswith("/api"):
            await self.app(scope, receive, send)
            return
        address = scope["mindtable.address"] = client_address(scope, self.trusted)
        path = scope["path"]
        allowed = self._allowed(path)
        if allowed is None:
            response = _error(404, "not_found", "no such API path; see /openapi.json")
            await response(scope, receive, send)
            return
        if scope["method"] not in allowed:
            order = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]
            allow = ", ".join(sorted(allowed, key=lambda m: order.index(m) if m in order else 99))
            response = _error(405, "method_not_allowed", f"{path} answers {allow}", {"Allow": allow})
            await response(scope, receive, send)
            return
        manager = getattr(self.owner.state, "manager", None)
        if manager is not None:
            book = manager.book
            if not book.take("rest", address):
                retry = book.bucket("rest", address).retry_after()
                response = _error(
                    429,
                    "rate_limited",
                    f"more than {self.limits.rest_per_address_per_s:g} requests a second from your address",
                    {"Retry-After": f"{retry:.0f}"},
                )
                await response(scope, receive, send)
                return
            if _ROOM_PATH.match(path) and not book.has("miss", address):
                response = _error(
                    429,
                    "rate_limited",
                    "too many lookups of unknown rooms from your address; wait a minute",
                    {"Retry-After": "60"},
                )
                await response(scope, receive, send)
                return
        body = await self._read_body(scope, receive, send)
        if body is None:
            return
        sent = False

        async def replay() -> Any:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _read_body(self, scope: Any, receive: Any, send: Any) -> bytes | None:
        """The whole body, reading at most ``max_body_bytes`` (uploads: ``upload_max_bytes``) + 1 bytes
        (``None``: refused, 413 sent)."""
        limit = self.limits.upload_max_bytes if scope["path"] == UPLOADS_PATH else self.limits.max_body_bytes
        too_large = _error(413, "too_large", f"request bodies are limited to {limit} bytes")
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and (not value.isdigit() or int(value) > limit):
                await too_large(scope, receive, send)
                return None
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await too_large(scope, receive, send)
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)


UPLOADS_PATH = "/api/uploads"


def _parse(conn: Connection, message: Mapping[str, Any], max_bytes: int) -> dict[str, Any] | None:
    if not conn.allow():
        conn.error("rate_limited", f"more than {conn._rate:g} messages per second; this one was dropped")
        if conn.refused > conn.limits.ws_refusals_before_close:
            conn.close(1008)
        return None
    try:
        text = message.get("text")
        return parse_message(text if text is not None else message.get("bytes"), max_bytes)
    except ProtocolError as exc:
        conn.error(exc.code, safe_text(exc.message))
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

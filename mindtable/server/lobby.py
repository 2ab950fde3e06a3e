"""The REST lobby under ``/api``: games, uploads, rooms (create, list, look up, join, leave, rematch), and a
finished room's record and replay. Every handler reaches the server's rooms through ``request.app.state``."""

from __future__ import annotations

import logging
import time
from typing import Any

from fastapi import APIRouter, Header, Query, Request, WebSocket

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
from mindtable.server.manager import RoomManager
from mindtable.server.models import (
    CreateRoom,
    JoinRoom,
    Ok,
    RoomOut,
    SeatGranted,
    UploadOut,
    answers,
)
from mindtable.server.protocol import safe_text
from mindtable.server.room import Room, RoomError, Settings

log = logging.getLogger("mindtable.server")


router = APIRouter()
UPLOADS_PATH = "/api/uploads"


def manager_of(request: Request | WebSocket) -> RoomManager:
    manager: RoomManager = request.app.state.manager
    return manager


def address_of(connection: Request | WebSocket) -> str:
    """The client's address as the guard resolved it (trusted proxies taken into account)."""
    return str(connection.scope.get("mindtable.address") or (connection.client.host if connection.client else "?"))


def _bearer(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


def _seat_granted(room: Room, seat: int | None, token: str | None) -> dict[str, Any]:
    """The answer of every lobby call that hands out a seat (create, join, rematch)."""
    return {"code": room.code, "seat": seat, "token": token, "room": room.to_dict()}


@router.get(
    "/api/games",
    summary="Every registered game: playable ones (available: true) and announced ones (available: false)",
    tags=["lobby"],
    responses=answers(429),
)
async def games(request: Request) -> list[dict[str, Any]]:
    return list_games(getattr(request.app.state, "content", None))


@router.post(
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
    if not await manager.book.take_async("upload", address):
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


@router.post(
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
            bot_pace=body.bot_pace,
        ),
    )
    return _seat_granted(room, seat, token)


@router.get(
    "/api/rooms",
    response_model=list[RoomOut],
    responses=answers(429),
    tags=["lobby"],
    summary="Public rooms, waiting or playing",
)
async def list_rooms(request: Request) -> list[dict[str, Any]]:
    return await manager_of(request).listed_rooms()


@router.get(
    "/api/rooms/{code}",
    response_model=RoomOut,
    responses=answers(404, 409, 429, 503),
    tags=["lobby"],
    summary="One room",
)
async def get_room(code: str, request: Request) -> dict[str, Any]:
    return (await manager_of(request).require(code)).to_dict()


@router.post(
    "/api/rooms/{code}/join",
    response_model=SeatGranted,
    responses=answers(400, 404, 409, 413, 422, 429, 503),
    tags=["lobby"],
    summary="Take a free seat (409 when full)",
)
async def join_room(code: str, body: JoinRoom, request: Request) -> dict[str, Any]:
    room, seat, token = await manager_of(request).join(code, body.name, body.seat)
    return _seat_granted(room, seat, token)


@router.post(
    "/api/rooms/{code}/leave",
    response_model=Ok,
    responses=answers(401, 404, 409, 413, 429, 503),
    tags=["lobby"],
    summary="Leave your seat (header Authorization: Bearer <token>)",
)
async def leave_room(code: str, request: Request, authorization: str | None = Header(None)) -> dict[str, Any]:
    await manager_of(request).leave(code, _bearer(authorization))
    return {"ok": True}


@router.post(
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
        raise RoomError(409, "room_broken", f"the stored record of this room does not replay: {room.integrity_message}")
    return room


@router.get(
    "/api/rooms/{code}/record",
    responses=answers(403, 404, 409, 429, 503),
    tags=["lobby"],
    summary="The match record, once the match is over (403 before)",
)
async def room_record(code: str, request: Request) -> dict[str, Any]:
    room = await finished_room(code, request, "record")
    return room.match.record()


@router.get(
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

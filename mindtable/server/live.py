"""Live play over the WebSocket ``/ws/{code}``: the hello (with the seat token), then actions, pings and the
room's numbered messages (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from mindtable.server.lobby import address_of, manager_of
from mindtable.server.protocol import ProtocolError, parse_message, safe_text
from mindtable.server.room import Room, RoomError, hash_token
from mindtable.server.streams import Connection

log = logging.getLogger("mindtable.server")


router = APIRouter()


@router.websocket("/ws/{code}")
async def play(websocket: WebSocket, code: str) -> None:
    manager = manager_of(websocket)
    max_message_bytes = manager.limits.ws_max_message_bytes
    hello_timeout_s = manager.limits.ws_hello_timeout_s
    address = address_of(websocket)
    book = manager.book
    await websocket.accept()
    conn = Connection(websocket, manager.limits, address, book)
    if not await book.take_async("connect", address):
        conn.error("rate_limited", "too many new connections from your address; wait a little and reconnect")
        conn.close(1008)
        await conn.wait_closed()
        return
    if not await book.open_connection_async(address):
        conn.error(
            "too_many_connections",
            f"your address already has {manager.limits.ws_connections_per_address} open connections; close one first",
        )
        conn.close(1008)
        await conn.wait_closed()
        return
    room: Room | None = None
    watched: str | None = None
    try:
        if not await book.has_async("miss", address):
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
            await book.take_async("miss", address)
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
        if room.closed:
            # Forgotten here while the hello was awaited (a finished room released from memory, a room moving
            # to another process): the room as it is now, loaded again.
            try:
                room = await manager.get(code)
            except RoomError as exc:
                conn.error(exc.code, safe_text(exc.message))
                conn.close(4409 if exc.status == 409 else 1011)
                room = None
                return
            if room is None:
                conn.error("unknown_room", f"there is no room {safe_text(code.strip().upper(), 20)!r}; check the code")
                conn.close(4404)
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
        book.close_connection_async(address)
        if watched is not None:
            manager.unwatch_token(watched, conn)
        if room is not None:
            room.detach(conn)
        conn.close()
        await conn.wait_closed()


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

"""Issue 15, item 6: a client that stops reading is dropped (TCP aborted), stops counting as a spectator, and
never makes the server hold more than the per-connection queue limit."""

from __future__ import annotations

import asyncio
import json
import socket
import time

import httpx
import websockets


def test_a_client_that_stops_reading_is_dropped(start_server, helpers) -> None:
    server = start_server(
        rate=1_000_000,
        limits={
            "ws_send_timeout_s": 1,
            "ws_queue_bytes": 65536,
            "ws_messages_burst": 1_000_000,
            "ws_messages_per_address_per_s": 1_000_000,
            "rest_burst": 100_000,
            "rest_per_address_per_s": 100_000,
        },
    )
    created = httpx.post(server.http + "/api/rooms", json={"game": "the-mind", "players": 2}, timeout=10).json()
    code = created["code"]

    def spectators() -> int:
        return int(httpx.get(f"{server.http}/api/rooms/{code}", timeout=10).json()["spectators"])

    async def scenario() -> tuple[int, float]:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a small window: the server's writes stall
        sock.connect(("127.0.0.1", server.port))
        slow = await websockets.connect(f"{server.ws}/ws/{code}", sock=sock, max_queue=1)
        await slow.send(json.dumps({"type": "hello", "last_seq": 0}))
        await asyncio.sleep(0.3)
        assert spectators() == 1
        # Ask for far more answers than it will ever read (each refusal is an error message of ~150 bytes).
        started = time.monotonic()
        noisy = json.dumps({"type": "ping", "x" * 60: 1})
        try:
            for _ in range(60):
                for _ in range(500):
                    await slow.send(noisy)
                await asyncio.sleep(0.01)
        except websockets.ConnectionClosed:
            pass  # the server has aborted the connection
        while spectators() != 0 and time.monotonic() - started < 15:
            await asyncio.sleep(0.2)
        dropped_after = time.monotonic() - started
        left = spectators()
        sock.close()
        return left, dropped_after

    left, dropped_after = asyncio.run(scenario())
    assert left == 0, "the slow reader still counts as a spectator"
    assert dropped_after < 10, dropped_after
    # The server still serves everybody else.
    assert httpx.get(server.http + "/api/games", timeout=5).status_code == 200
    server.stop()
    assert "does not read its messages" in server.log() or "a write took over" in server.log(), server.log()
    assert "Traceback" not in server.log(), server.log()

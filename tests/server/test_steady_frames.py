"""A state frame leaves out the view's steady parts (``Game.steady_view``: a quiz game's board and question
history) when they are what that stream sent last, naming them in ``"same"``; a client that keeps the parts it
has (``protocol.fill_same``, as the page's connection does) sees every view whole — the same view the record's
replay gives at that step — and a client that arrives fresh gets whole frames."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx

import mindtable
from mindtable.server.protocol import fill_same


def test_frames_leave_out_the_unchanged_board_and_history_and_clients_see_every_view_whole(server, helpers) -> None:
    async def scenario() -> tuple[str, list[dict[str, Any]], list[int], dict[str, Any]]:
        created = await helpers.create_room(
            server.http,
            game="carrera-de-mente",
            players=2,
            bots={"0": "knowing", "1": "knowing"},
            options={"board": "small"},
            bot_pace="off",
        )
        code = created["code"]
        watcher = await helpers.Client(server.ws, code).connect()
        sizes: list[int] = []
        raw_frames: list[dict[str, Any]] = []
        try:
            while True:
                text = await asyncio.wait_for(watcher.ws.recv(), 15)
                frame = json.loads(text)
                if frame.get("kind") == "state":
                    sizes.append(len(text))
                    raw_frames.append(frame)
                if frame.get("kind") == "over":
                    break
        finally:
            await watcher.close()
        async with httpx.AsyncClient(base_url=server.http) as http:
            record = (await http.get(f"/api/rooms/{code}/record")).json()
        return code, raw_frames, sizes, record

    _code, frames, sizes, record = asyncio.run(scenario())
    steps = mindtable.replay_steps(record, seat=None)
    assert "same" not in frames[0] and "board" in frames[0]["view"], "the first frame a client gets is whole"
    trimmed = [f for f in frames if "same" in f]
    assert len(trimmed) > len(frames) // 2, f"only {len(trimmed)} of {len(frames)} frames left a part out"
    assert all("board" not in f["view"] for f in trimmed if "board" in f["same"])
    view = None
    ratios = []
    for frame, size in zip(frames, sizes, strict=True):
        trimmed_frame = "same" in frame
        view = fill_same(frame, view)
        expected = dict(steps[frame["step"]]["view"])
        assert view == expected, f"step {frame['step']}: the view made whole is not the replay's"
        if trimmed_frame:
            whole = {key: value for key, value in frame.items() if key != "same"}
            ratios.append(size / len(json.dumps({**whole, "view": view}, separators=(",", ":"), ensure_ascii=False)))
    median = sorted(ratios)[len(ratios) // 2]
    assert median < 0.5, f"a frame without the board is much smaller than the same frame whole: {median:.2f}"


def test_a_client_that_comes_back_fresh_gets_the_whole_view_first(server, helpers) -> None:
    async def scenario() -> None:
        created = await helpers.create_room(
            server.http,
            game="eesti-malumang",
            players=2,
            bots={"0": "knowing", "1": "knowing"},
            bot_pace="off",
        )
        code = created["code"]
        first = await helpers.Client(server.ws, code).connect()
        try:
            await first.next(lambda m: m.get("kind") == "state" and "same" in m, timeout=15)
        finally:
            await first.close()
        again = await helpers.Client(server.ws, code).connect()  # no last_seq: a fresh start
        try:
            state = await again.next(lambda m: m.get("kind") == "state", timeout=15)
            assert "same" not in state and {"board", "quiz_history"} <= set(state["view"])
            later = await again.next(lambda m: m.get("kind") == "state" and m["step"] > state["step"], timeout=15)
            assert "board" in later["view"]  # the client kept it (from "same", or sent again)
        finally:
            await again.close()

    asyncio.run(scenario())

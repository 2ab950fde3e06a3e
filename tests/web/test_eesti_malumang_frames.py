"""Eesti mälumäng through the server: the asker's card never reaches the answering side.

A short variant-1 game (one Estonia card of each colour) between a seat played over a WebSocket (by the
knowing bot's logic, at a person's pace) and a knowing bot in the server, watched by a spectator. Every frame
the seat and the spectator receive is checked against ``Game.secrets`` replayed step by step from the record:
the answer on the card being asked and the card's other questions reach no one but the asker (the player to
the left) — not the player answering, not the spectator — until the answer is decided. (No browser needed.)
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import websockets

import mindtable
from mindtable.core.bots import Observation
from mindtable.server.protocol import fill_same
from tests.web.conftest import get_json, post_json
from tests.web.quiz_pages import card_readers

GAME_ID = "eesti-malumang"


async def _watch(url: str, frames: list[dict[str, Any]], stop: asyncio.Event) -> None:
    async with websockets.connect(url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "last_seq": 0, "stream": None}))
        while not stop.is_set():
            try:
                frame = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
            except TimeoutError:
                continue
            frames.append(frame)
            if frame.get("kind") == "over":
                return


def test_no_frame_carries_the_askers_card_to_the_answering_side(server_url: str) -> None:
    created = post_json(
        f"{server_url}/api/rooms",
        {
            "game": GAME_ID,
            "players": 2,
            "name": "Ana",
            "bots": {"1": "knowing"},
            "bot_params": {"1": {"board_think_ms": 0, "knows": 0.5}},
            "bot_pace": "off",
            "options": {"variant": "outer_track", "cards_per_colour": 1},
        },
    )
    code, token = created["code"], created["token"]
    ws_base = server_url.replace("http://", "ws://")
    frames: dict[int | None, list[dict[str, Any]]] = {0: [], None: []}
    game = mindtable.get_game(GAME_ID)

    async def scenario() -> None:
        stop = asyncio.Event()
        spectator = asyncio.create_task(_watch(f"{ws_base}/ws/{code}", frames[None], stop))
        async with websockets.connect(f"{ws_base}/ws/{code}?token={token}", max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "hello", "last_seq": 0, "stream": None}))
            player = game.make_bot("knowing", seat=0, seed=7, knows=0.5, board_think_ms=0)
            deadline = time.monotonic() + 60
            n, acted = 0, -1
            view = None
            while time.monotonic() < deadline:
                try:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
                except TimeoutError:
                    last = [(f.get("kind"), f.get("step"), f.get("code")) for f in frames[0][-8:]]
                    raise AssertionError(f"no frame for 10 s after {n} actions; the last frames: {last}") from None
                if frame.get("kind") == "state":  # whole: a steady part sent before comes as "same"
                    view = fill_same(frame, view)
                frames[0].append(frame)
                if frame.get("kind") == "over":
                    break
                if frame.get("kind") == "state" and frame.get("legal") and frame["step"] > acted:
                    acted = frame["step"]  # one action per step: the server limits messages per connection
                    decision = player.decide(Observation(0, frame["view"], frame["legal"], frame["clock"]))
                    if decision is not None:
                        await asyncio.sleep(0.1)
                        n += 1
                        await ws.send(json.dumps({"type": "action", "id": f"a{n}", "action": decision.action}))
        stop.set()
        await spectator

    asyncio.run(scenario())
    assert get_json(f"{server_url}/api/rooms/{code}")["status"] == "over"
    record = get_json(f"{server_url}/api/rooms/{code}/record")
    # Replay: the secrets after each step, as Game.secrets lists them, and who answers at each step.
    again = mindtable.new_match(record["game"], record["players"], record["seed"], record["options"])
    secrets = [game.secrets(again.state, 2)]
    answering = [None]
    said: set[str] = set()  # what a player typed is theirs to say, even when it is the answer
    for action in record["actions"]:
        again.apply(action)
        if "text" in action:
            said.add(json.dumps(action["text"]))
        secrets.append([(seats, text) for seats, text in game.secrets(again.state, 2) if text not in said])
        ask = again.state["ask"]
        answering.append(ask["answerers"][0] if ask else None)
    assert again.snapshot() == mindtable.replay(record).snapshot()
    checked = {0: 0, None: 0}
    while_answering = 0
    for seat, received in frames.items():
        for frame in received:
            assert [r for r in card_readers(frame) if r != seat] == [], f"seat {seat} got the asker's card"
            if frame.get("kind") not in ("state", "events"):
                continue
            text = json.dumps(frame)  # as Game.secrets writes texts: non-ASCII escaped
            for allowed, secret in secrets[frame["step"]]:
                if seat not in allowed:
                    assert secret not in text, f"seat {seat} received {secret} at step {frame['step']}"
                    checked[seat] += 1
                    if seat == 0 and answering[frame["step"]] == 0:
                        while_answering += 1
    # Enough was checked, and in the case that matters: seat 0 answering while seat 1 asks.
    assert checked[0] > 20 and checked[None] > 20, checked
    assert while_answering > 5, while_answering
    # And seat 0's frames did carry the card while it asked (the check above would pass on empty frames).
    assert 0 in [r for f in frames[0] for r in card_readers(f)]

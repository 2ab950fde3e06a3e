"""The scripted player the browser test drives (``player.py``) reaches a steal, a lap prize and a win whatever
the dice: checked here with the rules alone, over many seeds, against the knowing bot a lobby seats."""

from __future__ import annotations

from collections import Counter

import pytest

import mindtable
from mindtable.core.bots import observe
from tests.carrera_de_mente.player import plan

GAME_ID = "carrera-de-mente"
#: The most actions the person's page may need: the browser test clicks each one (well under a minute).
MOST_ACTIONS = 400  # the path took 42–232 page actions over several hundred seeds (bots of 2026-12-01)


def play(seed: int) -> tuple[mindtable.Match, Counter[str], int]:
    match = mindtable.new_match(GAME_ID, players=2, seed=seed, options={"board": "small"})
    bot = match.game.make_bot("knowing", 1, seed=seed)
    done: Counter[str] = Counter()
    stolen, mine = False, 0
    while not match.is_over and mine <= MOST_ACTIONS:
        if 1 in match.to_act():
            decision = bot.decide(observe(match, 1, 0))
            assert decision is not None
            match.apply({**decision.action, "seat": 1})
            continue
        step = plan(match.view(0), match.legal_actions(0), 0, stolen)
        assert step is not None, match.view(0)["phase"]
        action: dict[str, str] = {"type": step.kind}
        if step.kind in ("lap_prize", "steal"):
            action["colour"] = step.value
        elif step.kind == "topic":
            action["topic"] = step.value
        elif step.kind == "ask_answer":
            action["text"] = step.value
        events = match.apply({**action, "seat": 0})
        stolen = stolen or any(e.type == "stolen" for e in events)
        done[step.kind + (":right" if step.right else "")] += 1
        mine += 1
    return match, done, mine


@pytest.mark.parametrize("seed", range(0, 240, 20))
def test_the_scripted_person_steals_takes_a_lap_prize_and_wins(seed: int) -> None:
    match, done, mine = play(seed)
    assert match.is_over and mine <= MOST_ACTIONS, (seed, mine)
    result = match.result
    assert result is not None and result.winners == (0,) and result.reason == "six_colours"
    assert done["steal"] >= 1 and done["lap_prize"] >= 1, done
    assert done["ask_answer:right"] >= 2 and done["ask_confirm"] + done["ask_overrule"] >= 1

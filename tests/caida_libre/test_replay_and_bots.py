"""Bots with a knowledge profile, and records that replay with no card or board file present."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import mindtable
from mindtable.core.bots import Observation
from mindtable.core.driver import play_out
from mindtable.games.caida_libre import bots as caida_bots
from mindtable.games.caida_libre import rules, scale
from mindtable.trivia.quiz_bots import KnowledgeProfile
from tests.caida_libre.conftest import act, position


def bot_game(players: int, seed: int, **options: object) -> mindtable.Match:
    match = mindtable.new_match("caida-libre", players=players, seed=seed, options={"language": "en", **options})
    bots = {s: match.game.make_bot("knowing", seat=s, seed=seed) for s in range(players)}
    play_out(match, bots)
    return match


def test_a_finished_bot_game_replays_from_its_record_with_no_content_files(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    match = bot_game(4, seed=11)
    record = match.record()
    monkeypatch.setattr(rules, "CONTENT", tmp_path / "no-cards")
    monkeypatch.setattr(scale, "BOARD_FILE", tmp_path / "no-board.yaml")
    rules._set.cache_clear()
    try:
        again = mindtable.replay(record, verify=True)
    finally:
        rules._set.cache_clear()
    assert again.snapshot() == match.snapshot()
    assert again.result == match.result


def test_same_seed_same_game() -> None:
    a, b = bot_game(3, seed=5), bot_game(3, seed=5)
    assert a.actions == b.actions and a.result == b.result


def test_bots_who_know_more_win_more() -> None:
    wins = [0, 0]
    for seed in range(16):
        match = mindtable.new_match("caida-libre", players=2, seed=seed, options={"language": "es", "pack": "all"})
        bots = {
            0: match.game.make_bot("knowing", seat=0, seed=seed, knows=0.9),
            1: match.game.make_bot("knowing", seat=1, seed=seed, knows=0.2),
        }
        result = play_out(match, bots)
        for seat in result.winners:
            wins[seat] += 1
    assert wins[0] > wins[1]


def test_double_question_choice_by_expected_loss() -> None:
    headings = [{"category": "sport", "penalty": 20}, {"category": "science", "penalty": 40}]
    even = KnowledgeProfile(default=0.5)
    # easy at 0.6 loses 0.4 x 40 = 16; hard (20 apart) at 0.3 loses 0.7 x 20 = 14: take the hard one
    assert caida_bots.double_choice(even, headings, [0, 1]) == 0
    scientist = KnowledgeProfile(default=0.5, by_topic={"science": 0.9})
    assert caida_bots.double_choice(scientist, headings, [0, 1]) == 1


def test_the_sniper_aims_at_the_leader_and_the_hook_helps_the_last() -> None:
    match = position(4, iq=[140, 120, 150, 60], card="roulette-001")
    bot = match.game.make_bot("knowing", seat=1, seed=1)
    decision = bot.decide(Observation(1, match.view(1), match.legal_actions(1), match.clock))
    assert decision is not None and decision.action == {"type": "target", "target": 2}
    match = position(4, iq=[140, 100, 150, 60], card="roulette-001")
    bot = match.game.make_bot("knowing", seat=1, seed=1)
    decision = bot.decide(Observation(1, match.view(1), match.legal_actions(1), match.clock))
    assert decision is not None and decision.action == {"type": "target", "target": 3}


def test_a_bot_asker_draws_and_confirms_the_judge() -> None:
    match = position(3, card="roulette-001")
    asker = match.game.make_bot("knowing", seat=0, seed=1)
    decision = asker.decide(Observation(0, match.view(0), match.legal_actions(0), match.clock))
    assert decision is not None and decision.action == {"type": "draw"}
    act(match, "draw", 0)
    act(match, "ask_answer", 1, text="c")
    decision = asker.decide(Observation(0, match.view(0), match.legal_actions(0), match.clock))
    assert decision is not None and decision.action == {"type": "ask_confirm"}


def test_a_bot_that_knows_everything_answers_shared_prompts_from_the_right_card() -> None:
    """More or Less cards share prompts ("Which is longer?"): the options tell the cards apart."""
    library = caida_bots.library("en")
    prompts: dict[str, int] = {}
    for q in library._all.values():
        for item in q:
            prompts[item.prompt] = prompts.get(item.prompt, 0) + 1
    assert max(prompts.values()) > 1, "the shipped cards share some prompts"
    for card_id in [c for c in rules.deal_cards("en", "all") if c.startswith("more_or_less")][:10]:
        match = position(2, iq=[150, 150], card=card_id)
        act(match, "draw", 0)
        bot = match.game.make_bot("knowing", seat=1, seed=1, knows=1.0)
        for _ in range(2):
            decision = bot.decide(Observation(1, match.view(1), match.legal_actions(1), match.clock))
            assert decision is not None
            act(match, decision.action["type"], 1, text=decision.action["text"])
            act(match, "ask_confirm", 0)
        assert match.state["iq"] == [150, 150], card_id


def test_a_bot_with_an_impossible_knowledge_is_refused() -> None:
    with pytest.raises(mindtable.InvalidOptions):
        mindtable.get_game("caida-libre").make_bot("knowing", seat=0, knows=1.5)


def test_a_bot_thinks_as_time_as_data_and_plays_the_same_game() -> None:
    """``think_ms`` only moves each move later on the clock: the same cards, answers and result; a simulation's
    bots (the factory's default) act at once."""
    quick, slow = (mindtable.new_match("caida-libre", players=3, seed=7, options={"language": "en"}) for _ in range(2))
    play_out(quick, {s: quick.game.make_bot("knowing", seat=s, seed=7) for s in range(3)})
    play_out(slow, {s: slow.game.make_bot("knowing", seat=s, seed=7, think_ms=1200) for s in range(3)})
    strip = [[{k: v for k, v in a.items() if k != "at"} for a in m.actions] for m in (quick, slow)]
    assert strip[0] == strip[1] and quick.result == slow.result
    assert all(a["at"] == 0 for a in quick.actions)
    times = [a["at"] for a in slow.actions]
    assert times[0] == 1200 and all(later - earlier >= 1200 for earlier, later in itertools.pairwise(times))


def test_a_thinking_bot_keeps_its_moment_when_asked_again() -> None:
    """The server asks its bots again after anything happens: the same situation keeps the time first planned,
    and a new situation starts a new think."""
    match = mindtable.new_match("caida-libre", players=2, seed=3, options={"language": "en", "starter": 0})
    bot = match.game.make_bot("knowing", seat=0, seed=3, think_ms=1500)
    first = bot.decide(Observation(0, match.view(0), match.legal_actions(0), now=100))
    again = bot.decide(Observation(0, match.view(0), match.legal_actions(0), now=900))
    assert first is not None and first.action == {"type": "draw"} and first.at == 1600
    assert again == first
    match.apply({**first.action, "seat": 0, "at": first.at})
    assert bot.decide(Observation(0, match.view(0), match.legal_actions(0), now=1700)) is None  # it waits
    answerer = match.game.make_bot("knowing", seat=1, seed=3, think_ms=1500)
    answer = answerer.decide(Observation(1, match.view(1), match.legal_actions(1), now=1700))
    assert answer is not None and answer.at == 3200


@pytest.mark.parametrize("think_ms", [-1, 600_001, "fast"])
def test_a_bad_think_time_is_refused_with_its_range(think_ms: object) -> None:
    with pytest.raises(mindtable.InvalidOptions, match="think_ms must be a number of milliseconds from 0 to 600000"):
        mindtable.get_game("caida-libre").make_bot("knowing", seat=0, think_ms=think_ms)

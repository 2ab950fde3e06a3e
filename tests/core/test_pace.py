"""A bot's pace at a table (mindtable.core.pace): a think time before each step and the time to read the question
before answering it, as time-as-data on the match clock (the virtual-clock driver here; a room's driver honours
the same ``Decision.at``); bare bots — simulations, the Python API — act at once; a bad pace is refused."""

from __future__ import annotations

import itertools

import pytest

import mindtable
from mindtable.core.driver import play_out
from mindtable.core.errors import InvalidOptions
from mindtable.core.pace import PacedBot, pace_of

#: The three quiz games with the options of a short match each.
QUIZ_GAMES = {
    "carrera-de-mente": {"board": "small", "turn_limit": 3},
    "caida-libre": {"language": "en"},
    "eesti-malumang": {"variant": "outer_track", "cards_per_colour": 1},
}


def _played(game_id: str, pace: str | float | None, seed: int = 5) -> tuple[mindtable.Match, list[dict]]:
    match = mindtable.new_match(game_id, players=2, seed=seed, options=QUIZ_GAMES[game_id])
    game = match.game
    bots = {}
    for seat in range(2):
        bot = game.make_bot("knowing", seat=seat, seed=seed)
        bots[seat] = bot if pace is None else PacedBot(bot, pace_of(pace), game.read_before)
    play_out(match, bots, max_actions=3000)
    return match, match.record()["actions"]


@pytest.mark.parametrize("game_id", sorted(QUIZ_GAMES))
def test_a_paced_bot_waits_its_think_time_before_each_step_and_reads_the_question(game_id: str) -> None:
    match, actions = _played(game_id, "normal")
    pace = pace_of("normal")
    assert match.is_over
    # every step a bot takes comes at least the think time after the step before it
    gaps = [b["at"] - a["at"] for a, b in itertools.pairwise(actions) if b.get("seat") is not None]
    assert gaps and min(gaps) >= pace.think_ms, min(gaps)
    # an answer comes after the question was read too: longer than the bare think time, by its length
    replayed = mindtable.new_match(game_id, players=2, seed=5, options=QUIZ_GAMES[game_id])
    answered = 0
    for before, action in zip([None, *actions], actions, strict=False):
        if action["type"] == "ask_answer" and before is not None:
            read = match.game.read_before(replayed.view(action["seat"]), action)
            assert read and action["at"] - before["at"] >= pace.delay_ms(read) > pace.think_ms
            answered += 1
        replayed.apply(action)
    assert answered >= 1


@pytest.mark.parametrize("game_id", ["carrera-de-mente", "caida-libre"])
def test_bots_act_at_once_outside_a_room(game_id: str) -> None:
    """Simulations and the Python API build bare bots (``Game.make_bot``): no pace, the clock never moves."""
    match, actions = _played(game_id, None)
    assert match.is_over and actions and {a["at"] for a in actions} == {0}
    paced, _ = _played(game_id, 0.5)
    assert paced.clock >= 500 * len(actions) // 2  # the same bots, paced: the clock runs on


def test_the_same_situation_asked_again_keeps_its_first_moment() -> None:
    """A room asks its bots again after anything happens: a bot asked twice about what it sees keeps its plan."""
    match = mindtable.new_match("carrera-de-mente", players=2, seed=3, options={"board": "small"})
    game = match.game
    seat = match.view(None)["turn"]
    bot = PacedBot(game.make_bot("knowing", seat=seat, seed=3), pace_of(2), game.read_before)
    first = bot.decide(mindtable.observe(match, seat, now=1_000))
    again = bot.decide(mindtable.observe(match, seat, now=2_500))
    assert first is not None and again is not None
    assert first.at == again.at == 3_000 and first.action == again.action


@pytest.mark.parametrize("value", ["fast", "", 61, -1, float("nan"), float("inf"), True, None, [1], "normal " * 20])
def test_a_bad_pace_is_refused_saying_what_is_allowed(value: object) -> None:
    with pytest.raises(InvalidOptions) as refused:
        pace_of(value)
    message = str(refused.value)
    assert message.startswith("bot_pace must be off, normal, slow or a number of seconds from 0 to 60, got ")
    assert len(message) < 160


def test_named_paces_and_seconds() -> None:
    assert pace_of("off").off and pace_of(0).off
    assert pace_of("normal").think_ms == 1500 < pace_of("slow").think_ms
    assert pace_of(0.3).think_ms == 300 and pace_of(0.3).delay_ms("x" * 1000) == 300 + pace_of(0.3).most_read_ms
    assert mindtable.get_game("carrera-de-mente").room_bot_pace == "normal"
    assert mindtable.get_game("the-mind").room_bot_pace == "off"


def test_the_pace_never_makes_a_bot_miss_a_deadline() -> None:
    """A Quote 5 on its 15-second clock, read slowly: the bot answers a second before the time is up at the latest,
    never after it (then its answer would be refused); a bot's own later wish still stands."""
    from mindtable.core.bots import Decision, Observation

    class Answerer:
        seat = 0

        def __init__(self, at: int | None = None) -> None:
            self.at = at

        def decide(self, observation: Observation) -> Decision:
            return Decision({"type": "ask_answer", "text": "Pinta"}, self.at)

    view = {"question": "x" * 400}
    legal = [{"type": "ask_answer", "seat": 0}]
    slow = pace_of("slow")
    assert slow.delay_ms(view["question"]) > 15_000
    bot = PacedBot(Answerer(), slow, lambda v, a: v["question"], deadline=lambda: 15_000)
    assert bot.decide(Observation(0, view, legal, now=0)).at == 14_000
    assert bot.decide(Observation(0, view, legal, now=14_500)).at in (None, 14_500)  # late already: at once
    unpaced = PacedBot(Answerer(at=16_000), slow, lambda v, a: v["question"], deadline=lambda: 15_000)
    assert unpaced.decide(Observation(0, view, legal, now=0)).at == 16_000

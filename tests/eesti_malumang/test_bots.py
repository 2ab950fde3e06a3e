"""The knowing bot: plays every variant to the end, and chooses its board moves sensibly."""

from __future__ import annotations

import pytest

import mindtable
from mindtable.core.bots import Observation
from mindtable.core.driver import play_out
from tests.eesti_malumang.helpers import ALL, act, position


@pytest.mark.parametrize("variant", ["standard", "outer_track", "cards_only"])
@pytest.mark.parametrize("players", [2, 6])
def test_knowing_bots_play_every_variant_to_the_end(variant: str, players: int) -> None:
    game = mindtable.get_game("eesti-malumang")
    match = mindtable.new_match("eesti-malumang", players=players, seed=11, options={"variant": variant})
    result = play_out(match, {s: game.make_bot("knowing", seat=s, seed=s) for s in range(players)})
    expected = {"standard": "finish", "outer_track": "cards_taken", "cards_only": "time"}[variant]
    assert result.reason == expected and result.winners


def bot(seat: int, **params):
    return mindtable.get_game("eesti-malumang").make_bot("knowing", seat=seat, seed=1, **params)


def observe(match, seat):
    return Observation(seat, match.view(seat), match.legal_actions(seat), match.clock)


def test_the_bot_moves_towards_a_colour_it_lacks() -> None:
    # die 3 from nw: o3 (science, held) or o26 (culture, lacking)
    match = position(2, held=[{"science": 1}, {}], die=3)
    act(match, "roll", 0)
    assert bot(0).decide(observe(match, 0)).action == {"type": "move", "to": "o26"}


def test_the_complete_bot_heads_for_an_estonia_space() -> None:
    match = position(2, pawns=["o6", "nw"], held=[ALL, {}], die=5)
    act(match, "roll", 0)
    assert bot(0).decide(observe(match, 0)).action == {"type": "move", "to": "ne"}


def test_the_bot_chooses_a_lacking_category_it_knows_best_on_an_estonia_space() -> None:
    match = position(2, pawns=["o5", "nw"], held=[{"history": 1}, {}], die=3)
    act(match, "roll", 0)
    act(match, "move", 0, to="ne")
    decision = bot(0, knows=0.3, history=1.0, sport=0.9).decide(observe(match, 0))
    assert decision.action == {"type": "category", "category": "sport"}


def test_on_the_finish_square_the_bot_picks_the_category_the_opponent_does_worst_in() -> None:
    match = position(2, pawns=["goal", "o3"], held=[ALL, {}])
    match.state["stats"][0] = {c: [3, 0] for c in ALL} | {"geography": [0, 3]}
    assert bot(1).decide(observe(match, 1)).action == {"type": "final_category", "category": "geography"}


def test_in_variant_1_the_bot_moves_towards_a_colour_with_cards_left() -> None:
    # die 3 from nw: o3 (science, whose one card seat 1 has taken) or o26 (culture, one card left). The bot knows
    # science best, but a right answer there would only roll again.
    match = position(2, held=[{}, {"science": 1}], die=3, variant="outer_track", cards_per_colour=1)
    act(match, "roll", 0)
    assert bot(0, knows=0.3, science=1.0).decide(observe(match, 0)).action == {"type": "move", "to": "o26"}
    # ... and on an Estonia space it names a category with a card left, the one it knows best.
    match = position(2, pawns=["o5", "nw"], held=[{}, {"science": 1}], die=3, variant="outer_track", cards_per_colour=1)
    act(match, "roll", 0)
    act(match, "move", 0, to="ne")
    decision = bot(0, knows=0.3, science=1.0, sport=0.9).decide(observe(match, 0))
    assert decision.action == {"type": "category", "category": "sport"}


def test_the_bot_answers_after_thinking_longer_in_variant_2_than_on_the_board() -> None:
    board = position(2, turn=1, pawns=["o5", "nw"], variant="outer_track", die=3)
    act(board, "roll", 1)
    act(board, "move", 1, to=board.state["landings"][0]["square"])
    if board.state["phase"] == "category":
        act(board, "category", 1, category="history")
    cards = position(2, variant="cards_only")
    act(cards, "category", 0, category="history")
    for match, seat, think in ((board, 1, 2_000), (cards, 0, 15_000)):
        decision = bot(seat).decide(observe(match, seat))
        assert decision.action["type"] in ("ask_answer", "ask_pass") and decision.at == match.clock + think


def test_asked_again_about_the_same_question_the_bot_keeps_its_first_moment() -> None:
    """A room asks its bots again whenever anything happens (a player reconnecting): the answer still comes
    ``think_ms`` after the bot first saw the question, not after the last time it was asked."""
    match = position(2, variant="cards_only")
    act(match, "category", 0, category="history")
    thinker = bot(0)

    def seen_at(now: int) -> Observation:
        return Observation(seat=0, view=match.view(0), legal_actions=match.legal_actions(0), now=now)

    first, again = thinker.decide(seen_at(1_000)), thinker.decide(seen_at(9_000))
    assert first is not None and again is not None
    assert first.action["type"] in ("ask_answer", "ask_pass") and first.at == again.at == 1_000 + 15_000

"""Stars, rewards, caps, winning, losing and blind mode."""

import pytest

import mindtable
from mindtable.games.the_mind import REWARDS
from tests.the_mind.conftest import act, all_ready, position


def test_the_reward_table_matches_the_level_cards():
    assert REWARDS == {2: "star", 3: "life", 5: "star", 6: "life", 8: "star", 9: "life"}


def test_a_star_needs_everyone_and_discards_each_lowest_card_face_up():
    match = position([[10, 40], [25, 70], [5, 90]], stars=1, lives=3)
    act(match, "propose_star", 1)
    assert match.view(0)["proposal"] == {"kind": "star", "by": 1, "agreed": [1]}
    with pytest.raises(mindtable.IllegalAction) as err:
        act(match, "play", 2)
    assert err.value.code == "proposal_pending"
    act(match, "agree", 0)
    events = act(match, "agree", 2)
    used = next(e for e in events if e["type"] == "star_used")
    assert used["discarded"] == {"0": 10, "1": 25, "2": 5}
    view = match.view(0)
    assert view["stars"] == 0
    assert view["discards"] == [[10], [25], [5]]
    assert view["hand"] == [40]
    assert view["phase"] == "refocus"


def test_one_objection_cancels_the_star():
    match = position([[10, 40], [25, 70]], stars=1)
    act(match, "propose_star", 0)
    act(match, "reject", 1)
    view = match.view(0)
    assert (view["stars"], view["proposal"], view["phase"]) == (1, None, "playing")
    assert view["hand"] == [10, 40]


def test_no_star_no_proposal():
    match = position([[10, 40], [25, 70]], stars=0)
    assert "propose_star" not in {a["type"] for a in match.legal_actions(0)}
    with pytest.raises(mindtable.IllegalAction) as err:
        act(match, "propose_star", 0)
    assert err.value.code == "no_stars"


def test_a_star_that_clears_the_last_cards_completes_the_level():
    match = position([[40], [70]], level=1, stars=1, lives=2)
    act(match, "propose_star", 0)
    events = act(match, "agree", 1)
    assert any(e["type"] == "level_completed" for e in events)
    assert match.view(0)["level"] == 2


@pytest.mark.parametrize(
    ("level", "lives", "stars", "expected"),
    [
        (2, 2, 1, (2, 2)),  # star
        (3, 2, 1, (3, 1)),  # life
        (5, 2, 3, (2, 3)),  # star, but already 3: no more
        (6, 5, 1, (5, 1)),  # life, but already 5: no more
        (4, 2, 1, (2, 1)),  # no reward
    ],
)
def test_rewards_are_granted_on_completing_a_level_and_capped(level, lives, stars, expected):
    match = position([[10], [20]], level=level, lives=lives, stars=stars, last_level=12)
    act(match, "play", 0)
    events = act(match, "play", 1)
    completed = next(e for e in events if e["type"] == "level_completed")
    assert completed["reward"] == REWARDS.get(level)
    assert (match.view(0)["lives"], match.view(0)["stars"]) == expected


def test_completing_the_last_level_wins_for_everyone():
    match = position([[3, *list(range(4, 15))], list(range(20, 32))], level=12, lives=1)
    for _ in range(12):
        act(match, "play", 0)
    for _ in range(12):
        act(match, "play", 1)
    assert match.is_over
    assert match.result.reason == "won"
    assert match.result.winners == (0, 1)
    assert match.result.details["progress"] == 12


def test_blind_mode_follows_a_win_with_the_lives_and_stars_left():
    match = position([[10], [20]], level=1, last_level=1, lives=2, stars=1, blind_after_win=True)
    act(match, "play", 0)
    events = act(match, "play", 1)
    types = [e["type"] for e in events]
    assert "game_won" in types and "blind_started" in types
    view = match.view(0)
    assert (view["mode"], view["level"], view["lives"], view["stars"]) == ("blind", 1, 2, 1)
    assert not match.is_over


def test_blind_cards_go_face_down_and_the_pile_is_checked_at_the_end_of_the_level():
    match = position([[60, 70], [5, 99]], mode="blind", level=2, lives=2)
    events = act(match, "play", 0)  # 60 while 5 is held: nobody can tell yet
    assert events == [{"type": "card_played", "seat": 0, "face_down": True}]
    assert match.view(1)["pile"] == [{"seat": 0}]
    assert match.view(1)["top"] is None
    assert match.view(1)["lives"] == 2
    act(match, "play", 1)
    act(match, "play", 0)
    events = act(match, "play", 1)
    revealed = next(e for e in events if e["type"] == "pile_revealed")
    assert revealed == {"type": "pile_revealed", "cards": [60, 5, 70, 99], "in_order": False}
    assert match.view(0)["lives"] == 1  # the pile was out of order
    assert match.view(0)["stars"] == 2  # level 2's reward still comes: the level was completed


def test_blind_pile_in_order_costs_nothing():
    match = position([[10, 70], [5, 99]], mode="blind", level=2, lives=2)
    for seat in (1, 0, 0, 1):
        act(match, "play", seat)
    assert match.view(0)["lives"] == 2
    assert match.view(0)["level"] == 3


def test_the_team_may_end_a_blind_run_between_levels_by_agreement():
    match = position([[10], [20]], mode="blind", level=1, lives=2, levels_completed=12)
    act(match, "play", 0)
    act(match, "play", 1)
    act(match, "propose_end", 0)
    act(match, "agree", 1)
    assert match.is_over
    assert match.result.details["blind_levels"] == 1


def test_propose_end_only_in_blind_mode():
    match = mindtable.new_match("the-mind", players=2, seed=1)
    with pytest.raises(mindtable.IllegalAction) as err:
        act(match, "propose_end", 0)
    assert err.value.code == "not_blind"


def test_refocus_after_a_star():
    match = position([[10, 40], [25, 70]], stars=1)
    act(match, "propose_star", 0)
    act(match, "agree", 1)
    assert match.view(0)["phase"] == "refocus"
    all_ready(match)
    assert match.view(0)["phase"] == "playing"


def test_the_proposer_may_withdraw_a_star_proposal_and_play_goes_on():
    match = position([[10, 50], [20, 60]], stars=1)
    act(match, "propose_star", 0)
    assert "withdraw" not in {a["type"] for a in match.legal_actions(1)}
    with pytest.raises(mindtable.IllegalAction) as err:
        act(match, "withdraw", 1)
    assert err.value.code == "not_proposer" and err.value.params == {"by": 0}
    assert "withdraw" in {a["type"] for a in match.legal_actions(0)}
    events = act(match, "withdraw", 0)
    assert events == [{"type": "withdrawn", "seat": 0, "kind": "star"}]
    view = match.view(1)
    assert view["proposal"] is None and view["stars"] == 1 and view["phase"] == "playing"
    act(match, "play", 0)  # play is no longer paused
    with pytest.raises(mindtable.IllegalAction) as err:
        act(match, "withdraw", 0)
    assert err.value.code == "no_proposal"


def test_a_blind_run_that_loses_its_last_life_after_a_win_says_so():
    match = position([[60, 70], [5, 99]], mode="blind", level=2, lives=1, levels_completed=12)
    snapshot = match.snapshot()
    snapshot["state"]["normal_won"] = True
    match = mindtable.Match.from_snapshot(snapshot)
    for seat in (0, 1, 0, 1):
        act(match, "play", seat)
    result = match.result
    assert result.reason == "blind_lost"  # not "lost" with everyone listed as winners
    assert result.winners == (0, 1) and result.details["won_levels"] == 12
    assert result.details["blind_levels"] == 0 and result.details["lives"] == 0


def test_a_star_whose_face_up_discard_is_below_the_pile_reveals_an_unstopped_mistake():
    match = position([[36, 80], [35, 90]], detection="players", lives=2, stars=1)
    act(match, "play", 0)  # 36 while 35 is held
    act(match, "propose_star", 1)
    events = act(match, "agree", 0)  # 80 and 35 are discarded face up: 35 < 36
    lost = next(e for e in events if e["type"] == "life_lost")
    assert lost["cause"] == "evident" and match.view(0)["lives"] == 1


def test_the_result_shows_every_card_still_held_when_the_game_is_lost():
    # Book: the game is lost when the last life is lost. The hands are no secret any more: the result lists
    # every card each seat still held (hand and set-aside), for the game-over table.
    match = position([[30, 70], [20, 99]], lives=1)
    act(match, "play", 0)  # 30 while 20 is held: the last life is lost, 20 is set aside
    result = match.result
    assert result is not None and result.reason == "lost"
    assert result.details["hands"] == [[70], [20, 99]]

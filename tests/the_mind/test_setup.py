"""Setup: lives, stars and levels by player count; dealing; the ready check; options."""

import pytest

import mindtable
from tests.the_mind.conftest import act, all_ready, position


@pytest.mark.parametrize(("players", "lives", "stars", "last_level"), [(2, 2, 1, 12), (3, 3, 1, 10), (4, 4, 1, 8)])
def test_player_count_sets_lives_stars_and_levels(players, lives, stars, last_level):
    view = mindtable.new_match("the-mind", players=players, seed=1).view(0)
    assert (view["lives"], view["stars"], view["last_level"]) == (lives, stars, last_level)


@pytest.mark.parametrize("players", [1, 5])
def test_player_count_outside_the_book_is_refused(players):
    with pytest.raises(mindtable.InvalidOptions, match="2 to 4 players"):
        mindtable.new_match("the-mind", players=players)


def test_unknown_game_lists_the_known_ones():
    with pytest.raises(mindtable.UnknownGame, match="the-mind"):
        mindtable.new_match("the-brain", players=2)


def test_options_are_validated_with_what_is_allowed():
    with pytest.raises(mindtable.InvalidOptions, match="'detection' must be one of 'table', 'players'"):
        mindtable.new_match("the-mind", players=2, options={"detection": "psychic"})
    with pytest.raises(mindtable.InvalidOptions, match="'lives' must be an integer from 1 to 5"):
        mindtable.new_match("the-mind", players=2, options={"lives": 9})
    with pytest.raises(mindtable.InvalidOptions, match="last_level 30 needs 120 cards"):
        mindtable.new_match("the-mind", players=4, options={"last_level": 30})


def test_level_n_deals_n_distinct_cards_to_each_player():
    match = position([[10, 20, 30], [40, 50, 60]], level=3, stars=0)
    for seat, card in [(0, 10), (0, 20), (0, 30), (1, 40), (1, 50), (1, 60)]:
        assert match.view(seat)["hand"][0] == card
        act(match, "play", seat)
    all_ready(match)
    hands = [match.view(seat)["hand"] for seat in range(2)]
    assert [len(h) for h in hands] == [4, 4]
    assert len(set(hands[0] + hands[1])) == 8


def test_every_level_reshuffles_all_hundred_cards():
    """Cards played in level 1 come back in later levels: the deck is whole again for every deal."""
    seen_again = False
    for seed in range(40):
        match = mindtable.new_match("the-mind", players=2, seed=seed)
        all_ready(match)
        played = {match.view(0)["hand"][0], match.view(1)["hand"][0]}
        for seat in sorted((0, 1), key=lambda s: match.view(s)["hand"][0]):
            act(match, "play", seat)
        hands = set(match.view(0)["hand"]) | set(match.view(1)["hand"])
        if match.view(0)["level"] == 2 and hands & played:
            seen_again = True
            break
    assert seen_again


def test_nobody_plays_before_everyone_has_hands_on_the_table():
    match = mindtable.new_match("the-mind", players=2, seed=3)
    before = match.snapshot()
    with pytest.raises(mindtable.IllegalAction) as err:
        act(match, "play", 0)
    assert err.value.code == "not_playing"
    assert match.snapshot() == before
    act(match, "ready", 0)
    assert match.view(1)["ready"] == [True, False]
    with pytest.raises(mindtable.IllegalAction):
        act(match, "play", 0)
    events = act(match, "ready", 1)
    assert events[-1]["type"] == "focused"
    assert match.view(0)["phase"] == "playing"


def test_real_time_actions_need_a_time_that_never_goes_back():
    match = mindtable.new_match("the-mind", players=2, seed=3)
    with pytest.raises(mindtable.IllegalAction) as err:
        match.apply({"type": "ready", "seat": 0})
    assert err.value.code == "missing_time"
    match.apply({"type": "ready", "seat": 0, "at": 500})
    with pytest.raises(mindtable.IllegalAction) as err:
        match.apply({"type": "ready", "seat": 1, "at": 499})
    assert err.value.code == "time_went_backwards"

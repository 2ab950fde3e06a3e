"""Statistics of simulated games: Wilson intervals, tallies and summaries."""

from __future__ import annotations

import pytest

from mindtable.core.events import Result
from mindtable.sim import Tally, median_of_counts, summarize, wilson_interval


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        # Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I, method 3.
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        # The textbook 0/10 and 10/10 cases and a fair coin.
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (50, 100, 0.4038, 0.5962),
    ],
)
def test_wilson_interval_matches_published_values(successes: int, trials: int, low: float, high: float) -> None:
    got_low, got_high = wilson_interval(successes, trials)
    assert got_low == pytest.approx(low, abs=1e-4)
    assert got_high == pytest.approx(high, abs=1e-4)


def test_wilson_interval_without_trials_knows_nothing_and_rejects_nonsense() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError, match="successes"):
        wilson_interval(5, 3)
    with pytest.raises(ValueError):
        wilson_interval(-1, 3)


def test_wilson_interval_narrows_with_more_games() -> None:
    small = wilson_interval(5, 100)
    large = wilson_interval(500, 10_000)
    assert small[1] - small[0] > large[1] - large[0]
    assert large[0] < 0.05 < large[1]


def _coop(won: bool, progress: int) -> Result:
    return Result(
        (0, 1) if won else (), (1.0, 1.0) if won else (0.0, 0.0), "won" if won else "lost", {"progress": progress}
    )


def test_cooperative_summary_counts_team_wins_and_the_progress_distribution() -> None:
    tally = Tally(2).add_all([_coop(False, 3), _coop(False, 5), _coop(True, 12), _coop(False, 5)])
    summary = summarize(tally, cooperative=True, progress_label="levels completed")
    assert summary["games"] == 4
    assert summary["win_rate"]["wins"] == 1
    assert summary["win_rate"]["rate"] == 0.25
    low, high = summary["win_rate"]["ci95"]
    assert (low, high) == pytest.approx(wilson_interval(1, 4))
    progress = summary["progress"]
    assert progress["label"] == "levels completed"
    assert [(e["value"], e["count"]) for e in progress["distribution"]] == [(3, 1), (5, 2), (12, 1)]
    assert progress["mean"] == pytest.approx(25 / 4)
    assert progress["median"] == 5
    assert (progress["min"], progress["max"]) == (3, 12)
    assert summary["reasons"] == {"lost": 3, "won": 1}
    assert "seats" not in summary


def test_competitive_summary_gives_each_seat_its_win_rate_and_splits_ties() -> None:
    results = [
        Result((0,), (3, 1, 0), "score", {"progress": 10}),
        Result((0, 2), (2, 1, 2), "score", {"progress": 12}),
        Result((1,), (0, 5, 1), "score", {}),
    ]
    summary = summarize(Tally(3).add_all(results), cooperative=False)
    seats = summary["seats"]
    assert [s["wins"] for s in seats] == [2, 1, 1]
    assert [s["share"] for s in seats] == pytest.approx([1.5 / 3, 1 / 3, 0.5 / 3])
    assert summary["mean_scores"] == pytest.approx([5 / 3, 7 / 3, 1.0])
    assert summary["progress"]["missing"] == 1
    assert summary["progress"]["games"] == 2


def test_merged_tallies_equal_one_tally_of_everything() -> None:
    results = [_coop(i % 3 == 0, i % 7) for i in range(30)]
    whole = Tally(2).add_all(results)
    merged = Tally(2).add_all(results[:11]).merge(Tally(2).add_all(results[11:]))
    assert summarize(merged, cooperative=True) == summarize(whole, cooperative=True)
    with pytest.raises(ValueError, match="players"):
        whole.merge(Tally(3))


def test_median_of_counts() -> None:
    assert median_of_counts({1: 1, 2: 1, 10: 1}) == 2
    assert median_of_counts({1: 2, 3: 2}) == 2
    assert median_of_counts({4: 5}) == 4
    assert median_of_counts({}) is None


def test_wins_by_a_varied_bot_parameter_count_seats_wins_and_ties() -> None:
    tally = Tally(3)
    tally.add(Result(winners=(0,), scores=(1, 0, 0), reason="won"), ["0.9", "0.1", "0.1"])
    tally.add(Result(winners=(1, 2), scores=(0, 1, 1), reason="won"), ["0.1", "0.9", "0.1"])
    tally.add(Result(winners=(), scores=(0, 0, 0), reason="limit"), ["0.1", "0.1", "0.9"])
    rows = {
        r["value"]: r
        for r in summarize(tally, cooperative=False, varied=("knows", ["0.1", "0.9"]))["wins_by_value"]["values"]
    }
    assert rows["0.9"]["seats"] == 3 and rows["0.9"]["wins"] == 2 and rows["0.9"]["share"] == pytest.approx(1.5 / 3)
    assert rows["0.1"]["seats"] == 6 and rows["0.1"]["wins"] == 1 and rows["0.1"]["share"] == pytest.approx(0.5 / 6)
    # relative: the share over an average seat's (1/3 here); the two values' seats average out to 1.
    assert rows["0.9"]["relative"] == pytest.approx(1.5)
    assert (3 * rows["0.9"]["relative"] + 6 * rows["0.1"]["relative"]) / 9 == pytest.approx(2 / 3)  # one game unwon
    assert rows["0.9"]["ci95"] == list(wilson_interval(2, 3))


def test_game_details_are_counted_as_numbers_or_added_up_as_histograms() -> None:
    tally = Tally(2, detail_keys=("per_turn", "mean"))
    tally.add(Result((0,), (1, 0), "won", {"per_turn": [0, 3, 1], "mean": 1.25}))
    other = Tally(2, detail_keys=("per_turn", "mean"))
    other.add(Result((1,), (0, 1), "won", {"per_turn": {"1": 1, "4": 2}, "mean": 2.0}))
    other.add(Result((1,), (0, 1), "won", {}))  # a game without the detail counts nothing
    tally.merge(other)
    details = summarize(tally, cooperative=False, detail_labels={"per_turn": "answers in a turn", "mean": "mean"})[
        "details"
    ]
    turns = details["per_turn"]
    assert turns["label"] == "answers in a turn" and turns["count"] == 7
    assert [(e["value"], e["count"]) for e in turns["distribution"]] == [(1, 4), (2, 1), (4, 2)]
    assert turns["mean"] == pytest.approx((4 + 2 + 8) / 7) and turns["median"] == 1 and turns["max"] == 4
    assert [(e["value"], e["count"]) for e in details["mean"]["distribution"]] == [(1.25, 1), (2, 1)]
    assert "details" not in summarize(tally, cooperative=False)  # a game that declares none reports none

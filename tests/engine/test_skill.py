"""The engine's rating update against OpenSkill's Plackett-Luce, its reference (issue 26):
every mu and sigma of 100,000 random events within 1e-9, and the library's quirks kept."""

from __future__ import annotations

import random

import pytest
from openskill.models import PlackettLuce

from engine import skill

LIBRARY = PlackettLuce()
TOLERANCE = 1e-9


def by_library(mus, sigmas, ranks, weights):
    teams = [
        [LIBRARY.rating(mu=m, sigma=s) for m, s in zip(tm, ts, strict=True)]
        for tm, ts in zip(mus, sigmas, strict=True)
    ]
    rated = LIBRARY.rate(teams, ranks=list(ranks), weights=weights)
    return [[p.mu for p in t] for t in rated], [[p.sigma for p in t] for t in rated]


def random_event(rng: random.Random):
    """2 to 7 sides of 1 to 3 players, priors from new to well known, ranks with ties
    (sometimes all tied, sometimes not from 0), weights on half of them."""
    sides = rng.randint(2, 7)
    sizes = [rng.randint(1, 3) for _ in range(sides)]
    mus = [[rng.uniform(-10.0, 60.0) for _ in range(n)] for n in sizes]
    sigmas = [[rng.choice([skill.SIGMA, rng.uniform(0.3, 9.0)]) for _ in range(n)] for n in sizes]
    shape = rng.random()
    if shape < 0.05:
        ranks = [0] * sides
    elif shape < 0.1:
        ranks = [rng.randint(3, 9) for _ in range(sides)]
    else:
        ranks = [rng.randint(0, sides - 1) for _ in range(sides)]
    weights = None
    if rng.random() < 0.5:
        weights = [
            [rng.choice([1.0, 2.0, 0.5, rng.uniform(0.1, 4.0)]) for _ in range(n)] for n in sizes
        ]
    return mus, sigmas, ranks, weights


def test_every_mu_and_sigma_of_100000_random_events_equals_the_librarys():
    rng = random.Random(2026)
    worst = 0.0
    for _ in range(100_000):
        mus, sigmas, ranks, weights = random_event(rng)
        want_mu, want_sigma = by_library(mus, sigmas, ranks, weights)
        got_mu, got_sigma = skill.update(mus, sigmas, ranks, weights)
        for want, got in ((want_mu, got_mu), (want_sigma, got_sigma)):
            for w_team, g_team in zip(want, got, strict=True):
                for w, g in zip(w_team, g_team, strict=True):
                    worst = max(worst, abs(w - g))
    assert worst < TOLERANCE, worst


def test_a_long_chain_of_events_stays_equal_to_the_librarys():
    """Errors do not pile up: 20,000 events among 40 players, each rated from the last."""
    rng = random.Random(7)
    ours: skill.Rated = {}
    theirs: dict[int, tuple[float, float]] = {}
    for _ in range(20_000):
        sides = rng.randint(2, 6)
        pool = rng.sample(range(40), sides * 2)
        size = rng.choice([1, 2])
        teams = [pool[i * size : (i + 1) * size] for i in range(sides)]
        ranks = [rng.randint(0, sides - 1) for _ in range(sides)]
        weights = [[rng.choice([1.0, 2.0]) for _ in t] for t in teams] if size == 2 else None
        skill.rate_into(ours, teams, ranks, weights, 1.0)
        before = [[theirs.get(p, (skill.MU, skill.SIGMA)) for p in t] for t in teams]
        mus, sigmas = by_library(
            [[m for m, _s in t] for t in before],
            [[s for _m, s in t] for t in before],
            ranks,
            weights,
        )
        for t, team in enumerate(teams):
            for j, pid in enumerate(team):
                theirs[pid] = (mus[t][j], sigmas[t][j])
    for pid, (mu, sigma) in theirs.items():
        assert ours[pid][0] == pytest.approx(mu, abs=TOLERANCE)
        assert ours[pid][1] == pytest.approx(sigma, abs=TOLERANCE)


def test_tied_sides_of_equal_standing_get_the_same_update():
    mus, sigmas = skill.update([[25.0]] * 4, [[skill.SIGMA]] * 4, [1, 2, 2, 3])
    assert mus[1] == mus[2] and sigmas[1] == sigmas[2]
    assert mus[0][0] > skill.MU > mus[1][0] > mus[3][0]  # shared 2nd-3rd of 4: a little down


def test_the_librarys_accidents_are_kept():
    """Decided: the library's numbers, even where its code decides them by accident."""
    one = skill.update([[25.0], [25.0]], [[8.0], [8.0]], [0, 1], [[0.5], [1.0]])
    two = skill.update([[25.0], [25.0]], [[8.0], [8.0]], [0, 1], [[7.0], [3.0]])
    assert one == two  # a side of one player weighs 2 whatever it was given
    truncated = skill.update([[25.0], [25.0]], [[8.0], [8.0]], [0.2, 0.7])
    mus, sigmas = truncated
    assert mus[0] == mus[1] and sigmas[0] == sigmas[1]  # ranks 0.2 and 0.7: both 0, a tie
    assert truncated == by_library([[25.0], [25.0]], [[8.0], [8.0]], [0.2, 0.7], None)


def test_a_stake_scales_the_change_of_mu_and_counts_one_deal():
    once: skill.Rated = {}
    twice: skill.Rated = {}
    skill.rate_into(once, [[1], [2]], [0, 1], None, 1.0)
    skill.rate_into(twice, [[1], [2]], [0, 1], None, 2.0)
    assert twice[1][0] - skill.MU == pytest.approx(2 * (once[1][0] - skill.MU))
    assert twice[1][1] == once[1][1] and once[1][2] == twice[1][2] == 1


def test_a_replay_rates_each_game_apart_and_keeps_each_night_of_those_who_played():
    """``replay``: the matches of two games on two nights, in order; each game's state
    alone; a row per player and (game, night) with their rating at its end; another
    update (the library's) chosen by ``rate`` gives the same rows."""
    events = [
        (
            "napoleon",
            "night 1",
            {"teams": [[1, 2], [3]], "ranks": [0, 1], "weights": [[2.0, 1.0], [1.0]], "stake": 2.0},
        ),
        (
            "napoleon",
            "night 1",
            {"teams": [[3], [1]], "ranks": [0, 1], "weights": None, "stake": 1.0},
        ),
        (
            "napoleon",
            "night 2",
            {"teams": [[2], [4]], "ranks": [0, 0], "weights": None, "stake": 1.0},
        ),
        (
            "packing",
            "night 1",
            {"teams": [[1, 4], [2, 3]], "ranks": [1, 0], "weights": None, "stake": 1.0},
        ),
    ]
    states: dict[str, skill.Rated] = {"napoleon": {}, "packing": {}}
    matches = [  # the first two in one match, the others alone
        ("napoleon", "night 1", [events[0][2], events[1][2]]),
        *((game, night, [e]) for game, night, e in events[2:]),
    ]
    rated, rows = skill.replay(iter(matches), states, list, ["club", "public"])
    expected: dict[str, skill.Rated] = {"napoleon": {}, "packing": {}}
    for game, _night, e in events:
        skill.rate_into(expected[game], e["teams"], e["ranks"], e["weights"], e["stake"])
    assert rated == 4 and states == expected
    nights = [
        ("napoleon", "night 1", [1, 2, 3]),
        ("napoleon", "night 2", [2, 4]),
        ("packing", "night 1", [1, 2, 3, 4]),
    ]
    assert [row[:4] for row in rows] == [  # each night's players under each label
        (pid, game, night, label)
        for game, night, players in nights
        for label in ("club", "public")
        for pid in players
    ]
    assert [row[4:] for row in rows[:3]] == [row[4:] for row in rows[3:6]]  # the same numbers
    one, two, mu, sigma, ordinal, deals = rows[0][0], rows[6], *rows[0][4:]
    assert (mu, sigma, deals) == (states["napoleon"][one][0], states["napoleon"][one][1], 2)
    assert ordinal == pytest.approx(mu - 3 * sigma)
    assert two[4:6] == states["napoleon"][2][:2] and two[7] == 2  # its rating after night 2

    calls = []

    def library(state, teams, ranks, weights, stake):
        calls.append(teams)
        skill.rate_into(state, teams, ranks, weights, stake)

    again: dict[str, skill.Rated] = {"napoleon": {}, "packing": {}}
    assert skill.replay(iter(matches), again, list, ["club", "public"], library) == (rated, rows)
    assert len(calls) == 4

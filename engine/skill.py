"""Skill ratings: the Plackett–Luce update (Weng and Lin 2011, algorithm 4) on plain
numbers, compiled with the rest of the engine (``make engine``).

It is the update of OpenSkill's ``PlackettLuce`` with its defaults (mu 25, sigma
25/3, beta 25/6, kappa 0.0001, tau 25/300, weights scaled to 1..2 within a team, no
margin, no balance, sigma not limited), which the project used directly until the
ratings replay spent most of its time inside the library (it deep-copies the teams and
makes rating objects with random ids on every call).  The library stays the reference
(``tests/engine/test_skill.py`` compares every mu and sigma of 100,000 random events
within 1e-9) and the fallback the ``RATING_MODEL`` setting can choose.

Where the library's behaviour is an accident of its code, this module does the same,
so that the numbers stay the library's:

- a team's rank is ``int(rank)`` of the rank given (2.5 counts as 2);
- a team of one player given weights gets weight 2 (the top of the scaled range), a
  team of equal weights 1;
- teams of equal rank are *not* averaged: OpenSkill 6's averaging compares each
  updated player with itself (the same object) and so changes nothing.

The only differences are the order of the additions (the library sums a team's players
by ordinal, this module in the team's order; the library sums over the teams for each
team, this module keeps running sums, see :func:`rate_into`): at most a few units in
the last place of a float (the worst of the test's 100,000 random events: 1.4e-14).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any, Final

MU: Final = 25.0
SIGMA: Final = 25.0 / 3.0
BETA: Final = 25.0 / 6.0
KAPPA: Final = 0.0001
TAU: Final = 25.0 / 300.0
WEIGHT_LOW: Final = 1.0
WEIGHT_HIGH: Final = 2.0

Rated = dict[int, tuple[float, float, int]]
"""Player id → (mu, sigma, deals rated)."""
NEW: Final = (MU, SIGMA, 0)
"""A player not rated yet."""


def scaled(weights: list[float]) -> list[float]:
    """A team's weights scaled to WEIGHT_LOW..WEIGHT_HIGH, as the library does."""
    if len(weights) == 1:
        return [WEIGHT_HIGH]
    low = min(weights)
    spread = max(weights) - low
    if spread == 0:
        spread = 0.0001
    return [((w - low) / spread) * (WEIGHT_HIGH - WEIGHT_LOW) + WEIGHT_LOW for w in weights]


def update(
    mus: list[list[float]],
    sigmas: list[list[float]],
    ranks: list[float],
    weights: list[list[float]] | None = None,
) -> tuple[list[list[float]], list[list[float]]]:
    """The teams' players' (mu, sigma) after one event; ``ranks``: lower is better, equal
    is a tie; ``weights``: each player's share in their team (``None``: all equal).
    The answer is in the teams' own order.  (:func:`rate_into` on players numbered
    from 0: one implementation of the formulas.)"""
    state: Rated = {}
    teams: list[list[int]] = []
    for team_mus, team_sigmas in zip(mus, sigmas, strict=True):
        team: list[int] = []
        for mu, sigma in zip(team_mus, team_sigmas, strict=True):
            pid = len(state)
            state[pid] = (mu, sigma, 0)
            team.append(pid)
        teams.append(team)
    rate_into(state, teams, ranks, weights, 1.0)
    return (
        [[state[pid][0] for pid in team] for team in teams],
        [[state[pid][1] for pid in team] for team in teams],
    )


def rate_into(
    state: Rated,
    teams: list[list[int]],
    ranks: list[float],
    weights: list[list[float]] | None,
    stake: float,
) -> None:
    """Rate one event of player ids into ``state``: each player's change of mu scaled by
    ``stake`` (1: the model's own update), sigma as the model has it, one more deal.
    A player is in one team at most (a seat each).

    The library's double sum over the teams (for each team, every team ranked no
    worse) is taken in one pass: with the teams sorted from best to worst, the teams
    ranked no better than a group of tied ones are a suffix, so each group's sum of
    powers is a running sum from the worst, and each team's terms are two running
    sums from the best (``a``: of 1/S, ``b``: of 1/S², S being a group's sum).  The
    players' numbers stay unboxed until they are stored."""
    k = len(teams)
    order, rank = _order(ranks, k)
    tau2 = TAU * TAU
    team_mu: list[float] = []
    team_s2: list[float] = []
    total = 0.0
    for i in range(k):
        m = 0.0
        s2 = 0.0
        for pid in teams[order[i]]:
            mu, sigma, _n = state.get(pid, NEW)
            m += mu
            s2 += sigma * sigma + tau2
        team_mu.append(m)
        team_s2.append(s2)
        total += s2 + BETA * BETA
    c = math.sqrt(total)
    power = [math.exp(team_mu[i] / c) for i in range(k)]
    below = [0.0] * k  # at the first team of each group of ties: its sum S
    run = 0.0
    for i in range(k - 1, -1, -1):
        run += power[i]
        if i == 0 or rank[i - 1] != rank[i]:
            below[i] = run
    a = 0.0
    b = 0.0
    first = 0
    while first < k:
        last = first + 1
        while last < k and rank[last] == rank[first]:
            last += 1
        a += 1.0 / below[first]
        b += 1.0 / (below[first] * below[first])
        for i in range(first, last):
            p = power[i]
            s2 = team_s2[i]
            omega = (1.0 / (last - first) - p * a) * s2 / c
            delta = (p * a - p * p * b) * s2 / (c * c) * math.sqrt(s2) / c
            _move(
                state,
                teams[order[i]],
                scaled(weights[order[i]]) if weights else None,
                omega,
                delta,
                s2,
                stake,
            )
        first = last


def _move(
    state: Rated,
    team: list[int],
    weights: list[float] | None,
    omega: float,
    delta: float,
    s2: float,
    stake: float,
) -> None:
    """One team's players moved by the team's ``omega`` and ``delta`` (its sum of sigma²
    ``s2``), each by their share of that sum and their weight."""
    tau2 = TAU * TAU
    for j, pid in enumerate(team):
        weight = weights[j] if weights is not None else 1.0
        mu, was, n = state.get(pid, NEW)
        sigma = math.sqrt(was * was + tau2)
        part = sigma * sigma / s2
        if omega >= 0:
            moved = mu + part * omega * weight
            sigma *= math.sqrt(max(1 - part * delta * weight, KAPPA))
        else:
            moved = mu + part * omega / weight
            sigma *= math.sqrt(max(1 - part * delta / weight, KAPPA))
        state[pid] = (mu + stake * (moved - mu), sigma, n + 1)


Rate = Callable[[Rated, list[list[int]], list[float], list[list[float]] | None, float], None]
"""An update of a state by one event, as :func:`rate_into`."""

Night = tuple[int, str, object, str, float, float, float, int]
"""A player's rating at the end of a night, under one label (the ratings' scope): (player,
game, night, label, mu, sigma, mu - 3 sigma, deals rated)."""


def replay(
    matches: Iterable[tuple[str, object, Any]],
    states: dict[str, Rated],
    parse: Callable[[Any], list[Any]],
    labels: list[str],
    rate: Rate | None = None,
) -> tuple[int, list[Night]]:
    """Rate the events of ``matches`` (game, night, the match's stored events in their order
    as ``parse`` reads them: each with ``teams``, ``ranks``, ``weights``, ``stake``) in
    their order into each game's state; returns how many, and everyone's rating at the
    end of each night they played, once under each of ``labels`` (in the order of the
    nights, by label, by player).  ``rate``: another update than :func:`rate_into` (the
    library's)."""
    rows: list[Night] = []
    played: set[int] = set()
    rated = 0
    game = ""
    night: object = None
    state: Rated = {}
    for next_game, next_night, stored in matches:
        if next_game != game or next_night != night:
            _close(rows, played, state, game, night, labels)
            game, night = next_game, next_night
            state = states[game]
        for event in parse(stored):
            teams: list[list[int]] = event["teams"]
            if rate is None:
                rate_into(state, teams, event["ranks"], event["weights"], event["stake"])
            else:
                rate(state, teams, event["ranks"], event["weights"], event["stake"])
            for team in teams:
                played.update(team)
            rated += 1
    _close(rows, played, state, game, night, labels)
    return rated, rows


def ordinal(mu: float, sigma: float) -> float:
    """The rating shown: mu - 3 sigma (0 for a new player, rising as the model grows sure)."""
    return mu - 3 * sigma


def _close(
    rows: list[Night], played: set[int], state: Rated, game: str, night: object, labels: list[str]
) -> None:
    """The night's rows: everyone who played in it, by label, by player."""
    players = sorted(played)
    for label in labels:
        for pid in players:
            mu, sigma, n = state[pid]
            rows.append((pid, game, night, label, mu, sigma, ordinal(mu, sigma), n))
    played.clear()


def _order(ranks: list[float], k: int) -> tuple[list[int], list[int]]:
    """The teams from best to worst (a stable sort, as the library's), and their ranks."""
    given = ranks if ranks else [float(t) for t in range(k)]
    order: list[int] = []
    for t in range(k):  # insertion: a handful of teams
        at = len(order)
        while at > 0 and float(given[order[at - 1]]) > float(given[t]):
            at -= 1
        order.insert(at, t)
    return order, [int(given[t]) for t in order]

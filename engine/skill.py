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

The only difference is the order of the additions for a team's mu and sigma² (the
library sums the players by ordinal, this module in the team's order): at most a few
units in the last place of a float.
"""

from __future__ import annotations

import math
from typing import Final

MU: Final = 25.0
SIGMA: Final = 25.0 / 3.0
BETA: Final = 25.0 / 6.0
KAPPA: Final = 0.0001
TAU: Final = 25.0 / 300.0
WEIGHT_LOW: Final = 1.0
WEIGHT_HIGH: Final = 2.0

Rated = dict[int, tuple[float, float, int]]
"""Player id → (mu, sigma, deals rated)."""


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
    The answer is in the teams' own order."""
    k = len(mus)
    if not ranks:
        ranks = [float(t) for t in range(k)]
    order = sorted(range(k), key=lambda t: float(ranks[t]))  # stable, as the library
    rank = [int(ranks[t]) for t in order]
    tau2 = TAU * TAU
    team_mu = [0.0] * k
    team_s2 = [0.0] * k
    fixed: list[list[float]] = []
    for i in range(k):
        row = [math.sqrt(s * s + tau2) for s in sigmas[order[i]]]
        fixed.append(row)
        m = 0.0
        s2 = 0.0
        for j, mu in enumerate(mus[order[i]]):
            m += mu
            s2 += row[j] ** 2
        team_mu[i] = m
        team_s2[i] = s2
    total = 0.0
    for i in range(k):
        total += team_s2[i] + BETA**2
    c = math.sqrt(total)
    power = [math.exp(team_mu[i] / c) for i in range(k)]
    sum_q = [0.0] * k
    ties = [0] * k
    for q in range(k):
        for i in range(k):
            if rank[i] >= rank[q]:
                sum_q[q] += power[i]
            if rank[i] == rank[q]:
                ties[q] += 1
    new_mus: list[list[float]] = [[] for _ in range(k)]
    new_sigmas: list[list[float]] = [[] for _ in range(k)]
    for i in range(k):
        omega = 0.0
        delta = 0.0
        for q in range(k):
            if rank[q] <= rank[i]:
                share = power[i] / sum_q[q]
                delta += share * (1 - share) / ties[q]
                if q == i:
                    omega += (1 - share) / ties[q]
                else:
                    omega -= share / ties[q]
        s2 = team_s2[i]
        omega *= s2 / c
        delta *= s2 / c**2
        delta *= math.sqrt(s2) / c
        team = order[i]
        given = scaled(weights[team]) if weights else None
        moved_mu: list[float] = []
        moved_sigma: list[float] = []
        for j, mu in enumerate(mus[team]):
            weight = given[j] if given is not None else 1.0
            sigma = fixed[i][j]
            part = sigma**2 / s2
            if omega >= 0:
                moved_mu.append(mu + part * omega * weight)
                moved_sigma.append(sigma * math.sqrt(max(1 - part * delta * weight, KAPPA)))
            else:
                moved_mu.append(mu + part * omega / weight)
                moved_sigma.append(sigma * math.sqrt(max(1 - part * delta / weight, KAPPA)))
        new_mus[team] = moved_mu
        new_sigmas[team] = moved_sigma
    return new_mus, new_sigmas


def rate_into(
    state: Rated,
    teams: list[list[int]],
    ranks: list[float],
    weights: list[list[float]] | None,
    stake: float,
) -> None:
    """Rate one event of player ids into ``state``: each player's change of mu scaled by
    ``stake`` (1: the model's own update), sigma as the model has it, one more deal."""
    mus: list[list[float]] = []
    sigmas: list[list[float]] = []
    counts: list[list[int]] = []
    for team in teams:
        team_mus: list[float] = []
        team_sigmas: list[float] = []
        team_counts: list[int] = []
        for pid in team:
            mu, sigma, n = state.get(pid, (MU, SIGMA, 0))
            team_mus.append(mu)
            team_sigmas.append(sigma)
            team_counts.append(n)
        mus.append(team_mus)
        sigmas.append(team_sigmas)
        counts.append(team_counts)
    new_mus, new_sigmas = update(mus, sigmas, ranks, weights)
    for t, team in enumerate(teams):
        for j, pid in enumerate(team):
            mu = mus[t][j]
            state[pid] = (mu + stake * (new_mus[t][j] - mu), new_sigmas[t][j], counts[t][j] + 1)

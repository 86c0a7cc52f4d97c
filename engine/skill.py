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
    The answer is in the teams' own order."""
    k = len(mus)
    order, rank = _order(ranks, k)
    flat_mus: list[float] = []
    flat_sigmas: list[float] = []
    starts = [0] * (k + 1)
    for i in range(k):
        flat_mus.extend(mus[order[i]])
        flat_sigmas.extend(sigmas[order[i]])
        starts[i + 1] = len(flat_mus)
    moved_mus, moved_sigmas = _moved(flat_mus, flat_sigmas, starts, order, rank, weights)
    new_mus: list[list[float]] = [[] for _ in range(k)]
    new_sigmas: list[list[float]] = [[] for _ in range(k)]
    for i in range(k):
        new_mus[order[i]] = moved_mus[starts[i] : starts[i + 1]]
        new_sigmas[order[i]] = moved_sigmas[starts[i] : starts[i + 1]]
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
    k = len(teams)
    order, rank = _order(ranks, k)
    players: list[int] = []
    mus: list[float] = []
    sigmas: list[float] = []
    counts: list[int] = []
    starts = [0] * (k + 1)
    for i in range(k):
        for pid in teams[order[i]]:
            mu, sigma, n = state.get(pid, NEW)
            players.append(pid)
            mus.append(mu)
            sigmas.append(sigma)
            counts.append(n)
        starts[i + 1] = len(players)
    moved_mus, moved_sigmas = _moved(mus, sigmas, starts, order, rank, weights)
    for j, pid in enumerate(players):
        mu = mus[j]
        state[pid] = (mu + stake * (moved_mus[j] - mu), moved_sigmas[j], counts[j] + 1)


Rate = Callable[[Rated, list[list[int]], list[float], list[list[float]] | None, float], None]
"""An update of a state by one event, as :func:`rate_into`."""

Night = tuple[int, str, object, float, float, float, int]
"""A player's rating at the end of a night: (player, game, night, mu, sigma, mu - 3 sigma,
deals rated)."""


def replay(
    events: Iterable[tuple[str, object, Any]],
    states: dict[str, Rated],
    parse: Callable[[Any], Any],
    rate: Rate | None = None,
) -> tuple[int, list[Night]]:
    """Rate ``events`` (game, night, stored event as ``parse`` reads it: ``teams``,
    ``ranks``, ``weights``, ``stake``) in their order into each game's state; returns how
    many, and everyone's rating at the end of each night they played (in the order of the
    nights, by player within one).  ``rate``: another update than :func:`rate_into` (the
    library's)."""
    rows: list[Night] = []
    played: set[int] = set()
    rated = 0
    game = ""
    night: object = None
    state: Rated = {}
    for next_game, next_night, text in events:
        if next_game != game or next_night != night:
            _close(rows, played, state, game, night)
            game, night = next_game, next_night
            state = states[game]
        event = parse(text)
        teams: list[list[int]] = event["teams"]
        if rate is None:
            rate_into(state, teams, event["ranks"], event["weights"], event["stake"])
        else:
            rate(state, teams, event["ranks"], event["weights"], event["stake"])
        for team in teams:
            played.update(team)
        rated += 1
    _close(rows, played, state, game, night)
    return rated, rows


def ordinal(mu: float, sigma: float) -> float:
    """The rating shown: mu - 3 sigma (0 for a new player, rising as the model grows sure)."""
    return mu - 3 * sigma


def _close(rows: list[Night], played: set[int], state: Rated, game: str, night: object) -> None:
    """The night's rows: everyone who played in it, by player."""
    for pid in sorted(played):
        mu, sigma, n = state[pid]
        rows.append((pid, game, night, mu, sigma, ordinal(mu, sigma), n))
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


def _moved(
    mus: list[float],
    sigmas: list[float],
    starts: list[int],
    order: list[int],
    rank: list[int],
    weights: list[list[float]] | None,
) -> tuple[list[float], list[float]]:
    """The update itself, on the players of the teams from best to worst, one after the
    other (team ``i``: ``starts[i]`` to ``starts[i + 1]``): their new mu and sigma."""
    k = len(rank)
    tau2 = TAU * TAU
    fixed = [math.sqrt(s * s + tau2) for s in sigmas]
    team_mu = [0.0] * k
    team_s2 = [0.0] * k
    for i in range(k):
        m = 0.0
        s2 = 0.0
        for j in range(starts[i], starts[i + 1]):
            m += mus[j]
            s2 += fixed[j] * fixed[j]
        team_mu[i] = m
        team_s2[i] = s2
    total = 0.0
    for i in range(k):
        total += team_s2[i] + BETA * BETA
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
    moved_mus = [0.0] * len(mus)
    moved_sigmas = [0.0] * len(mus)
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
        delta *= s2 / (c * c)
        delta *= math.sqrt(s2) / c
        given = scaled(weights[order[i]]) if weights else None
        for j in range(starts[i], starts[i + 1]):
            weight = given[j - starts[i]] if given is not None else 1.0
            sigma = fixed[j]
            part = sigma * sigma / s2
            if omega >= 0:
                moved_mus[j] = mus[j] + part * omega * weight
                moved_sigmas[j] = sigma * math.sqrt(max(1 - part * delta * weight, KAPPA))
            else:
                moved_mus[j] = mus[j] + part * omega / weight
                moved_sigmas[j] = sigma * math.sqrt(max(1 - part * delta / weight, KAPPA))
    return moved_mus, moved_sigmas

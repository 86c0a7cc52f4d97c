"""What the draw knows before a night's next round, read from the database (issue 57):
its rounds so far, the season's other nights, each player's seats, and the design the
night follows (``tournaments.draw_plan``)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import engine
from tournaments import draw_measures, draw_plan, round_draw, seat_order, seatings
from tournaments.models import ClubNight
from tournaments.round_draw import Seating


def known(night: ClubNight, game: str) -> round_draw.History:
    """What the draw knows before the night's next round (``round_draw.History``): its
    rounds so far, sit-outs and seats, the pairs' meetings on the season's other nights
    and, in a game with a first dealer, each player's first seats over the season."""
    known = round_draw.History()
    dealer = engine.GAMES[game].has_dealer
    others = []
    for seated in seatings.of_season(night.season):
        if seated.night == night.pk:
            known.add(Seating(seated.tables, seated.sat_out))
        else:
            others.append(seated.tables)
            if dealer:
                _season_first(known.seats, seated)
    known.season = draw_measures.meetings(others)
    return known


def _season_first(seats: dict[int, seat_order.Seats], seated: seatings.Seated) -> None:
    for table, game in zip(seated.tables, seated.games, strict=True):
        if engine.GAMES[game].has_dealer:
            for p in table:
                mine = seats.setdefault(p, seat_order.Seats())
                mine.season_first += table[0] == p
                mine.season_share += Fraction(1, len(table))


@dataclass(frozen=True)
class Planned:
    """A group's next round by a design: its tables, the plan, whether the plan begins
    with this round (then the round keeps it when seated), and which of its rounds."""

    tables: list[list[int]]
    plan: draw_plan.Plan
    new: bool
    number: int


def planned(
    night: ClubNight,
    group: Sequence[int],
    known: round_draw.History,
    size: int | None,
    rng: random.Random,
) -> Planned | None:
    """The group's next round by the night's plan, or by a plan that begins now (round 1
    of a night whose rounds, attendance and table size were declared); None: drawn by
    search."""
    mine = set(group)
    played = [[t for t in r if mine & set(t)] for r in known.rounds]
    played = [r for r in played if r]
    for plan in draw_plan.stored(night.draw_plan):
        if plan.players == mine:
            tables = draw_plan.follow(plan, group, played)
            return Planned(tables, plan, False, len(played) + 1) if tables else None
    if played or not night.rounds_planned or not size:
        return None
    if mine != set(night.present.values_list("pk", flat=True)):
        return None  # not the attendance declared
    begun = draw_plan.start(group, size, night.rounds_planned, rng)
    tables = draw_plan.follow(begun, group, []) if begun else None
    return Planned(tables, begun, True, 1) if begun and tables else None

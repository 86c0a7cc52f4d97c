"""How fair the draw has been, as people read it (issue 57): the figures of
``tournaments.draw_measures`` over the rounds as seated (``tournaments.seatings``), each
with the fewest repeats known to be reachable, and said in a short line of the reader's
language.  The rounds page, the round proposal, the room display and the API show them.

Decision: a round's figures are the night's up to and including that round; the
season's are every round of the season so far, nights in order.  "Best known" is given
only while every round so far seated the same players at the same table sizes (a night
whose attendance changed has no known optimum to compare with)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from tournaments import draw_measures, seatings
from tournaments.draw_measures import Measures
from tournaments.models import ClubNight, Season

MOST_MET_BAD = 3
"""A pair at one table this many rounds or more is marked: the first thing a player says
of a bad draw ("I sat with him all night")."""


@dataclass(frozen=True)
class Figures:
    measures: Measures
    best_known: int | None
    """The fewest excess meetings known to be reachable; ``None``: not known."""
    rounds: int
    season: bool = False
    """A season's figures: pairs meet again night after night, so most met is no warning;
    and only seat 1 is kept fair across nights (``tournaments.seat_order``: every seat
    within the night, the first dealer over the season), so only seat 1 is judged."""

    @property
    def most_met_bad(self) -> bool:
        return not self.season and self.measures.most_met >= MOST_MET_BAD

    @property
    def excess_bad(self) -> bool:
        return self.best_known is not None and self.measures.excess > self.best_known

    @property
    def seats_bad(self) -> bool:
        return (self.measures.first_seat_off if self.season else self.measures.seat_off) > 0

    def as_json(self) -> dict[str, Any]:
        return {**self.measures.as_json(), "best_known": self.best_known}

    def parts(self) -> list[dict[str, Any]]:
        """The line as shown: each figure's words and whether it is marked as bad (the
        words then start with ⚠, so that the mark is not a colour alone)."""
        m = self.measures
        if self.best_known is None:
            repeats = gettext("Repeats %(n)s") % {"n": m.excess}
        else:
            repeats = gettext("Repeats %(n)s (best known %(best)s)") % {
                "n": m.excess,
                "best": self.best_known,
            }
        if self.season:
            seats = (
                gettext("Seat 1 off balance %(n)s") % {"n": m.first_seat_off}
                if m.first_seat_off
                else gettext("Seat 1 ✓")
            )
        elif not m.seat_off:
            seats = gettext("Seats ✓")
        elif m.first_seat_off:
            seats = gettext("Seats off balance %(n)s (seat 1: %(first)s)") % {
                "n": m.seat_off,
                "first": m.first_seat_off,
            }
        else:
            seats = gettext("Seats off balance %(n)s") % {"n": m.seat_off}
        shown = [
            (gettext("Most together %(n)s") % {"n": m.most_met}, self.most_met_bad),
            (repeats, self.excess_bad),
            (gettext("In a row %(n)s") % {"n": m.consecutive}, False),
            (seats, self.seats_bad),
        ]
        return [{"text": f"⚠ {text}" if bad else text, "bad": bad} for text, bad in shown]

    def said(self) -> str:
        return " · ".join(p["text"] for p in self.parts())

    def live_json(self) -> dict[str, Any]:
        """The room display's: the numbers, and the line in the reader's language."""
        return {**self.as_json(), "parts": self.parts()}


def _best_known(rounds: Sequence[seatings.Seated]) -> int | None:
    """The best known for ``rounds`` when each seated the same players at the same sizes."""
    if not rounds:
        return None
    first = rounds[0]
    everyone = {p for t in first.tables for p in t} | set(first.sat_out)
    sizes = sorted(len(t) for t in first.tables)
    for later in rounds[1:]:
        if sorted(len(t) for t in later.tables) != sizes:
            return None
        if {p for t in later.tables for p in t} | set(later.sat_out) != everyone:
            return None
    if not sizes:
        return None
    return draw_measures.best_known(len(everyone), sizes, len(rounds))


def figures(rounds: Sequence[seatings.Seated], *, season: bool = False) -> Figures | None:
    """The figures of ``rounds`` together (``None``: no round); a season's have no best
    known (its nights differ) and no warning for pairs met often."""
    if not rounds:
        return None
    starts = {i for i in range(1, len(rounds)) if rounds[i].night != rounds[i - 1].night}
    measures = draw_measures.measure([r.tables for r in rounds], starts)
    best = None if season else _best_known(rounds)
    return Figures(measures, best, len(rounds), season)


def by_round(rounds: Sequence[seatings.Seated]) -> dict[int, Figures]:
    """Each round's figures (the rounds up to it), by the round's number."""
    measured = draw_measures.by_round([r.tables for r in rounds])
    return {
        r.number: Figures(m, _best_known(rounds[: i + 1]), i + 1)
        for i, (r, m) in enumerate(zip(rounds, measured, strict=True))
    }


def of_night(night: ClubNight) -> Figures | None:
    return figures(seatings.of_night(night))


def live_json(night: ClubNight) -> dict[str, Any] | None:
    """The room display's figures of the night (``None``: no round yet)."""
    found = of_night(night)
    return found.live_json() if found else None


def of_season(season: Season) -> Figures | None:
    """The season's figures: its nights differ, so no best known."""
    return figures(seatings.of_season(season), season=True)


def proposed(
    night: ClubNight,
    stored: Sequence[seatings.Seated],
    tables: list[list[int]],
    sat_out: list[int],
) -> Figures:
    """The night's figures should the proposal be seated as drawn after its ``stored``
    rounds (``seatings.of_night``)."""
    nxt = seatings.Seated(
        night.pk, len(stored) + 1, tables=[list(t) for t in tables], sat_out=list(sat_out)
    )
    found = figures([*stored, nxt])
    assert found is not None
    return found


def met_again(
    stored: Sequence[seatings.Seated], tables: list[list[int]]
) -> list[tuple[list[int], int]]:
    """The pairs a proposal seats together again tonight, the most met first: (the two
    player ids, how many rounds together with this one), so that a secretary can see who a
    repeat is before confirming."""
    met = draw_measures.meetings([s.tables for s in stored])
    again = {pair: met[pair] + 1 for pair in draw_measures.round_pairs(tables) if met.get(pair, 0)}
    return [(sorted(pair), times) for pair, times in sorted(again.items(), key=lambda i: -i[1])]

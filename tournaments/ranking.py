"""How a season ranks its players, as its administrator chooses (issue 40).

A season's leaderboard of a game ranks by one figure, its **score**, then by the game's own
tie-breaks (``engine.Game.ranked_by``: its points, then deals won in the games that say so):

- ``total``: the points of every match (the default, as paper sheets add up);
- ``per_match`` / ``per_deal``: those points divided by the matches or deals played, so
  that the member who came half the time is measured by how well, not how often;
- ``best_nights`` / ``best_matches``: the points of a player's best *N* club nights (or
  matches), the others left out ("best 6 of 9 nights").

A **qualifying minimum** (規定打数) of club nights, matches or deals puts a player below it
apart: ranked after every qualified player, listed as "not yet qualified: 3 of 8 nights".

The figures are made from the season's match lines by ``scoring.season_totals`` (one SQL
statement on PostgreSQL, :func:`score` and :func:`qualified` in Python elsewhere); this
module holds the rules both follow, and the words the pages use for them.  Each method is
a :class:`Method` choice and its :class:`Way` in :data:`WAYS` (its figure, its words);
its SQL twin is ``scoring.season_totals.SCORES`` (docs/architecture.md, "Adding a ranking
method").
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, TypeVar

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext

import engine
from engine.match import competition_ranks

P = TypeVar("P", bound=Hashable)

PLACES = 3
"""Decimal places of a score by matches or deals (``SeasonStanding.score``)."""


class Method(models.TextChoices):
    TOTAL = "total", _("Total points")
    PER_MATCH = "per_match", _("Points per match")
    PER_DEAL = "per_deal", _("Points per deal")
    BEST_NIGHTS = "best_nights", _("Best club nights")
    BEST_MATCHES = "best_matches", _("Best matches")


BEST = (Method.BEST_NIGHTS, Method.BEST_MATCHES)
"""The methods that count a player's best ``best_of`` nights or matches."""


class Counted(models.TextChoices):
    """What a qualifying minimum counts."""

    NIGHTS = "nights", _("club nights")
    MATCHES = "matches", _("matches")
    DEALS = "deals", _("deals")


@dataclass(frozen=True)
class Played:
    """What a player played of one game in a season: their match lines added up."""

    total: int
    deals: int
    matches: int
    night_points: Sequence[int]
    """Points of each club night they played, in any order."""
    match_points: Sequence[int]
    """Points of each match they played, in any order."""

    @property
    def nights(self) -> int:
        return len(self.night_points)

    def count(self, counted: str) -> int:
        return {"nights": self.nights, "matches": self.matches, "deals": self.deals}[counted]


def score(method: str, best_of: int | None, played: Played) -> Decimal:
    """The figure a season ranks by (the more the better), to :data:`PLACES` places: the
    method's :attr:`Way.figure`.

    Points per match or deal round half away from zero, as PostgreSQL's ``round`` does.
    Best *N*: a player with fewer than *N* nights (or matches) counts all of theirs."""
    return WAYS[method].figure(played, best_of)


def ratio(points: int, of: int) -> Decimal:
    """``points`` per ``of`` to :data:`PLACES` places, half away from zero as PostgreSQL's
    ``ROUND`` does (0 of nothing)."""
    exact = Decimal(points) / Decimal(of) if of else Decimal(0)
    return exact.quantize(Decimal(1).scaleb(-PLACES), rounding=ROUND_HALF_UP)


def plain(value: Decimal) -> int | float:
    """A score as the pages and files show it: whole (412), or with its places (12.333)."""
    return int(value) if value == value.to_integral_value() else float(value)


def qualified(counted: str, minimum: int, played: Played) -> bool:
    """Whether a player has played the season's qualifying minimum (0: everyone has)."""
    return played.count(counted) >= minimum


@dataclass(frozen=True)
class Rule:
    """A season's ranking settings (its ``ranking``, ``best_of``, ``qualify_by`` and
    ``qualify_minimum``)."""

    method: str = Method.TOTAL
    best_of: int | None = None
    counted: str = Counted.NIGHTS
    minimum: int = 0

    @classmethod
    def of(cls, season: Any) -> Rule:
        return cls(season.ranking, season.best_of, season.qualify_by, season.qualify_minimum)

    def score(self, played: Played) -> Decimal:
        return score(self.method, self.best_of, played)

    def qualified(self, played: Played) -> bool:
        return qualified(self.counted, self.minimum, played)

    def ranks(self, game: str, lines: Mapping[P, tuple[Played, int]]) -> dict[P, int]:
        """Each player's rank among ``lines`` (player: what they played and their deals
        won): the qualified first, by score, then by the game's own order
        (``engine.Game.rank_key``).  The leaderboard's ranks (the SQL's ``RANK()`` orders
        the same way), and a correction's effect on them."""
        rank_key = engine.GAMES[game].rank_key
        return competition_ranks(
            {
                p: (
                    int(not self.qualified(played)),
                    -int(self.score(played).scaleb(PLACES)),  # exact: whole thousandths
                    *rank_key(played.total, won),
                )
                for p, (played, won) in lines.items()
            }
        )

    def describe(self) -> str:
        return describe(self.method, self.best_of, self.counted, self.minimum)

    @property
    def shown(self) -> list[str]:
        """What a leaderboard shows of this ranking beyond points, deals and matches:
        ``score`` (not for total points), ``qualified`` (with a minimum) and ``nights``
        (when the figure or the minimum counts club nights)."""
        nights = WAYS[self.method].nights or self.minimum and self.counted == "nights"
        return [
            name
            for name, shown in (
                ("score", self.method != Method.TOTAL),
                ("qualified", self.minimum > 0),
                ("nights", nights),
            )
            if shown
        ]

    @property
    def heading(self) -> str:
        """The score's column heading: ``Points per match``, ``Best 6 club nights``."""
        return WAYS[self.method].heading(self.best_of)

    def not_yet(self, played: Played) -> str:
        """``not yet qualified: 3 of 8 club nights`` below the minimum; empty above it."""
        if self.qualified(played):
            return ""
        return not_yet(self.counted, self.minimum, played.count(self.counted))


MOST_COUNTED = 999
"""The most a season may count: best N, or a qualifying minimum."""


def refusals(method: str, best_of: int | None, minimum: int | None) -> dict[str, str]:
    """What is wrong with these settings, by field (empty: nothing); the season form, the
    API and the admin refuse with these words.  A best N is refused with a method that
    counts no best N (``total`` with ``best_of`` 5 says two things at once)."""
    wrong: dict[str, str] = {}
    if method in BEST and (best_of is None or not 1 <= best_of <= MOST_COUNTED):
        wrong["best_of"] = _(
            "Say how many of a player's best club nights or matches count: "
            "a whole number from 1 to %(most)s."
        ) % {"most": MOST_COUNTED}
    if method not in BEST and best_of is not None:
        wrong["best_of"] = str(
            _(
                "Best how many counts only when the leaderboards rank by best club nights or "
                "matches: leave it empty, or rank by best club nights or matches."
            )
        )
    if minimum is not None and not 0 <= minimum <= MOST_COUNTED:
        wrong["qualify_minimum"] = _(
            "A qualifying minimum is a whole number from 0 to %(most)s."
        ) % {"most": MOST_COUNTED}
    return wrong


def describe(method: str, best_of: int | None, counted: str, minimum: int) -> str:
    """How a season ranks, in a sentence the leaderboard and the exports show."""
    how = WAYS[method].sentence(best_of)
    if minimum <= 0:
        return how
    return str(_("%(how)s; qualified from %(minimum)s %(counted)s")) % {
        "how": how,
        "minimum": minimum,
        "counted": Counted(counted).label,
    }


def explain(rule: Rule, played: Played) -> str:
    """A player's figure explained, as the leaderboard shows it on tap: ``best 6 of 9 club
    nights: 40 + 35 + 30 + 22 + 10 + 8; left out: 5, -3, -10``; empty for total points."""
    parts = WAYS[rule.method].explain(played, rule.best_of)
    return str(pgettext("between the parts of an explained figure", "; ")).join(parts)


def not_yet(counted: str, minimum: int, played: int) -> str:
    """A line below the minimum, as the leaderboard lists it."""
    return str(_("not yet qualified: %(played)s of %(minimum)s %(counted)s")) % {
        "played": played,
        "minimum": minimum,
        "counted": Counted(counted).label,
    }


# -- the methods ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Way:
    """One ranking method: the figure it ranks by and the words for it.  Its SQL twin, the
    same figure in the season totals' statement, is ``scoring.season_totals.SCORES``."""

    figure: Callable[[Played, int | None], Decimal]
    """The figure of what a player played (the more, the better), given the season's
    best N; to :data:`PLACES` places at most."""
    sentence: Callable[[int | None], str]
    """How the season ranks, said above its boards and in its exports (:func:`describe`)."""
    heading: Callable[[int | None], str]
    """The figure's column heading (:attr:`Rule.heading`)."""
    explain: Callable[[Played, int | None], list[str]] = lambda played, best_of: []
    """A player's figure explained, in parts (:func:`explain`); none: nothing to explain."""
    nights: bool = False
    """Whether the figure counts club nights: the boards then show each player's."""


def _in_words(text: Any) -> Callable[[int | None], str]:
    return lambda best_of: str(text)


def _best(played: Played, best_of: int | None, nights: bool) -> tuple[list[int], list[int]]:
    """A player's best N nights' (or matches') points, and those left out."""
    points = sorted(played.night_points if nights else played.match_points, reverse=True)
    n = best_of or len(points)
    return points[:n], points[n:]


def _best_explained(nights: bool) -> Callable[[Played, int | None], list[str]]:
    def parts(played: Played, best_of: int | None) -> list[str]:
        best, left = _best(played, best_of, nights)
        words = (
            _("best %(n)s of %(of)s club nights: %(points)s")
            if nights
            else _("best %(n)s of %(of)s matches: %(points)s")
        )
        out = [
            str(words)
            % {"n": len(best), "of": len(best) + len(left), "points": " + ".join(map(str, best))}
        ]
        if left:
            out.append(str(_("left out: %(points)s")) % {"points": ", ".join(map(str, left))})
        return out

    return parts


def _per_match_explained(played: Played, best_of: int | None) -> list[str]:
    return [
        ngettext(
            "%(points)s points in %(n)s match",
            "%(points)s points in %(n)s matches",
            played.matches,
        )
        % {"points": played.total, "n": played.matches}
    ]


def _per_deal_explained(played: Played, best_of: int | None) -> list[str]:
    return [
        ngettext(
            "%(points)s points in %(n)s deal",
            "%(points)s points in %(n)s deals",
            played.deals,
        )
        % {"points": played.total, "n": played.deals}
    ]


WAYS: dict[str, Way] = {
    Method.TOTAL: Way(
        figure=lambda played, best_of: Decimal(played.total),
        sentence=_in_words(_("Ranked by total points")),
        heading=_in_words(Method.TOTAL.label),
    ),
    Method.PER_MATCH: Way(
        figure=lambda played, best_of: ratio(played.total, played.matches),
        sentence=_in_words(_("Ranked by points per match")),
        heading=_in_words(Method.PER_MATCH.label),
        explain=_per_match_explained,
    ),
    Method.PER_DEAL: Way(
        figure=lambda played, best_of: ratio(played.total, played.deals),
        sentence=_in_words(_("Ranked by points per deal")),
        heading=_in_words(Method.PER_DEAL.label),
        explain=_per_deal_explained,
    ),
    # The two best-N methods spell their words out: makemessages reads only literals.
    Method.BEST_NIGHTS: Way(
        figure=lambda played, best_of: Decimal(sum(_best(played, best_of, True)[0])),
        sentence=lambda best_of: ngettext(
            "Ranked by the points of the best club night",
            "Ranked by the points of the best %(n)d club nights",
            best_of or 1,
        )
        % {"n": best_of},
        heading=lambda best_of: ngettext("Best club night", "Best %(n)d club nights", best_of or 1)
        % {"n": best_of or 1},
        explain=_best_explained(nights=True),
        nights=True,
    ),
    Method.BEST_MATCHES: Way(
        figure=lambda played, best_of: Decimal(sum(_best(played, best_of, False)[0])),
        sentence=lambda best_of: ngettext(
            "Ranked by the points of the best match",
            "Ranked by the points of the best %(n)d matches",
            best_of or 1,
        )
        % {"n": best_of},
        heading=lambda best_of: ngettext("Best match", "Best %(n)d matches", best_of or 1)
        % {"n": best_of or 1},
        explain=_best_explained(nights=False),
    ),
}
"""Every ranking method by its :class:`Method` value: what it ranks by, and its words."""

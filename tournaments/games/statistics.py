"""A player's statistics in a game's season: what each figure is made of.

The rebuild (``scoring.standings``) asks each game's :meth:`LeagueGame.player_numbers`
for a player's counts in one match, from the engine's checked deals (:class:`Played`),
and keeps them on the match line; ``scoring.season_totals`` sums them per season, game
and player, with the sums every game has (matches, finished matches and their ranks,
deals, points).  A :class:`Statistic` is one figure made of those season sums: a count,
an average or a rate.  Nothing here is computed on a request beyond one division.

The generic statistics (:data:`GENERIC`) come first for every game, then the game's own
(``LeagueGame.statistics``).  ``docs/statistics.md`` gives each one's definition, as
:attr:`Statistic.definition` does on the player page.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise as Text
else:
    Text = str


class Played(NamedTuple):
    """One checked deal of a match as a player's counts see it."""

    record: Mapping[str, Any]
    details: Mapping[str, Any]
    """The engine's result details of the deal (``DealResult.details``)."""
    score: int
    """The player's score in the deal."""
    scores: Mapping[str, int]
    """Every player's score in the deal."""


@dataclass(frozen=True)
class Statistic:
    """One figure of a player's season in a game: the sum ``of`` alone (a count), or per
    the sum ``per`` (an average, or a rate in per cent with ``percent``); no figure while
    ``per`` is 0."""

    key: str
    """Its name in the API and the exports."""
    label: Text
    definition: Text
    """One line: what is counted, over what."""
    of: str
    per: str = ""
    percent: bool = False
    places: int = 1
    """Decimal places of an average."""

    def value(self, sums: Mapping[str, int]) -> int | float | None:
        """The figure from the season's sums (a missing sum counts 0)."""
        top = sums.get(self.of, 0)
        if not self.per:
            return top
        bottom = sums.get(self.per, 0)
        if not bottom:
            return None
        if self.percent:
            return round(100 * top / bottom)
        return round(top / bottom, self.places)

    def shown(self, sums: Mapping[str, int]) -> str:
        """The figure as the page and the PDF print it: ``42%``, ``2.35``, ``—``."""
        value = self.value(sums)
        if value is None:
            return "—"
        if self.percent:
            return f"{value}%"
        return f"{value:.{self.places}f}" if self.per else str(value)


GENERIC: tuple[Statistic, ...] = (
    Statistic(
        "matches", _("Matches played"), _("Matches with a deal scored for the player."), "matches"
    ),
    Statistic(
        "matches_won",
        _("Matches won"),
        _("Finished matches the player ended first in."),
        "matches_won",
    ),
    Statistic(
        "average_rank",
        _("Average rank"),
        _("The mean of the player's ranks in finished matches."),
        "rank_sum",
        "finished_matches",
        places=2,
    ),
    Statistic(
        "top_half",
        _("Top half"),
        _("Finished matches ended in the top half (rank × 2 ≤ players), of all finished."),
        "top_half",
        "finished_matches",
        percent=True,
    ),
    Statistic(
        "last_place",
        _("Last place"),
        _("Finished matches ended last (nobody below, somebody above), of all finished."),
        "last_place",
        "finished_matches",
        percent=True,
    ),
    Statistic("deals", _("Deals played"), _("Deals with a score for the player."), "deals"),
    Statistic(
        "deals_won",
        _("Share of deals won"),
        _("Deals the game counts as won by the player, of all played."),
        "deals_won",
        "deals",
        percent=True,
    ),
    Statistic(
        "points_per_deal",
        _("Points per deal"),
        _("The player's points divided by their deals."),
        "points",
        "deals",
    ),
)
"""Every game's statistics, first; their sums are the season line's own columns."""

TRICKS = Statistic(
    "tricks",
    _("Tricks per full play"),
    _("Tricks the player won in deals kept as full plays, per such deal."),
    "tricks",
    "full_plays",
)
"""The trick games' figure from full plays (counted by :func:`count_tricks`)."""


def count_tricks(n: dict[str, int], details: Mapping[str, Any], handle: str) -> None:
    """Add a deal kept as a full play (the engine's ``trick_winners`` in its details) to
    ``n``'s ``full_plays``, and the tricks the player won in it to its ``tricks``."""
    if "trick_winners" in details:
        n["full_plays"] += 1
        n["tricks"] += sum(1 for who in details["trick_winners"] if who == handle)

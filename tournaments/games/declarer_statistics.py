"""Napoleon's and Rettler's own statistics (docs/statistics.md): what each one is called,
how it is defined and which of the counts a declarer game keeps per player it reads
(``DeclarerLeagueGame`` counts them, deal by deal)."""

from __future__ import annotations

from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from tournaments.games.statistics import TRICKS, Statistic


def declarer_statistics(low: int, high: int) -> tuple[Statistic, ...]:
    """Napoleon's and Rettler's own statistics; ``low`` and ``high`` are the game's
    :attr:`DeclarerLeagueGame.bands`."""
    middle = f"{low + 1}–{high - 1}"
    bands = (
        (
            "low",
            _("Made at {n} or fewer"),
            _("Declarations of {n} point cards or fewer made, of those declared."),
        ),
        ("middle", _("Made at {n}"), _("Declarations of {n} point cards made, of those declared.")),
        (
            "high",
            _("Made at {n} or more"),
            _("Declarations of {n} point cards or more made, of those declared."),
        ),
    )
    counts = {"low": low, "middle": middle, "high": high}
    by_count = tuple(
        Statistic(
            f"made_{band}",
            format_lazy(label, n=counts[band]),
            format_lazy(definition, n=counts[band]),
            f"{band}_made",
            band,
            percent=True,
        )
        for band, label, definition in bands
    )
    return (
        Statistic(
            "declared", _("Declarations (立った)"), _("Deals the player declared."), "declared"
        ),
        Statistic(
            "made",
            _("Declarations made"),
            _("Declarations won (a positive score), of all declared."),
            "won_declaring",
            "declared",
            percent=True,
        ),
        Statistic(
            "average_count",
            _("Average count declared"),
            _("The mean count of point cards declared."),
            "count_sum",
            "declared",
        ),
        *by_count,
        Statistic(
            "adjutant_found",
            _("Adjutant found"),
            _("Declarations whose named card made another player adjutant, of all declared."),
            "found",
            "declared",
            percent=True,
        ),
        Statistic(
            "all_taken",
            _("全付け (all taken)"),
            _("Declarations whose army took every point card without declaring them all."),
            "all_taken",
        ),
        Statistic(
            "declarer_points",
            _("Points per declaration"),
            _("The player's points as declarer divided by their declarations."),
            "declarer_points",
            "declared",
        ),
        Statistic(
            "adjutant", _("Adjutant (副官)"), _("Deals the player was an adjutant."), "adjutant"
        ),
        Statistic(
            "adjutant_won",
            _("Won as adjutant"),
            _("Deals won as adjutant, of those as adjutant."),
            "won_adjutant",
            "adjutant",
            percent=True,
        ),
        Statistic(
            "adjutant_points",
            _("Points per deal as adjutant"),
            _("The player's points as adjutant divided by those deals."),
            "adjutant_points",
            "adjutant",
        ),
        Statistic(
            "coalition_won",
            _("Won in the coalition"),
            _("Deals won against the army, of those in the coalition."),
            "won_coalition",
            "coalition",
            percent=True,
        ),
        Statistic(
            "coalition_points",
            _("Points per deal in the coalition"),
            _("The player's points in the coalition divided by those deals."),
            "coalition_points",
            "coalition",
        ),
        TRICKS,
    )

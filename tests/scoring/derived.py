"""Every derived row (standings, ratings) as sorted tuples without ids or
times: what tests compare between two ways of computing them."""

from __future__ import annotations

from django.db.models.expressions import RawSQL

from actions import corrections
from scoring.models import (
    COUNT_COLUMNS,
    MatchStanding,
    Rating,
    RatingHistory,
    SeasonStanding,
)

COLUMNS = {
    MatchStanding: ("match_id", "player_id", "total", "deals", "deals_won", "rank", "season_id",
                    "game", "club_night_id", "finished", "points", "scored", "top_half", "last_place",
                    *COUNT_COLUMNS),
    SeasonStanding: ("season_id", "game", "player_id", "total", "deals", "deals_won", "matches",
                     "matches_won", "rank", "finished_matches", "rank_sum", "top_half",
                     "last_place", *COUNT_COLUMNS),
    Rating: ("player_id", "game", "mu", "sigma", "rating", "deals"),
    RatingHistory: ("player_id", "game", "club_night_id", "mu", "sigma", "deals"),
}  # fmt: skip


def derived(*models) -> tuple[list[tuple], ...]:
    """The rows of ``models`` (all derived tables when none are named)."""
    return tuple(sorted(m.objects.values_list(*COLUMNS[m])) for m in models or COLUMNS)


def forget() -> None:
    """As after a restore, or lost tasks: no derived rows (nor what they were made
    from), no match checked."""
    from scoring.models import Fingerprint
    from tournaments.models import Match

    for model in [*COLUMNS, Fingerprint]:
        model.objects.all().delete()
    Match.objects.update(checked_version=0, state=None)


def take_out_last_deal(match, user):
    """A correction the rules allow in any game: the match reopened if it had ended, its
    last deal deleted."""
    if match.status == match.Status.FINISHED:
        corrections.reopen_match(match, user, "a deal was entered twice")
    last = match.deals.filter(deleted_at__isnull=True).latest("number")
    corrections.delete_deal(last, user, "entered twice")
    return last


def written_rows():
    """Where each derived row is stored (PostgreSQL's ``ctid``): a row inserted or updated
    is stored anew, even within one transaction."""
    return tuple(
        dict(
            model.objects.annotate(at=RawSQL(f"{model._meta.db_table}.ctid::text", [])).values_list(
                "pk", "at"
            )
        )
        for model in (SeasonStanding, Rating, RatingHistory)
    )

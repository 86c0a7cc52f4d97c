"""Every derived row (standings, plot points, ratings) as sorted tuples without ids or
times: what tests compare between two ways of computing them."""

from __future__ import annotations

from scoring.models import MatchStanding, Rating, RatingHistory, SeasonPoint, SeasonStanding

COLUMNS = {
    MatchStanding: ("match_id", "player_id", "total", "deals", "deals_won", "rank", "season_id",
                    "game", "night", "finished", "points", "scored", "count_1", "count_2", "count_3",
                    "count_4"),
    SeasonStanding: ("season_id", "game", "player_id", "total", "deals", "deals_won", "matches",
                     "matches_won", "rank", "numbers"),
    SeasonPoint: ("season_id", "game", "player_id", "night", "ordinal", "total"),
    Rating: ("player_id", "game", "mu", "sigma", "rating", "deals"),
    RatingHistory: ("player_id", "game", "night", "mu", "sigma", "deals"),
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

"""A season's final (issue 40): the club night marked ``final`` seats, at the final table
of a round drawn as a final, the top players of the season's leaderboard of the round's
game (qualified players only, by the season's ranking: ``tournaments.ranking``); the winner
of that table's match, once it is finished, is the season's champion.

Nothing is stored besides the night's mark: the seeding is read from the leaderboard when
the round is drawn, and the champion from the final match's checked lines
(``MatchStanding``), so that a correction of the final's deals names the new champion as
a rebuild would.  A present player without a qualified line is seeded after every
qualified one, in the night's order.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring import night as night_standings
from scoring.models import MatchStanding, SeasonStanding
from tournaments.models import ClubNight, Match, Player, Round, Season


def draw_order(night: ClubNight, game: str) -> list[int]:
    """Who comes first in a draw of ``night`` (Swiss pairs, a final table's seats): on the
    season's final night the season's qualified players of ``game`` by rank, then the
    night's standings; on any other night the night's standings alone."""
    tonight = [line.player for line in night_standings.standings(night)[1]]
    if not night.final:
        return tonight
    seeded = list(
        SeasonStanding.objects.filter(season=night.season_id, game=game, qualified=True)
        .order_by("rank", "player_id")
        .values_list("player_id", flat=True)
    )
    taken = set(seeded)
    return seeded + [p for p in tonight if p not in taken]


@dataclass(frozen=True)
class Final:
    """A season's final as its page shows it."""

    night: ClubNight
    match: Match | None
    """The final table's match, once a final round is drawn."""
    champions: list[Player]
    """Its winners once it is finished (more than one when the game's rules share a win)."""


def season_final(season: Season) -> Final | None:
    """The season's final night, its final table's match and champion (``None``: the
    season has no final night)."""
    night = ClubNight.objects.filter(season=season, final=True).first()
    if night is None:
        return None
    match = (
        Match.objects.filter(
            table__round__club_night=night, table__round__method=Round.Method.FINAL
        )
        .select_related("table__round")
        .order_by("table__round__number", "table__name", "pk")
        .first()
    )
    champions: list[Player] = []
    if match is not None:
        won = MatchStanding.objects.filter(match=match, finished=True, rank=1)
        champions = [
            line.player for line in won.select_related("player").order_by("player__display_name")
        ]
    return Final(night, match, champions)

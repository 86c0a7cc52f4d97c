"""Divisions filled by a rule (issue 56, 4): the divisions page's one-tap rules, which
fill each player's division for the administrator to review, change and save (nothing is
stored here: ``actions.divisions.set_divisions`` stores what is saved).

The rules, each over the players it is given (the page gives those in a division on its
form, or every player of the club when nobody is in one yet):

- ``everyone``: all of them in one division;
- ``last_season``: split by the final standings of the season before (the one that
  closed into this one, else the club's season made just before it): its divisions top
  first, each in the order of its leaderboard of its first game, qualified first;
- ``standings``: split by this season's leaderboard of its first game, qualified first;
- ``rating``: split by the club's rating in the season's first rated game, best first;
- ``alternate``: dealt in a snake (A B B A…) by this season's standings: divisions of
  even strength.

A split is as even as possible, the top divisions taking the extra player (7 over two
divisions: 4 and 3).  A player with no standing is placed by their rating when they have
one (after the players with a standing); a player with neither goes to the bottom
division (the alternate deals them on, in name order), and the page names them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext_noop

import engine
from scoring.models import Rating, Scope, SeasonStanding
from tournaments import divisions, errors
from tournaments.errors import refusal
from tournaments.models import Placement, Season
from tournaments.names import look_alike

RULES = ("everyone", "last_season", "standings", "rating", "alternate")
NO_RULE = gettext_noop("choose one of the rules")
NO_NAMES = gettext_noop("name the divisions first, then choose a rule")
NO_DIVISION = gettext_noop("no division %(name)s in this season")
NO_SEASON_BEFORE = gettext_noop("the club has no season before this one")
NOT_RATED = gettext_noop("no game of this season is rated")
NOBODY_RANKED = gettext_noop(
    "nobody has a place on the leaderboard of %(season)s or a rating yet: choose "
    "“alternately” or “everyone in” one division"
)
NOBODY_RATED = gettext_noop(
    "nobody has a rating yet: choose “alternately” or “everyone in” one division"
)


@dataclass(frozen=True)
class Filled:
    """What a rule proposes: each player's division, what it was ranked by, and who had
    nothing to rank them by."""

    places: dict[int, str]
    rule: str
    by_season: Season | None = None
    """The season whose standings it followed (``last_season``, ``standings``)."""
    game: str = ""
    """The game whose leaderboard or rating it followed."""
    by_rating: list[int] = field(default_factory=list)
    """Players without a standing, placed by their rating."""
    unranked: list[int] = field(default_factory=list)
    """Players with neither: in the bottom division (the alternate: dealt on)."""


def season_before(season: Season) -> Season | None:
    """The season that closed into ``season``, else the club's season made just before
    (never the one ``season`` closed into)."""
    closed_into = Season.objects.filter(next_season=season).order_by("-pk").first()
    if closed_into is not None:
        return closed_into
    earlier = Season.objects.filter(club_id=season.club_id, pk__lt=season.pk)
    return earlier.exclude(pk=season.next_season_id or 0).order_by("-pk").first()


def rated_game(season: Season) -> str:
    """The season's first rated game ("" when none is)."""
    return next((g for g in season.games if g in engine.GAMES and engine.GAMES[g].rated), "")


def standings_order(season: Season, players: Sequence[int]) -> list[int]:
    """Of ``players``, those with a line on ``season``'s leaderboard of its first game, in
    its order, qualified first; a season with divisions lists its divisions top first."""
    if not season.games:
        return []
    wanted = set(players)
    division = {
        p.player_id: p.division.order
        for p in Placement.objects.filter(season=season).select_related("division")
    }
    lines = SeasonStanding.objects.filter(
        season=season, game=season.games[0], player_id__in=wanted
    ).values_list("player_id", "qualified", "rank")
    ranked = sorted(
        (division.get(pk, divisions.MOST_DIVISIONS), not qualified, rank, pk)
        for pk, qualified, rank in lines
    )
    return [pk for *_key, pk in ranked]


def rating_order(game: str, players: Sequence[int]) -> list[int]:
    """Of ``players``, those rated in ``game`` (the club's rating), best first."""
    if not game:
        return []
    return list(
        Rating.objects.filter(game=game, scope=Scope.CLUB, player_id__in=list(players))
        .order_by("-rating", "player_id")
        .values_list("player_id", flat=True)
    )


def fill(
    season: Season, rule: str, names: Sequence[str], players: Sequence[int], target: str = ""
) -> Filled:
    """``players`` (in name order) placed in the divisions ``names`` (top first) by
    ``rule``; ``target``: the division of ``everyone``.  Refused in words, never stored."""
    if rule not in RULES:
        raise refusal("invalid_choice", "rule", NO_RULE)
    if not names:
        raise errors.missing("names", NO_NAMES)
    if rule == "everyone":
        chosen = {look_alike(n): n for n in names}.get(look_alike(target or names[0]))
        if chosen is None:
            raise refusal("invalid_choice", "rule", NO_DIVISION, name=str(target)[:20])
        return Filled({p: chosen for p in players}, rule)
    game = rated_game(season)
    if rule == "rating":
        if not game:
            raise refusal("not_rated", "rule", NOT_RATED)
        order = rating_order(game, players)
        if not order:  # every player would go to the bottom division: say so instead
            raise refusal("not_rated", "rule", NOBODY_RATED)
        unranked = [p for p in players if p not in set(order)]
        return Filled(divisions.split(order, unranked, names), rule, game=game, unranked=unranked)
    by_season: Season | None = season
    if rule == "last_season":
        by_season = season_before(season)
    if by_season is None:
        raise refusal("not_found", "rule", NO_SEASON_BEFORE)
    ranked = standings_order(by_season, players)
    seen = set(ranked)
    by_rating = [p for p in rating_order(game, players) if p not in seen]
    seen |= set(by_rating)
    unranked = [p for p in players if p not in seen]
    order = ranked + by_rating
    if not order and rule != "alternate":  # nothing to rank by: all would go to the bottom
        raise refusal("not_ranked", "rule", NOBODY_RANKED, season=by_season.name[:200])
    if rule == "alternate":
        places = divisions.snake(order + unranked, names)
    else:
        places = divisions.split(order, unranked, names)
    first = by_season.games[0] if by_season.games else ""
    return Filled(places, rule, by_season, first, by_rating, unranked)

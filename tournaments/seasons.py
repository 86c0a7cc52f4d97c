"""A season's settings, stored by one action that every page, the API and the admin use.

A season's standings and its club's ratings are derived from some of its settings: whether
it is public, whether its deals need a second person's confirmation, its games, and how it
ranks (``tournaments.ranking``: re-ranked from the stored match lines, no deal replayed).  When
one of them changes, the derived rows are made again once the change commits
(``tournaments.events.seasons_changed``: ``scoring`` rebuilds the season and its club's
ratings); a change of confirmation changes what counts in every match, so each of them is
checked again (its ``version`` moves on).
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F

from tournaments import events
from tournaments.models import Match, Season
from tournaments.ranking import BEST

RANKING = ("ranking", "best_of", "qualify_by", "qualify_minimum")
"""How the season ranks (``tournaments.ranking``): a change re-ranks its stored lines."""

DERIVED_FROM = ("public", "require_confirmation", "games", *RANKING)
"""A season's settings that its standings and its club's ratings are derived from."""


def save_season(season: Season) -> Season:
    """Store a new or changed season; what derives from a changed setting is made again
    once the change commits (a new season has no match yet: nothing to make).

    The season is checked first (``Season.clean`` and its fields): a page, the API, the
    admin and the divisions' next season are refused alike, in the reader's language, and
    a refused season stores nothing (Django's ``ValidationError``, by field)."""
    season.full_clean()
    with transaction.atomic():
        before = (
            Season.objects.select_for_update().filter(pk=season.pk).values(*DERIVED_FROM).first()
            if season.pk
            else None
        )
        season.save()
        if before is None or all(before[name] == getattr(season, name) for name in DERIVED_FROM):
            return season
        if before["require_confirmation"] != season.require_confirmation:
            Match.objects.filter(table__club_night__season_id=season.pk).update(
                version=F("version") + 1
            )
        events.seasons_changed([season.pk])
    return season


def best_of_kept(ranking: str, best_of: int | None, given: bool) -> int | None:
    """A season's best N once a request ranked it by ``ranking``: a method that counts no
    best N drops the N the season had when the request gave none (the page's field left
    as it was, the API's left out); a best N the request gave stays, for ``Season.clean``
    to refuse with a method that counts none (``{"ranking": "total", "best_of": 5}``)."""
    return best_of if given or ranking in BEST else None

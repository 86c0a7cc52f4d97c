"""Rebuilding what is derived from the deals, for a club, a batch of clubs, some seasons
or everything: the matches whose deals changed checked again (all of them with
``recheck``), the seasons totalled (``scoring.season_totals``), the clubs' ratings replayed
(``scoring.ratings``).  What the rebuild commands, the Celery tasks and the imports
call; each step writes only what differs and skips what its fingerprint says did not
change (``scoring.fingerprints``)."""

from __future__ import annotations

from typing import Any

from django.db.models import F

from scoring.ratings import rebuild_clubs_ratings
from scoring.season_totals import rebuild_seasons
from scoring.standings import CHUNK, rebuild_matches
from tournaments.models import Club, Match, Season

CLUBS_AT_ONCE = 10
"""Clubs per batch (per task) of a full rebuild at most: a batch's statements cost about
what one club's do (docs/benchmarks.md)..."""
BATCHES_AT_LEAST = 8
"""... and a federation of few clubs still has this many batches (or one per club), to
keep every worker busy."""


def rebuild_club(club_id: int, *, recheck: bool = False, ratings: bool = True) -> tuple[int, int]:
    """Everything of one club (see :func:`rebuild_clubs`)."""
    return rebuild_clubs([club_id], recheck=recheck, ratings=ratings)


def rebuild_clubs(
    club_ids: list[int], *, recheck: bool = False, ratings: bool = True
) -> tuple[int, int]:
    """Everything of these clubs, from their deals: check the matches that changed since
    their last check (all of them with ``recheck``), total every season, replay the
    ratings (unless not ``ratings``); the same statements for one club or a batch.
    Returns (seasons, matches checked)."""
    matches = Match.objects.filter(table__club_night__season__club_id__in=club_ids)
    seasons = Season.objects.filter(club_id__in=club_ids)
    return _rebuild(matches, seasons, sorted(club_ids) if ratings else [], recheck)


def rebuild_season(season_id: int, *, recheck: bool = False) -> tuple[int, int]:
    """One season (after a bulk import into it), and its club's ratings."""
    return rebuild_seasons_of([season_id], recheck=recheck)


def rebuild_seasons_of(season_ids: list[int], *, recheck: bool = False) -> tuple[int, int]:
    """Some seasons (after an import into them), and their clubs' ratings once each."""
    seasons = Season.objects.filter(pk__in=season_ids)
    matches = Match.objects.filter(table__club_night__season_id__in=season_ids)
    clubs = sorted(set(seasons.values_list("club_id", flat=True)))
    return _rebuild(matches, seasons, clubs, recheck)


def standings_up_to_date(season_id: int) -> int:
    """A season's standings made current now, in the caller's transaction, when a match
    of it changed since its check (a deal whose refresh the workers have not run yet):
    those matches, then the season's totals; its club's ratings are left to the workers.
    What closing a season ranks from.  Returns the matches checked (0: it was current)."""
    matches = Match.objects.filter(table__club_night__season_id=season_id)
    if not matches.exclude(checked_version=F("version")).exists():
        return 0
    return _rebuild(matches, Season.objects.filter(pk=season_id), [], False)[1]


def rebuild_all(*, recheck: bool = False) -> tuple[int, int]:
    """Every club, a batch after the other in this process (``rebuild_standings`` shares
    the batches among the Celery workers instead); returns (seasons, matches checked)."""
    done = [rebuild_clubs(batch, recheck=recheck) for batch in club_batches()]
    return sum(s for s, _m in done), sum(m for _s, m in done)


def club_batches(club_ids: list[int] | None = None) -> list[list[int]]:
    """These clubs (``None``: every club) in batches, in their order: ``CLUBS_AT_ONCE`` a
    batch at most, and ``BATCHES_AT_LEAST`` batches where there are that many clubs."""
    if club_ids is None:
        club_ids = list(Club.objects.order_by("pk").values_list("pk", flat=True))
    size = max(1, min(CLUBS_AT_ONCE, len(club_ids) // BATCHES_AT_LEAST))
    return [club_ids[i : i + size] for i in range(0, len(club_ids), size)]


def _rebuild(matches: Any, seasons: Any, clubs: list[int], recheck: bool) -> tuple[int, int]:
    if not recheck:
        matches = matches.exclude(checked_version=F("version"))
    match_ids = list(matches.order_by("pk").values_list("pk", flat=True))
    for start in range(0, len(match_ids), CHUNK):
        rebuild_matches(match_ids[start : start + CHUNK], rescore=recheck)
    season_ids = list(seasons.order_by("pk").values_list("pk", flat=True))
    rebuild_seasons(season_ids, fingerprinted=True, every=recheck)
    if clubs:
        rebuild_clubs_ratings(clubs, every=recheck)
    return len(season_ids), len(match_ids)

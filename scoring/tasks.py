"""Celery tasks. They take ids, re-read the rows, tolerate rows that are gone,
are idempotent, and retry only transient database errors.

A full rebuild is a group of tasks, each a batch of clubs (clubs are independent):
any number of workers on the project's broker share them, and ``rebuild_everything``
waits for the group through the result backend (the same Redis).  Each club's work
runs under its own row locks, so a club rebuilt twice at once is rebuilt one time
after the other, and a task whose worker dies is rolled back by PostgreSQL and delivered
again (late acknowledgement) or run again by hand, with the same result.
"""

from __future__ import annotations

from collections.abc import Callable

from celery import group, shared_task
from django.conf import settings
from django.db import OperationalError, transaction
from django.utils import translation

from scoring import fingerprints, jobs, live_cache
from scoring.ratings import refresh_match_ratings
from scoring.rebuild import club_batches, rebuild_clubs, rebuild_season, rebuild_seasons_of
from scoring.season_totals import rebuild_season_standings
from scoring.standings import rebuild_match_standings
from tournaments.models import Club, ClubNight, Season


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def refresh_standings(match_id: int) -> list[int]:
    """Recompute a match's standings, its season's leaderboards, and its club's ratings;
    the season refreshed (none when the match is gone), for the next task of a chain."""
    season_id = rebuild_match_standings(match_id)
    if season_id is None:
        return []
    rebuild_season_standings(season_id)
    refresh_match_ratings(match_id)
    return [season_id]


@shared_task(ignore_result=True)
def refresh_live(night_id: int, admin: bool, language: str) -> None:
    """Bring a watched room display's answer up to date in the shared cache (it is
    asked again within a second if this fails: no retries)."""
    night = ClubNight.objects.filter(pk=night_id).select_related("season__club").first()
    if night is not None:
        with translation.override(language):
            live_cache.refresh_live(night, admin)


def live_refresher(night: ClubNight, admin: bool) -> Callable[[], object] | None:
    """How a web request has a stale room display refreshed: by a worker when the
    cache is shared with the workers (``CACHE_URL``, tasks not run in the request);
    otherwise ``None``, the request itself."""
    if not settings.CACHE_URL or settings.CELERY_TASK_ALWAYS_EAGER:
        return None
    language = translation.get_language()
    return lambda: refresh_live.delay(night.pk, admin, language)


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def refresh_season(season_id: int) -> list[int]:
    """Recompute every changed match of a season and then its leaderboards (after a bulk
    import); the season, for the next task of a chain."""
    rebuild_season(season_id)
    return [season_id]


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def refresh_seasons(season_ids: list[int]) -> list[int]:
    """Recompute the changed matches of some seasons, their leaderboards and their clubs'
    ratings once (after an import of score sheets); the seasons, for the next task of a
    chain."""
    rebuild_seasons_of(season_ids)
    return list(season_ids)


@shared_task(
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
    ignore_result=False,
    acks_late=True,
    reject_on_worker_lost=True,
)
def rebuild_clubs_task(club_ids: list[int], recheck: bool = False) -> tuple[int, int]:
    """One batch of clubs of a full rebuild: (seasons, matches checked)."""
    return rebuild_clubs(club_ids, recheck=recheck)


def rebuild_everything(
    *, club_id: int | None = None, recheck: bool = False, timeout: float | None = None
) -> tuple[int, int]:
    """A full rebuild fanned out over the workers, one task per batch of the clubs that
    have anything to do (every club with ``recheck``); waits for them all and returns
    (seasons, matches checked)."""
    every = Club.objects.order_by("pk").values_list("pk", flat=True)
    if club_id is not None:
        every = every.filter(pk=club_id)
    clubs = list(every) if recheck else fingerprints.clubs_to_rebuild(list(every))
    if not clubs:
        return 0, 0
    job = group(rebuild_clubs_task.s(b, recheck) for b in club_batches(clubs)).apply_async()
    done = job.get(timeout=timeout, disable_sync_subtasks=False)
    return sum(s for s, _m in done), sum(m for _s, m in done)


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5, acks_late=True)
def make_export(export_id: int) -> None:
    """Make a club's export (``scoring.jobs``)."""
    jobs.make(export_id)


@shared_task(ignore_result=True)
def make_season_file(season_id: int, kind: str, fmt: str, language: str, scope: str) -> None:
    """Make and keep a season's file too long for a request (``scoring.season_files``).
    Not retried: a failure forgets that it was asked, and the reader's page, which asks
    again every few seconds, hands it to a worker again."""
    from scoring import season_files  # its PDF and XLSX writers: not in every process's start

    with translation.override(language):
        try:
            season_files.make(season_id, kind, fmt, scope)
        except Exception:
            season_files.failed(season_id, kind, fmt, scope)
            raise


def season_file(season: Season, kind: str, fmt: str, scope: str) -> bytes | None:
    """The season's ``kind`` in ``fmt`` for a reader of ``scope`` who may read the season:
    kept, or made now; ``None`` while a worker makes it (handed to one when the request's
    transaction commits, once however many readers ask)."""
    from scoring import season_files

    data, hand_over = season_files.fetch(season, kind, fmt, scope)
    if hand_over:
        language = translation.get_language()
        transaction.on_commit(lambda: make_season_file.delay(season.pk, kind, fmt, language, scope))
    return data

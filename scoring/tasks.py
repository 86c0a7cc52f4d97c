"""Celery tasks. They take ids, re-read the rows, tolerate rows that are gone,
are idempotent, and retry only transient database errors."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from scoring.ratings import refresh_match_ratings
from scoring.standings import rebuild_all, rebuild_match_standings, rebuild_season_standings


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def refresh_standings(match_id: int) -> None:
    """Recompute a match's standings, its season's leaderboards, and its club's ratings."""
    season_id = rebuild_match_standings(match_id)
    if season_id is not None:
        rebuild_season_standings(season_id)
        refresh_match_ratings(match_id)


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def refresh_season(season_id: int) -> None:
    """Recompute every match of a season and then its leaderboards (after a bulk import)."""
    rebuild_all(season_id=season_id)

"""Querysets shared by the API and the pages (one place for the prefetching that keeps
list pages at a fixed number of queries)."""

from __future__ import annotations

from django.db.models import Count, Prefetch, QuerySet

from scoring.models import MatchStanding
from tournaments.models import Match


def matches_with_standings() -> QuerySet[Match]:
    """Matches with their table, night, season and club, seats, standings and deal count."""
    return (
        Match.objects.select_related("table__club_night__season__club")
        .prefetch_related(
            "seats__player",
            Prefetch("standings", queryset=MatchStanding.objects.select_related("player")),
        )
        .annotate(deal_count=Count("deals"))
    )

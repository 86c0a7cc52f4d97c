"""Querysets shared by the API and the pages (one place for the prefetching that keeps
list pages at a fixed number of queries)."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from django.shortcuts import get_object_or_404

from scoring.models import MatchStanding
from tournaments.access import visible
from tournaments.models import Match, deal_count


def matches_with_standings() -> QuerySet[Match]:
    """Matches with their table, night, season and club, seats, standings and deal count."""
    return (
        Match.objects.select_related("table__club_night__season__club")
        .prefetch_related(
            "seats__player",
            Prefetch("standings", queryset=MatchStanding.objects.select_related("player")),
        )
        .annotate(deal_count=deal_count())
    )


def readable_match(user: Any, pk: int) -> Match:
    """A match ``user`` may read, with what its score sheet needs; 404 otherwise."""
    matches = Match.objects.select_related("table__club_night__season__club", "table__round")
    return get_object_or_404(visible(matches.prefetch_related("seats__player"), user), pk=pk)

"""Server-rendered pages."""

from __future__ import annotations

from django.db.models import Count, Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from scoring.models import MatchStanding
from tournaments.models import Match, Season


def home(request: HttpRequest) -> HttpResponse:
    """The clubs' seasons and their latest matches with standings."""
    seasons = Season.objects.select_related("club").order_by("club__name", "name")
    matches = (
        Match.objects.select_related("table__club_night__season")
        .prefetch_related(
            "seats__player",
            Prefetch("standings", queryset=MatchStanding.objects.select_related("player")),
        )
        .annotate(deal_count=Count("deals"))
        .order_by("-created_at", "-pk")[:20]
    )
    return render(request, "tournaments/home.html", {"seasons": seasons, "matches": matches})

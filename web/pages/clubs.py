"""A club's own page (``/clubs/<slug>/``): its seasons, its next nights (those called off
marked) and the addresses of its calendars.  Anyone reads what is public of it (a club
without a public season is unknown to them: 404); its members read all of it."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_safe

from tournaments import access
from tournaments.models import Club, ClubNight, Membership, Season
from web import ical
from web.pages.calendars import subscribe_links
from web.previews import link_preview

NEXT_NIGHTS = 20
"""Nights listed on a club's page, the soonest first."""


def club_for(request: HttpRequest, slug: str) -> tuple[Club, Membership | None]:
    """The club, and the reader's membership of it; 404 to a reader outside it when the
    club has no public season (its name is not public either)."""
    club = get_object_or_404(Club, slug=slug)
    user = request.user
    membership = (
        Membership.objects.filter(club=club, user=user).first() if user.is_authenticated else None
    )
    inside = membership is not None or access.is_operator(user)
    if not inside and not club.seasons.filter(public=True).exists():
        raise Http404
    return club, membership


def upcoming(club: Club, user: Any, limit: int = NEXT_NIGHTS) -> list[ClubNight]:
    """The club's nights from today (in its time zone) on that ``user`` may read."""
    return list(
        access.visible(ClubNight.objects.filter(season__club=club), user)
        .filter(date__gte=ical.today(club.time_zone))
        .select_related("season")
        .order_by("date", "starts_at", "pk")[:limit]
    )


@require_safe
def club_page(request: HttpRequest, slug: str) -> HttpResponse:
    club, membership = club_for(request, slug)
    user = request.user
    seasons = access.visible(Season.objects.filter(club=club), user).order_by(
        "closed_at", "-starts_on", "name", "pk"
    )
    has_public = club.seasons.filter(public=True).exists()
    feed = subscribe_links(request, reverse("club_feed", args=[club.slug])) if has_public else {}
    return render(
        request,
        "pages/club.html",
        {
            "club": club,
            "seasons": list(seasons),
            "nights": upcoming(club, user),
            "feed": feed,
            "membership": membership,
            "may_administer": access.can_administer_club(user, club.pk),
            "link_preview": link_preview(request, club),
        },
    )

"""The calendar feeds of club nights (``web.ical``) and the member's page of their own
secret feed address (docs/calendars.md).

- ``/clubs/<slug>/calendar.ics``: the club's public seasons' nights, the same for
  everyone who asks (nobody's session is read: the answer may be cached and shared).
- ``/calendars/<token>.ics``: a member's private feed, every season of their club, by
  a secret address the member makes on their page (``/clubs/<slug>/calendar/``); making
  a new one ends the old at once.  The secret is checked at every fetch: a membership
  removed, or an account switched off, answers 404, as does any other token.
- ``/players/<pk>/calendar.ics``: a player's next nights, in the seasons they play in
  that the reader may read (a calendar app, which signs in as nobody: the public ones).

A feed's words (a night called off, a final) are in ``?lang=`` (en, ja), else the
reader's language.
"""

from __future__ import annotations

import hmac
import re
from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any, ParamSpec

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from actions.calendars import replace_calendar_address
from tournaments.access import visible
from tournaments.models import Club, ClubNight, Membership, Placement, Player, Season, Seat
from web import ical
from web.caching import private

P = ParamSpec("P")

TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")
"""A feed's secret as ``actions.calendars.new_token`` makes them (32 random bytes, URL-safe base64):
anything else answers 404 without a query."""
LANGUAGES = ("en", "ja")


def in_language(view: Callable[P, HttpResponse]) -> Callable[P, HttpResponse]:
    """The feed's words in ``?lang=`` when it names a language of the site."""

    @wraps(view)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        request = args[0]
        assert isinstance(request, HttpRequest)
        wanted = request.GET.get("lang", "")
        language = wanted if wanted in LANGUAGES else translation.get_language()
        with translation.override(language):
            return view(*args, **kwargs)

    return wrapped


def _nights(seasons: QuerySet[Season] | Iterable[int], since: Any) -> QuerySet[ClubNight]:
    return (
        ClubNight.objects.filter(season__in=seasons, date__gte=since)
        .select_related("season")
        .order_by("date", "starts_at", "pk")
    )


def public_club(slug: str) -> Club:
    """A club that has a public season (anyone may know of it), else 404."""
    club = get_object_or_404(Club, slug=slug)
    if not club.seasons.filter(public=True).exists():
        raise Http404
    return club


@require_safe
@in_language
def club_feed(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's public nights: the same answer whoever asks (members included: the
    address is shared, and a member's nights of private seasons are in their own feed)."""
    club = public_club(slug)
    nights = _nights(club.seasons.filter(public=True), ical.since(club.time_zone))
    feed = ical.Feed(club.name, f"club-{club.pk}", club.time_zone)
    return ical.answer(ical.calendar(feed, nights, request), f"{club.slug}.ics")


def member_of(token: str) -> Membership:
    """The membership whose feed ``token`` opens, while its account may read its club;
    404 for anything else (a removed membership's, a new address's predecessor, another
    shape of string), alike."""
    if not TOKEN.fullmatch(token):
        raise Http404
    membership = (
        Membership.objects.select_related("club", "user").filter(calendar_token=token).first()
    )
    if (
        membership is None
        or not hmac.compare_digest(membership.calendar_token, token)
        or not membership.user.is_active
    ):
        raise Http404
    return membership


@private
@require_safe
@in_language
def member_feed(request: HttpRequest, token: str) -> HttpResponse:
    """Every night of every season of the member's club (the club's own, private seasons
    too): private, kept by no cache."""
    membership = member_of(token)
    club = membership.club
    nights = _nights(club.seasons.all(), ical.since(club.time_zone))
    name = _("%(club)s (members)") % {"club": club.name}
    feed = ical.Feed(name, f"member-{membership.pk}", club.time_zone)
    return ical.answer(ical.calendar(feed, nights, request), f"{club.slug}-members.ics")


def seasons_played(player: Player) -> set[int]:
    """The seasons ``player`` plays in: seated at a match, placed in a division, or ticked
    present at a night."""
    seated = Seat.objects.filter(player=player).values_list(
        "match__table__club_night__season", flat=True
    )
    placed = Placement.objects.filter(player=player).values_list("season", flat=True)
    present = ClubNight.objects.filter(present=player).values_list("season", flat=True)
    return set(seated.distinct()) | set(placed) | set(present.distinct())


@require_safe
@in_language
def player_feed(request: HttpRequest, pk: int) -> HttpResponse:
    """The player's next nights (today's on), in the seasons they play in that the reader
    may read."""
    player = get_object_or_404(visible(Player.objects.select_related("club"), request.user), pk=pk)
    club = player.club
    seasons = visible(Season.objects.filter(club=club, pk__in=seasons_played(player)), request.user)
    nights = _nights(seasons, ical.today(club.time_zone))
    name = _("%(player)s – next nights") % {"player": player.shown_name}
    feed = ical.Feed(name, f"player-{player.pk}", club.time_zone)
    return ical.answer(ical.calendar(feed, nights, request), f"{club.slug}-{player.pk}.ics")


def subscribe_links(request: HttpRequest, path: str) -> dict[str, str]:
    """A feed's address for calendar apps (``webcal://``) and as a plain link (https),
    with the page's language."""
    url = request.build_absolute_uri(f"{path}?lang={translation.get_language() or 'en'}")
    return {"https": url, "webcal": "webcal://" + url.split("://", 1)[1]}


@login_required
@require_http_methods(["GET", "POST"])
def my_calendar(request: HttpRequest, slug: str) -> HttpResponse:
    """The member's own secret feed address; POST makes a new one (the old one stops at
    once).  The form names the address it replaces: sent twice, the second finds it
    replaced already and changes nothing."""
    membership = get_object_or_404(
        Membership.objects.select_related("club"), club__slug=slug, user=request.user
    )
    if request.method == "POST":
        replacing = request.POST.get("replacing", "")
        if replace_calendar_address(membership, replacing):
            messages.success(
                request,
                _("Your new calendar address is below. The old one no longer works.")
                if replacing
                else _("Your calendar address is below."),
            )
        return redirect("my_calendar", slug=slug)
    token = membership.calendar_token
    links = subscribe_links(request, reverse("member_feed", args=[token])) if token else {}
    return render(
        request,
        "pages/my_calendar.html",
        {"club": membership.club, "token": token, "links": links},
    )

"""The objects a page acts on, each fetched for the reader with the right the page needs,
one place for every page.  The words of a refusal are ``web.refusals``, which the API
shares.

A getter answers 404 for an object the reader may not know of (another club's private
one, or a missing one: alike) and 403, with the page's sentence, for one they may read
but not change.  The rights themselves are ``tournaments.access``'s, checked again here
at every use: a link or a form made earlier grants nothing.
"""

from __future__ import annotations

from typing import TypeVar

from django.core.exceptions import PermissionDenied
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.shortcuts import get_object_or_404

from tournaments import access
from tournaments.models import Club, ClubNight, Deal, Season, Table
from web.refusals import ADMINS_ONLY

M = TypeVar("M", bound=Model)


def visible(request: HttpRequest, objects: QuerySet[M], pk: int) -> M:
    """The object ``pk`` of ``objects`` if the reader may read it; else 404."""
    return get_object_or_404(access.visible(objects, request.user), pk=pk)


def administered(request: HttpRequest, obj: M, refusal: object = ADMINS_ONLY) -> M:
    """``obj`` when the reader administers its club; else 403 saying ``refusal``."""
    if not access.can_administer(request.user, obj):
        raise PermissionDenied(refusal)
    return obj


def administered_club(request: HttpRequest, slug: str) -> Club:
    """A club its league administrator sets up."""
    club = get_object_or_404(access.visible(Club.objects.all(), request.user), slug=slug)
    return administered(request, club)


def administered_season(request: HttpRequest, pk: int) -> Season:
    """A season whose divisions its league administrator sets and closes."""
    season = visible(request, Season.objects.select_related("club"), pk)
    return administered(request, season)


def administered_night(request: HttpRequest, pk: int) -> ClubNight:
    """A club night its league administrator draws, seats or runs in rounds."""
    night = visible(request, ClubNight.objects.select_related("season__club"), pk)
    return administered(request, night)


def administered_table(request: HttpRequest, pk: int, refusal: object) -> Table:
    """A table whose link or scorer its league administrator changes."""
    table = visible(request, Table.objects.select_related("club_night__season__club"), pk)
    return administered(request, table, refusal)


def visible_deal(request: HttpRequest, pk: int) -> Deal:
    """A deal the reader may read, with its match, table, night and season."""
    return visible(request, Deal.objects.select_related("match__table__club_night__season"), pk)

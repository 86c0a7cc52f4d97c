"""The room display (``/nights/N/live/``, issue 56): a night's standings and latest
deals in big type for a projector or a TV.  The page is laid out to fit the screen
(``web.room_display``) and then polls the API's ``live/`` and redraws without
reloading (``static/clubscore/live.js``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from scoring import live as room_answer
from tournaments import access
from tournaments.models import ClubNight
from web import room_display
from web.pages.tables import qr_svg
from web.previews import link_preview


@require_http_methods(["GET"])
def night_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The room display: public nights without signing in; private ones as the usual
    roles."""
    night = get_object_or_404(
        access.visible(ClubNight.objects.select_related("season__club"), request.user), pk=pk
    )
    admin = access.can_administer(request.user, night)
    data = room_answer.live(night, admin)
    return render(
        request,
        "pages/live.html",
        {
            "night": night,
            "data": data,
            "room": room_display.layout(data),  # fits the screen: columns, type size
            "admin": admin,
            "mine_qr": qr_svg(request.build_absolute_uri(reverse("my_night", args=[night.pk]))),
            "link_preview": link_preview(request, night),
        },
    )

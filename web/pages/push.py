"""Turning push messages on and off from a page (issue 58, 1): "Tell me on this phone".

``static/clubscore/push.js`` posts JSON here (CSRF-protected): ``action`` (``on``,
``off`` or ``state``), the browser's ``subscription`` (its PushSubscription as JSON),
the ``kinds`` chosen and, on "my night", the ``player``.  Who may follow whom is what
the page itself shows: on "my night", one of the night's players, to its readers and to
whoever holds a working link of one of its tables (the subscription then lasts that
night, while the link works); on a player's page, that player, to whoever may read it.
The language of the request is the messages' language.  Everything refused is a 400
with the reason in words, and stores nothing.
"""

from __future__ import annotations

import json
from typing import Any

from django.db.models import Q
from django.http import Http404, HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from reach import subscriptions
from reach.subscriptions import Refused, Right
from tournaments import access, table_links
from tournaments.models import ClubNight, Player, Table
from tournaments.textfile import whole_number
from web.pages.my_night import _night

MAX_BODY = 4096
"""A subscription, a player and the kinds fit in far less."""


def _body(request: HttpRequest) -> dict[str, Any]:
    length = whole_number(str(request.META.get("CONTENT_LENGTH") or "0"))
    if length is None or length > MAX_BODY or len(request.body) > MAX_BODY:
        raise Refused(_("Too much was sent."))
    if request.content_type != "application/json":
        raise Refused(_("Send the subscription as JSON."))
    try:
        data = json.loads(request.body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise Refused(_("Send the subscription as JSON.")) from None
    if not isinstance(data, dict):
        raise Refused(_("Send the subscription as JSON."))
    return data


def _language() -> str:
    code = (get_language() or "en").split("-")[0]
    return code if code in ("en", "ja") else "en"


def _answer(
    data: dict[str, Any], player: Player, right: Right, *, vouched: bool = False
) -> JsonResponse:
    try:
        action = data.get("action")
        if action == "on":
            seen = subscriptions.browser(data.get("subscription"))
            kinds = subscriptions.kinds(data.get("kinds"))
            subscriptions.follow(player, seen, kinds, right, _language(), vouched=vouched)
            words = _("This phone will tell you.") if kinds else _("This phone tells you nothing.")
            return JsonResponse({"on": bool(kinds), "kinds": kinds, "message": words})
        known = subscriptions.known(data.get("subscription"))
        if action == "off":
            subscriptions.unfollow(player, known)
            return JsonResponse({"on": False, "kinds": [], "message": _("Turned off.")})
        if action == "state":
            following = subscriptions.chosen(player, known)
            return JsonResponse({"on": bool(following), "kinds": following or []})
        raise Refused(_("Say what to do: on, off or state."))
    except Refused as refused:
        return JsonResponse({"error": str(refused)}, status=400)


def _held_table(request: HttpRequest, night: ClubNight) -> Table | None:
    """The table of the night whose working link this session holds (checked now)."""
    kept = [int(pk) for pk in request.session.get(table_links.SESSION_KEY, {}) if pk.isdigit()]
    tables = Table.objects.select_related("club_night").filter(pk__in=kept, club_night=night)
    return next((t for t in tables if table_links.holds(request.session, t)), None)


@require_POST
def night_push(request: HttpRequest, pk: int) -> JsonResponse:
    """From "my night": one of the night's players."""
    night = _night(request, pk)  # 404 unless the night is read or a table link held
    try:
        data = _body(request)
    except Refused as refused:
        return JsonResponse({"error": str(refused)}, status=400)
    asked = data.get("player")
    number = whole_number(str(asked)) if isinstance(asked, int | str) else None
    player = (
        Player.objects.filter(
            Q(seats__match__table__club_night=night) | Q(pk__in=night.present.values("pk")),
            pk=number,
        )
        .distinct()
        .first()
        if number
        else None
    )
    if player is None:
        return JsonResponse({"error": _("Choose one of tonight's players.")}, status=400)
    user = request.user
    table = _held_table(request, night)
    if user.is_authenticated and access.visible(ClubNight.objects.filter(pk=pk), user).exists():
        right = Right(user=user)
    elif night.season.public:
        right = Right()
    else:
        if table is None:
            raise Http404
        right = Right(table=table, night=night)
    return _answer(data, player, right, vouched=table is not None)


@require_POST
def player_push(request: HttpRequest, pk: int) -> JsonResponse:
    """From a player's page: that player, for the seasons the requester reads."""
    player = get_object_or_404(access.visible(Player.objects.all(), request.user), pk=pk)
    try:
        data = _body(request)
    except Refused as refused:
        return JsonResponse({"error": str(refused)}, status=400)
    user = request.user
    signed_in = user.is_authenticated
    return _answer(data, player, Right(user=user) if signed_in else Right())

"""The REST API of the league's setup: clubs, players, seasons, club nights, tables."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from actions import nights
from scoring import head_to_head as h2h
from tournaments import access
from tournaments.errors import Rejection
from tournaments.models import Club, ClubNight, Player, Season, Table
from web.api.base import ClubScopedViewSet, deny, rejection_response
from web.api.divisions import DivisionsMixin
from web.api.match_serializers import RejectionSerializer
from web.api.pagination import InOrderAdded
from web.api.rounds import RoundsMixin
from web.api.serializers import (
    ClubNightSerializer,
    ClubSerializer,
    PlayerSerializer,
    SeasonSerializer,
    TableSerializer,
)
from web.refusals import ADMINS_ONLY


class ClubViewSet(ClubScopedViewSet):
    """Clubs of the signed-in user; site operators create and delete clubs."""

    queryset = Club.objects.all()
    serializer_class = ClubSerializer
    search_fields = ["name"]

    def get_permissions(self) -> Sequence[Any]:
        if self.action in ("create", "destroy"):
            return [permissions.IsAdminUser()]
        return super().get_permissions()


class PlayerViewSet(ClubScopedViewSet):
    queryset = Player.objects.all()
    serializer_class = PlayerSerializer
    filterset_fields = ["club", "handle"]
    pagination_class = InOrderAdded
    parent = "club"

    @extend_schema(
        parameters=[OpenApiParameter("with", int, description="Another player of the club.")],
        responses={200: dict},
    )
    @action(detail=True, methods=["get"], url_path="head-to-head", filter_backends=[])
    def head_to_head(self, request: Request, pk: str | None = None) -> Response:
        """Everyone the player finished a match with, at one table, per game
        (``opponents``), or with ``?with=`` the two players' ``records`` per season and game
        and in all seasons per game (``season`` null): ``matches``, ``ahead``, ``behind``,
        ``level`` (by the match's ranking) and ``points`` (the player's minus the other's;
        different games' points never add up), in the seasons the reader reads."""
        player: Player = self.get_object()
        try:
            opponent, records = h2h.for_reader(
                player, request.user, request.query_params.get("with")
            )
        except LookupError:
            raise NotFound(gettext("no other player of this club has that id")) from None
        if opponent is None:
            return Response({"player": player.pk, "opponents": [_record(r) for r in records]})
        body = {"player": player.pk, "with": opponent.pk, "records": [_record(r) for r in records]}
        return Response(body)


def _record(r: h2h.Record) -> dict[str, Any]:
    return {
        "opponent": r.opponent.pk,
        "display_name": r.opponent.display_name,
        "season": r.season.pk if r.season else None,
        "game": r.game or None,
        "matches": r.matches,
        "ahead": r.ahead,
        "behind": r.behind,
        "level": r.level,
        "points": r.points,
    }


class SeasonViewSet(DivisionsMixin, ClubScopedViewSet):
    queryset = Season.objects.all()
    serializer_class = SeasonSerializer
    filterset_fields = ["club"]
    parent = "club"


class ClubNightViewSet(RoundsMixin, ClubScopedViewSet):
    queryset = ClubNight.objects.select_related("season__club")  # the role: no second query
    serializer_class = ClubNightSerializer
    filterset_fields = ["season", "date"]
    parent = "season"

    @extend_schema(request=None, responses={200: ClubNightSerializer, 400: RejectionSerializer})
    @action(detail=True, methods=["post"], filter_backends=[])
    def cancel(self, request: Request, pk: str | None = None) -> Response:
        """Call the night off (a league administrator): ``cancelled_at`` set, ``sequence``
        raised, its calendar entries CANCELLED.  A night that has deals is refused (400,
        ``night_has_deals``); one called off already is answered as it is."""
        return self._called_off(nights.cancel_night)

    @extend_schema(request=None, responses={200: ClubNightSerializer})
    @action(detail=True, methods=["post"], filter_backends=[])
    def restore(self, request: Request, pk: str | None = None) -> Response:
        """Bring a called-off night back (a league administrator)."""
        return self._called_off(nights.restore_night)

    def _called_off(self, change: Callable[[ClubNight], bool]) -> Response:
        night: ClubNight = self.get_object()
        deny(access.can_administer(self.request.user, night), ADMINS_ONLY)
        try:
            change(night)
        except Rejection as rejection:
            return rejection_response(rejection)
        return Response(self.get_serializer(night).data)


class TableViewSet(ClubScopedViewSet):
    queryset = Table.objects.select_related("club_night__season")
    serializer_class = TableSerializer
    filterset_fields = ["club_night"]
    parent = "club_night"

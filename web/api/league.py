"""The REST API of the league's setup: clubs, players, seasons, club nights, tables."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rest_framework import permissions

from tournaments.models import Club, ClubNight, Player, Season, Table
from web.api.base import (
    ClubScopedViewSet,
)
from web.api.divisions import DivisionsMixin
from web.api.pagination import InOrderAdded
from web.api.rounds import RoundsMixin
from web.api.serializers import (
    ClubNightSerializer,
    ClubSerializer,
    PlayerSerializer,
    SeasonSerializer,
    TableSerializer,
)


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


class TableViewSet(ClubScopedViewSet):
    queryset = Table.objects.select_related("club_night__season")
    serializer_class = TableSerializer
    filterset_fields = ["club_night"]
    parent = "club_night"

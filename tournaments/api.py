"""The REST API (/api/...).  Views translate HTTP to ``tournaments.actions`` and back."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import Prefetch, QuerySet
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, mixins, permissions, status, throttling, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.models import MatchStanding, SeasonStanding
from scoring.queries import matches_with_standings
from tournaments import actions
from tournaments.models import Club, ClubNight, Deal, DealScore, Match, Player, Season, Table
from tournaments.serializers import (
    ClubNightSerializer,
    ClubSerializer,
    DealInputSerializer,
    DealSerializer,
    MatchSerializer,
    MatchStandingSerializer,
    PlayerSerializer,
    RejectionSerializer,
    SeasonSerializer,
    SeasonStandingSerializer,
    TableSerializer,
)


class IsStaffOrReadOnly(permissions.BasePermission):
    """League administrators (staff) change a club's set-up; everyone may read it."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_staff)


def rejection_response(rejection: actions.Rejection) -> Response:
    body: dict[str, Any] = {"errors": list(rejection.errors)}
    if rejection.existing is not None:
        body["existing"] = DealSerializer(rejection.existing).data
    code = status.HTTP_409_CONFLICT if rejection.conflict else status.HTTP_400_BAD_REQUEST
    return Response(body, status=code)


class ClubViewSet(viewsets.ModelViewSet):
    queryset = Club.objects.all()
    serializer_class = ClubSerializer
    permission_classes = [IsStaffOrReadOnly]
    search_fields = ["name"]


class PlayerViewSet(viewsets.ModelViewSet):
    queryset = Player.objects.all()
    serializer_class = PlayerSerializer
    permission_classes = [IsStaffOrReadOnly]
    filterset_fields = ["club", "handle"]


class SeasonViewSet(viewsets.ModelViewSet):
    queryset = Season.objects.all()
    serializer_class = SeasonSerializer
    permission_classes = [IsStaffOrReadOnly]
    filterset_fields = ["club"]


class ClubNightViewSet(viewsets.ModelViewSet):
    queryset = ClubNight.objects.all()
    serializer_class = ClubNightSerializer
    permission_classes = [IsStaffOrReadOnly]
    filterset_fields = ["season", "date"]


class TableViewSet(viewsets.ModelViewSet):
    queryset = Table.objects.all()
    serializer_class = TableSerializer
    permission_classes = [IsStaffOrReadOnly]
    filterset_fields = ["club_night"]


class MatchFilter(django_filters.FilterSet):
    season = django_filters.NumberFilter(field_name="table__club_night__season")
    club_night = django_filters.NumberFilter(field_name="table__club_night")
    club = django_filters.NumberFilter(field_name="table__club_night__season__club")

    class Meta:
        model = Match
        fields = ["season", "club_night", "club", "table", "game", "status"]


def deals_queryset() -> QuerySet[Deal]:
    return Deal.objects.select_related("entered_by").prefetch_related(
        Prefetch("scores", queryset=DealScore.objects.select_related("player"))
    )


class MatchViewSet(
    mixins.CreateModelMixin,
    mixins.RetrieveModelMixin,
    mixins.ListModelMixin,
    viewsets.GenericViewSet,
):
    """Matches with their seats and standings; ``deals/`` lists and enters the match's deals."""

    serializer_class = MatchSerializer
    filterset_class = MatchFilter

    def get_queryset(self) -> QuerySet[Match]:
        return matches_with_standings().order_by("-created_at", "-pk")

    def get_permissions(self) -> list[permissions.BasePermission]:
        if self.action == "create":
            return [IsStaffOrReadOnly()]
        return super().get_permissions()

    def get_throttles(self) -> list[throttling.BaseThrottle]:
        if self.action == "deals" and self.request.method == "POST":
            self.throttle_scope = "deal_entry"
            return [throttling.ScopedRateThrottle()]
        return super().get_throttles()

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            match = actions.create_match(
                data["table"],
                data["game"],
                data["players"],
                rules=data.get("rules") or {},
                target=data.get("target"),
            )
        except actions.Rejection as rejection:
            return rejection_response(rejection)
        match = self.get_queryset().get(pk=match.pk)
        return Response(self.get_serializer(match).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=DealInputSerializer,
        responses={
            200: DealSerializer(many=True),
            201: DealSerializer,
            400: RejectionSerializer,
            409: RejectionSerializer,
        },
    )
    @action(detail=True, methods=["get", "post"], url_path="deals")
    def deals(self, request: Request, pk: str | None = None) -> Response:
        """GET: the match's deals in order.  POST: enter the next deal (checked by the engine)."""
        match = self.get_object()
        if request.method == "GET":
            deals = deals_queryset().filter(match=match).order_by("number")
            return Response(DealSerializer(deals, many=True).data)
        payload = DealInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        try:
            deal = actions.enter_deal(
                match,
                payload.validated_data["record"],
                user=request.user,
                number=payload.validated_data.get("number"),
            )
        except actions.Rejection as rejection:
            return rejection_response(rejection)
        return Response(
            DealSerializer(deals_queryset().get(pk=deal.pk)).data, status=status.HTTP_201_CREATED
        )


class DealViewSet(viewsets.ReadOnlyModelViewSet):
    """Every deal, filterable by match; entering goes through /api/matches/{id}/deals/."""

    serializer_class = DealSerializer
    filterset_fields = ["match", "number"]

    def get_queryset(self) -> QuerySet[Deal]:
        return deals_queryset().select_related("confirmed_by").order_by("match", "number")

    @extend_schema(
        request=None,
        responses={200: DealSerializer, 400: RejectionSerializer, 409: RejectionSerializer},
    )
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def confirm(self, request: Request, pk: str | None = None) -> Response:
        """A second person at the table confirms the deal (never the one who entered it)."""
        try:
            deal = actions.confirm_deal(self.get_object(), request.user)
        except actions.Rejection as rejection:
            return rejection_response(rejection)
        return Response(DealSerializer(deals_queryset().get(pk=deal.pk)).data)


class StandingsView(generics.GenericAPIView):
    """Standings of one match (``?match=``) or one season's leaderboards (``?season=[&game=]``)."""

    queryset = SeasonStanding.objects.none()

    @extend_schema(
        parameters=[
            OpenApiParameter("match", int, description="a match id"),
            OpenApiParameter("season", int, description="a season id"),
            OpenApiParameter("game", str, description="with season: one game's leaderboard"),
        ],
        responses={200: SeasonStandingSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        match_id = request.query_params.get("match")
        season_id = request.query_params.get("season")
        if bool(match_id) == bool(season_id):
            raise ValidationError({"match": "give either match or season"})
        if match_id:
            rows = MatchStanding.objects.filter(match_id=_int(match_id, "match"))
            serializer_class: Any = MatchStandingSerializer
        else:
            rows = SeasonStanding.objects.filter(season_id=_int(season_id, "season"))
            if game := request.query_params.get("game"):
                rows = rows.filter(game=game)
            serializer_class = SeasonStandingSerializer
        page = self.paginate_queryset(rows.select_related("player"))
        return self.get_paginated_response(serializer_class(page, many=True).data)


def _int(value: str, name: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise ValidationError({name: f"{value!r} is not a number"}) from None

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
from tournaments import actions, corrections
from tournaments.models import Club, ClubNight, Deal, DealScore, Match, Player, Season, Table
from tournaments.serializers import (
    ClubNightSerializer,
    ClubSerializer,
    CorrectionResultSerializer,
    CorrectionSerializer,
    DealInputSerializer,
    DealSerializer,
    DealVersionSerializer,
    MatchSerializer,
    MatchStandingSerializer,
    PlayerSerializer,
    ReasonSerializer,
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

    @extend_schema(request=None, responses={200: MatchSerializer})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAdminUser])
    def reopen(self, request: Request, pk: str | None = None) -> Response:
        """Administrators reopen a finished match so that its deals can be corrected."""
        match = corrections.reopen_match(self.get_object())
        return Response(self.get_serializer(self.get_queryset().get(pk=match.pk)).data)

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


class DealViewSet(
    mixins.RetrieveModelMixin,
    mixins.ListModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    """Every deal, filterable by match; entering goes through /api/matches/{id}/deals/;
    PUT corrects a deal, DELETE deletes it (``?reason=``), both keeping its history."""

    http_method_names = ["get", "post", "put", "delete", "head", "options"]

    serializer_class = DealSerializer
    filterset_fields = ["match", "number"]

    def get_queryset(self) -> QuerySet[Deal]:
        return deals_queryset().select_related("confirmed_by").order_by("match", "number")

    def get_permissions(self) -> list[permissions.BasePermission]:
        if self.action in ("restore", "history"):
            return [permissions.IsAdminUser()]
        if self.action in ("update", "partial_update", "destroy", "confirm"):
            return [permissions.IsAuthenticated()]
        return super().get_permissions()

    def _changed(self, change: Any, deal: Deal, *args: Any) -> Response:
        try:
            changed, effect = change(deal, *args)
        except actions.Rejection as rejection:
            return rejection_response(rejection)
        body = DealSerializer(deals_queryset().get(pk=changed.pk)).data
        return Response({"deal": body, "effect": [e.to_dict() for e in effect]})

    @extend_schema(
        request=CorrectionSerializer,
        responses={
            200: CorrectionResultSerializer,
            400: RejectionSerializer,
            409: RejectionSerializer,
        },
    )
    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Correct the deal: a new record and the reason; the old record is kept."""
        payload = CorrectionSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        return self._changed(
            corrections.correct_deal,
            self.get_object(),
            data["record"],
            request.user,
            data["reason"],
        )

    @extend_schema(
        parameters=[OpenApiParameter("reason", str, required=True)],
        responses={
            200: CorrectionResultSerializer,
            400: RejectionSerializer,
            409: RejectionSerializer,
        },
    )
    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Delete the deal (it keeps its number and history; an administrator can restore it)."""
        reason = request.query_params.get("reason", "")
        return self._changed(corrections.delete_deal, self.get_object(), request.user, reason)

    @extend_schema(
        request=ReasonSerializer,
        responses={200: CorrectionResultSerializer, 409: RejectionSerializer},
    )
    @action(detail=True, methods=["post"])
    def restore(self, request: Request, pk: str | None = None) -> Response:
        """Administrators bring a deleted deal back."""
        payload = ReasonSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        reason = payload.validated_data["reason"]
        return self._changed(corrections.restore_deal, self.get_object(), request.user, reason)

    @extend_schema(responses={200: DealVersionSerializer(many=True)})
    @action(detail=True, methods=["get"])
    def history(self, request: Request, pk: str | None = None) -> Response:
        """Every previous version of the deal: who, when, why, and the record before."""
        deal = self.get_object()
        return Response(
            DealVersionSerializer(deal.versions.select_related("changed_by"), many=True).data
        )

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

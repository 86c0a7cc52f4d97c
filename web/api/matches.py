"""The REST API of play: matches, deals (entry, confirmation, corrections), standings.

Views translate HTTP to ``actions.deals`` and back."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import Prefetch, QuerySet
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, permissions, status, throttling, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

import actions.deals
import actions.matches
from actions import confirmation, corrections
from actions.deals import Outcome
from scoring.queries import matches_with_standings
from tournaments import access, errors, table_links
from tournaments.messages import localize
from tournaments.models import Deal, DealScore, Match, Player, Table
from web.api.base import deny, rejection_response
from web.api.filters import ClubScopedFilterSet, WholeNumberFilter
from web.api.match_serializers import (
    CorrectionResultSerializer,
    CorrectionSerializer,
    DealInputSerializer,
    DealSerializer,
    DealVersionSerializer,
    MatchSerializer,
    ReasonSerializer,
    RejectionSerializer,
)
from web.api.pagination import NewestFirst
from web.refusals import (
    DEALS_ADMINS_ONLY,
    HISTORY_FOR_ADMINS,
    NOT_YOUR_MATCH,
    NOT_YOUR_TABLE,
    SCORERS_ENTER,
)


class MatchFilter(ClubScopedFilterSet):
    season = WholeNumberFilter(field_name="table__club_night__season")
    club_night = WholeNumberFilter(field_name="table__club_night")
    club = WholeNumberFilter(field_name="table__club_night__season__club")

    class Meta:
        model = Match
        fields = ["season", "club_night", "club", "table", "game", "status"]


def deals_queryset() -> QuerySet[Deal]:
    return Deal.objects.select_related("entered_by").prefetch_related(
        Prefetch("scores", queryset=DealScore.objects.select_related("player"))
    )


def key_parameter(what: str) -> OpenApiParameter:
    """The ``Idempotency-Key`` header of a POST that stores a ``what``, for the schema."""
    return OpenApiParameter(
        "Idempotency-Key",
        str,
        OpenApiParameter.HEADER,
        required=False,
        description=f"The client's own key for this {what} (at most 255 characters, e.g. a "
        f"UUID). A retry with the key and the same request answers the {what} stored the "
        f"first time (201, header Idempotent-Replayed: true) and stores nothing; the key "
        "with another request answers 422 (idempotency_key_reused).",
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
    pagination_class = NewestFirst

    def get_queryset(self) -> QuerySet[Match]:
        if self.action == "deals":  # the match's deals, not its seats and standings
            matches = Match.objects.select_related("table__club_night__season")
            return access.visible(matches, self.request.user)
        matches = matches_with_standings().order_by("-created_at", "-pk")
        return access.visible(matches, self.request.user)

    def get_permissions(self) -> Sequence[Any]:
        if self.action == "create" or self.request.method not in permissions.SAFE_METHODS:
            return [permissions.IsAuthenticated()]
        return super().get_permissions()

    def get_serializer(self, *args: Any, **kwargs: Any) -> Any:
        """A new match goes to a table the user scores, with players they can see (the
        browsable API's form lists these choices too)."""
        serializer = super().get_serializer(*args, **kwargs)
        fields = getattr(serializer, "fields", None)
        if self.request is None or fields is None:  # a list of matches has no fields
            return serializer
        user = self.request.user
        fields["table"].queryset = access.scored_tables(Table.objects.all(), user)
        fields["players"].child_relation.queryset = access.visible(Player.objects.all(), user)
        return serializer

    def get_throttles(self) -> list[throttling.BaseThrottle]:
        if self.action == "deals" and self.request.method == "POST":
            self.throttle_scope = "deal_entry"
            return [throttling.ScopedRateThrottle()]
        return super().get_throttles()

    @extend_schema(
        parameters=[key_parameter("match")],
        responses={
            201: MatchSerializer,
            400: RejectionSerializer,
            409: RejectionSerializer,
            422: RejectionSerializer,
        },
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Seat players at a new match of a table the user scores, once: a retry with the
        ``Idempotency-Key`` answers the match stored the first time; without one, a match
        like one the table has not started asks ``confirm_same`` (409) first."""
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            match = actions.matches.create_match(
                data["table"],
                data["game"],
                data["players"],
                rules=data.get("rules"),  # none given: the season's
                target=data.get("target"),
                key=request.headers.get("Idempotency-Key"),
                ask_if_same=not data["confirm_same"],
            )
        except errors.Rejection as rejection:
            return rejection_response(rejection, shown=self._match_shown)
        response = Response(
            self.get_serializer(self.get_queryset().get(pk=match.pk)).data,
            status=status.HTTP_201_CREATED,
        )
        if match.replayed:
            response["Idempotent-Replayed"] = "true"
        return response

    def _match_shown(self, match: Match) -> Any:
        """A match in the way of a new one, as the API shows matches (if the user sees it)."""
        shown = self.get_queryset().filter(pk=match.pk).first()
        return None if shown is None else self.get_serializer(shown).data

    @extend_schema(
        request=ReasonSerializer,
        responses={200: MatchSerializer, 400: RejectionSerializer, 409: RejectionSerializer},
    )
    @action(detail=True, methods=["post"])
    def reopen(self, request: Request, pk: str | None = None) -> Response:
        """Administrators reopen a finished match (``{"reason"}``, kept in its history) so
        that its deals can be corrected, or more entered when it was ended by hand."""
        match = self.get_object()
        deny(access.can_administer(request.user, match), DEALS_ADMINS_ONLY)
        return self._ended_or_reopened(corrections.reopen_match, match)

    @extend_schema(
        request=ReasonSerializer,
        responses={200: MatchSerializer, 400: RejectionSerializer, 409: RejectionSerializer},
    )
    @action(detail=True, methods=["post"])
    def finish(self, request: Request, pk: str | None = None) -> Response:
        """End the match as it stands (``{"reason"}``): the table's scorer or an
        administrator; an open-ended Napoleon or Rettler match, a night that stops early."""
        match = self.get_object()
        deny(access.scores_table(request.user, match.table), NOT_YOUR_MATCH)
        return self._ended_or_reopened(corrections.end_match, match)

    def _ended_or_reopened(self, change: Any, match: Match) -> Response:
        payload = ReasonSerializer(data=self.request.data)
        payload.is_valid(raise_exception=True)
        try:
            change(match, access.signed_in(self.request.user), payload.validated_data["reason"])
        except errors.Rejection as rejection:
            return rejection_response(rejection)
        return Response(self.get_serializer(self.get_queryset().get(pk=match.pk)).data)

    @extend_schema(
        request=DealInputSerializer,
        parameters=[key_parameter("deal")],
        responses={
            200: DealSerializer(many=True),
            201: DealSerializer,
            400: RejectionSerializer,
            409: RejectionSerializer,
            422: RejectionSerializer,
        },
    )
    @action(
        detail=True,
        methods=["get", "post"],
        url_path="deals",
        filter_backends=[],
        pagination_class=None,
    )
    def deals(self, request: Request, pk: str | None = None) -> Response:
        """GET: the match's deals in order.  POST: enter the next deal (checked by the engine).
        One match: no list filters (``filter_backends=[]``: building their filter set and its
        form was a fifteenth of an entry's time); the reader's visibility is the queryset's."""
        match = self.get_object()
        if request.method in permissions.SAFE_METHODS:  # HEAD too: never the write
            deals = deals_queryset().filter(match=match).order_by("number")
            return Response(DealSerializer(deals, many=True).data)
        deny(access.scores_table(request.user, match.table), SCORERS_ENTER)
        payload = DealInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        entry = actions.deals.enter_deal(
            match,
            payload.validated_data["record"],
            user=access.signed_in(request.user),
            number=payload.validated_data.get("number"),
            key=request.headers.get("Idempotency-Key"),
            ask_if_same=not payload.validated_data["confirm_same"],
        )
        if entry.outcome not in (Outcome.STORED, Outcome.REPLAYED) or entry.deal is None:
            assert entry.rejection is not None
            return rejection_response(entry.rejection)
        deal = deals_queryset().get(pk=entry.deal.pk) if entry.deal.replayed else entry.deal
        response = Response(DealSerializer(deal).data, status=status.HTTP_201_CREATED)
        if entry.outcome == Outcome.REPLAYED:  # the deal stored the first time, read back
            response["Idempotent-Replayed"] = "true"
        return response


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
        deals = deals_queryset().select_related("confirmed_by").order_by("match", "number")
        return access.visible(deals, self.request.user)

    def get_permissions(self) -> Sequence[Any]:
        if self.request.method not in permissions.SAFE_METHODS or self.action == "history":
            return [permissions.IsAuthenticated()]
        return super().get_permissions()

    def _scored_deal(self) -> Deal:
        """The deal, when the user scores its table (or administers the club)."""
        deal = self.get_object()
        deny(access.scores_table(self.request.user, deal.match.table), NOT_YOUR_TABLE)
        return deal

    def _administered_deal(self, refusal: object = DEALS_ADMINS_ONLY) -> Deal:
        deal = self.get_object()
        deny(access.can_administer(self.request.user, deal), refusal)
        return deal

    def _changed(self, change: Any, deal: Deal, *args: Any) -> Response:
        try:
            changed, effect = change(deal, *args)
        except errors.Rejection as rejection:
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
        deal = self._scored_deal()  # who may change it first: the body says nothing to others
        payload = CorrectionSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        return self._changed(
            corrections.correct_deal,
            deal,
            data["record"],
            access.signed_in(request.user),
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
        return self._changed(
            corrections.delete_deal, self._scored_deal(), access.signed_in(request.user), reason
        )

    @extend_schema(
        request=ReasonSerializer,
        responses={200: CorrectionResultSerializer, 409: RejectionSerializer},
    )
    @action(detail=True, methods=["post"])
    def restore(self, request: Request, pk: str | None = None) -> Response:
        """Administrators bring a deleted deal back."""
        deal = self._administered_deal()
        payload = ReasonSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        reason = payload.validated_data["reason"]
        return self._changed(corrections.restore_deal, deal, access.signed_in(request.user), reason)

    @extend_schema(responses={200: DealVersionSerializer(many=True)})
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def history(self, request: Request, pk: str | None = None) -> Response:
        """Every previous version of the deal: who, when, why, and the record before."""
        deal = self._administered_deal(HISTORY_FOR_ADMINS)
        versions = deal.versions.select_related("changed_by", "confirmed_by")
        context = {"club": access.club_id(deal)}
        return Response(DealVersionSerializer(versions, many=True, context=context).data)

    @extend_schema(
        request=None,
        responses={200: DealSerializer, 400: RejectionSerializer, 409: RejectionSerializer},
    )
    @action(detail=True, methods=["post"])
    def confirm(self, request: Request, pk: str | None = None) -> Response:
        """A second person at the table confirms the deal (never the one who entered it)."""
        deal = self.get_object()
        holder = table_links.holder(request.session) if hasattr(request, "session") else ""
        try:
            deal = actions.deals.confirm_deal(deal, access.signed_in(request.user), holder=holder)
        except errors.Rejection as rejection:
            forbidden = rejection.errors[0]["code"] in confirmation.FORBIDDEN
            deny(not forbidden, localize(rejection.errors[0]))
            return rejection_response(rejection)
        return Response(DealSerializer(deals_queryset().get(pk=deal.pk)).data)

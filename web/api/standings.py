"""The REST API's standings: one match's, or one season's leaderboards with each line's
statistics (``/api/standings/``)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.models import MatchStanding, SeasonStanding
from scoring.ratings import by_rating, scope_for, with_ratings
from tournaments import access
from tournaments.models import Match, Season
from web.api.match_serializers import MatchStandingSerializer, SeasonStandingSerializer


class StandingsView(generics.GenericAPIView):
    """Standings of one match (``?match=``) or one season's leaderboards
    (``?season=[&game=][&player=]``), each season line with its game's statistics."""

    queryset = SeasonStanding.objects.none()

    @extend_schema(
        parameters=[
            OpenApiParameter("match", int, description="a match id"),
            OpenApiParameter("season", int, description="a season id"),
            OpenApiParameter("game", str, description="with season: one game's leaderboard"),
            OpenApiParameter("player", int, description="with season: one player's lines"),
            OpenApiParameter(
                "order", str, enum=["points", "rating"], description="with season: the order"
            ),
        ],
        responses={200: SeasonStandingSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        match_id = request.query_params.get("match")
        season_id = request.query_params.get("season")
        if bool(match_id) == bool(season_id):
            raise ValidationError({"match": gettext("give either a match or a season")})
        user = request.user
        rows: QuerySet[Any]
        if match_id:
            match = get_object_or_404(
                access.visible(Match.objects.all(), user), pk=_int(match_id, "match")
            )
            rows = MatchStanding.objects.filter(match=match)
            serializer_class: Any = MatchStandingSerializer
        else:
            season = get_object_or_404(
                access.visible(Season.objects.all(), user), pk=_int(season_id or "", "season")
            )
            standings = SeasonStanding.objects.filter(season=season)
            if game := request.query_params.get("game"):
                standings = standings.filter(game=game)
            if player := request.query_params.get("player"):
                standings = standings.filter(player=_int(player, "player"))
            order = request.query_params.get("order", "points")
            if order not in ("points", "rating"):
                raise ValidationError({"order": gettext("order by 'points' or 'rating'")})
            scope = scope_for(user, season.club_id)
            rows = (
                by_rating(standings, scope) if order == "rating" else with_ratings(standings, scope)
            )
            serializer_class = SeasonStandingSerializer
        page = self.paginate_queryset(rows.select_related("player"))
        return self.get_paginated_response(serializer_class(page, many=True).data)


def _int(value: str, name: str) -> int:
    """A whole number the database can hold (a bigger one is refused, not a server error)."""
    try:
        number = int(value)
        if abs(number) >= 2**63:
            raise ValueError(value)
        return number
    except ValueError:
        wrong = gettext("%(value)s is not a whole number") % {"value": repr(value)}
        raise ValidationError({name: wrong}) from None

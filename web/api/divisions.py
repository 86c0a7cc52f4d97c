"""Actions of ``/api/seasons/{id}/``: ``divisions/`` and ``close/`` (issue 40), calling the
actions the pages call (``tournaments.divisions``, ``scoring.divisions``).

What a reader gets lists only the players and the next season they may see
(``tournaments.divisions.shown``): in a public season, a player of the club's private
seasons alone is in no answer, not even as an id (issue 55)."""

from __future__ import annotations

from collections.abc import Container
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

import actions.divisions
import actions.seasons
from scoring import divisions as ranked
from scoring.finals import season_final
from tournaments import access, divisions
from tournaments.errors import Rejection
from tournaments.models import Move, Season
from web.api.base import deny, rejection_response
from web.api.match_serializers import RejectionSerializer
from web.refusals import ADMINS_ONLY


class DivisionsInputSerializer(serializers.Serializer):
    names = serializers.ListField(
        child=serializers.CharField(), help_text="The divisions' names, the top one first."
    )
    places = serializers.DictField(
        child=serializers.CharField(allow_blank=True),
        help_text="Player id → the player's division (a name of `names`; '' for none).",
    )
    moves_by = serializers.ChoiceField(choices=["count", "percent"], required=False)
    moves = serializers.IntegerField(
        min_value=0, max_value=100, required=False, help_text="Players (or per cent) who move."
    )


class CloseInputSerializer(serializers.Serializer):
    next_season = serializers.CharField(
        help_text="The next season's name: the club's season of this name, or a new one."
    )
    moves = serializers.DictField(
        child=serializers.CharField(allow_blank=True),
        required=False,
        help_text="Player id → the next division ('' for none); a player left out goes as "
        "proposed.",
    )


def _next_season_id(season: Season, user: Any) -> int | None:
    following = divisions.next_season_shown(season, user)
    return following.pk if following else None


def divisions_json(season: Season, user: Any) -> dict[str, Any]:
    placed = divisions.placed(season)
    seen = divisions.shown(season, placed, user)
    final = season_final(season)
    return {
        "moves_by": season.moves_by,
        "moves": season.moves,
        "closed_at": season.closed_at,
        "next_season": _next_season_id(season, user),
        "divisions": [
            {
                "name": d.name,
                "players": sorted(p for p, at in placed.items() if at.pk == d.pk and p in seen),
            }
            for d in season.divisions.order_by("order")
        ],
        "champions": [p.pk for p in final.champions] if final else [],
    }


def move_json(move: Move, next_shown: bool = True) -> dict[str, Any]:
    """A move made; ``next_shown`` false: the reader may not read the next season, whose
    division is not named."""
    return {
        "player": move.player_id,
        "division": move.division,
        "rank": move.rank,
        "next_division": move.next_division if next_shown else "",
        "kind": move.kind,
    }


def proposal_json(line: ranked.Line, seen: Container[int]) -> dict[str, Any]:
    return {
        "player": line.player.pk,
        "division": line.division.name if line.division else "",
        "rank": line.rank,
        "qualified": line.qualified,
        "next_division": line.going,
        "kind": line.kind,
        "tied_with": [player.pk for player in line.tied_with if player.pk in seen],
    }


class DivisionsMixin:
    @extend_schema(
        request=DivisionsInputSerializer,
        responses={200: dict, 400: RejectionSerializer, 409: RejectionSerializer},
    )
    @action(detail=True, methods=["get", "put"], filter_backends=[])
    def divisions(self, request: Request, pk: str | None = None) -> Response:
        """GET: the season's divisions, the top one first, with their players, the
        closing rule, whether it is closed, and its champions (the final's winners).
        PUT (a league administrator): the divisions and every placement at once."""
        season: Season = self.get_object()  # type: ignore[attr-defined]
        if request.method == "PUT":
            deny(access.can_administer(request.user, season), ADMINS_ONLY)
            payload = DivisionsInputSerializer(data=request.data)
            payload.is_valid(raise_exception=True)
            data = payload.validated_data
            try:
                actions.divisions.set_divisions(
                    season,
                    data["names"],
                    data["places"],
                    moves_by=data.get("moves_by", season.moves_by),
                    moves=data.get("moves", season.moves),
                )
            except Rejection as rejection:
                return rejection_response(rejection)
        return Response(divisions_json(season, request.user))

    @extend_schema(
        request=CloseInputSerializer, responses={200: dict, 201: dict, 400: RejectionSerializer}
    )
    @action(detail=True, methods=["get", "post"], filter_backends=[])
    def close(self, request: Request, pk: str | None = None) -> Response:
        """GET: the moves the season's rule proposes (``"closed": false``) or, once it is
        closed, the moves made.  POST (a league administrator): close it, placing its
        players in the next season; sent again, it answers the moves made the first time
        (200, nothing changed) instead of 201."""
        season: Season = self.get_object()  # type: ignore[attr-defined]
        if request.method in permissions.SAFE_METHODS:  # HEAD too: never the write
            if season.closed_at is not None:
                made = ranked.made(season)
                seen = divisions.shown(season, (m.player_id for m in made), request.user)
                following = _next_season_id(season, request.user)
                moves = [move_json(m, following is not None) for m in made if m.player_id in seen]
                return Response({"closed": True, "next_season": following, "moves": moves})
            proposed = ranked.lines(season)
            seen = divisions.shown(season, (x.player.pk for x in proposed), request.user)
            lines = [proposal_json(x, seen) for x in proposed if x.player.pk in seen]
            return Response({"closed": False, "moves": lines})
        deny(access.can_administer(request.user, season), ADMINS_ONLY)
        payload = CloseInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        try:
            closed = actions.seasons.close_season(
                season, data["next_season"], data.get("moves", {})
            )
        except Rejection as rejection:
            return rejection_response(rejection)
        body = {
            "closed": True,
            "next_season": closed.next_season.pk,
            "moves": [move_json(m) for m in closed.moves],
        }
        return Response(
            body, status=status.HTTP_200_OK if closed.again else status.HTTP_201_CREATED
        )

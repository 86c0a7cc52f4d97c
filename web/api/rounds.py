"""The API of a club night in rounds (issue 25): draw and list rounds (each with its
draw's figures, issue 57), the night's and the season's figures, the night's standings
across tables, the room display's data (with an ETag: a poll while nothing changed
answers 304 without a body)."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from actions import rounds
from scoring import draw_figures, finals, live_cache
from scoring import night as night_data
from scoring.tasks import live_refresher
from tournaments import access, divisions, round_state, seatings
from tournaments.errors import Rejection
from tournaments.models import ClubNight, Match, Round, Season
from web.api.base import deny, rejection_response
from web.api.match_serializers import RejectionSerializer
from web.refusals import ADMINS_ONLY


class RoundInputSerializer(serializers.Serializer):
    game = serializers.CharField(max_length=20, help_text="The round's game (one of the season's).")
    players = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=rounds.LARGEST_ID),
        required=False,
        max_length=rounds.MOST_PLAYERS,
        help_text="Player ids (default: everyone of the round before, seated or sitting out).",
    )
    method = serializers.ChoiceField(
        choices=rounds.METHODS,
        required=False,
        help_text="Default as the rounds page proposes: balanced for round 1, Swiss after "
        "it (unless the night plays a planned number of rounds), the final first on the "
        "season's final night.",
    )
    deals = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=100,
        help_text="Deals per match: open-ended games only (Napoleon, Rettler).",
    )
    size = serializers.IntegerField(
        required=False,
        min_value=2,
        max_value=rounds.MOST_PLAYERS,
        help_text="Table size, any method: every table seats this many; the rest sit out in "
        "turn; default the night's table size, else the draw chooses (final: the final "
        "table's size, default the game's best number).",
    )
    others = serializers.ChoiceField(
        choices=["balanced", "sit_out"],
        default="balanced",
        help_text="final: the players not at the final table are drawn balanced or sit out.",
    )
    mixed = serializers.BooleanField(
        default=False,
        help_text="In a season with divisions: draw them together (default: each division "
        "at tables of its own, the top division first).",
    )
    confirm_unqualified = serializers.BooleanField(
        default=False,
        help_text="final, on the season's final night: draw it although nobody at a final "
        "table has reached the qualifying minimum (without it: 400 unqualified_final).",
    )


MEASURES = (
    "``measures``: the draw's figures, the night up to and including the round: "
    "``most_met`` (the most rounds any two players sat at one table), ``excess`` "
    "(meetings beyond each pair's first), ``consecutive`` (pairs together in a round and "
    "the next), ``seat_off`` and ``first_seat_off`` (players whose count in some seat, or "
    "in seat 1, is outside the fair range), ``best_known`` (the fewest excess meetings "
    "known to be reachable for these players, tables and rounds; null: not known)."
)


def _figures(found: draw_figures.Figures | None) -> dict[str, Any] | None:
    return found.as_json() if found else None


def round_json(
    round_: Round, figures: draw_figures.Figures | None = None, *, read: bool = True
) -> dict[str, Any]:
    """The round as seated, with its ``measures`` (``figures``; with ``read``, read when
    not given)."""
    if figures is None and read:
        figures = draw_figures.by_round(seatings.of_night(round_.club_night)).get(round_.number)
    matches = (
        Match.objects.filter(table__round=round_)
        .select_related("table")
        .prefetch_related("seats")
        .order_by("table__name")
    )
    seated = [
        (m, [s.player_id for s in sorted(m.seats.all(), key=lambda s: s.position)]) for m in matches
    ]
    season = Season.objects.get(club_nights__pk=round_.club_night_id)
    at = divisions.at_tables(season, [players for _m, players in seated])
    return {
        "number": round_.number,
        "game": round_.game,
        "method": round_.method,
        "deals": round_.deals,
        "tables": [
            {
                "table": m.table_id,
                "match": m.pk,
                "game": m.game,
                "players": players,
                "status": m.status,
                "divisions": [d.name if d else None for d in found],
            }
            for (m, players), found in zip(seated, at, strict=True)
        ],
        "sat_out": sorted(round_.sat_out.values_list("pk", flat=True)),
        "ended_early_reason": round_.ended_early_reason,
        "measures": _figures(figures),
    }


def _with_seeds(
    answer: dict[str, Any], found: finals.Seeding, proposal: rounds.Proposal
) -> dict[str, Any]:
    """A drawn round's answer with its final tables (``final``: true, ``final_division``:
    the division's name or null) and, on the season's final night, each seat's
    ``seeds`` (rank on the board that seeded it, score, qualified; ``rank`` null: no
    line of the game this season), table by table in the order of ``players``."""
    drawn_at = {p: i for i, t in enumerate(proposal.seating.tables) for p in t}
    for table in answer["tables"]:
        final = found.final_at(drawn_at[table["players"][0]])
        table["final"] = final is not None
        table["final_division"] = final.division.name if final and final.division else None
        if found.seeds:
            table["seeds"] = [found.seeds[p].as_json(p) for p in table["players"]]
    if found.seeds:
        answer["sat_out_seeds"] = [found.seeds[p].as_json(p) for p in answer["sat_out"]]
    return answer


class RoundsMixin:
    """Actions of ``/api/club-nights/{id}/``: ``rounds/``, ``standings/``, ``live/``.
    They read one night (no list filters: ``filter_backends=[]``, the reader's
    visibility is the queryset's)."""

    @extend_schema(
        request=RoundInputSerializer,
        responses={201: dict, 400: RejectionSerializer, 409: RejectionSerializer},
    )
    @action(detail=True, methods=["get", "post"], filter_backends=[])
    def rounds(self, request: Request, pk: str | None = None) -> Response:
        """GET: the night's rounds.  POST: draw **and** seat the next round in one
        transaction (a league administrator); 409 while a match of the current round is
        unfinished.  Each round has its draw's ``measures`` (see ``measures/``)."""
        night: ClubNight = self.get_object()  # type: ignore[attr-defined]
        if request.method in permissions.SAFE_METHODS:  # HEAD too: never the write
            figures = draw_figures.by_round(seatings.of_night(night))
            listed = night.rounds.order_by("number").select_related("club_night")
            return Response([round_json(r, figures.get(r.number), read=False) for r in listed])
        deny(access.can_administer(request.user, night), ADMINS_ONLY)
        payload = RoundInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = dict(payload.validated_data)
        data.setdefault("method", rounds.next_round_choices(night)["method"])
        try:
            drawn = rounds.draw_next_round(night, user=access.signed_in(request.user), **data)
        except Rejection as rejection:
            return rejection_response(rejection)
        body = _with_seeds(round_json(drawn.round), drawn.seeding, drawn.proposal)
        # Open matches outside the rounds that players of this round still sit at.
        body["still_playing"] = [
            {"match": match.pk, "players": [p.pk for p in players]}
            for match, players in round_state.still_playing(night, drawn.proposal.seating.seated)
        ]
        return Response(body, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: dict}, description=MEASURES)
    @action(detail=True, methods=["get"], filter_backends=[])
    def measures(self, request: Request, pk: str | None = None) -> Response:
        """How fair the draw has been: ``{"night_measures", "season_measures", "rounds":
        [{"number", "measures"}]}``: the night's figures (all its rounds), the season's
        (every round of the season so far, nights in order; no ``best_known``), each
        round's (the night up to it); null before any round.  Each holds ``most_met``,
        ``excess``, ``consecutive``, ``seat_off``, ``first_seat_off``, ``best_known``."""
        night: ClubNight = self.get_object()  # type: ignore[attr-defined]
        tonight = seatings.of_night(night)
        by_round = draw_figures.by_round(tonight)
        return Response(
            {
                "night_measures": _figures(draw_figures.figures(tonight)),
                "season_measures": _figures(draw_figures.of_season(night.season)),
                "rounds": [
                    {"number": number, "measures": found.as_json()}
                    for number, found in by_round.items()
                ],
            }
        )

    @extend_schema(responses={200: dict})
    @action(detail=True, methods=["get"], filter_backends=[])
    def standings(self, request: Request, pk: str | None = None) -> Response:
        """The night's standings across tables: ``{"method", "rows": [{"player",
        "display_name", "name_ja", "rank", "total", "points", "matches", "sat_out"}]}``."""
        night: ClubNight = self.get_object()  # type: ignore[attr-defined]
        return Response(night_data.standings_json(night))

    @extend_schema(
        parameters=[OpenApiParameter("If-None-Match", str, OpenApiParameter.HEADER)],
        responses={200: dict, 304: None},
    )
    @action(detail=True, methods=["get"], filter_backends=[])
    def live(self, request: Request, pk: str | None = None) -> Response:
        """What the room display shows, with an ``ETag``: asked again with
        ``If-None-Match`` while nothing changed, it answers 304 with no body."""
        night: ClubNight = self.get_object()  # type: ignore[attr-defined]
        admin = access.can_administer(request.user, night)
        tag, body = live_cache.cached_live(night, admin, live_refresher(night, admin))
        if tag in request.headers.get("If-None-Match", ""):
            response = HttpResponse(status=status.HTTP_304_NOT_MODIFIED)
        else:
            response = HttpResponse(body, content_type="application/json")
        response["ETag"] = tag
        response["Cache-Control"] = "no-cache"
        return response  # type: ignore[return-value]

"""The API's serializers of play: standings, matches, deals and their corrections, and the
shape of a refusal (``web/api/matches.py`` and every answer that refuses).  Writes of
matches and deals go through ``actions.deals``; the league's set-up is
``web/api/serializers.py``."""

from __future__ import annotations

import copy
from typing import Any

from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scoring.models import MatchStanding, SeasonStanding
from scoring.players import figures
from tournaments import access
from tournaments.models import Deal, DealVersion, Match, Player


class MatchStandingSerializer(serializers.ModelSerializer):
    handle = serializers.CharField(source="player.handle", read_only=True)
    display_name = serializers.CharField(source="player.display_name", read_only=True)

    class Meta:
        model = MatchStanding
        fields = ["player", "handle", "display_name", "rank", "total", "deals", "deals_won"]


class SeasonStandingSerializer(serializers.ModelSerializer):
    handle = serializers.CharField(source="player.handle", read_only=True)
    display_name = serializers.CharField(source="player.display_name", read_only=True)
    rating = serializers.SerializerMethodField(
        help_text="The player's current skill rating in the game (mu - 3 sigma), if rated."
    )
    score = serializers.DecimalField(
        max_digits=14,
        decimal_places=3,
        coerce_to_string=False,
        read_only=True,
        help_text="What the season ranks by (its `ranking`): total points, points per match "
        "or deal, or the points of the best `best_of` club nights or matches.",
    )
    qualified = serializers.BooleanField(
        read_only=True,
        help_text="Whether the player played the season's `qualify_minimum` of its "
        "`qualify_by`; the others rank after every qualified player.",
    )
    statistics = serializers.SerializerMethodField(
        help_text="The game's statistics by key (docs/statistics.md): a count, an average, "
        "or a rate in per cent; null while there is nothing to divide by."
    )

    class Meta:
        model = SeasonStanding
        fields = [
            "season",
            "game",
            "player",
            "handle",
            "display_name",
            "rank",
            "score",
            "qualified",
            "nights",
            "total",
            "deals",
            "deals_won",
            "matches",
            "matches_won",
            "rating",
            "statistics",
        ]

    def get_rating(self, row: SeasonStanding) -> float | None:
        rating = getattr(row, "rating", None)
        return round(rating, 2) if rating is not None else None

    @extend_schema_field(
        {"type": "object", "additionalProperties": {"type": "number", "nullable": True}}
    )
    def get_statistics(self, row: SeasonStanding) -> dict[str, int | float | None]:
        return {s.key: value for s, value in figures(row)}


class SeatSerializer(serializers.Serializer):
    position = serializers.IntegerField(read_only=True)
    player = serializers.IntegerField(source="player.id", read_only=True)
    handle = serializers.CharField(source="player.handle", read_only=True)
    display_name = serializers.CharField(source="player.display_name", read_only=True)


class MatchSerializer(serializers.ModelSerializer):
    players = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(),
        many=True,
        write_only=True,
        help_text="Player ids in order of play.",
    )
    seats = SeatSerializer(many=True, read_only=True)
    confirm_same = serializers.BooleanField(
        write_only=True,
        required=False,
        default=False,
        help_text="A match like one the table has open with no deal yet (same game, "
        "players in order, rules and target) answers 409 (same_as_previous) and stores "
        "nothing; send it again with true to start another.",
    )
    partnerships = serializers.SerializerMethodField()
    standings = MatchStandingSerializer(many=True, read_only=True)
    season = serializers.IntegerField(source="table.club_night.season_id", read_only=True)
    deal_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Match
        fields = [
            "id",
            "table",
            "season",
            "game",
            "players",
            "confirm_same",
            "seats",
            "partnerships",
            "rules",
            "target",
            "status",
            "ended_by_hand",
            "created_at",
            "finished_at",
            "deal_count",
            "standings",
        ]
        read_only_fields = ["status", "ended_by_hand", "created_at", "finished_at"]

    def get_partnerships(self, match: Match) -> list[list[str]] | None:
        sides = match.partnerships()
        return sides if any(len(side) > 1 for side in sides) else None


class DealScoreSerializer(serializers.Serializer):
    handle = serializers.CharField(source="player.handle")
    score = serializers.IntegerField()
    won = serializers.BooleanField()


class FieldsFromTheModelOnce(serializers.ModelSerializer):
    """A model serializer whose fields are worked out from the model once, for the class;
    each serializer gets copies of them, as a plain serializer copies its declared fields.
    For serializers whose fields depend on the class alone (not on the context, the
    instance or the request). A deal's answer to its entry took 0.9 ms, two thirds of
    it working out the fields (docs/benchmarks.md, "Why entry is fast")."""

    def get_fields(self) -> dict[str, serializers.Field]:
        cls = type(self)
        kept: dict[str, serializers.Field] | None = cls.__dict__.get("_fields_once")
        if kept is None:
            kept = super().get_fields()
            cls._fields_once = kept  # type: ignore[attr-defined]
        return copy.deepcopy(kept)


class DealSerializer(FieldsFromTheModelOnce):
    """A deal as anyone who may read it sees it: no account names (who entered, confirmed
    or changed it is in the history, for the club's administrators)."""

    scores = DealScoreSerializer(many=True, read_only=True)

    class Meta:
        model = Deal
        fields = [
            "id",
            "match",
            "number",
            "record",
            "scores",
            "entered_at",
            "confirmed_at",
            "deleted_at",
        ]


class DealInputSerializer(serializers.Serializer):
    """What a scorer POSTs: the deal record, and optionally the deal's number in the match."""

    record = serializers.JSONField(help_text="A deal record (docs/deal-records.md).")
    number = serializers.IntegerField(
        required=False,
        min_value=1,
        help_text="The deal's number in the match; a retried submit with the same number "
        "gets 409 instead of a second deal.",
    )
    confirm_same = serializers.BooleanField(
        required=False,
        default=False,
        help_text="A record exactly like the match's last deal answers 409 "
        "(same_as_previous) and stores nothing, as the entry page asks; send it again with "
        "true to store it as a new deal.",
    )

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    {key: gettext("unknown field") for key in unknown}
                )
        return super().to_internal_value(data)


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(
        max_length=500, help_text="Why the deal changes (kept in its history)."
    )


class CorrectionSerializer(ReasonSerializer):
    record = serializers.JSONField(help_text="The corrected deal record.")


class EffectSerializer(serializers.Serializer):
    player = serializers.CharField()
    total_before = serializers.IntegerField()
    total_after = serializers.IntegerField()
    rank_before = serializers.IntegerField(allow_null=True)
    rank_after = serializers.IntegerField(allow_null=True)


class CorrectionResultSerializer(serializers.Serializer):
    deal = DealSerializer()
    effect = EffectSerializer(
        many=True, help_text="The season leaderboard of the game, before and after."
    )


@extend_schema_field(OpenApiTypes.STR)
class PersonField(serializers.Field):
    """An account as its club (``context["club"]``) knows it: the display name of the
    player it belongs to, or its user name (the history, read by administrators only)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(read_only=True, **kwargs)

    def to_representation(self, value: Any) -> str | None:
        return access.person(value, self.context["club"], fallback=True)


class DealVersionSerializer(serializers.ModelSerializer):
    changed_by = PersonField(help_text="Who made the change.")
    confirmed_by = PersonField(help_text="Who had confirmed record_before (null: nobody).")

    class Meta:
        model = DealVersion
        fields = [
            "action",
            "reason",
            "changed_by",
            "changed_at",
            "record_before",
            "confirmed_by",
            "confirmed_at",
        ]


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    path = serializers.CharField()
    message = serializers.CharField()


class RejectionSerializer(serializers.Serializer):
    errors = ErrorSerializer(many=True)  # type: ignore[assignment]  # a field named like Serializer.errors
    existing = DealSerializer(required=False)

"""REST serializers.  Writes of matches and deals go through ``tournaments.actions``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.fields import get_error_detail

import engine
from scoring.models import MatchStanding, SeasonStanding
from scoring.players import figures
from tournaments import access, divisions, nights, renames, seasons
from tournaments import members as club_members
from tournaments.messages import localize
from tournaments.models import Club, ClubNight, Deal, DealVersion, Match, Player, Season, Table


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "created_at"]
        read_only_fields = ["created_at"]

    def validate_name(self, value: str) -> str:
        """Refused as the pages refuse it: a name that looks like another club's."""
        if problem := Club.name_problem(value, self.instance.pk if self.instance else None):
            raise serializers.ValidationError(problem, code="name_taken")
        return value

    def validate_slug(self, value: str) -> str:
        if problem := Club.slug_problem(value, self.instance.pk if self.instance else None):
            raise serializers.ValidationError(problem, code="slug_taken")
        return value


class AccountFieldsForAdministrators:
    """Account ids (a player's ``user``, a table's ``scorer``) are for the club's league
    administrators, who set them: every other reader gets the object without them."""

    account_fields: tuple[str, ...] = ()

    def to_representation(self, instance: Any) -> Any:
        data = super().to_representation(instance)  # type: ignore[misc]
        context = self.context  # type: ignore[attr-defined]
        if "administered_clubs" not in context:  # one question for a whole list
            user = getattr(context.get("request"), "user", None)
            context["administered_clubs"] = access.administered_clubs(user)
        clubs = context["administered_clubs"]
        if clubs is not None and access.club_id(instance) not in clubs:
            for name in self.account_fields:
                data.pop(name, None)
        return data


class SavedByItsAction:
    """A model serializer whose rows the league's action for them stores (``saved_by``), as
    the pages and the admin store them, never a plain ``save()``."""

    Meta: Any
    saved_by: Callable[[Any], Any]

    def create(self, validated_data: dict[str, Any]) -> Any:
        return self._saved(self.Meta.model(**validated_data))

    def update(self, instance: Any, validated_data: dict[str, Any]) -> Any:
        for name, value in validated_data.items():
            setattr(instance, name, value)
        return self._saved(instance)

    def _saved(self, instance: Any) -> Any:
        """The action's refusal (Django's ``ValidationError``, by field) as the API's 400."""
        try:
            return self.saved_by(instance)
        except DjangoValidationError as refusal:
            raise serializers.ValidationError(get_error_detail(refusal)) from None


class PlayerSerializer(
    SavedByItsAction, AccountFieldsForAdministrators, serializers.ModelSerializer
):
    saved_by = staticmethod(renames.save_player)  # a new handle rewrites the records
    account_fields = ("user",)

    class Meta:
        model = Player
        fields = ["id", "club", "handle", "display_name", "name_ja", "reading", "user"]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        club = attrs.get("club", getattr(self.instance, "club", None))
        account = attrs.get("user", getattr(self.instance, "user", None))
        if club is not None and "user" in attrs:
            problem = club_members.account_problem(
                club.pk, account, getattr(self.instance, "pk", None)
            )
            if problem is not None:
                raise serializers.ValidationError({"user": localize(problem)})
        return attrs


class SeasonSerializer(SavedByItsAction, serializers.ModelSerializer):
    saved_by = staticmethod(seasons.save_season)  # a changed setting rebuilds what derives
    games = serializers.ListField(
        child=serializers.ChoiceField(choices=sorted(engine.GAMES)), allow_empty=False
    )

    class Meta:
        model = Season
        fields = [
            "id",
            "club",
            "name",
            "games",
            "starts_on",
            "ends_on",
            "require_confirmation",
            "public",
            "ranking",
            "best_of",
            "qualify_by",
            "qualify_minimum",
            "moves_by",
            "moves",
            "closed_at",
            "next_season",
        ]
        read_only_fields = ["closed_at", "next_season"]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """A best N left out goes with a ranking that counts none (``best_of_kept``)."""
        ranking = attrs.get("ranking", getattr(self.instance, "ranking", ""))
        best_of = attrs.get("best_of", getattr(self.instance, "best_of", None))
        attrs["best_of"] = seasons.best_of_kept(ranking, best_of, "best_of" in attrs)
        return attrs

    def to_representation(self, instance: Any) -> Any:
        """The next season's id only for a reader who may read it (``divisions``)."""
        data = super().to_representation(instance)
        if data.get("next_season") is not None:
            user = getattr(self.context.get("request"), "user", None)
            following = divisions.next_season_shown(instance, user) if user else None
            data["next_season"] = following.pk if following else None
        return data


class ClubNightSerializer(SavedByItsAction, serializers.ModelSerializer):
    saved_by = staticmethod(nights.save_night)  # one final a season, under its lock
    rank_points = serializers.ListField(
        child=serializers.IntegerField(min_value=-1000, max_value=1000),
        required=False,
        max_length=8,
        help_text="Points for first, second… at a table (table ranks); empty: 4, 2, 1, 0.",
    )

    class Meta:
        model = ClubNight
        fields = ["id", "season", "date", "name", "venue", "deals_per_match", "standings"]
        fields += ["rank_points", "final", "table_size", "rounds_planned"]


class TableSerializer(AccountFieldsForAdministrators, serializers.ModelSerializer):
    account_fields = ("scorer",)

    class Meta:
        model = Table
        fields = ["id", "club_night", "name", "scorer"]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """The scorer must be a scorer (or administrator) of the table's club."""
        scorer = attrs.get("scorer", getattr(self.instance, "scorer", None))
        night = attrs.get("club_night", getattr(self.instance, "club_night", None))
        if night is not None:
            problem = nights.scorer_problem(scorer, night.season.club_id)
            if problem is not None:
                raise serializers.ValidationError(
                    {"scorer": localize(problem)}, code="not_a_scorer"
                )
        return attrs


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


class DealSerializer(serializers.ModelSerializer):
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

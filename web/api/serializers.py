"""The API's serializers of the league's set-up: clubs, players, seasons, nights, tables
(``web/api/league.py``).  Play (matches, deals, standings, refusals) is
``web/api/match_serializers.py``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers
from rest_framework.fields import get_error_detail

import engine
from actions import members as club_members
from actions import nights, renames, seasons, seating
from tournaments import access, divisions
from tournaments.messages import localize
from tournaments.models import Club, ClubNight, Player, Season, Table


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "time_zone", "created_at"]
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
            "rules",
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
        fields = ["id", "season", "date", "starts_at", "ends_at", "name", "venue"]
        fields += ["deals_per_match", "standings", "rank_points", "final", "table_size"]
        fields += ["rounds_planned", "cancelled_at", "sequence", "changed_at"]
        read_only_fields = ["cancelled_at", "sequence", "changed_at"]


class TableSerializer(
    SavedByItsAction, AccountFieldsForAdministrators, serializers.ModelSerializer
):
    saved_by = staticmethod(seating.save_table)  # one name a night, under its lock
    account_fields = ("scorer",)

    class Meta:
        model = Table
        fields = ["id", "club_night", "name", "scorer"]

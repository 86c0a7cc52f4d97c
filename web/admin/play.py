"""Play in the admin: matches with their seats (checked as a whole), deals entered
through ``actions.deals.enter_deal`` (the engine judges each record) and read-only
once stored, with their scores and history."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest

import actions.deals
import actions.matches
import engine
from actions import after
from tournaments import access, errors
from tournaments.messages import localize
from tournaments.models import (
    Deal,
    DealScore,
    DealVersion,
    Match,
    Player,
    Seat,
    deal_count,
)
from web.admin.base import ClubScoped, SeasonFilter


class SeatFormSet(forms.BaseInlineFormSet):
    """Seats are checked as a whole: the season's club, the game's player count."""

    def clean(self) -> None:
        super().clean()
        match: Match = self.instance
        if not getattr(match, "table_id", None) or not match.game:
            return
        seats: list[tuple[int, Any]] = []
        for form in self.forms:
            data = getattr(form, "cleaned_data", None) or {}
            if data.get("DELETE"):
                continue
            player = data.get("player") or getattr(form.instance, "player", None)
            position = data.get("position", getattr(form.instance, "position", None))
            if player is not None and position is not None:
                seats.append((position, player))
        seats.sort(key=lambda seat: seat[0])
        # Read-only seats (a match with deals) come back as ids.
        ids = [p for _pos, p in seats if isinstance(p, int)]
        found = Player.objects.in_bulk(ids) if ids else {}
        players = [found[p] if isinstance(p, int) else p for _pos, p in seats]
        try:
            actions.matches.check_new_match(
                match.table,
                match.game,
                players,
                rules=match.rules,
                target=match.target if engine.GAMES[match.game].accepts_target else None,
            )
        except errors.Rejection as rejection:
            raise ValidationError(
                [
                    f"{e['path']}: {localize(e)}" if e["path"] else localize(e)
                    for e in rejection.errors
                ]
            ) from None


class SeatInline(admin.TabularInline):
    model = Seat
    formset = SeatFormSet
    extra = 0
    min_num = 2
    autocomplete_fields = ["player"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None or not obj.deals.exists()


class DealInline(admin.TabularInline):
    model = Deal
    extra = 0
    fields = readonly_fields = ("number", "entered_by", "entered_at", "scores_summary")
    show_change_link = True
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="scores")
    def scores_summary(self, deal: Deal) -> str:
        return ", ".join(f"{s.player.handle} {s.score:+d}" for s in deal.scores.all())


class MatchAdminForm(forms.ModelForm):
    class Meta:
        model = Match
        fields = ["table", "game", "rules", "target", "status"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        table, game = data.get("table"), data.get("game")
        if table and game and game not in table.club_night.season.games:
            raise ValidationError({"game": f"{table.club_night.season} does not count {game}"})
        if game and data.get("target") is None:
            data["target"] = engine.GAMES[game].default_target
        return data


@admin.register(Match)
class MatchAdmin(ClubScoped):
    form = MatchAdminForm
    list_display = ["pk", "game", "table", "status", "deal_count", "created_at"]
    list_filter = ["game", "status", ("table__club_night__season", SeasonFilter)]
    list_select_related = ["table__club_night__season"]
    list_deferred = ("state", "rules", "table__club_night__season__rules")
    search_fields = ["seats__player__display_name", "seats__player__handle", "table__name"]
    inlines = [SeatInline, DealInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Match]:
        return super().get_queryset(request).annotate(deal_count=deal_count())

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        if change:  # rules, target, status or seats may differ: the kept progress is stale
            after.match_edited(form.instance.pk)

    @admin.display(ordering="deal_count")
    def deal_count(self, match: Match) -> int:
        return match.deal_count  # type: ignore[attr-defined]


class DealAddForm(forms.ModelForm):
    number = forms.IntegerField(required=False, min_value=1, help_text="Empty: the next deal.")

    class Meta:
        model = Deal
        fields = ["match", "record"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        match, record = data.get("match"), data.get("record")
        if match is None or record is None:
            return data
        try:
            actions.deals.check_next_deal(match, record)
        except errors.Rejection as rejection:
            raise ValidationError(
                {
                    "record": [
                        f"{e['path'] or 'record'}: {localize(e)} ({e['code']})"
                        for e in rejection.errors
                    ]
                }
            ) from None
        return data


class DealScoreInline(admin.TabularInline):
    model = DealScore
    extra = 0
    can_delete = False
    readonly_fields = ["player", "score", "won"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


STORED_DEAL_FIELDS = [
    "match",
    "number",
    "entered_by",
    "entered_at",
    "confirmed_by",
    "confirmed_at",
    "deleted_at",
    "pretty_record",
]
"""A stored deal is shown, never edited here: corrections keep their history (the API)."""


class DealVersionInline(admin.TabularInline):
    """Every previous version of the deal: who, when, why, the record before."""

    model = DealVersion
    extra = 0
    can_delete = False
    fields = readonly_fields = ("action", "reason", "changed_by", "changed_at", "record_before")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Deal)
class DealAdmin(ClubScoped):
    list_display = ["match", "number", "entered_by", "entered_at", "confirmed_at", "deleted_at"]
    list_filter = ["match__game", ("match__table__club_night__season", SeasonFilter)]
    list_select_related = ["match__table__club_night__season", "entered_by"]
    list_deferred = (
        "record",
        "event",
        "match__state",
        "match__rules",
        "match__table__club_night__season__rules",
    )
    ordering = ["-pk"]  # the newest first, from the primary key (not sorted by match)
    search_fields = ["match__pk"]
    inlines = [DealScoreInline, DealVersionInline]
    readonly_fields = ["pretty_record"]

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any):
        if obj is None:
            kwargs["form"] = DealAddForm
        return super().get_form(request, obj, change=change, **kwargs)

    def get_inlines(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        return [] if obj is None else self.inlines

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return ["match", "number", "record"] if obj is None else STORED_DEAL_FIELDS

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [] if obj is None else STORED_DEAL_FIELDS

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False if obj is not None else super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="record")
    def pretty_record(self, deal: Deal) -> str:
        return json.dumps(deal.record, ensure_ascii=False, indent=2)

    def save_model(self, request: HttpRequest, obj: Deal, form: forms.Form, change: bool) -> None:
        deal = actions.deals.enter_deal(
            form.cleaned_data["match"],
            form.cleaned_data["record"],
            user=access.signed_in(request.user),
            number=form.cleaned_data.get("number"),
        ).stored()
        obj.pk = deal.pk
        obj.number = deal.number

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        """The deal's scores were written by ``enter_deal``."""

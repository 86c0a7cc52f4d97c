"""The Django admin: site operators see every club; other staff users only the
clubs they administer (``ClubScoped``: lists, change pages and the choices of
every foreign key).

Deals are entered through ``actions.deals.enter_deal`` here too, so the
engine judges every record; a stored deal is read-only (corrections, with their
history, are a workflow of their own).
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.functional import cached_property
from django.utils.translation import gettext as _

import actions.deals
import actions.matches
import engine
from actions import after, members, renames, seasons
from tournaments import access, errors
from tournaments.messages import localize
from tournaments.models import (
    Club,
    ClubNight,
    Deal,
    DealScore,
    DealVersion,
    Match,
    Membership,
    Player,
    Season,
    Seat,
    Table,
    deal_count,
)


class CappedPaginator(Paginator):
    """Counts no further than ``CAP`` rows: a federation's million deals are not counted
    each time an operator opens the list (the list then says "10,000 or more")."""

    CAP = 10_000

    @cached_property
    def count(self) -> int:
        rows: Any = self.object_list  # a queryset: counted in the database
        return rows[: self.CAP + 1].count()

    @property
    def capped(self) -> bool:
        return self.count > self.CAP


class SeasonFilter(admin.RelatedFieldListFilter):
    """The seasons to filter by, each named with its club, in one query."""

    def field_choices(self, field: Any, request: HttpRequest, model_admin: Any) -> list[Any]:
        seasons = access.administered(Season.objects.select_related("club"), request.user)
        return [(s.pk, str(s)) for s in seasons.order_by("club__name", "name")]


class ClubScoped(admin.ModelAdmin):
    """Lists, change pages and foreign-key choices limited to the clubs the user administers.

    A list runs the same queries however large the federation: its count stops at
    ``CappedPaginator.CAP`` and the related objects of its rows come in its one query
    (``list_select_related``)."""

    paginator = CappedPaginator
    show_full_result_count = False
    show_facets = admin.ShowFacets.NEVER  # a count per filter choice: the whole table again

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return access.administered(super().get_queryset(request), request.user)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        related = db_field.related_model
        if related in access.PATHS:
            kwargs["queryset"] = access.administered(related._default_manager.all(), request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class MembershipFormSet(BaseInlineFormSet):
    """The club's memberships as the admin edits them: a club that has a league
    administrator keeps one (``actions.members``)."""

    def clean(self) -> None:
        super().clean()
        if (
            not self.instance.pk
            or not self.instance.memberships.filter(role=Membership.Role.ADMIN).exists()
        ):
            return
        kept = [
            form.cleaned_data
            for form in self.forms
            if form.cleaned_data and not form.cleaned_data.get("DELETE")
        ]
        if not any(data.get("role") == Membership.Role.ADMIN for data in kept):
            raise ValidationError(_("The club keeps at least one league administrator."))


class MembershipInline(admin.TabularInline):
    model = Membership
    formset = MembershipFormSet
    extra = 1
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(ClubScoped):
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        """The memberships saved, then checked again under the club's lock
        (``actions.members.check_administrators``): the form's own check ran before
        another administrator's change may have committed, so two saves demoting the
        last two administrators at once leave one.  Refused, the save's transaction is
        rolled back (:meth:`changeform_view`)."""
        super().save_related(request, form, formsets, change)
        members.check_administrators(form.instance)

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        """Django's, whose transaction a refusal leaves (rolled back): back to the form,
        the refusal said, nothing saved."""
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except errors.Rejection as refused:
            for problem in refused.errors:
                self.message_user(request, localize(problem), messages.ERROR)
            return HttpResponseRedirect(request.path)


@admin.register(Player)
class PlayerAdmin(ClubScoped):
    list_display = ["display_name", "name_ja", "handle", "club"]
    list_filter = ["club"]
    search_fields = ["display_name", "name_ja", "handle"]

    def save_model(self, request: HttpRequest, obj: Player, form: forms.Form, change: bool) -> None:
        renames.save_player(obj)  # a new handle rewrites the records that name the player


@admin.register(Season)
class SeasonAdmin(ClubScoped):
    list_display = ["name", "club", "starts_on", "ends_on", "require_confirmation", "public"]
    list_display += ["ranking"]
    list_filter = ["club", "require_confirmation"]
    search_fields = ["name"]
    readonly_fields = ["closed_at", "next_season"]  # set by closing it (scoring.divisions)

    def save_model(self, request: HttpRequest, obj: Season, form: forms.Form, change: bool) -> None:
        seasons.save_season(obj)  # a changed setting rebuilds what derives from it


class TableInline(admin.TabularInline):
    model = Table
    extra = 0


@admin.register(ClubNight)
class ClubNightAdmin(ClubScoped):
    list_display = ["date", "name", "season", "venue"]
    list_filter = ["season__club", ("season", SeasonFilter)]
    list_select_related = ["season__club"]
    ordering = ["-date", "-pk"]  # the index night_latest
    date_hierarchy = "date"
    inlines = [TableInline]


@admin.register(Table)
class TableAdmin(ClubScoped):
    list_display = ["name", "club_night", "scorer"]
    list_filter = [("club_night__season", SeasonFilter)]
    list_select_related = ["club_night__season", "scorer"]
    ordering = ["-pk"]  # the newest first, from the primary key (not sorted by night)


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
                    f"{e['path']}: {e['message']}" if e["path"] else e["message"]
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
                        f"{e['path'] or 'record'}: {e['message']} ({e['code']})"
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

"""The league's rows in the admin: clubs with their memberships (a club keeps an
administrator), players, seasons, nights with their tables."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.translation import gettext as _

from actions import members, renames, seasons
from tournaments import errors
from tournaments.messages import localize
from tournaments.models import (
    Club,
    ClubNight,
    Membership,
    Player,
    Season,
    Table,
)
from web.admin.base import ClubScoped, SeasonFilter


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


class SeasonAdminForm(forms.ModelForm):
    """A season as the admin edits it, refused by its action's checks before the save
    (``seasons.check_season``: its rules, the games it keeps), on the form's fields."""

    def validate_unique(self) -> None:
        """The form's last check, once the instance holds the form's values."""
        super().validate_unique()
        if self.errors:
            return
        try:
            seasons.check_season(self.instance)
        except ValidationError as refused:
            for field, problems in refused.message_dict.items():
                self.add_error(field if field in self.fields else None, problems)


@admin.register(Season)
class SeasonAdmin(ClubScoped):
    form = SeasonAdminForm
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

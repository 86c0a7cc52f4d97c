"""What every admin list shares: scoped to the clubs the user administers, counted no
further than a cap, seasons named with their club."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.views.main import ChangeList
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.functional import cached_property

from tournaments import access
from tournaments.models import Season


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


class LightChangeList(ChangeList):
    """A list that does not read the columns its admin names in ``list_deferred`` (a
    deal's record and rating event, a match's kept progress): a hundred rows of parsed
    JSON nobody sees made the list slow, and left the process a full garbage
    collection (about 100 ms) every few requests."""

    def get_queryset(self, request: HttpRequest, exclude_parameters: Any = None) -> Any:
        rows = super().get_queryset(request, exclude_parameters)
        deferred = getattr(self.model_admin, "list_deferred", ())  # ClubScoped's
        return rows.defer(*deferred) if deferred else rows


class ClubScoped(admin.ModelAdmin):
    """Lists, change pages and foreign-key choices limited to the clubs the user administers.

    A list runs the same queries however large the federation: its count stops at
    ``CappedPaginator.CAP`` and the related objects of its rows come in its one query
    (``list_select_related``)."""

    paginator = CappedPaginator
    list_deferred: tuple[str, ...] = ()  # columns a list does not read (LightChangeList)
    show_full_result_count = False
    show_facets = admin.ShowFacets.NEVER  # a count per filter choice: the whole table again

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return access.administered(super().get_queryset(request), request.user)

    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[ChangeList]:
        return LightChangeList

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        related = db_field.related_model
        if related in access.PATHS:
            kwargs["queryset"] = access.administered(related._default_manager.all(), request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

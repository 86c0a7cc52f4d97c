"""List filters whose choices are only what the user may read.

The browsable API renders each filter's form, and a related filter lists every
choice of its model: unscoped, that would name other clubs' seasons, tables
and matches.  ``ClubScopedFilterSet`` limits each related filter to
``access.visible``; the backend makes it the base of every ``filterset_fields``.
"""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.db import models
from django_filters.rest_framework import DjangoFilterBackend

from tournaments import access


class WholeNumberFilter(django_filters.NumberFilter):
    """A filter by a whole number the database can hold (an id, a deal's number).
    django-filter's ``NumberFilter`` takes any decimal, and one beyond 64 bits reached
    the database (a 500 on SQLite); here it is a 400 that says what and where, as a
    related filter's unknown id is."""

    field_class = forms.IntegerField

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", -(2**63))
        kwargs.setdefault("max_value", 2**63 - 1)
        super().__init__(*args, **kwargs)


_FILTERS = django_filters.rest_framework.FilterSet.FILTER_DEFAULTS


class ClubScopedFilterSet(django_filters.rest_framework.FilterSet):
    FILTER_DEFAULTS = {
        **_FILTERS,
        **{
            field: {"filter_class": WholeNumberFilter}
            for field in _FILTERS
            if issubclass(field, models.AutoField | models.IntegerField)
        },
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        user = getattr(self.request, "user", None)
        if user is None:
            return
        for flt in self.filters.values():
            model = getattr(getattr(flt, "queryset", None), "model", None)
            if model in access.PATHS:
                flt.queryset = access.visible(model._default_manager.all(), user)


class ClubScopedFilterBackend(DjangoFilterBackend):
    filterset_base = ClubScopedFilterSet

"""List filters whose choices are only what the user may read.

The browsable API renders each filter's form, and a related filter lists every
choice of its model: unscoped, that would name other clubs' seasons, tables
and matches.  ``ClubScopedFilterSet`` limits each related filter to
``access.visible``; the backend makes it the base of every ``filterset_fields``.
"""

from __future__ import annotations

from typing import Any

import django_filters
from django_filters.rest_framework import DjangoFilterBackend

from tournaments import access


class ClubScopedFilterSet(django_filters.rest_framework.FilterSet):
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

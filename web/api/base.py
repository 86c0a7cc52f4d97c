"""What every endpoint of the REST API shares: the role check, the club scoping, refusals."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import QuerySet
from rest_framework import permissions, status, viewsets
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import access, errors
from tournaments.messages import answered
from web.api.match_serializers import (
    DealSerializer,
)
from web.refusals import ADMINS_ONLY


class ClubRole(permissions.BasePermission):
    """Reads are scoped by ``access.visible``; a change needs the object's club administrator."""

    message = ADMINS_ONLY

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return access.can_administer(request.user, obj)


def deal_shown(deal: Any) -> Any:
    return DealSerializer(deal).data


def deny(allowed: bool, refusal: object) -> None:
    """403 saying ``refusal`` (a sentence of ``web.refusals``, or an action's own) unless
    ``allowed``."""
    if not allowed:
        raise PermissionDenied(str(refusal))


def rejection_response(
    rejection: errors.Rejection, shown: Callable[[Any], Any] | None = None
) -> Response:
    """A refusal's answer: 400, or 409 for the match's state (with the deal in the way,
    ``existing``: stored meanwhile under the number, or the previous deal a record
    repeats), 422 for a key used for another record.  ``shown`` gives what stands in the
    way as the answer shows it (``None``: left out); a deal by default."""
    body: dict[str, Any] = {"errors": answered(rejection.errors)}
    if rejection.existing is not None:
        existing = (shown or deal_shown)(rejection.existing)
        if existing is not None:
            body["existing"] = existing
    code: int = status.HTTP_409_CONFLICT if rejection.conflict else status.HTTP_400_BAD_REQUEST
    if any(e["code"] == "idempotency_key_reused" for e in rejection.errors):
        code = status.HTTP_422_UNPROCESSABLE_ENTITY
    return Response(body, status=code)


class ClubScopedViewSet(viewsets.ModelViewSet):
    """A club's set-up: members read it, its league administrators change it.

    ``parent`` names the foreign key that places a new object in a club; it only
    offers objects of the clubs the user administers, so another club's ids
    answer "does not exist".
    """

    permission_classes = [ClubRole]
    parent = ""

    def get_queryset(self) -> QuerySet[Any]:
        return access.visible(self.queryset.all(), self.request.user)  # type: ignore[union-attr]

    def get_serializer(self, *args: Any, **kwargs: Any) -> Any:
        """Also for the browsable API's forms, which list every choice of a related field."""
        serializer = super().get_serializer(*args, **kwargs)
        fields = getattr(serializer, "fields", {})
        if self.request is None:
            return serializer
        user = self.request.user
        if (field := fields.get(self.parent)) is not None:
            field.queryset = access.administered(field.queryset, user)
        for name in ("scorer", "user"):  # accounts: only the members of the user's clubs
            if (field := fields.get(name)) is not None:
                field.queryset = access.members(user)
        return serializer

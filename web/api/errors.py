"""Every API error has one shape: ``{"errors": [{"code", "path", "message"}, ...]}``.

The engine's errors already have it; this handler gives DRF's own errors
(validation, parse, authentication, permission, not found) the same shape.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.db.models import ProtectedError, RestrictedError
from django.http import Http404
from django.utils.translation import gettext, ngettext
from rest_framework.exceptions import APIException, ErrorDetail, Throttled, ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler

from tournaments.errors import Rejection
from tournaments.messages import answered


def _flatten(detail: Any, path: str) -> list[dict[str, str]]:
    if isinstance(detail, dict):
        errors = []
        for key, value in detail.items():
            if isinstance(key, int):  # a list field's item
                errors.extend(_flatten(value, f"{path}[{key}]"))
                continue
            key = "" if key in ("non_field_errors", "__all__") else str(key)
            errors.extend(_flatten(value, f"{path}.{key}" if path and key else path or key))
        return errors
    if isinstance(detail, list):
        if all(isinstance(item, ErrorDetail | str) for item in detail):
            return [e for item in detail for e in _flatten(item, path)]
        errors = []
        for i, item in enumerate(detail):
            errors.extend(_flatten(item, f"{path}[{i}]"))
        return errors
    code = getattr(detail, "code", None) or "invalid"
    return [{"code": str(code), "path": path, "message": str(detail)}]


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ProtectedError | RestrictedError):
        # Deleting a club, player, season… that deals or matches still refer to.
        names = sorted(
            {
                str(type(o)._meta.verbose_name_plural)
                for o in list(
                    exc.protected_objects
                    if isinstance(exc, ProtectedError)
                    else exc.restricted_objects
                )[:50]
            }
        )
        message = gettext("still used by %(names)s: delete or move those first") % {
            "names": ", ".join(str(n) for n in names)
        }
        return Response(
            {"errors": [{"code": "in_use", "path": "", "message": message}]}, status=409
        )
    if isinstance(exc, Rejection):  # a workflow's refusal reached through a model's save
        return Response({"errors": answered(exc.errors)}, status=400)
    response = exception_handler(exc, context)
    if response is None:
        return response
    if isinstance(exc, Http404):  # Django's words name the model, in English: ours
        response.data = {
            "errors": [{"code": "not_found", "path": "", "message": gettext("not found")}]
        }
        return response
    if isinstance(exc, DjangoPermissionDenied):
        response.data = {
            "errors": [
                {
                    "code": "permission_denied",
                    "path": "",
                    "message": str(exc) or gettext("not allowed"),
                }
            ]
        }
        return response
    if not isinstance(exc, APIException):
        return response
    if isinstance(exc, ValidationError):
        response.data = {"errors": _flatten(exc.detail, "")}
    elif isinstance(exc, Throttled):  # DRF fills its wait in before translating: half English
        wait = int(getattr(exc, "wait", None) or 1)  # set by DRF, not in its stubs
        said = ngettext(
            "Too many requests: try again in %(n)s second.",
            "Too many requests: try again in %(n)s seconds.",
            wait,
        )
        response.data = {
            "errors": [{"code": "throttled", "path": "", "message": said % {"n": wait}}]
        }
    else:
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else exc.default_code
        response.data = {"errors": [{"code": code, "path": "", "message": str(exc.detail)}]}
    return response

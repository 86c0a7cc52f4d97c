"""Every API error has one shape: ``{"errors": [{"code", "path", "message"}, ...]}``.

The engine's errors already have it; this handler gives DRF's own errors
(validation, parse, authentication, permission, not found) the same shape.
"""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import APIException, ErrorDetail, ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler


def _flatten(detail: Any, path: str) -> list[dict[str, str]]:
    if isinstance(detail, dict):
        errors = []
        for key, value in detail.items():
            if isinstance(key, int):  # a list field's item
                errors.extend(_flatten(value, f"{path}[{key}]"))
                continue
            key = "" if key == "non_field_errors" else str(key)
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
    response = exception_handler(exc, context)
    if response is None or not isinstance(exc, APIException):
        return response
    if isinstance(exc, ValidationError):
        response.data = {"errors": _flatten(exc.detail, "")}
    else:
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else exc.default_code
        response.data = {"errors": [{"code": code, "path": "", "message": str(exc.detail)}]}
    return response

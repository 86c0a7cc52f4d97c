"""``POST /api/clubs/<slug>/score-sheets/``: a club's past score sheets (``tournaments.sheets``),
for a secretary with many files: the page's checks, a dry run, all or nothing."""

from __future__ import annotations

import json
from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from actions import imports
from tournaments import access
from tournaments.errors import Rejection
from tournaments.messages import answered
from tournaments.models import Club
from tournaments.sheets import cells, check
from tournaments.sheets.preview import Preview
from web.api.base import deny
from web.api.parsers import not_json
from web.refusals import ADMINS_ONLY


def _answer(preview: Preview) -> dict[str, Any]:
    return {
        "counts": preview.counts(),
        "unknown_players": [
            {
                "name": name,
                "rows": rows,
                "suggestions": [p.handle for p in preview.suggestions.get(name, [])],
            }
            for name, rows in preview.unknown.items()
        ],
        "new_players": {name: p.handle for name, p in preview.new_players.items()},
        "new_seasons": list(preview.new_seasons),
    }


class ScoreSheetsView(APIView):
    """Check (``dry_run``) or import a CSV/XLSX file of past score sheets; every mistake
    comes back with its ``row`` and ``column`` and nothing is written.  ``players`` (a JSON
    object) answers the names the club does not know: ``"new"`` or a player's handle.
    The same file imported again adds nothing."""

    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [MultiPartParser]

    @extend_schema(
        request=inline_serializer(
            "ScoreSheetUpload",
            {
                "file": serializers.FileField(),
                "players": serializers.CharField(
                    required=False, help_text='JSON: {"name": "new" or a handle}'
                ),
                "dry_run": serializers.BooleanField(required=False, default=False),
            },
        ),
        responses={
            200: OpenApiResponse(description="checked (dry run), or nothing new"),
            201: OpenApiResponse(description="imported"),
            400: OpenApiResponse(description="mistakes by row and column; nothing written"),
        },
    )
    def post(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(access.visible(Club.objects.all(), request.user), slug=slug)
        deny(access.can_administer(request.user, club), ADMINS_ONLY)
        upload = request.FILES.get("file")
        if upload is None:
            raise ValidationError({"file": gettext("attach the CSV or XLSX file as 'file'")})
        try:
            answers = json.loads(request.data.get("players") or "{}")
        except (ValueError, RecursionError) as exc:
            raise ValidationError({"players": not_json(exc)}) from None
        if not isinstance(answers, dict) or not all(isinstance(v, str) for v in answers.values()):
            wrong = gettext("a JSON object of names, each 'new' or a player's handle")
            raise ValidationError({"players": wrong})
        dry_run = str(request.data.get("dry_run", "")).lower() in ("1", "true", "yes", "on")
        if upload.size is not None and upload.size > cells.MAX_BYTES:  # before reading it
            body = {
                "errors": [
                    {
                        "code": "too_large",
                        "path": "file",
                        "message": gettext("the file is larger than %(size)s bytes")
                        % {"size": cells.MAX_BYTES},
                    }
                ]
            }
            return Response(body, status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
        data = upload.read()
        try:
            if dry_run:
                preview = check.check(club, data, answers)
                if not preview.valid:
                    return Response({"errors": preview.errors, **_answer(preview)}, status=400)
                return Response({"dry_run": True, **_answer(preview)})
            done = imports.import_sheet(club, data, answers, user=access.signed_in(request.user))
        except imports.SheetRejected as rejected:
            body = {"errors": list(rejected.errors), **_answer(rejected.preview)}
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        except Rejection as rejection:  # not a sheet that can be read
            body = {"errors": answered(rejection.errors)}
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        added = done.preview.counts()["deals"] > 0
        return Response(
            {"dry_run": False, **_answer(done.preview), "seasons": done.season_ids},
            status=status.HTTP_201_CREATED if added else status.HTTP_200_OK,
        )

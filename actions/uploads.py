"""A score-sheet file kept between its preview and its import: the page's way in (the
API takes the file and its answers in one request, ``actions.imports``).

The file goes through these states, each stored in its ``SheetUpload`` row so that no
web process holds it:

1. **kept** (:func:`keep`): refused at once, and never kept, when no score sheet can be
   it (``cells.guard``: too large, a zip bomb, too many texts, a row beyond the last);
   a corrected file uploaded again carries the answers given for the club's last one;
2. **answered** (:func:`answer`): the administrator's answers for the names the club
   does not know;
3. **checked** (:func:`preview`): the preview for a set of answers and a language,
   kept, so that showing it again does not read the file again;
4. **imported** (:func:`import_kept`): checked again under the club's lock and written,
   and marked imported in the same transaction: its bytes are let go (its name and date
   stay as a record).  Two confirmations at once import it once; the second finds it
   imported.

A file never imported is deleted after :data:`KEEP_UPLOADS_DAYS`, or when the club has
uploaded :data:`KEEP_UPLOADS_WAITING` newer ones (every file may be 20 MB).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from typing import Any

from django.contrib.auth.models import User
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.utils import timezone
from django.utils.translation import get_language

from actions import imports
from tournaments.errors import Rejection
from tournaments.games import league_game
from tournaments.messages import localize
from tournaments.models import Club, SheetUpload
from tournaments.sheets import cells, check
from tournaments.sheets.preview import Preview

SHOWN = 200
"""Mistakes and matches a preview lists (the rest are counted)."""


def keep(club: Club, user: User | None, name: str, data: bytes) -> SheetUpload:
    """Keep an uploaded file for its preview; a :class:`Rejection` (nothing kept) when no
    score sheet can be it."""
    cells.guard(data)
    forget_old_uploads(club)
    before = club.sheet_uploads.filter(imported_at__isnull=True).order_by("-uploaded_at").first()
    kept = SheetUpload.objects.create(
        club=club,
        name=(name or "sheet")[:255],
        data=data,
        uploaded_by=user,
        answers=before.answers if before is not None else {},
    )
    # The club's last few files wait for their import, no more: each may be 20 MB.
    waiting = SheetUpload.objects.filter(club=club, imported_at__isnull=True)
    older = waiting.order_by("-uploaded_at", "-pk").values("pk")[KEEP_UPLOADS_WAITING:]
    SheetUpload.objects.filter(pk__in=[row["pk"] for row in older]).delete()
    return kept


def answer(kept: SheetUpload, answers: dict[str, str]) -> None:
    """Store the administrator's answers for the unknown names (name → "new" or a handle)."""
    if answers != kept.answers:
        SheetUpload.objects.filter(pk=kept.pk).update(answers=answers)
        kept.answers = answers


def import_kept(
    club: Club, kept: SheetUpload, answers: dict[str, str], user: User | None
) -> imports.Imported | None:
    """Import the kept file with ``answers`` and mark it imported, in one transaction;
    ``None`` when it was imported already (a second confirmation); the sheet's
    mistakes raised (``imports.SheetRejected``), nothing written.  The file is read
    before anything is locked (its bytes do not change until it is imported)."""
    if kept.imported_at is not None:
        return None
    rows = cells.read(bytes(kept.data))
    with transaction.atomic():
        locked = (
            SheetUpload.objects.select_for_update()
            .only("pk", "imported_at")
            .get(pk=kept.pk, club=club)
        )
        if locked.imported_at is not None:
            return None
        done = imports.import_sheet(club, rows, answers, user=user)
        locked.imported_at = timezone.now()
        locked.data = b""  # imported: the deals are the record now, the file is let go
        locked.preview = None
        locked.save(update_fields=["imported_at", "data", "preview"])
    kept.imported_at = locked.imported_at
    return done


def preview(club: Any, kept: SheetUpload, answers: dict[str, str]) -> dict[str, Any]:
    """What the preview page shows of the kept file with these answers (:func:`_view`):
    the one checked last when it was for the same answers and language, so that a view
    does not read the file again; else checked now and kept.  The import checks the
    file again under the club's lock, whatever the preview said."""
    key = hashlib.sha256(json.dumps([answers, get_language()], sort_keys=True).encode()).hexdigest()
    if kept.preview_for == key and kept.preview:
        view: dict[str, Any] = json.loads(bytes(kept.preview))
        return view
    try:
        view = _view(check.check(club, bytes(kept.data), answers))
    except Rejection as rejection:
        view = {"refused": [localize(problem) for problem in rejection.errors]}
    text = json.dumps(view, cls=DjangoJSONEncoder)
    SheetUpload.objects.filter(pk=kept.pk).update(preview=text.encode(), preview_for=key)
    checked: dict[str, Any] = json.loads(text)  # the same whether kept or just checked
    return checked


def _view(preview: Preview) -> dict[str, Any]:
    """The preview as the page shows it, in JSON: counts, the first mistakes and matches,
    the unknown names with the handles suggested, the new players and seasons."""
    matches = preview.to_add
    return {
        "counts": preview.counts(),
        "errors": preview.errors[:SHOWN],
        "more_errors": max(0, len(preview.errors) - SHOWN),
        "unknown": {name: rows for name, rows in preview.unknown.items()},
        "suggested": {
            name: [p.handle for p in found] for name, found in preview.suggestions.items()
        },
        "new_players": list(preview.new_players),
        "matches": [
            {
                "label": str(league_game(m.game).label),
                "names": ", ".join(m.names),
                # Each player's points over the match's deals, to check against the paper.
                "totals": [
                    [name, sum(d.result.scores.get(handle, 0) for d in m.deals)]
                    for name, handle in zip(m.names, m.handles, strict=False)
                ],
                "date": m.date.isoformat(),
                "deals": len(m.deals),
                "row": m.row,
                "season": m.season,
                "table": m.table,
                "finished": m.finished,
            }
            for m in matches[:SHOWN]
        ],
        "more_matches": max(0, len(matches) - SHOWN),
        "new_seasons": [
            {
                "name": s.name,
                "starts_on": s.starts_on,
                "ends_on": s.ends_on,
                "close": preview.close_seasons.get(s.name, ""),
            }
            for s in preview.new_seasons.values()
        ],
    }


KEEP_UPLOADS_DAYS = 7
"""How long an uploaded score sheet that was never imported is kept (docs/import.md)."""
KEEP_UPLOADS_WAITING = 3
"""A club's files kept for their import at most: a newer upload deletes the oldest."""


def forget_old_uploads(club: Club) -> int:
    """Delete the club's uploads never imported and older than :data:`KEEP_UPLOADS_DAYS`,
    and let go of the bytes of any imported one; returns how many were deleted."""
    before = timezone.now() - dt.timedelta(days=KEEP_UPLOADS_DAYS)
    SheetUpload.objects.filter(club=club, imported_at__isnull=False).exclude(data=b"").update(
        data=b""
    )
    deleted, _kinds = SheetUpload.objects.filter(
        club=club, imported_at__isnull=True, uploaded_at__lt=before
    ).delete()
    return deleted

"""Bringing a club's past score sheets in (``tournaments.sheets``): the templates, the
upload, the preview with the administrator's answers for unknown names, and the
confirmation that writes everything in one transaction.

The uploaded file is kept (``SheetUpload``) between the preview and the
confirmation, so that no web process holds it; the preview is checked again from
it on every view, and once more under the club's lock when it is confirmed.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments import access
from tournaments.games import LEAGUE_GAMES, league_game
from tournaments.messages import localize
from tournaments.models import Player, SheetUpload
from tournaments.records import Rejection
from tournaments.sheets import cells, check, template, write
from tournaments.sheets.check import Preview
from web.pages.setup import administered_club

SHOWN = 200
"""Mistakes and matches a preview lists (the rest are counted)."""


def sheet_template(request: HttpRequest, game: str, language: str, fmt: str) -> HttpResponse:
    """The blank template of a game, with headings in ``language``."""
    if game not in LEAGUE_GAMES or language not in ("en", "ja") or fmt not in template.FORMATS:
        raise Http404(_("No such template."))
    data = template.template(game, fmt, language)
    kind = "text/csv; charset=utf-8" if fmt == "csv" else template.XLSX_TYPE
    response = HttpResponse(data, content_type=kind)
    name = f"clubscore-{league_game(game).name_en.lower()}-{language}.{fmt}"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def sheet_import(request: HttpRequest, slug: str) -> HttpResponse:
    """The templates, and the upload of a filled one (kept, then previewed)."""
    club = administered_club(request, slug)
    if request.method == "POST":
        upload = request.FILES.get("sheet")
        if upload is None:
            messages.error(request, _("Choose a CSV or XLSX file of score sheets."))
            return redirect("sheet_import", slug=club.slug)
        if upload.size is not None and upload.size > cells.MAX_BYTES:
            messages.error(request, _("The file is larger than 20 MB: split it by season."))
            return redirect("sheet_import", slug=club.slug)
        kept = SheetUpload.objects.create(
            club=club, name=(upload.name or "sheet")[:255], data=upload.read(), uploaded_by=access.signed_in(request.user)
        )  # fmt: skip
        return redirect("sheet_preview", slug=club.slug, pk=kept.pk)
    language = "ja" if (get_language() or "").startswith("ja") else "en"
    games = [(name, game.label) for name, game in LEAGUE_GAMES.items()]
    uploads = club.sheet_uploads.select_related("uploaded_by")[:10]
    return render(request, "pages/setup/import.html",
                  {"club": club, "games": games, "language": language, "uploads": uploads})  # fmt: skip


def _answers(request: HttpRequest) -> dict[str, str]:
    """The administrator's answers for the unknown names (name → "new" or a handle)."""
    out: dict[str, str] = {}
    for key in request.POST:
        name = request.POST.get(key, "")
        if key.startswith("name-") and name:
            answer = request.POST.get("who-" + key.removeprefix("name-"), "")
            if answer:
                out[name] = answer
    return out


@login_required
@require_http_methods(["GET", "POST"])
def sheet_preview(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """What the kept file would add, every mistake by row and column; the answers for
    unknown names (``Check again``); and the confirmation (``Import``)."""
    club = administered_club(request, slug)
    kept = get_object_or_404(SheetUpload, club=club, pk=pk)
    answers = _answers(request) if request.method == "POST" else {}
    if request.method == "POST" and "import" in request.POST:
        try:
            done = write.import_sheet(
                club, bytes(kept.data), answers, user=access.signed_in(request.user)
            )
        except Rejection:
            messages.error(request, _("Nothing was imported: the sheet has mistakes (below)."))
        else:
            kept.imported_at = timezone.now()
            kept.save(update_fields=["imported_at"])
            counts = done.preview.counts()
            if counts["deals"]:
                messages.success(request, _("Imported %(deals)s deals in %(matches)s matches on %(nights)s club nights; the standings and ratings are being updated.") % counts)  # fmt: skip
            else:
                messages.info(request, _("Nothing new: every row of the file was imported before."))  # fmt: skip
            return redirect("club_setup", slug=club.slug)
    try:
        preview: Preview | None = check.check(club, bytes(kept.data), answers)
    except Rejection as rejection:
        preview = None
        for problem in rejection.errors:
            messages.error(request, localize(problem))
    return render(request, "pages/setup/import_preview.html", _context(club, kept, preview, answers))  # fmt: skip


def _context(club: Any, kept: SheetUpload, preview: Preview | None, answers: dict[str, str]) -> dict[str, Any]:  # fmt: skip
    context: dict[str, Any] = {"club": club, "upload": kept, "preview": preview}
    if preview is None:
        return context
    players = list(Player.objects.filter(club=club).order_by("display_name"))
    unknown = [
        {"name": name, "rows": rows[:5], "more": len(rows) - 5, "answer": answers.get(name, ""),
         "suggested": preview.suggestions.get(name, [])}
        for name, rows in preview.unknown.items()
    ]  # fmt: skip
    unknown += [
        {"name": name, "rows": [], "more": 0, "answer": answer, "suggested": []}
        for name, answer in answers.items() if name not in preview.unknown
    ]  # fmt: skip
    matches = preview.to_add
    context.update({
        "counts": preview.counts(), "errors": preview.errors[:SHOWN],
        "more_errors": max(0, len(preview.errors) - SHOWN), "unknown": unknown,
        "players": players, "new_players": list(preview.new_players),
        "matches": [{"match": m, "label": league_game(m.game).label, "names": ", ".join(m.names)} for m in matches[:SHOWN]],
        "more_matches": max(0, len(matches) - SHOWN),
        "new_seasons": list(preview.new_seasons.values()),
    })  # fmt: skip
    return context

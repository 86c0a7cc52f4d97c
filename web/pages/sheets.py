"""Bringing a club's past score sheets in (``tournaments.sheets``): the templates, the
upload, the preview with the administrator's answers for unknown names, and the
confirmation that writes everything in one transaction.

The kept file's states (kept, answered, checked, imported) are ``actions.uploads``;
this page translates requests into them and their outcomes into pages.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from actions import uploads
from tournaments import access
from tournaments.errors import Rejection
from tournaments.games import LEAGUE_GAMES, league_game
from tournaments.messages import localize
from tournaments.models import Player, SheetUpload
from tournaments.names import reading_order
from tournaments.sheets import cells, template
from web.pages.getters import administered_club


@require_safe
def sheet_template(
    request: HttpRequest, game: str, language: str, fmt: str, example: str | None = None
) -> HttpResponse:
    """The blank template of a game, with headings in ``language``; ``-example``: the
    template filled in with a few deals (the XLSX template's second sheet, for a CSV)."""
    if game not in LEAGUE_GAMES or language not in ("en", "ja") or fmt not in template.FORMATS:
        raise Http404(_("No such template."))
    data = template.template(game, fmt, language, filled=bool(example))
    kind = "text/csv; charset=utf-8" if fmt == "csv" else template.XLSX_TYPE
    response = HttpResponse(data, content_type=kind)
    name = f"clubscore-{league_game(game).name_en.lower()}-{language}{example or ''}.{fmt}"
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
            return _import_page(request, club, 400)
        if upload.size is not None and upload.size > cells.MAX_BYTES:
            messages.error(request, _("The file is larger than 20 MB: split it by season."))
            return _import_page(request, club, 413)
        try:
            kept = uploads.keep(
                club, access.signed_in(request.user), upload.name or "", upload.read()
            )
        except Rejection as refused:
            for problem in refused.errors:
                messages.error(request, localize(problem))
            return _import_page(request, club, 400)
        return redirect("sheet_preview", slug=club.slug, pk=kept.pk)
    return _import_page(request, club, 200)


def _imported(counts: dict[str, int]) -> str:
    """What an import added, each count with its own noun ("1 deal in 1 match on 1 club
    night")."""
    words = {
        "deals": ngettext("%(n)s deal", "%(n)s deals", counts["deals"]),
        "matches": ngettext("%(n)s match", "%(n)s matches", counts["matches"]),
        "nights": ngettext("%(n)s club night", "%(n)s club nights", counts["nights"]),
    }
    said = {key: word % {"n": counts[key]} for key, word in words.items()}
    return (
        _(
            "Imported %(deals)s in %(matches)s on %(nights)s; the standings and ratings are "
            "being updated."
        )
        % said
    )


def _import_page(request: HttpRequest, club: Any, status: int) -> HttpResponse:
    language = "ja" if (get_language() or "").startswith("ja") else "en"
    games = [(name, game.label) for name, game in LEAGUE_GAMES.items()]
    uploads = club.sheet_uploads.select_related("uploaded_by")[:10]
    return render(
        request,
        "pages/setup/import.html",
        {"club": club, "games": games, "language": language, "uploads": uploads},
        status=status,
    )


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
    if kept.imported_at is not None:
        messages.info(
            request,
            _("This file was imported on %(when)s.")
            % {"when": timezone.localtime(kept.imported_at).strftime("%Y-%m-%d %H:%M")},
        )
        return redirect("club_setup", slug=club.slug)
    answers = _answers(request) if request.method == "POST" else dict(kept.answers or {})
    if request.method == "POST":
        uploads.answer(kept, answers)
    if request.method == "POST" and "import" in request.POST:
        try:
            done = uploads.import_kept(club, kept, answers, access.signed_in(request.user))
        except Rejection:
            messages.error(request, _("Nothing was imported: the sheet has mistakes (below)."))
        else:
            counts = done.preview.counts() if done is not None else {"deals": 0}
            if counts["deals"]:
                messages.success(request, _imported(counts))
            else:
                messages.info(request, _("Nothing new: every row of the file was imported before."))
            if done is not None and len(done.season_ids) == 1:  # to what was imported
                return redirect("season", pk=done.season_ids[0])
            return redirect("club_setup", slug=club.slug)
    view = uploads.preview(club, kept, answers)
    for message in view.get("refused", []):
        messages.error(request, message)
    return render(request, "pages/setup/import_preview.html", _context(club, kept, view, answers))


def _context(
    club: Any, kept: SheetUpload, view: dict[str, Any], answers: dict[str, str]
) -> dict[str, Any]:
    context: dict[str, Any] = {"club": club, "upload": kept, "preview": "counts" in view}
    if "counts" not in view:
        return context
    players = reading_order(Player.objects.filter(club=club))
    by_handle = {p.handle: p for p in players}
    unknown = [
        {
            "name": name,
            "rows": rows[:5],
            "more": len(rows) - 5,
            "answer": answers.get(name, ""),
            "suggested": [by_handle[h] for h in view["suggested"].get(name, []) if h in by_handle],
        }
        for name, rows in view["unknown"].items()
    ]
    unknown += [
        {"name": name, "rows": [], "more": 0, "answer": answer, "suggested": []}
        for name, answer in answers.items()
        if name not in view["unknown"]
    ]
    context.update(
        {
            "counts": view["counts"],
            "errors": view["errors"],
            "more_errors": view["more_errors"],
            "mistakes": len(view["errors"]) + view["more_errors"],
            "unknown": unknown,
            "players": players,
            "new_players": view["new_players"],
            "matches": [
                {
                    "label": m["label"],
                    "names": m["names"],
                    "totals": m.get("totals"),  # none in a preview kept before they were
                    "match": {
                        **m,
                        "date": dt.date.fromisoformat(m["date"]),
                        "deals": range(m["deals"]),
                    },
                }
                for m in view["matches"]
            ],
            "more_matches": view["more_matches"],
            "new_seasons": [
                {**s, "starts_on": _day(s["starts_on"]), "ends_on": _day(s["ends_on"])}
                for s in view["new_seasons"]
            ],
        }
    )
    return context


def _day(text: str | None) -> dt.date | None:
    return dt.date.fromisoformat(text) if text else None

"""Downloads: a match's score sheet and a season's standings as CSV, XLSX or PDF."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

import engine
from scoring import exports
from scoring.queries import readable_match
from scoring.sheets import match_sheet
from tournaments.access import visible
from tournaments.models import Season

CONTENT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "pdf": "application/pdf",
}
BLANK_ROWS = {"comp13": 12, "packing": 15, "napoleon": 20, "rettler": 20,
              "twentytwo": 20, "1234": 15, "bhabhi": 15, "comrade": 5}  # fmt: skip
DEFAULT_SEATS = {"comp13": 4, "packing": 4, "napoleon": 4, "rettler": 6,
                 "twentytwo": 4, "1234": 4, "bhabhi": 5, "comrade": 3}  # fmt: skip


def _download(body: bytes, fmt: str, name: str) -> HttpResponse:
    response = HttpResponse(body, content_type=CONTENT_TYPES[fmt])
    response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
    return response


def match_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    match = readable_match(request.user, pk)
    sheet = match_sheet(match)
    header, rows = exports.sheet_table(sheet)
    name = f"match-{match.pk}-{match.game}"
    if fmt == "csv":
        return _download(exports.to_csv(header, rows), fmt, name)
    if fmt == "xlsx":
        return _download(
            exports.to_xlsx(match.game, header, rows, exports.sheet_title(sheet)), fmt, name
        )
    return _download(exports.to_pdf(exports.sheet_title(sheet), header, rows), fmt, name)


def season_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    season = get_object_or_404(visible(Season.objects.select_related("club"), request.user), pk=pk)
    header, rows = exports.standings_table(season)
    title = [f"{season.club.name} – {season.name}", _("Standings")]
    name = f"season-{season.pk}-standings"
    if fmt == "csv":
        return _download(exports.to_csv(header, rows), fmt, name)
    if fmt == "xlsx":
        return _download(exports.to_xlsx(_("Standings"), header, rows, title), fmt, name)
    return _download(exports.to_pdf(title, header, rows), fmt, name)


def blank_sheet(request: HttpRequest, game: str) -> HttpResponse:
    """A printable score sheet to fill in by hand, for tables that keep paper."""
    if game not in engine.GAMES:
        raise Http404(f"unknown game {game!r}")
    seats = DEFAULT_SEATS[game]
    header = [_("Deal"), *[_("Player %(n)s") % {"n": i + 1} for i in range(seats)], _("Note")]
    title = [
        f"Clubscore – {game}",
        _("Club") + ": ____________   " + _("Date") + ": ________   " + _("Table") + ": ______",
    ]
    return _download(
        exports.to_pdf(title, header, [], blank_rows=BLANK_ROWS[game]), "pdf", f"blank-{game}"
    )

"""A club night's attendance and table draw, the printable table list and each table's
paper score sheet with the players' names filled in."""

from __future__ import annotations

import random
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db.models import F
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_safe

import engine
from actions.seating import (
    AlreadySeated,
    Guest,
    PlannedTable,
    propose,
    seat_night,
    seated_scorer,
    take_attendance,
)
from scoring import paper, pdf
from scoring.queries import readable_match
from tournaments import access, table_links
from tournaments.draw import NoDraw
from tournaments.errors import Rejection
from tournaments.games import LEAGUE_GAMES
from tournaments.messages import localize
from tournaments.models import ClubNight, Player, Seat
from tournaments.textfile import whole_number
from web.downloads import download
from web.pages.getters import administered_night
from web.pages.setup_forms import AttendanceForm
from web.pages.tables import link_url, qr_svg, scorer_label
from web.previews import link_preview


def _scorers(night: ClubNight) -> list[Any]:
    """Who may keep a table's score: the club's scorers and administrators, each with the
    ``label`` a secretary knows them by: their player's name in the club (or their full
    name), then their account's name (「田中 一郎 (tanaka)」)."""
    club = night.season.club_id
    users: list[Any] = list(
        get_user_model()
        .objects.filter(memberships__club_id=club, memberships__role__in=access.KEEP_TABLES)
        .order_by("username")
    )
    players = Player.objects.filter(club_id=club, user__in=users)
    names = {p.user_id: p.shown_name for p in players}
    for user in users:
        user.label = scorer_label(names.get(user.pk) or user.get_full_name(), user)
    return users


def _proposal(
    request: HttpRequest,
    night: ClubNight,
    tables: list[dict[str, Any]],
    problems: list[str],
    games: list[str],
) -> HttpResponse:
    for table in tables:
        rules = engine.GAMES[table["game"]]
        n = len(table["players"])
        table["fits"] = n in rules.player_counts
        table["counts"] = ", ".join(str(c) for c in sorted(rules.player_counts))
    context = {
        "night": night,
        "tables": tables,
        "problems": problems,
        "games": [(g, LEAGUE_GAMES[g].label) for g in games],
        # The night's games at no table: the draw fits sizes to each game's best before
        # it uses every game (tournaments.draw.table_sizes); said, not left to be noticed.
        "unplayed": [LEAGUE_GAMES[g].label for g in games if g not in {t["game"] for t in tables}],
        "fewer_tables": len(tables) < len(games),  # the reason: too few tables for them all
        "scorers": _scorers(night),
        "numbers": range(1, len(tables) + 1),
    }
    return render(request, "pages/setup/proposal.html", context)


KEPT = "proposals"
"""The session's proposed tables, by night: a proposal survives a reload, the phone's
Back and a look at another page, guests typed at attendance and all, until its tables
are seated or the administrator starts again (``?again``).  In the session (the
database), not in a process."""


def _keep(
    request: HttpRequest, night: ClubNight, tables: list[dict[str, Any]], games: list[str]
) -> None:
    kept = request.session.get(KEPT, {})
    kept[str(night.pk)] = {
        "games": games,
        "tables": [
            {
                "game": t["game"],
                "scorer": t["scorer"],
                "players": [[p.pk, p.display_name if p.pk < 0 else ""] for p in t["players"]],
            }
            for t in tables
        ],
    }
    request.session[KEPT] = kept


def _drop(request: HttpRequest, night: ClubNight) -> dict[str, Any] | None:
    """Forget the proposal kept for ``night``; returns it (``None``: none was kept)."""
    kept = request.session.get(KEPT, {})
    dropped = kept.pop(str(night.pk), None)
    if dropped is not None:
        request.session[KEPT] = kept
    return dropped


def _kept(request: HttpRequest, night: ClubNight) -> tuple[list[dict[str, Any]], list[str]] | None:
    """The proposal kept for ``night``, its players as they are now (one since deleted
    left out); ``None``: none kept, or one of its players sits at the night already (it
    was seated, by another administrator too: a later draw for latecomers is kept)."""
    kept = request.session.get(KEPT, {}).get(str(night.pk))
    if kept is None:
        return None
    ids = [pid for t in kept["tables"] for pid, _name in t["players"] if pid > 0]
    if Seat.objects.filter(match__table__club_night=night, player_id__in=ids).exists():
        _drop(request, night)
        return None
    games = [g for g in kept["games"] if g in night.season.games]
    players = Player.objects.filter(club_id=night.season.club_id).in_bulk(ids)
    tables = []
    for t in kept["tables"]:
        seated = [players.get(pid) if pid > 0 else Guest(pid, name) for pid, name in t["players"]]
        if t["game"] in games and any(seated):
            tables.append(
                {"game": t["game"], "players": [p for p in seated if p], "scorer": t["scorer"]}
            )
    return (tables, games) if tables else None


@login_required
@require_http_methods(["GET", "POST"])
def night_draw(request: HttpRequest, pk: int) -> HttpResponse:
    """Attendance and the games of the night → proposed tables → (changed and) confirmed.
    A proposal is kept (:data:`KEPT`) and shown at this address until it is seated."""
    night = administered_night(request, pk)
    action = request.POST.get("action", "")
    if request.method == "POST" and action in ("review", "confirm"):
        return _review(request, night, confirm=action == "confirm")
    initial: dict[str, Any] = {}
    if request.method == "GET" and "again" in request.GET:
        dropped = _drop(request, night)
        if dropped is not None:  # the attendance as it was: its guests and games kept
            guests = [name for t in dropped["tables"] for pid, name in t["players"] if pid < 0]
            initial = {"guests": "\n".join(guests), "games": dropped["games"]}
    elif request.method == "GET" and (kept := _kept(request, night)) is not None:
        tables, games = kept
        return _proposal(request, night, tables, [], games)
    form = AttendanceForm(request.POST or None, night=night, initial=initial)
    if request.method == "POST" and action == "rounds":  # played in rounds: from who came
        ticked = [whole_number(p) for p in request.POST.getlist("present")]
        take_attendance(night, [p for p in ticked if p is not None])
        return redirect("night_rounds", pk=night.pk)
    if request.method == "POST" and form.is_valid():
        present = [int(p) for p in form.cleaned_data["present"]]
        take_attendance(night, present)
        # Guests become players of the club only when the tables are confirmed.
        guests = [Guest(-i, name) for i, name in enumerate(form.cleaned_data["guest_names"], 1)]
        present += [g.pk for g in guests]
        games = form.cleaned_data["games"]
        try:
            drawn = propose(
                night,
                present,
                games,
                seed=random.SystemRandom().randrange(2**31),
                mixed="together" in form.cleaned_data.get("divisions", []),
            )
        except NoDraw as exc:
            form.add_error("games", str(exc))
        else:
            scorers = {u.pk for u in _scorers(night)}
            players: dict[int, Any] = {
                **Player.objects.in_bulk(present),
                **{g.pk: g for g in guests},
            }
            me = access.signed_in(request.user)
            tables = [
                {
                    "game": t.game,
                    "players": [players[p] for p in t.players],
                    # A player at it who may score, else the secretary who drew it.
                    "scorer": seated_scorer([players[p] for p in t.players], scorers) or me.pk,
                }
                for t in drawn
            ]
            _keep(request, night, tables, games)
            return redirect("night_draw", pk=night.pk)  # a reload shows it again, not another
    seated = night.tables.count()  # said above the attendance: a later draw adds tables
    return render(
        request, "pages/setup/attendance.html", {"night": night, "form": form, "seated": seated}
    )


def _player_number(text: str) -> int | None:
    """A player's id, or a guest's number below zero, as the proposal posts them."""
    number = whole_number(text.removeprefix("-"))
    return None if number is None else -number if text.startswith("-") else number


def _whole(text: str | None, default: int) -> int:
    """The whole number a form field holds, or ``default`` when it holds none (a page
    changed by hand)."""
    number = whole_number(text)
    return default if number is None else number


def _review(request: HttpRequest, night: ClubNight, confirm: bool) -> HttpResponse:
    """The proposal as the administrator changed it: players moved, games changed."""
    games = [g for g in request.POST.getlist("games") if g in night.season.games]
    ids = [n for n in map(_player_number, request.POST.getlist("player")) if n is not None]
    count = min(_whole(request.POST.get("tables"), 0), len(ids))  # never more tables than players
    if not games or count < 1:  # not a proposal this page made: start again
        return redirect("night_draw", pk=night.pk)
    players: dict[int, Any] = Player.objects.filter(club_id=night.season.club_id).in_bulk(
        [i for i in ids if i > 0]
    )
    for number in (i for i in ids if i < 0):  # a guest: their name travels with the proposal
        name = request.POST.get(f"guest_{number}", "").strip()[
            : Player._meta.get_field("display_name").max_length
        ]
        if name:
            players[number] = Guest(number, name)
    scorers = {u.pk: u for u in _scorers(night)}
    tables: list[dict[str, Any]] = []
    for i in range(1, count + 1):
        game = request.POST.get(f"game_{i}", "")
        scorer = request.POST.get(f"scorer_{i}", "")
        tables.append(
            {
                "game": game if game in games else games[0],
                "players": [],
                "scorer": _whole(scorer, 0) or None,
            }
        )
    for order, pid in enumerate(ids):
        if pid not in players:
            continue
        chosen = _whole(request.POST.get(f"table_{pid}"), 1)
        index = chosen - 1 if 0 < chosen <= count else 0
        tables[index]["players"].append(
            (_whole(request.POST.get(f"seat_{pid}"), order), players[pid])
        )
    for table in tables:
        table["players"] = [p for _seat, p in sorted(table["players"], key=lambda sp: sp[0])]
    tables = [t for t in tables if t["players"]]
    problems: list[str] = []
    if confirm:
        planned = [
            PlannedTable(t["game"], t["players"], scorers.get(t["scorer"] or 0)) for t in tables
        ]
        try:
            made = seat_night(night, planned)
        except AlreadySeated:  # this draw was confirmed before (a double tap, Back and send)
            _drop(request, night)
            messages.info(request, _("These tables are seated already."))
            return redirect("night_tables", pk=night.pk)
        except Rejection as rejection:
            problems = [localize(e) for e in rejection.errors]
        else:
            _drop(request, night)
            seated = ngettext("%(n)s table is seated.", "%(n)s tables are seated.", len(made))
            messages.success(request, seated % {"n": len(made)})
            return redirect("night_tables", pk=night.pk)
    _keep(request, night, tables, games)  # as changed: what a reload shows
    return _proposal(request, night, tables, problems, games)


@require_safe
def night_tables(request: HttpRequest, pk: int) -> HttpResponse:
    """The night's tables for printing: game, players in seat order, scorer, paper sheets."""
    night = get_object_or_404(
        access.visible(ClubNight.objects.select_related("season__club"), request.user), pk=pk
    )
    tables = (
        night.tables.select_related("scorer", "round")
        .prefetch_related("matches__seats__player")
        .annotate(**table_links.phone_scorer())
        .order_by(F("round__number").asc(nulls_first=True), "name")  # the first seating first
    )
    if number := whole_number(request.GET.get("round")):  # one round's table list
        tables = tables.filter(round__number=number)
    # The table links and their QR codes: for the club's administrators only (a link is
    # the right to score the table).
    links = access.can_administer(request.user, night)
    rows = [
        {
            "table": t,
            **({"link": url, "qr": qr_svg(url)} if links and (url := link_url(request, t)) else {}),
        }
        for t in tables
    ]
    scorers = _scorers(night) if links else []
    return render(
        request,
        "pages/setup/tables.html",
        {
            "night": night,
            "rows": rows,
            "round_only": number,
            "links": links,
            "scorers": scorers,
            "link_preview": link_preview(request, night),
        },
    )


@require_safe
def paper_sheet(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The game's paper sheet with this match's players, club, date and table filled in
    (and for the club's administrators the table link's QR code)."""
    match = readable_match(request.user, pk)
    link = link_url(request, match.table) if access.can_administer(request.user, match) else ""
    return download(paper.match_paper(match, link), "pdf", f"paper-{match.pk}-{match.game}")


@require_safe
def night_paper(request: HttpRequest, pk: int) -> HttpResponse:
    """The night's paper in one PDF: the table list, then every table's named sheet (with
    the table links' QR codes for the club's administrators)."""
    night = get_object_or_404(
        access.visible(ClubNight.objects.select_related("season__club"), request.user), pk=pk
    )
    links = {}
    if access.can_administer(request.user, night):
        links = {t.pk: link_url(request, t) for t in night.tables.all()}
    response = HttpResponse(
        pdf.book(paper.night_paper(night, links)), content_type="application/pdf"
    )
    response["Content-Disposition"] = (
        f'attachment; filename="night-{night.date:%Y-%m-%d}-{night.pk}.pdf"'
    )
    return response

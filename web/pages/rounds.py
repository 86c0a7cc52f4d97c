"""A night in rounds on the app's own pages (issue 25, 5): the rounds with each table's
progress, the next round proposed, changed (a player moved to another table or out) and
confirmed, a round ended early.  The room display of such a night is ``web.pages.live``."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

import engine
from actions import confirmation, rounds
from scoring import draw_figures, finals
from tournaments import access, divisions, draw_plan, progress, round_state, seatings, table_links
from tournaments.errors import Rejection
from tournaments.games import LEAGUE_GAMES
from tournaments.messages import localize
from tournaments.models import ClubNight, Match, Player, Round
from tournaments.models.nights import TABLE_SIZES
from tournaments.names import reading_order, table_place
from tournaments.round_draw import Seating
from tournaments.textfile import whole_number
from web.pages.getters import administered_night


def _rounds(night: ClubNight) -> list[dict[str, Any]]:
    """The night's rounds, last first, each with its tables and its draw's figures."""
    figures = draw_figures.by_round(seatings.of_night(night))
    out = []
    for round_ in night.rounds.order_by("-number").prefetch_related("sat_out"):
        matches = (
            Match.objects.filter(table__round=round_)
            .select_related("table")
            .prefetch_related("seats__player")
            .annotate(entered=Count("deals", filter=Q(deals__deleted_at__isnull=True)))
            .order_by("table__name")
        )
        listed = list(matches)
        final = {f.match.pk: f.label for f in finals.final_matches(round_)}
        for m in listed:  # each game's own goal: deals of 12, points to 500, eliminations
            m.progress = progress.said(m)  # type: ignore[attr-defined]
            m.goal = engine.GAMES[m.game].goal  # type: ignore[attr-defined]
            m.final = final.get(m.pk, "")  # type: ignore[attr-defined]
        out.append({"round": round_, "matches": listed, "figures": figures.get(round_.number)})
    return out


@login_required
@require_http_methods(["GET", "POST"])
def night_rounds(request: HttpRequest, pk: int) -> HttpResponse:
    night = administered_night(request, pk)
    action = request.POST.get("action", "")
    problems: list[Any] = []
    if request.method == "POST" and action == "end":
        current = round_state.current(night)
        if current is not None:
            try:
                rounds.end_early(
                    current, access.signed_in(request.user), request.POST.get("reason", "")
                )
            except Rejection as refused:
                problems = [localize(e) for e in refused.errors]
            else:
                messages.success(request, _("Round %(n)s is ended.") % {"n": current.number})
                return redirect("night_rounds", pk=night.pk)
    if request.method == "GET" and "again" in request.GET:
        _drop_round(request, night)  # back to the round's choices
    elif request.method == "GET" and (kept := _kept_round(request, night)) is not None:
        return _proposal(request, night, *kept)
    form = _form(request, night)
    if request.method == "POST" and action in ("propose", "confirm"):
        try:
            if action == "propose":
                _keep_round(request, night, rounds.check_next_round(night, **_draw(form)), form)
                return redirect("night_rounds", pk=night.pk)  # a reload shows it again
            changed = _changed(request, night, form)
            try:
                made = rounds.seat_round(
                    night,
                    changed,
                    access.signed_in(request.user),
                    mixed=form["mixed"],
                    confirm_unqualified=request.POST.get("confirm_unqualified") == "1",
                ).round
            except Rejection as refused:
                if not any(e["code"] == "unqualified_final" for e in refused.errors):
                    raise
                asked = _(
                    "Tick “Draw the final anyway” to seat this final: nobody at a "
                    "final table has reached the qualifying minimum yet."
                )
                return _proposal(request, night, changed, form, [asked])
            _drop_round(request, night)
            messages.success(request, _("Round %(n)s is seated.") % {"n": made.number})
            return redirect("night_rounds", pk=night.pk)
        except Rejection as refused:
            problems = [_at_its_field(e) for e in refused.errors]
    current = round_state.current(night)
    return render(
        request,
        "pages/setup/rounds.html",
        {
            "night": night,
            "rounds": _rounds(night),
            "form": form,
            "problems": problems,
            "games": [(g, LEAGUE_GAMES[g].label) for g in night.season.games if g in LEAGUE_GAMES],
            "methods": Round.Method.choices,
            "players": reading_order(Player.objects.filter(club=night.season.club)),
            "unfinished": len(round_state.unfinished(current)) if current else 0,
            "waiting": _waiting(request, current),
            # The games a round gives a number of deals (the others end by their rules).
            "open_ended": ", ".join(
                str(LEAGUE_GAMES[g].label)
                for g in night.season.games
                if g in LEAGUE_GAMES and round_state.open_ended(g)
            ),
            "has_divisions": night.season.divisions.exists(),
            "seated_tables": night.tables.filter(round__isnull=True, matches__isnull=False)
            .distinct()
            .count(),
            "season_figures": draw_figures.of_season(night.season),
            "sizes": _bounds(),
        },
        status=400 if problems else 200,
    )


FIELDS = {"players": "field-players"}
"""The form's fields a refusal may name, by its path: the words link to them."""


def _at_its_field(problem: dict[str, str]) -> Any:
    """A refusal in words; one about a field of the form, with the field's id too (the
    summary links to it and the field says it again, beside the names)."""
    said = localize(problem)
    anchor = FIELDS.get(problem.get("path", ""))
    return {"message": said, "anchor": anchor} if anchor else said


KEPT_ROUND = "round_proposals"
"""The session's proposed round, by night: a reload (a phone that put the page away),
Back or a look at another page shows it again, until it is seated, drawn again, or the
administrator goes back to the round's choices (``?again``).  In the session (the
database), not in a process; a player moved in its selects is the form's alone."""


def _keep_round(
    request: HttpRequest, night: ClubNight, proposal: rounds.Proposal, form: dict[str, Any]
) -> None:
    kept = request.session.get(KEPT_ROUND, {})
    kept[str(night.pk)] = {
        "number": proposal.number,
        "game": proposal.game,
        "method": proposal.method,
        "deals": proposal.deals,
        "tables": proposal.seating.tables,
        "out": proposal.seating.sat_out,
        "plans": signed_plans(proposal, night),
        "designs": proposal.designs,
        "form": form,
    }
    request.session[KEPT_ROUND] = kept


def _drop_round(request: HttpRequest, night: ClubNight) -> None:
    kept = request.session.get(KEPT_ROUND, {})
    if kept.pop(str(night.pk), None) is not None:
        request.session[KEPT_ROUND] = kept


def _kept_round(
    request: HttpRequest, night: ClubNight
) -> tuple[rounds.Proposal, dict[str, Any]] | None:
    """The round proposed for ``night`` and its choices; ``None`` (and forgotten) when
    none is kept, its round was seated since (by another administrator too), or one of
    its players is no longer the club's."""
    kept = request.session.get(KEPT_ROUND, {}).get(str(night.pk))
    if kept is None:
        return None
    ids = {*(p for t in kept["tables"] for p in t), *kept["out"]}
    club = night.season.club_id
    if (
        Round.objects.filter(club_night=night, number__gte=kept["number"]).exists()
        or Player.objects.filter(club_id=club, pk__in=ids).count() != len(ids)
        or kept["game"] not in night.season.games
    ):
        _drop_round(request, night)
        return None
    proposal = rounds.Proposal(
        kept["number"],
        kept["game"],
        kept["method"],
        kept["deals"],
        Seating(kept["tables"], kept["out"]),
        _unsigned_plans(kept["plans"], night),
        tuple(tuple(d) for d in kept["designs"]),
    )
    return proposal, kept["form"]


def _bounds() -> dict[str, int]:
    return {"low": TABLE_SIZES[0], "high": TABLE_SIZES[1]}


def _waiting(request: HttpRequest, current: Round | None) -> list[tuple[Any, bool]]:
    """The current round's deals that wait for confirmation, each with whether the reader
    may confirm it with their account (``actions.confirmation``)."""
    if current is None:
        return []
    pending = round_state.waiting(current)
    who = confirmation.Confirmer(user=request.user, holder=table_links.holder(request.session))
    return [(d, confirmation.may_confirm(d, who)) for d in pending]


def _form(request: HttpRequest, night: ClubNight) -> dict[str, Any]:
    """The next round's choices: as posted, else as the action proposes them."""
    if request.method == "POST":
        return {
            "game": request.POST.get("game", ""),
            "method": request.POST.get("method", "balanced"),
            "deals": whole_number(request.POST.get("deals")),
            "size": whole_number(request.POST.get("size")),
            "others": request.POST.get("others", "balanced"),
            "players": [p for p in map(whole_number, request.POST.getlist("players")) if p],
            "mixed": request.POST.get("mixed") == "1",
        }
    return rounds.next_round_choices(night)


def _draw(form: dict[str, Any]) -> dict[str, Any]:
    game = form["game"]
    return {
        "game": game,
        "method": form["method"],
        "players": form["players"],
        "deals": form["deals"] if game in LEAGUE_GAMES and round_state.open_ended(game) else None,
        "size": form["size"],
        "others": form["others"],
        "mixed": form["mixed"],
    }


def _seeding(night: ClubNight, proposal: rounds.Proposal, form: dict[str, Any]) -> finals.Seeding:
    """The proposal's final tables and, on the season's final night, each player's seed."""
    return finals.seeding(
        night,
        proposal.game,
        proposal.method,
        proposal.seating.tables,
        proposal.seating.sat_out,
        mixed=form["mixed"],
    )


def _proposal(
    request: HttpRequest,
    night: ClubNight,
    proposal: rounds.Proposal,
    form: dict[str, Any],
    problems: list[str] | None = None,
) -> HttpResponse:
    names = Player.objects.in_bulk([*proposal.seating.seated, *proposal.seating.sat_out])
    found = _seeding(night, proposal, form)
    stored = seatings.of_night(night)  # the rounds so far: the figures and the repeats
    for pk, player in names.items():  # each seat's rank and figure (the final night)
        player.seed = found.seeds.get(pk)  # type: ignore[attr-defined]
    return render(
        request,
        "pages/setup/round_proposal.html",
        {
            "night": night,
            "proposal": proposal,
            "form": form,
            "tables": [[names[p] for p in t] for t in proposal.seating.tables],
            "sat_out": [names[p] for p in proposal.seating.sat_out],
            "numbers": range(1, len(proposal.seating.tables) + 1),
            "game_label": LEAGUE_GAMES[proposal.game].label,
            "table_divisions": _table_divisions(night, proposal, found),
            "seeding": found,
            "final_labels": [_final_label(found, i) for i in range(len(proposal.seating.tables))],
            "unqualified": [
                f"{_('Table')} {f.index + 1} · {_final_label(found, f.index)}"
                for f in found.unqualified
            ],
            "problems": problems or [],
            "plans": signed_plans(proposal, night),
            "method_label": Round.Method(proposal.method).label,
            "met_again": [
                (names[a], names[b], times)
                for (a, b), times in draw_figures.met_again(stored, proposal.seating.tables)
            ],
            "figures": draw_figures.proposed(
                night, stored, proposal.seating.tables, proposal.seating.sat_out
            ),
            "still_playing": _still_playing(night, proposal),
        },
        status=400 if problems else 200,
    )


def _still_playing(night: ClubNight, proposal: rounds.Proposal) -> list[dict[str, Any]]:
    """The open matches outside the night's rounds that players of the proposed round
    still sit at: each with its table and game (the round has its own "Table 1") and
    those players, for the page to say before the round is confirmed."""
    return [
        {
            "pk": match.pk,
            "table": f"{table_place(match.table)} · {LEAGUE_GAMES[match.game].label}",
            "names": [p.shown_name for p in players],
        }
        for match, players in round_state.still_playing(night, proposal.seating.seated)
    ]


def _final_label(found: finals.Seeding, index: int) -> str:
    """``Final table`` (of a division) for a final table of the proposal; else empty."""
    final = found.final_at(index)
    return "" if final is None else finals.table_label(final.division, found.by_division)


def _changed(request: HttpRequest, night: ClubNight, form: dict[str, Any]) -> rounds.Proposal:
    """The proposal as confirmed: each player at the table chosen for them (or out), in
    the order shown."""
    posted = [pid for pid in map(whole_number, request.POST.getlist("player")) if pid]
    # No more tables than players: a huge number builds nothing.
    count = min(whole_number(request.POST.get("tables")) or 0, len(posted))
    tables: list[list[int]] = [[] for _ in range(count)]
    out: list[int] = []
    for pid in posted:
        where = request.POST.get(f"table_{pid}", "")
        number = whole_number(where)
        if where == "out" or not number or not 0 < number <= count:
            out.append(pid)
        else:
            tables[number - 1].append(pid)
    tables = [t for t in tables if t]
    draw = _draw(form)
    return rounds.Proposal(
        whole_number(request.POST.get("number")) or 0,
        draw["game"],
        draw["method"],
        draw["deals"],
        Seating(tables, out),
        _unsigned_plans(request.POST.get("plans", ""), night),
    )


PLAN_SALT = "clubscore.rounds.plan"
"""The signature of a design begun by a proposal, carried by its form to the confirmation."""
PLAN_HOURS = 24
"""A proposal confirmed later than this begins no design (it is drawn again)."""


def signed_plans(proposal: rounds.Proposal, night: ClubNight) -> str:
    """The designs a proposal begins, signed for its night: the form carries them back
    when the secretary confirms, so that the seated round keeps them (nobody can forge
    one: the signature is the site's)."""
    if not proposal.plans:
        return ""
    return signing.dumps([p.as_json() for p in proposal.plans], salt=f"{PLAN_SALT}:{night.pk}")


def _unsigned_plans(text: str, night: ClubNight) -> tuple[draw_plan.Plan, ...]:
    try:
        data = signing.loads(text, salt=f"{PLAN_SALT}:{night.pk}", max_age=PLAN_HOURS * 3600)
    except signing.BadSignature:  # none, forged, from another night, or too old
        return ()
    return tuple(draw_plan.stored({"plans": data}))


def _table_divisions(
    night: ClubNight, proposal: rounds.Proposal, seeding: finals.Seeding
) -> list[str]:
    """Each table's division as the proposal shows it (``Division A``; a table drawn
    across divisions names each); empty in a season without divisions, and at a final
    table (its label names its division)."""
    out = []
    for i, found in enumerate(divisions.at_tables(night.season, proposal.seating.tables)):
        names = [d.name if d else _("no division") for d in found]
        if not names or seeding.final_at(i) is not None:
            out.append("")
        elif len(names) == 1 and found[0] is not None:
            out.append(_("Division %(name)s") % {"name": names[0]})
        else:
            out.append(_("Divisions %(names)s") % {"names": ", ".join(names)})
    return out

"""Corrections from the match page: correct a deal (its entry form, prefilled, with a
reason), delete and restore a deal, reopen a finished match.  Each button is shown
only to those allowed (``access``), and refused by the server anyway."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from actions import corrections
from scoring.sheets import match_sheet
from tournaments import access
from tournaments.errors import Rejection
from tournaments.messages import localize
from tournaments.models import Deal, Match
from web.pages import tables
from web.pages.entry import RANKS, SUIT_MARKS
from web.pages.forms import CorrectionForm
from web.pages.getters import visible_deal
from web.refusals import DEALS_ADMINS_ONLY, NOT_YOUR_MATCH, NOT_YOUR_TABLE


def _effect_line(effect: list[corrections.Effect], match: Match) -> str:
    """The season totals the change moved, each player by the name the table knows them
    by (the effect names them by handle, as the API does): ``Aki Sato 60 → 61``."""
    names = {p.handle: p.shown_name for p in match.seated_players()}
    changed = [e for e in effect if e.total_before != e.total_after]
    return ", ".join(
        f"{names.get(e.player, e.player)} {e.total_before} → {e.total_after}" for e in changed
    )


@require_http_methods(["GET", "POST"])
def correct_deal(request: HttpRequest, pk: int) -> HttpResponse:
    """Correct a deal: the table's scorer, an administrator, or whoever holds the table's
    link (``web.pages.tables``; the change is then marked "at table N")."""
    held = Deal.objects.select_related("match__table__club_night__season").filter(pk=pk).first()
    if held is not None and (gone := tables.withdrawn(request, held.match.table)) is not None:
        return gone
    if held is not None and tables.link_holder(request, held.match.table):
        deal, by_link = held, True
    elif not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    else:
        deal, by_link = visible_deal(request, pk), False
    match = deal.match
    if not by_link and not access.scores_table(request.user, match.table):
        raise PermissionDenied(NOT_YOUR_TABLE)
    if (first := tables.who_scores_first(request, match.table, by_link)) is not None:
        return first
    if request.method == "POST" and by_link and (busy := tables.too_fast(request, match.table)):
        return busy
    if request.method == "POST":
        form = CorrectionForm(request.POST, request.FILES, match=match, before=deal.number)
        if form.is_valid():
            record = form.record()
            if form.is_valid():
                try:
                    user, holder = tables.acting(request, by_link)
                    _changed, effect = corrections.correct_deal(
                        deal,
                        record,
                        user,
                        form.cleaned_data["reason"],
                        at_table=by_link,
                        holder=holder,
                    )
                except Rejection as rejection:
                    form.attach_engine_errors(rejection.errors)
                else:
                    messages.success(
                        request,
                        _("Deal %(n)s corrected. %(effect)s")
                        % {"n": deal.number, "effect": _effect_line(effect, match)},
                    )
                    if by_link:
                        return redirect("table", pk=match.table_id)
                    return redirect("match", pk=match.pk)
    else:
        handles = [p.handle for p in match.seated_players()]
        initial = CorrectionForm(match=match, before=deal.number).game.initial(deal.record, handles)
        form = CorrectionForm(match=match, before=deal.number, initial=initial)
    context = {
        "match": match,
        "deal": deal,
        "form": form,
        "sheet": match_sheet(match),
        "suit_marks": SUIT_MARKS,
        "ranks": RANKS,
    }
    response = render(request, "pages/correct.html", context)
    response["Cache-Control"] = "no-store"
    return response


def _reason(request: HttpRequest) -> str:
    return request.POST.get("reason", "").strip()


def _administer(
    request: HttpRequest, pk: int, change: Any, done: str, *, scorers: bool = False
) -> HttpResponse:
    """Delete or restore a deal (``change``) with the reason given; ``done`` says it.
    Administrators; with ``scorers`` also the table's scorer (as the API allows)."""
    deal = visible_deal(request, pk)
    allowed = access.can_administer(request.user, deal) or (
        scorers and access.scores_table(request.user, deal.match.table)
    )
    if not allowed:
        raise PermissionDenied(NOT_YOUR_TABLE if scorers else DEALS_ADMINS_ONLY)
    try:
        _d, effect = change(deal, access.signed_in(request.user), _reason(request))
    except Rejection as rejection:
        messages.error(request, "; ".join(localize(e) for e in rejection.errors))
    else:
        messages.success(
            request, done % {"n": deal.number, "effect": _effect_line(effect, deal.match)}
        )
    return redirect("match", pk=deal.match_id)


@login_required
@require_POST
def delete_deal(request: HttpRequest, pk: int) -> HttpResponse:
    return _administer(
        request, pk, corrections.delete_deal, _("Deal %(n)s deleted. %(effect)s"), scorers=True
    )


@login_required
@require_POST
def restore_deal(request: HttpRequest, pk: int) -> HttpResponse:
    return _administer(request, pk, corrections.restore_deal, _("Deal %(n)s restored. %(effect)s"))


@login_required
@require_POST
def reopen_match(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(access.visible(Match.objects.all(), request.user), pk=pk)
    if not access.can_administer(request.user, match):
        raise PermissionDenied(DEALS_ADMINS_ONLY)
    done = _("The match is open again: its deals can be corrected.")
    return _end_or_reopen(request, match, corrections.reopen_match, done)


@login_required
@require_POST
def end_match(request: HttpRequest, pk: int) -> HttpResponse:
    """ "End the match" as it stands (the table's scorer or an administrator, with a reason)."""
    match = get_object_or_404(
        access.visible(Match.objects.select_related("table"), request.user), pk=pk
    )
    if not access.scores_table(request.user, match.table):
        raise PermissionDenied(NOT_YOUR_MATCH)
    return _end_or_reopen(request, match, corrections.end_match, _("The match is ended."))


def _end_or_reopen(request: HttpRequest, match: Match, change: Any, done: str) -> HttpResponse:
    try:
        change(match, access.signed_in(request.user), _reason(request))
    except Rejection as rejection:
        messages.error(request, "; ".join(localize(e) for e in rejection.errors))
    else:
        messages.success(request, done)
    return redirect("match", pk=match.pk)

"""The table-side deal entry and the confirm button of a pending deal."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scoring.sheets import match_sheet
from tournaments import access, actions
from tournaments.access import visible
from tournaments.models import Deal, Match
from web.pages.forms import DealEntryForm


@login_required
@require_http_methods(["GET", "POST"])
def deal_entry(request: HttpRequest, pk: int) -> HttpResponse:
    """Table-side entry of the match's next deal, checked by the engine."""
    match = get_object_or_404(
        visible(
            Match.objects.select_related("table__club_night__season").prefetch_related(
                "seats__player"
            ),
            request.user,
        ),
        pk=pk,
    )
    if not access.scores_table(request.user, match.table):
        raise PermissionDenied(
            _("Only this table's scorer or a league administrator enters its deals.")
        )
    next_number = match.deals.count() + 1
    if request.method == "POST":
        form = DealEntryForm(request.POST, request.FILES, match=match)
        if form.is_valid():
            record = form.record()
            if form.is_valid():
                try:
                    deal = actions.enter_deal(
                        match,
                        record,
                        user=access.signed_in(request.user),
                        number=form.cleaned_data.get("number"),
                    )
                except actions.Rejection as rejection:
                    form.attach_engine_errors(rejection.errors)
                else:
                    scores = ", ".join(
                        f"{s.player.display_name} {s.score:+d}"
                        for s in deal.scores.select_related("player")
                    )
                    messages.success(
                        request,
                        _("Deal %(n)s saved: %(scores)s") % {"n": deal.number, "scores": scores},
                    )
                    return redirect("match", pk=match.pk)
    else:
        form = DealEntryForm(match=match, initial={"number": next_number})
    sheet = match_sheet(match)
    return render(
        request,
        "pages/deal_entry.html",
        {
            "match": match,
            "form": form,
            "sheet": sheet,
            "next_number": next_number,
        },
    )


@login_required
@require_http_methods(["POST"])
def confirm_deal(request: HttpRequest, pk: int) -> HttpResponse:
    """The match page's confirm button for a pending deal."""
    deal = get_object_or_404(visible(Deal.objects.select_related("match"), request.user), pk=pk)
    if not access.can_confirm(request.user, deal.match):
        raise PermissionDenied(
            _("Only a scorer, an administrator or a seated player confirms deals.")
        )
    try:
        actions.confirm_deal(deal, access.signed_in(request.user))
    except actions.Rejection as rejection:
        messages.error(request, str(rejection))
    else:
        messages.success(request, _("Deal %(n)s confirmed.") % {"n": deal.number})
    return redirect("match", pk=deal.match_id)

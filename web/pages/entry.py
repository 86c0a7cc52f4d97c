"""The table-side deal entry and the confirm button of a pending deal."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from scoring.sheets import match_sheet
from tournaments import access, actions, confirmation, table_links
from tournaments.access import visible
from tournaments.messages import localize
from tournaments.models import Deal, Match
from web.pages import tables
from web.pages.forms import DealEntryForm
from web.refusals import NOT_THIS_TABLE

SUIT_MARKS = [("S", "♠"), ("H", "♡"), ("D", "♢"), ("C", "♣")]
RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
"""The suit pad (Packing): a suit, then ranks."""


def _entry_match(request: HttpRequest, pk: int) -> tuple[Match | None, bool]:
    """The match whose next deal the request may enter, and whether it acts through the
    table's link (``web.pages.tables``) rather than an account: ``None`` for a reader
    who must sign in first; 404 for a match the reader cannot see, 403 for one they may
    only read; ``tables.LinkWithdrawn`` for a phone whose link of the table is gone."""
    match = (
        Match.objects.select_related("table__club_night__season")
        .prefetch_related("seats__player")
        .filter(pk=pk)
        .first()
    )
    if match is not None and access.scores_table(request.user, match.table):
        return match, False
    if match is not None and table_links.holds(request.session, match.table):
        return match, True
    if match is not None and (gone := tables.withdrawn(request, match.table)) is not None:
        raise tables.LinkWithdrawn(gone)
    if not request.user.is_authenticated:
        return None, False  # whatever the number: nothing said of the match
    if match is None or not visible(Match.objects.filter(pk=pk), request.user).exists():
        raise Http404
    raise PermissionDenied(NOT_THIS_TABLE)


def _same_as_previous(match: Match, record: dict[str, Any]) -> Deal | None:
    """The match's last active deal when ``record`` says exactly what it says, and the
    engine would store it (a refused record shows its problems instead)."""
    last = match.deals.filter(deleted_at__isnull=True).order_by("-number").first()
    if last is None or not record or "game" in record:
        return None
    if any(last.record.get(k) != v for k, v in record.items()):
        return None
    try:
        actions.check_next_deal(match, record)
    except actions.Rejection:
        return None
    return last


def _scores_line(deal: Deal) -> str:
    """The deal's scores in seat order, as the table sits."""
    scores = deal.scores.select_related("player").order_by("player__seats__position")
    return ", ".join(
        f"{s.player.display_name} {s.score:+d}"
        for s in scores.filter(player__seats__match_id=deal.match_id)
    )


@require_http_methods(["GET", "POST"])
def deal_entry(request: HttpRequest, pk: int) -> HttpResponse:
    """Table-side entry of the match's next deal, checked by the engine.

    Exactly once: the form carries a key made when it is shown (the page's script
    makes a new one for every entry it sends), stored with the deal; a resent form
    answers the deal it stored.  The page is never kept by the browser
    (``no-store``), so Back shows a fresh form.  A deal identical to the previous
    one is stored only once the scorer confirms it; a deal number taken meanwhile
    shows the stored deal beside the typed one, with the choice of keeping either.
    With ``Accept: application/json`` (the page's offline queue) the answer is JSON.
    """
    try:
        found, by_link = _entry_match(request, pk)
    except tables.LinkWithdrawn as gone:
        return gone.answer
    if found is None:
        return redirect_to_login(request.get_full_path())
    match = found
    wants_json = "application/json" in request.headers.get("Accept", "")
    next_number = match.deals.count() + 1
    stale: Deal | None = None
    stale_is_mine = False
    """The deal stored meanwhile is the very record typed (then "That is my deal" is true)."""
    same_as: Deal | None = None
    if (first := tables.who_scores_first(request, match.table, by_link)) is not None:
        return first
    if request.method == "POST" and by_link and (busy := tables.too_fast(request, match.table)):
        return busy
    if request.method == "POST":
        form = DealEntryForm(request.POST, request.FILES, match=match)
        if form.is_valid():
            record = form.record()
            if form.is_valid():
                key = form.cleaned_data.get("key") or None
                # A resend of a stored entry (its key known) answers the stored deal; only a
                # new entry is asked whether it is the same as the previous deal.
                if not form.cleaned_data.get("confirm_same") and not actions.is_resent(match, key):
                    same_as = _same_as_previous(match, record)
                if same_as is None:
                    try:
                        user, holder = tables.acting(request, by_link)
                        deal = actions.enter_deal(
                            match,
                            record,
                            user=user,
                            number=form.cleaned_data.get("number"),
                            key=key,
                            at_table=by_link,
                            holder=holder,
                        )
                    except actions.Rejection as rejection:
                        taken = rejection.existing is not None and any(
                            e["code"] == "deal_exists" for e in rejection.errors
                        )
                        if taken and rejection.existing is not None:
                            stale = rejection.existing
                            stale_is_mine = stale.request_hash == actions.request_hash(record)
                            form.offer_number(next_number)
                        else:
                            form.attach_engine_errors(rejection.errors)
                    else:
                        return _saved(request, match, deal, wants_json, by_link)
        if wants_json:
            return _refused_json(form, stale, same_as)
    else:
        form = DealEntryForm(match=match, initial={"number": next_number, "key": uuid.uuid4().hex})
    response = render(
        request,
        "pages/deal_entry.html",
        {
            "match": match,
            "form": form,
            "sheet": match_sheet(match),
            "next_number": next_number,
            "stale": stale,
            "stale_is_mine": stale_is_mine,
            "stale_scores": _scores_line(stale) if stale else "",
            "same_as": same_as,
            "suit_marks": SUIT_MARKS,
            "ranks": RANKS,
            "by_link": by_link,
            "pin_confirm": match.table.club_night.season.require_confirmation,
        },
    )
    response["Cache-Control"] = "no-store"
    return response


def _saved(
    request: HttpRequest, match: Match, deal: Deal, wants_json: bool, by_link: bool
) -> HttpResponse:
    """After a save: the next deal's form with the saved deal's scores on top (the match
    page once the match is over)."""
    line = _("Deal %(n)s saved: %(scores)s") % {"n": deal.number, "scores": _scores_line(deal)}
    finished = deal.match.status == Match.Status.FINISHED  # as enter_deal left it
    if finished:  # the table's page for a link-holder (the match page may be private)
        after = (
            reverse("table", kwargs={"pk": match.table_id})
            if by_link
            else reverse("match", kwargs={"pk": match.pk})
        )
    else:
        after = reverse("deal_entry", kwargs={"pk": match.pk})
    if "X-Clubscore-Queue" not in request.headers:  # a queued deal arrives in the background
        messages.success(request, line)
    if wants_json:
        return JsonResponse(
            {
                "status": "stored",
                "number": deal.number,
                "message": line,
                "replayed": deal.replayed,
                "next": after,
            }
        )
    return redirect(after)


def _refused_json(form: DealEntryForm, stale: Deal | None, same_as: Deal | None) -> JsonResponse:
    """Why a queued entry was not stored, for the page to show it for correction."""
    problems = [  # each problem with its field, as the page's summary says it
        f"{p['label']}: {p['message']}" if p["label"] else p["message"]
        for p in form.error_summary()
    ]
    if stale is not None:
        problems.append(
            _("Deal %(n)s was saved meanwhile: %(scores)s")
            % {"n": stale.number, "scores": _scores_line(stale)}
        )
    if same_as is not None:
        problems.append(_("Same as deal %(n)s: save again?") % {"n": same_as.number})
    status = "same" if same_as is not None else "stale" if stale is not None else "refused"
    return JsonResponse({"status": status, "errors": problems}, status=409 if stale else 422)


@login_required
@require_http_methods(["POST"])
def confirm_deal(request: HttpRequest, pk: int) -> HttpResponse:
    """The match page's confirm button for a pending deal (``tournaments.confirmation``)."""
    deal = get_object_or_404(visible(Deal.objects.select_related("match"), request.user), pk=pk)
    try:
        actions.confirm_deal(
            deal, access.signed_in(request.user), holder=table_links.holder(request.session)
        )
    except actions.Rejection as rejection:
        if rejection.errors[0]["code"] in confirmation.FORBIDDEN:
            raise PermissionDenied(localize(rejection.errors[0])) from None
        messages.error(request, "; ".join(localize(e) for e in rejection.errors))
    else:
        messages.success(request, _("Deal %(n)s confirmed.") % {"n": deal.number})
    back = request.POST.get("next", "")  # the rounds page confirms from its list
    if url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        return redirect(back)
    return redirect("match", pk=deal.match_id)


SERVICE_WORKER = Path(__file__).resolve().parents[2] / "static" / "clubscore" / "sw.js"


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker that keeps the entry page for use without a network; served at
    the site's root so that it may look after every page."""
    response = HttpResponse(SERVICE_WORKER.read_bytes(), content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def web_manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: the site installs on a phone's home screen and opens
    standalone, like an app (the service worker keeps the entry pages for use offline)."""
    icons = [
        {
            "src": static(f"clubscore/icon-{n}.png"),
            "sizes": f"{n}x{n}",
            "type": "image/png",
            "purpose": purpose,
        }
        for n, purpose in ((192, "any"), (512, "any"), (512, "maskable"))
    ]
    icons.append({"src": static("clubscore/favicon.svg"), "sizes": "any", "type": "image/svg+xml"})
    manifest = {
        "name": "Clubscore",
        "short_name": "Clubscore",
        "description": _("Scores of a card club's nights, entered at the table."),
        "lang": get_language(),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": THEME_COLOUR,
        "icons": icons,
    }
    response = JsonResponse(manifest, content_type="application/manifest+json")
    response["Cache-Control"] = "no-cache"
    return response


THEME_COLOUR = "#0f3d5e"
"""The site's header blue (site.css), the phone's bar colour for the installed app."""

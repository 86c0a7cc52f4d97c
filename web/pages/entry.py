"""The table-side deal entry and the confirm button of a pending deal."""

from __future__ import annotations

import uuid
from pathlib import Path

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

import actions.deals
from actions import confirmation
from actions.deals import Entry, Outcome
from scoring.sheets import match_sheet
from tournaments import access, errors, table_links
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


def _scores_line(deal: Deal) -> str:
    """The deal's scores in seat order, as the table sits."""
    scores = deal.scores.select_related("player").order_by("player__seats__position")
    return ", ".join(
        f"{s.player.shown_name} {s.score:+d}"
        for s in scores.filter(player__seats__match_id=deal.match_id)
    )


@require_http_methods(["GET", "POST"])
def deal_entry(request: HttpRequest, pk: int) -> HttpResponse:
    """Table-side entry of the match's next deal: the form, then what the entry came to
    (``actions.deals.enter_deal``) as a page, or as JSON for the page's offline queue
    (``Accept: application/json``).

    The form carries a key made when it is shown (the page's script makes a new one for
    every entry it sends), so a resent form answers the deal it stored.  The page is
    never kept by the browser (``no-store``): Back shows a fresh form.  A deal the same
    as the previous one waits for "save again"; a number taken meanwhile shows the
    stored deal beside the typed one, with the choice of keeping either.  A form sent
    with nothing in it (a second tap on Save, landed on the next deal's form) stores
    nothing and says which deal is the last saved.
    """
    try:
        match, by_link = _entry_match(request, pk)
    except tables.LinkWithdrawn as gone:
        return gone.answer
    if match is None:
        return redirect_to_login(request.get_full_path())
    if (first := tables.who_scores_first(request, match.table, by_link)) is not None:
        return first
    if request.method == "GET":
        initial = {"number": match.deals.count() + 1, "key": uuid.uuid4().hex}
        return _form_page(request, match, DealEntryForm(match=match, initial=initial), by_link)
    if by_link and (busy := tables.too_fast(request, match.table)):
        return busy
    form = DealEntryForm(request.POST, request.FILES, match=match)
    if form.untouched() and not _wants_json(request):
        messages.info(request, _nothing_entered(match))
        return redirect("deal_entry", pk=match.pk)
    entry = _entered(request, match, form, by_link)
    if entry is not None and entry.deal is not None and entry.outcome in STORED:
        return _saved(request, match, entry.deal, by_link)
    if entry is not None and entry.outcome == Outcome.NUMBER_TAKEN:
        form.offer_number(match.deals.count() + 1)
    elif entry is not None and entry.rejection is not None and entry.outcome == Outcome.REFUSED:
        form.attach_engine_errors(entry.rejection.errors)
    if _wants_json(request):
        return _refused_json(form, entry)
    return _form_page(request, match, form, by_link, entry)


STORED = (Outcome.STORED, Outcome.REPLAYED)


def _nothing_entered(match: Match) -> str:
    """Why a form sent with nothing in it stored nothing, saying which deal is the last
    stored (a second tap on Save lands on the next deal's empty form: the deal it was
    meant for is saved)."""
    stored = match.deals.filter(deleted_at__isnull=True).order_by("-number")
    last = stored.values_list("number", flat=True).first()
    if last is None:
        return _("Nothing was entered, so nothing was saved.")
    return _(
        "Nothing was entered, so nothing was saved. Deal %(number)s is saved: see the sheet below."
    ) % {"number": last}


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _entered(
    request: HttpRequest, match: Match, form: DealEntryForm, by_link: bool
) -> Entry | None:
    """The form's deal entered as the person at the table sent it; ``None`` when the form
    itself is wrong (its errors are on the form)."""
    if not form.is_valid():
        return None
    record = form.record()
    if not form.is_valid():
        return None
    user, holder = tables.acting(request, by_link)
    return actions.deals.enter_deal(
        match,
        record,
        user=user,
        number=form.cleaned_data.get("number"),
        key=form.cleaned_data.get("key") or None,
        at_table=by_link,
        holder=holder,
        ask_if_same=not form.cleaned_data.get("confirm_same"),
    )


def _form_page(
    request: HttpRequest,
    match: Match,
    form: DealEntryForm,
    by_link: bool,
    entry: Entry | None = None,
) -> HttpResponse:
    """The entry form (again, with what stopped the entry)."""
    stale = entry.deal if entry is not None and entry.outcome == Outcome.NUMBER_TAKEN else None
    same_as = entry.deal if entry is not None and entry.outcome == Outcome.SAME_AS else None
    response = render(
        request,
        "pages/deal_entry.html",
        {
            "match": match,
            "form": form,
            "sheet": match_sheet(match),
            "next_number": match.deals.count() + 1,
            "stale": stale,
            "stale_is_mine": stale is not None and entry is not None and entry.mine,
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


def _saved(request: HttpRequest, match: Match, deal: Deal, by_link: bool) -> HttpResponse:
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
    if _wants_json(request):
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


def _refused_json(form: DealEntryForm, entry: Entry | None) -> JsonResponse:
    """Why a queued entry was not stored, for the page to show it for correction."""
    problems = [  # each problem with its field, as the page's summary says it
        f"{p['label']}: {p['message']}" if p["label"] else p["message"]
        for p in form.error_summary()
    ]
    outcome = entry.outcome if entry is not None else Outcome.REFUSED
    if outcome == Outcome.NUMBER_TAKEN and entry is not None and entry.deal is not None:
        problems.append(
            _("Deal %(n)s was saved meanwhile: %(scores)s")
            % {"n": entry.deal.number, "scores": _scores_line(entry.deal)}
        )
    if outcome == Outcome.SAME_AS and entry is not None and entry.deal is not None:
        problems.append(_("Same as deal %(n)s: save again?") % {"n": entry.deal.number})
    status = {Outcome.SAME_AS: "same", Outcome.NUMBER_TAKEN: "stale"}.get(outcome, "refused")
    return JsonResponse(
        {"status": status, "errors": problems}, status=409 if status == "stale" else 422
    )


@login_required
@require_http_methods(["POST"])
def confirm_deal(request: HttpRequest, pk: int) -> HttpResponse:
    """The match page's confirm button for a pending deal (``actions.confirmation``)."""
    deal = get_object_or_404(visible(Deal.objects.select_related("match"), request.user), pk=pk)
    try:
        actions.deals.confirm_deal(
            deal, access.signed_in(request.user), holder=table_links.holder(request.session)
        )
    except errors.Rejection as rejection:
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

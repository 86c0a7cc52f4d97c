"""A table's own pages: scoring by the table's link with no account (issue 29, 2), the
table's page, and its link and scorer as a league administrator changes them.

``tournaments.table_links`` says how long a link works and what revoking does; the pages
where a seated player types their PIN (who scores on the phone, confirming a deal) are
``web.pages.pins``."""

from __future__ import annotations

from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from rest_framework.throttling import SimpleRateThrottle

from actions import seating
from actions import table_links as link_actions
from scoring.sheets import match_sheet
from tournaments import access, progress, table_links
from tournaments.errors import Rejection, error
from tournaments.messages import localize
from tournaments.models import LinkScorer, Match, Player, Seat, Table
from tournaments.names import night_label, table_place
from tournaments.textfile import whole_number
from web.pages.getters import administered_table
from web.refusals import LINKS_ADMINS_ONLY, SCORERS_ADMINS_ONLY


def link_holder(request: HttpRequest, table: Table) -> bool:
    """The request acts through the table's link: it holds the link and no account of it
    scores the table (a scorer who also opened the link acts as themselves)."""
    return not access.scores_table(request.user, table) and table_links.holds(
        request.session, table
    )


def may_score(request: HttpRequest, table: Table) -> bool:
    return access.scores_table(request.user, table) or table_links.holds(request.session, table)


def acting(request: HttpRequest, by_link: bool) -> tuple[Any, str]:
    """Who stores a change: the signed-in account (through the link too: a person who
    follows a link is no less the enterer) and, through the link, the phone's
    link-holder id.  An anonymous link-holder is ``None`` and the phone."""
    user = request.user if request.user.is_authenticated else None
    if user is None and not by_link:
        access.signed_in(request.user)  # refused: 403
    return user, table_links.holder(request.session) if by_link else ""


WHO_FIRST = gettext_lazy(
    "Say who scores on this phone first: your name and your PIN. What this phone enters is "
    "then yours, and another player confirms it."
)


def who_scores_first(request: HttpRequest, table: Table, by_link: bool) -> HttpResponse | None:
    """The answer to a phone that must say who scores on it before it enters or changes a
    deal (``table_links.must_bind``): the page that asks it, or, for the page's queue, a
    refusal in words; ``None``: go on."""
    if not by_link or not table_links.must_bind(request.session, table, request.user):
        return None
    url = reverse("table_who", args=[table.pk]) + "?" + urlencode({"next": request.path})
    if "application/json" in request.headers.get("Accept", ""):
        return JsonResponse({"status": "refused", "errors": [str(WHO_FIRST)]}, status=409)
    return redirect(url)


def link_url(request: HttpRequest, table: Table) -> str:
    """The table's link (made when it has none); ``""`` for a revoked table."""
    token = link_actions.ensure(table)
    return request.build_absolute_uri(reverse("table_link", args=[token])) if token else ""


GONE_TITLE = gettext_lazy("This table link no longer works")
WITHDRAWN = gettext_lazy(
    "A league administrator withdrew this table's link, or its night is over. Nothing more "
    "can be entered with it: ask for the table's new link."
)

REPLACED_TITLE = gettext_lazy("This table has a new link")
REPLACED = gettext_lazy(
    "This table's link was replaced: scan the new code at the table (or ask the organiser "
    "for it). Nothing is lost: a deal typed here is kept on this phone, and the entry page "
    "opened from the new link offers it."
)


class LinkEntries(SimpleRateThrottle):
    """Entries and corrections through one table's link, counted together whatever phone
    sends them, at the API's deal entry rate (``DEAL_ENTRY_RATE``), in the cache the
    API's rate limits use."""

    scope = "deal_entry"

    def __init__(self, table: Table) -> None:
        self.table = table
        super().__init__()

    def get_cache_key(self, request: Any, view: Any) -> str:
        return f"throttle_table_link_{self.table.pk}"


def too_fast(request: HttpRequest, table: Table) -> HttpResponse | None:
    """429 in words when the table's link sends more than its rate (``None``: go on)."""
    limit = LinkEntries(table)
    if limit.allow_request(request, None):  # type: ignore[arg-type]  # reads no request
        return None
    message = _("Too many entries through this table's link: wait a minute and save again.")
    if "application/json" in request.headers.get("Accept", ""):
        response: HttpResponse = JsonResponse({"status": "server", "errors": [message]}, status=429)
    else:
        context = {"title": _("Too many entries"), "explanation": message}
        response = render(request, "error.html", context, status=429)
    response["Retry-After"] = str(int(limit.wait() or 60))
    return response


class LinkWithdrawn(Exception):
    """Raised where a view finds that the phone's link of the table is gone; ``answer``
    is what the phone is told (:func:`withdrawn`)."""

    def __init__(self, answer: HttpResponse) -> None:
        super().__init__("table link withdrawn")
        self.answer = answer


def withdrawn(request: HttpRequest, table: Table) -> HttpResponse | None:
    """The answer to a phone whose link of ``table`` no longer works (410, in words; JSON
    for the page's queue), or ``None``.  The service worker drops its copy of the page on
    a 410 (``static/clubscore/sw.js``)."""
    if access.scores_table(request.user, table) or not table_links.withdrawn(
        request.session, table
    ):
        return None
    title, explanation = (
        (REPLACED_TITLE, REPLACED) if table_links.replaced(table) else (GONE_TITLE, WITHDRAWN)
    )
    if "application/json" in request.headers.get("Accept", ""):
        return JsonResponse({"status": "withdrawn", "errors": [str(explanation)]}, status=410)
    context = {"title": title, "explanation": explanation}
    return render(request, "error.html", context, status=410)


def qr_svg(url: str) -> str:
    """The link as a QR code, an SVG data URI for an ``<img>``: with the quiet zone of
    four modules that ISO/IEC 18004 asks, so that a phone finds it beside the page's
    other lines."""
    return segno.make(url, error="m").svg_data_uri(scale=4, border=4)


@require_safe
def follow_link(request: HttpRequest, token: str) -> HttpResponse:
    """A phone opens the table's link: it keeps the table in its session and goes to the
    table's page."""
    table = table_links.named_by(token)
    if table is not None and table_links.early(table):
        explanation = _(
            "This table's link works at its night, %(night)s, and the day after: scan it "
            "again then. Nothing is wrong with the code."
        ) % {"night": night_label(table.club_night)}
        context = {"title": _("This table link works from its night"), "explanation": explanation}
        return render(request, "error.html", context, status=403)
    if table is None or not table_links.in_time(table):
        return render(
            request,
            "error.html",
            {
                "title": GONE_TITLE,
                "explanation": _(
                    "A table link works on the night and the day after, until a league "
                    "administrator makes a new one. Ask for the table's current link."
                ),
            },
            status=410,
        )
    table_links.remember(request.session, table)
    return redirect("table", pk=table.pk)


def usable_table(request: HttpRequest, pk: int) -> Table | HttpResponse:
    """The table the request may use (by its link or as its scorer), or the answer for a
    reader who may not: sent to sign in (an anonymous reader, whether or not the table
    exists), told that the phone's link was withdrawn, or 404 (a signed-in reader who may
    not use it, whether or not it exists: another club's answers as no table)."""
    table = Table.objects.select_related("club_night__season__club").filter(pk=pk).first()
    if table is not None and may_score(request, table):
        return table
    if table is not None and (gone := withdrawn(request, table)) is not None:
        return gone
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raise Http404


@require_http_methods(["GET"])
def table_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The table's matches, each with its sheet, the next deal's button and a PIN
    confirmation for its pending deals."""
    table = usable_table(request, pk)
    if isinstance(table, HttpResponse):
        return table
    matches = (
        Match.objects.filter(table=table)
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
        )
        .order_by("-created_at")
    )
    return render(
        request,
        "pages/table.html",
        {
            "table": table,
            "night": table.club_night,
            "by_link": link_holder(request, table),
            "matches": [(_with_progress(m), match_sheet(m)) for m in matches],
            "pin_confirm": table.club_night.season.require_confirmation,
            "scorers": _phone_scorers(request, table),
        },
    )


def _with_progress(match: Match) -> Match:
    """The match with its game's own progress said (``progress``: "3 of 12 deals")."""
    match.progress = progress.said(match)  # type: ignore[attr-defined]
    return match


def _phone_scorers(request: HttpRequest, table: Table) -> list[Player]:
    """The players who said they score on this phone at the table (a link-holder's)."""
    phone = table_links.holder(request.session)
    if not phone or not link_holder(request, table):
        return []
    bound = LinkScorer.objects.filter(table=table, holder=phone).values("player_id")
    return list(Player.objects.filter(pk__in=bound).order_by("display_name"))


@login_required
@require_POST
def table_link_change(request: HttpRequest, pk: int) -> HttpResponse:
    """A league administrator makes a new link for the table (the old one stops), or
    revokes it."""
    table = administered_table(request, pk, LINKS_ADMINS_ONLY)
    if request.POST.get("action") == "revoke":
        link_actions.revoke(table)
        messages.success(
            request, _("The link of %(table)s no longer works.") % {"table": table.name}
        )
    else:
        link_actions.make(table)
        messages.success(
            request,
            _("%(table)s has a new link; the old one no longer works.") % {"table": table.name},
        )
    return redirect("night_tables", pk=table.club_night_id)


def scorer_label(name: str | None, user: Any) -> str:
    """A scorer as a secretary knows them: the name the club knows (their player's, or
    their full name), then their account's (「田中 一郎 (tanaka)」); else the account's."""
    return f"{name} ({user.get_username()})" if name else user.get_username()


@login_required
@require_POST
def table_scorer(request: HttpRequest, pk: int) -> HttpResponse:
    """A league administrator makes a scorer of the club (one who joined after the draw,
    say) the table's scorer, or leaves the table without one (``seating.set_scorer``)."""
    table = administered_table(request, pk, SCORERS_ADMINS_ONLY)
    given = request.POST.get("scorer", "").strip()  # "": nobody
    chosen = whole_number(given) if given else None
    scorer = get_user_model().objects.filter(pk=chosen).first() if chosen else None
    try:
        if given and scorer is None:
            raise Rejection((error("not_a_scorer", "scorer", seating.NO_SUCH_SCORER),))
        seating.set_scorer(table, scorer)
    except Rejection as refused:
        messages.error(request, "; ".join(localize(e) for e in refused.errors))
    else:
        club = table.club_night.season.club_id
        named = scorer_label(access.person(scorer, club), scorer) if scorer else "—"
        messages.success(
            request,
            _("%(table)s: scorer %(scorer)s.") % {"table": table_place(table), "scorer": named},
        )
    # Back to the list the change was made on: a round's tables, or the night's.
    shown = f"?round={table.round.number}" if table.round is not None else ""
    return redirect(
        reverse("night_tables", kwargs={"pk": table.club_night_id}) + f"{shown}#table-{table.pk}"
    )

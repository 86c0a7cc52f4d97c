"""The pages where a seated player types their PIN on the table's phone (issue 29, 3;
issue 55): saying who scores on a phone that holds the table's link, and confirming a
pending deal; and a player setting their own PIN.  A player with no PIN yet types the
first PIN of their night's slip instead, then may choose their own PIN on the spot; the
league administrator prints the slips (issue 56, 3).

``actions.pins`` checks a PIN and counts wrong ones (a PIN is not a password);
``tournaments.pin_slips`` makes the slips; ``actions.confirmation`` says who may
confirm what; ``tournaments.table_links`` keeps who scores on a phone.

Choosing a PIN after a slip is offered to the player who just typed it, on that phone
alone (a grant in its session: one player, one table, ``CHOICE_SECONDS``), and ends with
the PIN saved, with *Not now*, or with the next name and PIN typed on the phone."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

import engine
from actions import confirmation, pins
from actions import table_links as link_actions
from scoring.sheets import match_sheet
from tournaments import history, pin_slips, table_links
from tournaments.errors import Rejection
from tournaments.games import LEAGUE_GAMES
from tournaments.messages import localize
from tournaments.models import Deal, Player, Table
from tournaments.names import reading_order
from tournaments.records import match_envelope
from web.pages.getters import administered_night
from web.pages.tables import link_holder, usable_table

CHOICE_KEY = "pin_choice"
CHOICE_SECONDS = 180
SKIPPED_KEY = "pin_choice_skipped"
"""The players who said "later" to choosing their own PIN on this phone, by table: not
asked again at that table (a player confirming four deals with their slip is asked once)."""
"""How long the phone offers the player who just typed their slip to choose a PIN."""


@dataclass(frozen=True)
class Named:
    """A seated player who proved who they are: by their PIN, or by their slip."""

    player: Player
    by_slip: bool


def named_player(
    request: HttpRequest, template: str, context: dict[str, Any]
) -> Named | HttpResponse:
    """The player of ``context["seated"]`` whom the posted form names, with their PIN (or,
    with none, their slip for the table's night) right; else the page to answer: the form
    (a GET, or what is wrong in the form's words), or the lock-out page after too many
    wrong PINs.  A player with no PIN who types no slip is told so, and that is not a
    wrong try."""
    if request.method != "POST":
        return _form(request, template, context, "")
    request.session.pop(CHOICE_KEY, None)  # the phone is someone else's turn now
    seated: list[Player] = context["seated"]
    table: Table = context["table"]
    player = next((p for p in seated if str(p.pk) == request.POST.get("player")), None)
    if player is None:
        return _form(request, template, context, _("Pick your name."))
    typed = request.POST.get("pin", "").strip()
    name = {"name": player.shown_name}
    if not player.pin and not pin_slips.looks_like_slip(typed):
        no_pin = _(
            "%(name)s has no PIN yet: type the six digits of %(name)s's PIN slip. A league "
            "administrator prints the night's PIN slips."
        )
        return _form(request, template, context, no_pin % name)
    checked = pins.check(player, typed, table.club_night_id)
    if checked is pins.Check.LOCKED:
        return _locked_out(request, player, table)
    if checked is pins.Check.WRONG:
        if not player.pin:
            wrong = _("That is not the first PIN of %(name)s's slip for this night.") % name
        elif pin_slips.is_first_pin(player, table.club_night_id, typed):
            wrong = _("%(name)s has chosen a PIN of their own: the slip no longer works.") % name
        else:
            wrong = _("That PIN is not %(name)s's.") % name
        return _form(request, template, context, f"{wrong} {_tries_left(player)}")
    return Named(player, checked is pins.Check.SLIP)


def safe_next(request: HttpRequest, default: str) -> str:
    """The ``next`` of the query (or form) when it is a page of this site, else ``default``."""
    back = request.POST.get("next") or request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        back = ""
    return back or default


def _offer_a_pin(request: HttpRequest, named: Named, table: Table, back: str) -> HttpResponse:
    """Where to go after a right name and PIN: ``back``, or first, after a slip, the page
    that offers that player to choose their own PIN."""
    skipped = request.session.get(SKIPPED_KEY, {}).get(str(table.pk), [])
    if not named.by_slip or named.player.pk in skipped:
        return redirect(back)
    until = int(time.time()) + CHOICE_SECONDS
    request.session[CHOICE_KEY] = {"table": table.pk, "player": named.player.pk, "until": until}
    return redirect(reverse("own_pin", args=[table.pk]) + "?" + urlencode({"next": back}))


def _tries_left(player: Player) -> str:
    """How many wrong tries the player has left, said after a wrong one (or that they have
    none left now), so that nobody is locked out by surprise."""
    left = pins.tries_left(player)
    if left == 0:
        return _lock_explained(player)
    minutes = max(1, settings.SIGN_IN_LOCKOUT_SECONDS // 60)
    return ngettext(
        "%(n)s more wrong PIN and %(name)s waits %(m)s minutes.",
        "%(n)s more wrong PINs and %(name)s waits %(m)s minutes.",
        left,
    ) % {"n": left, "name": player.shown_name, "m": minutes}


def _lock_explained(player: Player) -> str:
    minutes = max(1, settings.SIGN_IN_LOCKOUT_SECONDS // 60)
    return ngettext(
        "Too many wrong PINs for %(name)s: try again in %(n)s minute, or use another "
        "player's name and PIN.",
        "Too many wrong PINs for %(name)s: try again in %(n)s minutes, or use another "
        "player's name and PIN.",
        minutes,
    ) % {"name": player.shown_name, "n": minutes}


def _locked_out(request: HttpRequest, player: Player, table: Table) -> HttpResponse:
    context = {
        "title": _("Too many wrong PINs"),
        "explanation": _lock_explained(player),
        "back": reverse("table", args=[table.pk]),
    }
    return render(request, "error.html", context, status=429)


def _form(request: HttpRequest, template: str, context: dict[str, Any], error: str) -> HttpResponse:
    return render(request, template, {**context, "error": error}, status=422 if error else 200)


@require_http_methods(["GET", "POST"])
def table_who(request: HttpRequest, pk: int) -> HttpResponse:
    """A phone that holds the table's link says who scores on it: a seated player's name
    and PIN (``actions.table_links.bind``).  A scorer with an account acts as themselves and is
    sent back to the table."""
    table = usable_table(request, pk)
    if isinstance(table, HttpResponse):
        return table
    back = safe_next(request, reverse("table", args=[table.pk]))
    if not link_holder(request, table):
        return redirect(back)
    # In the order a reader looks names up (a dictionary's kana order on a Japanese page),
    # not by the characters' code points (伊藤, 小林, 松本, 高橋).
    seated = reading_order(Player.objects.filter(seats__match__table=table).distinct())
    named = named_player(request, "pages/table_who.html", {"table": table, "seated": seated})
    if isinstance(named, HttpResponse):
        return named
    link_actions.bind(table, table_links.holder(request.session), named.player)
    messages.success(
        request, _("%(name)s scores on this phone.") % {"name": named.player.shown_name}
    )
    return _offer_a_pin(request, named, table, back)


@require_http_methods(["GET", "POST"])
def confirm_with_pin(request: HttpRequest, pk: int) -> HttpResponse:
    """A seated player confirms a pending deal on the scorer's phone: their name, their
    PIN (or slip).  Open to whoever may enter the table's deals (the phone at the table);
    the names offered are those ``actions.confirmation`` lets confirm on this phone.
    The page shows the deal as the match's sheet has it (its seats' scores and the game's
    own words on it); ``next`` (a page of the site: the rounds page) is where it ends."""
    found = Deal.objects.select_related("match__table__club_night__season__club").filter(pk=pk)
    deal = found.first()
    table = usable_table(request, deal.match.table_id if deal is not None else 0)
    if isinstance(table, HttpResponse):
        return table
    assert deal is not None  # a table was found through it
    phone = table_links.holder(request.session)
    seated = [
        p
        for p in Player.objects.filter(seats__match=deal.match).order_by("seats__position")
        if confirmation.may_confirm(deal, confirmation.Confirmer(player=p, holder=phone))
    ]
    back = safe_next(request, reverse("table", args=[table.pk]))
    context = {"deal": deal, "seated": seated, "table": table, "back": back, **_summary(deal)}
    named = named_player(request, "pages/confirm_pin.html", context)
    if isinstance(named, HttpResponse):
        return named
    try:
        confirmation.confirm(deal, confirmation.Confirmer(player=named.player, holder=phone))
    except Rejection as refused:
        return _form(
            request,
            "pages/confirm_pin.html",
            context,
            "; ".join(localize(e) for e in refused.errors),
        )
    messages.success(
        request,
        _("Deal %(n)s confirmed by %(name)s.")
        % {"n": deal.number, "name": named.player.shown_name},
    )
    return _offer_a_pin(request, named, table, back)


def _summary(deal: Deal) -> dict[str, Any]:
    """The deal as the match page shows it: its ``row`` of the match's sheet (each seat's
    score, ``players`` in seat order, the game's own note) and its record's ``fields`` as
    the history of changes words them (the declaration, the counts; a full play by the
    summary it comes to), ``more`` of them not listed."""
    match = deal.match
    sheet = match_sheet(match)
    row = next((r for r in sheet.rows if r.deal_id == deal.pk), None)
    names = {p.handle: p.shown_name for p in sheet.players}
    envelope = match_envelope(match, list(names))
    record = {**envelope, **deal.record}
    try:
        record = engine.summarize(record)
    except ValueError:
        pass  # shown as stored
    shown = {k: v for k, v in record.items() if k not in envelope}
    fields, more = history.changes({}, shown, names, LEAGUE_GAMES.get(match.game))
    return {"players": sheet.players, "row": row, "fields": fields, "more": more}


@require_http_methods(["GET", "POST"])
def own_pin(request: HttpRequest, pk: int) -> HttpResponse:
    """Right after a player typed their slip on this phone: they may choose their own PIN
    (typed twice), which ends their slips, or skip.  Offered to that player alone, for
    ``CHOICE_SECONDS``; without the offer the phone goes on to ``next``."""
    table = usable_table(request, pk)
    if isinstance(table, HttpResponse):
        return table
    back = safe_next(request, reverse("table", args=[table.pk]))
    offer = request.session.get(CHOICE_KEY) or {}
    player = None
    offered = offer.get("player")
    if offer.get("table") == table.pk and offer.get("until", 0) >= time.time():
        player = Player.objects.filter(pk=int(offered or 0), pin="").first()
    if player is None:
        request.session.pop(CHOICE_KEY, None)
        return redirect(back)
    context = {"table": table, "player": player, "back": back, "error": ""}
    if request.method != "POST":
        return render(request, "pages/own_pin.html", context)
    if request.POST.get("action") == "skip":
        request.session.pop(CHOICE_KEY, None)
        skipped = request.session.get(SKIPPED_KEY, {})
        at_table = skipped.setdefault(str(table.pk), [])
        if player.pk not in at_table:
            at_table.append(player.pk)
        request.session[SKIPPED_KEY] = skipped
        return redirect(back)
    pin, again = request.POST.get("pin", "").strip(), request.POST.get("again", "").strip()
    try:
        if pin != again:
            context["error"] = _("The two PINs differ: type the same PIN twice.")
            return render(request, "pages/own_pin.html", context, status=422)
        stored = pins.choose_first_pin(player, pin)
    except Rejection as refused:
        context["error"] = "; ".join(localize(e) for e in refused.errors)
        return render(request, "pages/own_pin.html", context, status=422)
    request.session.pop(CHOICE_KEY, None)
    if stored:
        messages.success(
            request,
            _("%(name)s's PIN is saved: from now on it confirms, and the slip no longer does.")
            % {"name": player.shown_name},
        )
    return redirect(back)


@login_required
@require_safe
@never_cache
def pin_slips_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The night's PIN slips, to print and cut: one per present player with no PIN yet
    (``tournaments.pin_slips``); for the club's league administrators alone."""
    night = administered_night(request, pk)
    slips = [(p, pin_slips.first_pin(p, night.pk)) for p in pin_slips.slip_players(night)]
    return render(request, "pages/setup/pin_slips.html", {"night": night, "slips": slips})


@login_required
@require_POST
def player_pin(request: HttpRequest, pk: int) -> HttpResponse:
    """A player sets their own PIN (their account's player only; an administrator sets
    anyone's on the player's edit page)."""
    player = get_object_or_404(Player, pk=pk, user=request.user)
    try:
        pins.set_pin(player, request.POST.get("pin", ""))
    except Rejection as refused:
        messages.error(request, "; ".join(localize(e) for e in refused.errors))
    else:
        messages.success(request, _("Your PIN is saved."))
    return redirect("player", pk=player.pk)

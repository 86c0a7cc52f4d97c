"""The pages where a seated player types their PIN on the table's phone (issue 29, 3;
issue 55): saying who scores on a phone that holds the table's link, and confirming a
pending deal; and a player setting their own PIN.

``tournaments.pins`` checks a PIN and counts wrong ones (a PIN is not a password);
``tournaments.confirmation`` says who may confirm what; ``tournaments.table_links``
keeps who scores on a phone."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments import confirmation, pins, table_links
from tournaments.messages import localize
from tournaments.models import Deal, Player, Table
from tournaments.records import Rejection
from web.pages.tables import link_holder, usable_table


def named_player(
    request: HttpRequest, template: str, context: dict[str, Any]
) -> Player | HttpResponse:
    """The player of ``context["seated"]`` whom the posted form names, with their PIN right;
    else the page to answer: the form (a GET, or what is wrong in the form's words), or
    the lock-out page after too many wrong PINs.  A player with no PIN is told so, and
    that is not a wrong try."""
    if request.method != "POST":
        return _form(request, template, context, "")
    seated: list[Player] = context["seated"]
    player = next((p for p in seated if str(p.pk) == request.POST.get("player")), None)
    if player is None:
        return _form(request, template, context, _("Pick your name."))
    if not player.pin:
        no_pin = _("%(name)s has no PIN yet: a league administrator sets one on the player's page.")
        return _form(request, template, context, no_pin % {"name": player.display_name})
    checked = pins.check(player, request.POST.get("pin", ""))
    if checked is pins.Check.LOCKED:
        return _locked_out(request, player, context["table"])
    if checked is pins.Check.WRONG:
        wrong = _("That PIN is not %(name)s's.") % {"name": player.display_name}
        return _form(request, template, context, wrong)
    return player


def _locked_out(request: HttpRequest, player: Player, table: Table) -> HttpResponse:
    minutes = max(1, settings.SIGN_IN_LOCKOUT_SECONDS // 60)
    explanation = _(
        "Too many wrong PINs for %(name)s: try again in %(n)s minutes, or use another "
        "player's name and PIN."
    ) % {"name": player.display_name, "n": minutes}
    context = {
        "title": _("Too many wrong PINs"),
        "explanation": explanation,
        "back": reverse("table", args=[table.pk]),
    }
    return render(request, "error.html", context, status=429)


def _form(request: HttpRequest, template: str, context: dict[str, Any], error: str) -> HttpResponse:
    return render(request, template, {**context, "error": error}, status=422 if error else 200)


@require_http_methods(["GET", "POST"])
def table_who(request: HttpRequest, pk: int) -> HttpResponse:
    """A phone that holds the table's link says who scores on it: a seated player's name
    and PIN (``table_links.bind``).  A scorer with an account acts as themselves and is
    sent back to the table."""
    table = usable_table(request, pk)
    if isinstance(table, HttpResponse):
        return table
    back = request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        back = ""
    back = back or reverse("table", args=[table.pk])
    if not link_holder(request, table):
        return redirect(back)
    seated = list(
        Player.objects.filter(seats__match__table=table).distinct().order_by("display_name")
    )
    named = named_player(request, "pages/table_who.html", {"table": table, "seated": seated})
    if isinstance(named, HttpResponse):
        return named
    table_links.bind(table, table_links.holder(request.session), named)
    messages.success(request, _("%(name)s scores on this phone.") % {"name": named.display_name})
    return redirect(back)


@require_http_methods(["GET", "POST"])
def confirm_with_pin(request: HttpRequest, pk: int) -> HttpResponse:
    """A seated player confirms a pending deal on the scorer's phone: their name, their
    PIN.  Open to whoever may enter the table's deals (the phone at the table); the names
    offered are those ``tournaments.confirmation`` lets confirm on this phone."""
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
    context = {"deal": deal, "seated": seated, "table": table}
    named = named_player(request, "pages/confirm_pin.html", context)
    if isinstance(named, HttpResponse):
        return named
    try:
        confirmation.confirm(deal, confirmation.Confirmer(player=named, holder=phone))
    except Rejection as refused:
        return _form(
            request,
            "pages/confirm_pin.html",
            context,
            "; ".join(localize(e) for e in refused.errors),
        )
    messages.success(
        request,
        _("Deal %(n)s confirmed by %(name)s.") % {"n": deal.number, "name": named.display_name},
    )
    return redirect("table", pk=table.pk)


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

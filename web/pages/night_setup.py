"""A club night's own settings after it was made (a league administrator of its club):
its date, times and place (moved, its calendar entries follow), and calling it off or
bringing it back (``actions.nights``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from actions import nights
from reach.models import PushKind
from tournaments.errors import Rejection
from tournaments.messages import localize
from tournaments.names import night_label
from web.pages.getters import administered_night
from web.pages.night_form import ClubNightForm


@login_required
@require_http_methods(["GET", "POST"])
def night_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """The night's form, as when it was made: a new date, time, venue or name raises its
    calendar entry's sequence (``nights.save_night``)."""
    night = administered_night(request, pk)
    form = ClubNightForm(request.POST or None, instance=night)
    saved = form.saved() if request.method == "POST" and form.is_valid() else None
    if saved is not None:
        messages.success(request, _("Club night %(date)s saved.") % {"date": night_label(saved)})
        return redirect("club_night", pk=saved.pk)
    return render(
        request,
        "pages/setup/form.html",
        {
            "club": night.season.club,
            "form": form,
            "title": _("Club night %(date)s of %(season)s")
            % {"date": night_label(night), "season": night.season.name},
            "night": night,
        },
    )


@login_required
@require_POST
def night_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    """Call the night off (its page and the calendars say so); a night with deals is
    refused in words (``nights.cancel_night``)."""
    night = administered_night(request, pk)
    try:
        changed = nights.cancel_night(night)
    except Rejection as refused:
        for problem in refused.errors:
            messages.error(request, localize(problem))
    else:
        if changed:
            messages.success(
                request,
                _(
                    "%(night)s is called off: its page and the club's calendars say so, "
                    "and the players who chose “%(kind)s” on their phones get a message."
                )
                % {"night": night_label(night), "kind": PushKind.DRAWN.label},
            )
    return redirect("club_night", pk=night.pk)


@login_required
@require_POST
def night_restore(request: HttpRequest, pk: int) -> HttpResponse:
    """Bring a called-off night back."""
    night = administered_night(request, pk)
    if nights.restore_night(night):
        messages.success(
            request,
            _(
                "%(night)s takes place again: its page and the club's calendars say so, "
                "and the players who chose “%(kind)s” on their phones get a message."
            )
            % {"night": night_label(night), "kind": PushKind.DRAWN.label},
        )
    return redirect("club_night", pk=night.pk)

"""A club's webhooks (reach.webhooks, docs/webhooks.md), for its league administrators:
the endpoints, each with its secret, its events and its latest deliveries; adding one,
changing its events, rotating its secret, turning it off and on, deleting it, and
sending it a test event."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from actions import webhooks as webhook_actions
from reach import outbound, webhooks
from reach.events import TYPES
from reach.models import Endpoint
from reach.tasks import send_test_event
from tournaments.errors import Rejection
from tournaments.messages import localize
from tournaments.models import Club
from tournaments.textfile import whole_number
from web.pages.getters import administered_club

RECENT = 10
"""The deliveries shown per endpoint."""


def _event_choices() -> list[tuple[str, Any]]:
    return list(TYPES.items())


class EventsField(forms.MultipleChoiceField):
    widget = forms.CheckboxSelectMultiple

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            choices=_event_choices,
            label=gettext_lazy("Events to send"),
            error_messages={
                "required": gettext_lazy("Choose at least one event."),
                "invalid_choice": gettext_lazy("Choose among the events listed."),
            },
            **kwargs,
        )


class EndpointForm(forms.Form):
    url = forms.URLField(
        label=gettext_lazy("Address (URL) of your receiver"),
        max_length=1000,
        assume_scheme="https",
        help_text=gettext_lazy("It must start with https:// and be reachable from the internet."),
        widget=forms.URLInput(attrs={"placeholder": "https://", "autocomplete": "off"}),
    )
    description = forms.CharField(
        label=gettext_lazy("Description (for you)"),
        max_length=200,
        required=False,
        widget=forms.TextInput(attrs={"placeholder": gettext_lazy("e.g. LINE bot of the club")}),
    )
    events = EventsField()

    def clean_url(self) -> str:
        url: str = self.cleaned_data["url"]
        try:
            outbound.check(url)
        except outbound.Refused as refused:
            raise ValidationError(str(refused)) from None
        return url


class EventsForm(forms.Form):
    events = EventsField()


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def club_webhooks(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's endpoints, and the form to add one; a POST with ``action`` acts on one."""
    club = administered_club(request, slug)
    form = EndpointForm(prefix="new")
    if request.method == "POST":
        action = request.POST.get("action", "add")
        if action != "add":
            return _act(request, club, action)
        form = EndpointForm(request.POST, prefix="new")
        if form.is_valid():
            endpoint = _add(request, club, form)
            if endpoint is not None:
                messages.success(
                    request,
                    _(
                        "Endpoint added. Copy its secret into your receiver, then send a test event."
                    ),
                )
                return redirect(_at(club, endpoint, secret=True))
    endpoints = list(club.webhook_endpoints.all())
    shown = whole_number(request.GET.get("secret", ""))  # a secret just made: shown open
    for endpoint in endpoints:
        recent = list(endpoint.deliveries.order_by("-created_at", "-pk")[:RECENT])
        for delivery in recent:
            delivery.error_words = webhooks.error_words(delivery)  # type: ignore[attr-defined]
            delivery.type_name = TYPES.get(delivery.event_type, _("test event"))  # type: ignore[attr-defined]
        endpoint.recent = recent  # type: ignore[attr-defined]
        endpoint.chosen = [TYPES[t] for t in endpoint.events if t in TYPES]  # type: ignore[attr-defined]
        endpoint.overlap_until = webhooks.overlap_until(endpoint)  # type: ignore[attr-defined]
        endpoint.secret_shown = endpoint.pk == shown  # type: ignore[attr-defined]
        endpoint.events_form = EventsForm(  # type: ignore[attr-defined]
            initial={"events": endpoint.events}, prefix=f"e{endpoint.pk}"
        )
    return render(
        request,
        "pages/setup/webhooks.html",
        {
            "club": club,
            "form": form,
            "endpoints": endpoints,
            "full": len(endpoints) >= webhooks.MAX_ENDPOINTS,
            "most": webhooks.MAX_ENDPOINTS,
        },
    )


def _at(club: Club, endpoint: Endpoint, *, secret: bool = False) -> str:
    """The endpoint's card on the page; its secret shown when one was just made."""
    shown = f"?secret={endpoint.pk}" if secret else ""
    return reverse("club_webhooks", args=[club.slug]) + f"{shown}#endpoint-{endpoint.pk}"


def _add(request: HttpRequest, club: Club, form: EndpointForm) -> Endpoint | None:
    """The new endpoint, or ``None`` (and the refusal on the form)."""
    try:
        return webhook_actions.add_endpoint(
            club,
            request.user,
            form.cleaned_data["url"],
            form.cleaned_data["description"],
            form.cleaned_data["events"],
        )
    except Rejection as refused:
        for problem in refused.errors:
            form.add_error(None, localize(problem))
        return None


def _act(request: HttpRequest, club: Club, action: str) -> HttpResponse:
    here = reverse("club_webhooks", args=[club.slug])
    endpoint = club.webhook_endpoints.filter(
        pk=whole_number(request.POST.get("endpoint")) or 0
    ).first()
    if endpoint is None:
        messages.error(request, _("That endpoint is not one of this club's (deleted meanwhile?)."))
        return redirect(here)
    if action == "rotate":
        webhook_actions.rotate_secret(endpoint)
        messages.success(
            request,
            _(
                "New secret made: put it in your receiver. For a day messages are signed "
                "with the old one too, then with the new one alone."
            ),
        )
        return redirect(_at(club, endpoint, secret=True))
    elif action == "end_previous":
        if webhook_actions.end_previous_secret(endpoint):
            messages.success(request, _("The old secret signs nothing more."))
    elif action in ("disable", "enable"):
        webhook_actions.turn(endpoint, action == "enable")
        messages.success(
            request,
            _("Endpoint turned on.")
            if endpoint.active
            else _("Endpoint turned off: it gets nothing."),
        )
    elif action == "delete":
        webhook_actions.delete_endpoint(endpoint)
        messages.success(request, _("Endpoint deleted, with its deliveries."))
        return redirect(here)
    elif action == "ping":
        if not endpoint.active:
            messages.error(request, _("Turn the endpoint on first."))
        else:
            send_test_event(endpoint)
            messages.success(
                request, _("Test event sent. Its delivery is below (reload to see it change).")
            )
    elif action == "events":
        form = EventsForm(request.POST, prefix=f"e{endpoint.pk}")
        if form.is_valid():
            webhook_actions.set_events(endpoint, form.cleaned_data["events"])
            messages.success(request, _("Events saved."))
        else:
            for errors in form.errors.values():
                for e in errors:
                    messages.error(request, str(e))
    else:
        messages.error(request, _("Choose what to do with the endpoint."))
    return redirect(_at(club, endpoint))

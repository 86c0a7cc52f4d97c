"""The "Tell me on this phone" control (``{% push_control player night %}``) and the rounds
page's line on who will be told (``{% push_reach night %}``): issue 58, 1."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from reach import push, vapid
from reach.models import PushKind

register = template.Library()


@register.inclusion_tag("pages/_push.html", takes_context=True)
def push_control(context: template.Context, player: Any, night: Any = None) -> dict[str, Any]:
    """The control for following ``player`` from "my night" (``night``) or their page."""
    url = (
        reverse("night_push", args=[night.pk])
        if night is not None
        else reverse("player_push", args=[player.pk])
    )
    return {
        "player": player,
        "url": url,
        "key": vapid.application_server_key(),
        "kinds": PushKind.choices,
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("pages/setup/_push_reach.html")
def push_reach(night: Any) -> dict[str, Any]:
    """How many of the night's players a message would reach, and how many did not arrive."""
    return {"audience": push.audience(night), "failed": push.failed(night)}

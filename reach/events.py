"""An event as players and a club's tools hear of it.

``reach.sources`` reads what the league announced (``tournaments.events.announce``) and
makes an :class:`Event`: what a club's webhook receives (``type`` and ``data``) and
what each player concerned may be told (``told``).  ``reach.push`` and
``reach.webhooks`` deliver it, once per event and recipient: ``id`` is stable however
often the announcement is retried, and is their key.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _

TYPES: dict[str, Any] = {
    "round.drawn": _("a round is drawn"),
    "deal.confirmed": _("a deal is confirmed"),
    "correction.applied": _("a correction is applied"),
    "standings.changed": _("the standings changed"),
    "round.closed": _("a round is closed"),
    "night.closed": _("a night is closed"),
    "season.closed": _("a season is closed"),
    "night.cancelled": _("a club night is called off"),
    "night.restored": _("a called-off club night is held after all"),
}
"""The webhook event types, in the order an administrator chooses them, with their names."""


@dataclass(frozen=True)
class Said:
    """What one player is told: ``words()`` gives (title, body) in the active language,
    so each subscription's message is written in its own; ``url`` is a path of the site
    the notification opens."""

    player: int
    kind: str  # a reach.models.PushKind value
    url: str
    words: Callable[[], tuple[str, str]]


@dataclass(frozen=True)
class Event:
    id: str  # stable: "round.drawn:42"; the key of every notice and delivery
    type: str  # a key of TYPES, or "deal.waiting" (players only)
    club: int
    season: int
    night: int | None
    data: dict[str, Any]  # the webhook's data: ids and what the club's pages show
    told: tuple[Said, ...] = field(default=())

"""A browser's push subscription, as a page posts it: checked, then stored once.

What a page posts is a stranger's: the endpoint is where the site's workers will post,
so it must be an HTTPS address of one of the browsers' push services
(``settings.PUSH_SERVICES``) that resolves to the public internet alone
(:func:`check_endpoint`: a private, loopback or reserved address is refused unless
``settings.PUSH_ALLOW_PRIVATE_ENDPOINTS``, and loopback, in plain http too, is allowed
only then, for the tests' stand-in push service); the keys must be what a browser makes (a
P-256 point and 16 secret bytes, base64url).  Every refusal is a :class:`Refused` in the
active language; nothing is stored then.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import re
import socket
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments.models import ClubNight, Membership, Player, Table

from .models import PushKind, Subscription
from .outbound import is_public
from .rights import link_hash

ENDPOINT_CHARS = 1000
"""The longest endpoint kept (the column's size; the push services' are near 200-500)."""
PUBLIC_PHONES = 20
"""How many browsers may follow one player by the public right alone (no account, no
table link): anyone may follow a public season's player, so a stranger cannot make the
workers post one event to a thousand addresses.  A phone with the table's link or a
member's account (of the player's club) is not counted, so nobody can crowd the player's
own out; a signed-in stranger's are counted (anyone may open an account); a stranger's
made-up addresses at a push service are dropped by the sender (``reach.push``)."""
KEY_TEXT = re.compile(r"^[A-Za-z0-9_-]+={0,2}$")
KINDS = [k.value for k in PushKind]


class Refused(ValueError):
    """What the page sent cannot be stored; ``str()`` says why, in the active language."""


@dataclass(frozen=True)
class Browser:
    """A checked PushSubscription: where to post and the keys to encrypt for."""

    endpoint: str
    p256dh: str
    auth: str


@dataclass(frozen=True)
class Right:
    """Why the requester may follow the player (``reach.rights``): an account, a table
    link of one night, or neither (a public season)."""

    user: Any = None
    table: Table | None = None
    night: ClubNight | None = None


def _decode(text: Any, size: int) -> bytes:
    if not isinstance(text, str) or len(text) > 200 or not KEY_TEXT.match(text):
        raise Refused(_("The browser's keys are not valid."))
    try:
        raw = base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        raise Refused(_("The browser's keys are not valid.")) from None
    if len(raw) != size:
        raise Refused(_("The browser's keys are not valid."))
    return raw


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def is_push_service(host: str) -> bool:
    """Whether ``host`` is one of ``settings.PUSH_SERVICES`` or a name under one."""
    host = host.lower()
    return any(host == s or host.endswith("." + s) for s in map(str.lower, settings.PUSH_SERVICES))


def check_endpoint(url: Any) -> str:
    """``url`` if the site may post to it (a push service's, its name resolved now), else
    :class:`Refused`."""
    if not isinstance(url, str) or not url or len(url) > ENDPOINT_CHARS:
        raise Refused(_("The browser's push address is not valid."))
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise Refused(_("The browser's push address is not valid.")) from None
    host = (parts.hostname or "").rstrip(".")
    if not host or parts.username is not None or parts.password is not None:
        raise Refused(_("The browser's push address is not valid."))
    private_ok = settings.PUSH_ALLOW_PRIVATE_ENDPOINTS
    if parts.scheme != "https" and not (parts.scheme == "http" and private_ok and _loopback(host)):
        raise Refused(_("The browser's push address must start with https://."))
    if not (private_ok and _loopback(host)) and not is_push_service(host):
        raise Refused(_("The browser's push address is not a browser's push service."))
    try:
        found = socket.getaddrinfo(host, port or 443, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise Refused(_("The browser's push address cannot be found.")) from None
    if not found or not (private_ok or all(is_public(str(f[4][0])) for f in found)):
        raise Refused(_("The browser's push address leads to a private network."))
    return url


def browser(data: Any) -> Browser:
    """The PushSubscription JSON a page posts (``{"endpoint", "keys": {"p256dh", "auth"}}``)."""
    if not isinstance(data, dict) or not isinstance(data.get("keys"), dict):
        raise Refused(_("The browser's subscription is missing."))
    p256dh, auth = data["keys"].get("p256dh"), data["keys"].get("auth")
    point = _decode(p256dh, 65)
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise Refused(_("The browser's keys are not valid.")) from None
    _decode(auth, 16)
    return Browser(check_endpoint(data.get("endpoint")), p256dh, auth)


def known(data: Any) -> Browser:
    """A subscription the page names to stop or ask about: its endpoint and secret, not
    checked further (they are only compared with what is stored)."""
    keys = data.get("keys") if isinstance(data, dict) else None
    endpoint = data.get("endpoint") if isinstance(data, dict) else None
    auth = keys.get("auth") if isinstance(keys, dict) else None
    if not isinstance(endpoint, str) or not endpoint or len(endpoint) > ENDPOINT_CHARS:
        raise Refused(_("The browser's subscription is missing."))
    _decode(auth, 16)
    return Browser(endpoint, "", str(auth))


def kinds(data: Any) -> list[str]:
    """The kinds chosen, in the order of ``PushKind``: known values only."""
    if data is None:
        return list(KINDS)
    if not isinstance(data, list) or len(data) > len(KINDS) * 2:
        raise Refused(_("Choose what to be told from the list."))
    if not all(isinstance(k, str) and k in KINDS for k in data):
        raise Refused(_("Choose what to be told from the list."))
    return [k for k in KINDS if k in data]


def follow(
    player: Player,
    seen: Browser,
    chosen: list[str],
    right: Right,
    language: str,
    *,
    vouched: bool = False,
) -> None:
    """Store (or update) the subscription of this browser for ``player``: stored once however
    often it is sent, the right it was made with replacing the one before.  ``vouched``:
    the requester holds a table's link of the night; that, or an account in the player's
    club (or a site operator's), is not counted among :data:`PUBLIC_PHONES`."""
    table = right.table
    values = {
        "p256dh": seen.p256dh,
        "auth": seen.auth,
        "kinds": chosen,
        "language": language,
        "user": right.user,
        "table": table,
        "night": right.night,
        "link": link_hash(table.link_token) if table is not None else "",
        "failures": 0,
    }
    try:
        with transaction.atomic():
            Player.objects.select_for_update().filter(pk=player.pk).exists()  # one at a time
            mine = Subscription.objects.filter(player=player)
            club = Membership.objects.filter(club_id=player.club_id)
            counted = mine.filter(table__isnull=True).exclude(user__in=club.values("user"))
            if (
                table is None
                and not vouched
                and not _in_the_club(right.user, player)
                and not mine.filter(endpoint=seen.endpoint).exists()
                and counted.count() >= PUBLIC_PHONES
            ):
                raise Refused(
                    _(
                        "Too many phones follow %(name)s already: sign in, or open your "
                        "table's link, to be told on this one."
                    )
                    % {"name": player.display_name}
                )
            Subscription.objects.update_or_create(
                endpoint=seen.endpoint, player=player, defaults=values
            )
    except IntegrityError:  # the same browser, sent twice at once: the other one stored it
        Subscription.objects.filter(endpoint=seen.endpoint, player=player).update(**values)


def _in_the_club(user: Any, player: Player) -> bool:
    """Whether ``user`` is signed in with a role in ``player``'s club, or runs the site."""
    if user is None or not user.is_authenticated:
        return False
    return user.is_superuser or Membership.objects.filter(user=user, club=player.club_id).exists()


def unfollow(player: Player, seen: Browser) -> None:
    """This browser is told nothing more of ``player`` (its keys must be the stored ones)."""
    Subscription.objects.filter(endpoint=seen.endpoint, player=player, auth=seen.auth).delete()


def chosen(player: Player, seen: Browser) -> list[str] | None:
    """The kinds this browser follows ``player`` for (``None``: it does not)."""
    found = (
        Subscription.objects.filter(endpoint=seen.endpoint, player=player, auth=seen.auth)
        .values_list("kinds", flat=True)
        .first()
    )
    return None if found is None else list(found)

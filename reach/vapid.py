"""The site's VAPID key pair (RFC 8292): push services accept a message only when it is
signed with the key the browser subscribed with, so every web process (which gives the
page the public key) and every worker (which signs) must use the same pair.

From the environment (``VAPID_PRIVATE_KEY``, ``VAPID_PUBLIC_KEY``) when it gives one;
otherwise one pair made on first use and kept in the database (``VapidKey``, unique
name: two processes starting at once make one pair, not two).
"""

from __future__ import annotations

import base64
import functools

from cryptography.hazmat.primitives import serialization
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import IntegrityError, transaction
from py_vapid import Vapid

from .models import VapidKey

NAME = "site"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def public_of(key: Vapid) -> str:
    """The application server key the browser subscribes with (base64url, 65 bytes)."""
    raw = key.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(raw)


def _from_environment(private: str) -> Vapid:
    text = private.strip()
    try:
        if text.startswith("-----BEGIN"):
            return Vapid.from_pem(text.encode())
        return Vapid.from_string(text)
    except Exception as exc:  # py_vapid raises what the key's parser raises
        raise ImproperlyConfigured("VAPID_PRIVATE_KEY is not a P-256 private key") from exc


def _stored() -> Vapid:
    row = VapidKey.objects.filter(name=NAME).first()
    if row is None:
        made = Vapid()
        made.generate_keys()
        pem = made.private_pem().decode()
        try:
            with transaction.atomic():
                row, _ = VapidKey.objects.get_or_create(
                    name=NAME, defaults={"private_pem": pem, "public_key": public_of(made)}
                )
        except IntegrityError:  # another process made it first: theirs is the site's
            row = VapidKey.objects.get(name=NAME)
    return Vapid.from_pem(row.private_pem.encode())


@functools.cache
def key() -> Vapid:
    """The key every message is signed with (read once per process)."""
    if settings.VAPID_PRIVATE_KEY:
        found = _from_environment(settings.VAPID_PRIVATE_KEY)
        given = settings.VAPID_PUBLIC_KEY.strip().rstrip("=")
        if given and given != public_of(found):
            raise ImproperlyConfigured(
                "VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY"
            )
        return found
    return _stored()


def application_server_key() -> str:
    """The public key the pages give ``pushManager.subscribe``."""
    return public_of(key())

"""Posting to a URL a club's administrator gave (a webhook endpoint).

Anyone may sign up and administer a club, so the URL is a stranger's: it must not make
the site's workers reach into its own network (a database, a cloud's metadata service at
169.254.169.254, an admin port on localhost).  :func:`check` refuses a URL that is not
HTTPS (HTTP only with ``settings.WEBHOOKS_ALLOW_HTTP``) or whose name resolves to any
address that is not public: private, loopback, link-local, multicast, reserved, shared,
unspecified (all of them, with ``settings.WEBHOOKS_ALLOW_PRIVATE``, which the tests'
local receiver needs).  It is called when an endpoint is registered and again at every
send, and :func:`post` connects to the very address it checked, never resolving the name
a second time (a name that answers a public address to the check and a private one to the
connection, DNS rebinding, gains nothing); TLS still checks the certificate against the
name.  Redirects are not followed, and only a short excerpt of the answer is read.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

import certifi
import urllib3
from django.conf import settings
from django.utils.translation import gettext_lazy as _

EXCERPT_BYTES = 200
"""How much of an answer is read and kept (the rest is never read)."""


class Refused(ValueError):
    """A URL the site will not post to; ``str()`` gives the reason in the active language."""

    def __init__(self, words: object) -> None:
        super().__init__(words)
        self.words = words

    def __str__(self) -> str:
        return str(self.words)


@dataclass(frozen=True)
class Target:
    """A checked URL: where to connect (``address``) and what to say it is (``host``)."""

    scheme: str
    host: str
    port: int
    path: str
    address: str

    @property
    def host_header(self) -> str:
        name = f"[{self.host}]" if ":" in self.host else self.host
        default = 443 if self.scheme == "https" else 80
        return name if self.port == default else f"{name}:{self.port}"


@dataclass(frozen=True)
class Answer:
    status: int
    excerpt: str


def is_public(address: str) -> bool:
    """Whether ``address`` is a public unicast address of the internet."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        # ::ffff:127.0.0.1 and the like are the IPv4 address they carry.
        inner = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if inner is not None and not is_public(str(inner)):
            return False
    return ip.is_global and not ip.is_multicast and not ip.is_reserved


def check(url: str) -> Target:
    """The URL's target, its name resolved now; :class:`Refused` if the site may not post to it."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise Refused(_("This is not a web address.")) from None
    allowed = ("https", "http") if settings.WEBHOOKS_ALLOW_HTTP else ("https",)
    if parts.scheme not in allowed:
        raise Refused(_("The address must start with https://."))
    if parts.username is not None or parts.password is not None:
        raise Refused(_("The address may not carry a user name or password."))
    host = (parts.hostname or "").rstrip(".")
    if not host:
        raise Refused(_("This is not a web address."))
    port = port or (443 if parts.scheme == "https" else 80)
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise Refused(_("The name in this address cannot be found.")) from None
    addresses = [str(info[4][0]) for info in found]
    if not addresses:
        raise Refused(_("The name in this address cannot be found."))
    if not settings.WEBHOOKS_ALLOW_PRIVATE and not all(is_public(a) for a in addresses):
        raise Refused(
            _("This address leads to a private or reserved network; use a public address.")
        )
    path = parts.path or "/"
    if parts.query:
        path = f"{path}?{parts.query}"
    return Target(parts.scheme, host, port, path, addresses[0])


def post(url: str, body: bytes, headers: dict[str, str], timeout: float) -> Answer:
    """POST ``body`` to ``url`` (checked again now), connecting to the checked address.

    Raises :class:`Refused` for a URL no longer allowed and ``urllib3``'s errors for a
    connection that fails or times out."""
    target = check(url)
    options: dict[str, object] = {
        "timeout": urllib3.Timeout(connect=min(timeout, 5.0), read=timeout),
        "retries": False,
        "maxsize": 1,
    }
    pool: urllib3.HTTPConnectionPool
    if target.scheme == "https":
        named = not _is_address(target.host)
        pool = urllib3.HTTPSConnectionPool(
            target.address,
            target.port,
            cert_reqs="CERT_REQUIRED",
            ca_certs=certifi.where(),
            assert_hostname=target.host,
            server_hostname=target.host if named else None,
            **options,  # type: ignore[arg-type]
        )
    else:
        pool = urllib3.HTTPConnectionPool(target.address, target.port, **options)  # type: ignore[arg-type]
    try:
        response = pool.urlopen(
            "POST",
            target.path,
            body=body,
            headers={**headers, "Host": target.host_header},
            redirect=False,
            assert_same_host=False,
            preload_content=False,
            decode_content=False,
        )
        try:
            excerpt = response.read(EXCERPT_BYTES)
        except urllib3.exceptions.HTTPError:
            excerpt = b""
        finally:
            response.close()
        return Answer(response.status, excerpt.decode("utf-8", "replace"))
    finally:
        pool.close()


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True

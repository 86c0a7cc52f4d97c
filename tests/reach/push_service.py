"""A push service stand-in on 127.0.0.1, and phones that subscribe to it.

It does what a browser's push service and the browser together do with a message: it
checks the VAPID signature (``py_vapid``) and its claims (the audience is this service,
not expired, a subject, signed with the site's key), then DECRYPTS the body (``http_ece``,
RFC 8291) with the private key of the "phone" the endpoint belongs to, and keeps what it
read with the time it arrived.  An endpoint can be told to answer 410 (expired) or 500.
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Phone:
    """A browser's subscription: its endpoint at the stand-in and its own keys."""

    endpoint: str
    private: ec.EllipticCurvePrivateKey
    auth: bytes

    @property
    def p256dh(self) -> str:
        raw = self.private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(raw)

    def json(self) -> dict[str, Any]:
        """What ``PushSubscription.toJSON()`` gives the page."""
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": self.p256dh, "auth": b64url(self.auth)},
        }


@dataclass
class Got:
    path: str
    message: dict[str, Any]
    at: float
    ttl: str
    urgency: str


@dataclass
class PushService:
    url: str = ""
    phones: dict[str, Phone] = field(default_factory=dict)
    got: list[Got] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    answers: dict[str, int] = field(default_factory=dict)
    server_key: str = ""  # the site's application server key the phones subscribed with
    lock: threading.Lock = field(default_factory=threading.Lock)
    arrived: threading.Condition = field(default_factory=threading.Condition)

    def phone(self) -> Phone:
        path = f"/push/{b64url(os.urandom(12))}"
        made = Phone(self.url + path, ec.generate_private_key(ec.SECP256R1()), os.urandom(16))
        self.phones[path] = made
        return made

    def check(self, path: str, headers: dict[str, str], body: bytes) -> dict[str, Any]:
        """The message, if it is signed and encrypted as a push service and browser expect."""
        phone = self.phones[path]
        auth = headers.get("authorization", "")
        assert Vapid02.verify(auth), "the VAPID signature does not verify"
        parts = dict(p.split("=", 1) for p in auth.split(" ", 1)[1].split(","))
        if self.server_key:
            assert parts["k"] == self.server_key, "signed with another key than the page gave"
        claims = json.loads(unb64url(parts["t"].split(".")[1]))
        assert claims["aud"] == self.url, claims
        assert claims["exp"] > time.time(), claims
        assert claims["sub"].startswith(("mailto:", "https:")), claims
        assert headers.get("content-encoding") == "aes128gcm"
        plain = http_ece.decrypt(
            body, private_key=phone.private, auth_secret=phone.auth, version="aes128gcm"
        )
        return json.loads(plain)

    def wait(self, count: int, timeout: float = 15.0) -> list[Got]:
        end = time.monotonic() + timeout
        with self.arrived:
            while len(self.got) < count and time.monotonic() < end:
                self.arrived.wait(end - time.monotonic())
        return list(self.got)


def start() -> tuple[PushService, ThreadingHTTPServer]:
    service = PushService()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length") or 0))
            headers = {k.lower(): v for k, v in self.headers.items()}
            status = service.answers.get(self.path, 201)
            try:
                message = service.check(self.path, headers, body)
            except Exception as wrong:  # kept: the test fails on it
                with service.lock:
                    service.refused.append(f"{self.path}: {wrong!r}")
                status = 400
            else:
                if status < 300:
                    got = Got(
                        self.path,
                        message,
                        time.monotonic(),
                        headers.get("ttl", ""),
                        headers.get("urgency", ""),
                    )
                    with service.arrived:
                        service.got.append(got)
                        service.arrived.notify_all()
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    service.url = f"http://127.0.0.1:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return service, server

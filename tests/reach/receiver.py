"""A club's webhook receiver on 127.0.0.1, as a club's own tool would run it: every
request is verified with the reference ``standardwebhooks`` verifier, and answered with
the statuses it is told to give, one per request (then 200)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from standardwebhooks import Webhook
from standardwebhooks.webhooks import WebhookVerificationError


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    verified: Any  # the payload the verifier returned, or the verifier's error


@dataclass
class Receiver:
    secret: str = ""
    answers: list[int] = field(default_factory=list)
    got: list[Received] = field(default_factory=list)
    url: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def verify(self, body: bytes, headers: dict[str, str]) -> Any:
        if not self.secret:
            return None  # several endpoints' secrets: the test verifies each itself
        try:
            return Webhook(self.secret).verify(body, headers)
        except WebhookVerificationError as refused:
            return refused

    def answer(self) -> int:
        with self.lock:
            return self.answers.pop(0) if self.answers else 200


def start(secret: str = "") -> tuple[Receiver, ThreadingHTTPServer]:
    receiver = Receiver(secret=secret)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length") or 0))
            headers = {k.lower(): v for k, v in self.headers.items()}
            with receiver.lock:
                receiver.got.append(
                    Received(self.path, headers, body, receiver.verify(body, headers))
                )
            status = receiver.answer()
            self.send_response(status)
            if 300 <= status < 400:
                self.send_header("Location", "http://127.0.0.1:9/elsewhere")
            self.end_headers()
            self.wfile.write(b"ok" if status < 300 else b"busy, try later " * 100)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    receiver.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    return receiver, server

"""An endpoint's URL is a stranger's (anyone may sign up and administer a club): the
site never posts into its own network, checked when the URL is registered and again at
every send, connecting to the address it checked (reach.outbound)."""

from __future__ import annotations

import socket

import pytest

from reach import outbound, tasks, webhooks
from reach.events import Event
from reach.models import Delivery, Endpoint
from tests.reach import receiver as receivers

INSIDE = [
    "https://127.0.0.1/hook",
    "https://127.1/hook",
    "https://2130706433/hook",  # 127.0.0.1 as one number
    "https://0x7f.0.0.1/hook",
    "https://0.0.0.0/hook",
    "https://10.1.2.3/hook",
    "https://172.16.0.1/hook",
    "https://192.168.1.1/hook",
    "https://100.64.0.1/hook",  # carrier-grade NAT
    "https://169.254.169.254/latest/meta-data/",  # a cloud's metadata service
    "https://224.0.0.1/hook",
    "https://240.0.0.1/hook",
    "https://[::1]/hook",
    "https://[::ffff:127.0.0.1]/hook",
    "https://[::ffff:a9fe:a9fe]/hook",  # 169.254.169.254, mapped
    "https://[fe80::1]/hook",
    "https://[fd00::1]/hook",
    "https://[ff02::1]/hook",
    "https://localhost/hook",  # a name that resolves to loopback
    "https://localhost./hook",
    "https://127.0.0.1:8000/hook",
]


@pytest.fixture
def strict(settings):
    settings.WEBHOOKS_ALLOW_HTTP = False
    settings.WEBHOOKS_ALLOW_PRIVATE = False


@pytest.mark.parametrize("url", INSIDE)
def test_an_address_inside_is_refused(strict, url):
    with pytest.raises(outbound.Refused, match="private or reserved"):
        outbound.check(url)


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("http://93.184.215.14/hook", "https://"),
        ("ftp://93.184.215.14/hook", "https://"),
        ("file:///etc/passwd", "https://"),
        ("gopher://127.0.0.1:6379/_INFO", "https://"),
        ("https://user:pw@93.184.215.14/hook", "user name or password"),
        ("https://93.184.215.14:99999/hook", "not a web address"),
        ("https:///hook", "not a web address"),
        ("https://no-such-name.invalid/hook", "cannot be found"),
    ],
)
def test_a_url_that_is_not_public_https_is_refused(strict, url, words):
    with pytest.raises(outbound.Refused, match=words):
        outbound.check(url)


def test_a_public_address_is_taken(strict):
    target = outbound.check("https://93.184.215.14:8443/h?x=1")
    assert (target.address, target.port, target.path) == ("93.184.215.14", 8443, "/h?x=1")
    assert target.host_header == "93.184.215.14:8443"


def _resolving(monkeypatch, answers: dict[str, list[str]]) -> list[str]:
    """Names resolved as ``answers`` say, each answer used once (then the name fails);
    addresses resolve to themselves.  Returns the names asked."""
    real = socket.getaddrinfo
    asked: list[str] = []

    def getaddrinfo(host, port, *args, **kwargs):
        asked.append(host)
        if host in answers:
            if not answers[host]:
                raise socket.gaierror("no more answers")
            address = answers[host].pop(0)
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(outbound.socket, "getaddrinfo", getaddrinfo)
    return asked


def _endpoint(season, url: str, secret: str | None = None) -> Endpoint:
    return Endpoint.objects.create(
        club=season.club, url=url, secret=secret or webhooks.new_secret(), events=["round.drawn"]
    )


def _event(season) -> Event:
    return Event("round.drawn:9", "round.drawn", season.club_id, season.pk, None, {"round": 1})


@pytest.mark.django_db
def test_a_name_rebound_to_loopback_after_registering_is_refused_at_the_send(
    settings, season, monkeypatch
):
    """DNS rebinding: public when registered, loopback when the worker sends."""
    settings.WEBHOOKS_ALLOW_HTTP = True
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    receiver, server = receivers.start()
    try:
        port = server.server_address[1]
        _resolving(monkeypatch, {"hooks.example.test": ["93.184.215.14", "127.0.0.1"]})
        outbound.check(f"http://hooks.example.test:{port}/hook")  # the form's check: public
        _endpoint(season, f"http://hooks.example.test:{port}/hook")
        for pk in webhooks.deliver(_event(season)):
            tasks.send_webhook.delay(pk)
        assert receiver.got == []
        delivery = Delivery.objects.get()
        assert (delivery.status, delivery.error) == ("retrying", "refused")
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.django_db
def test_the_send_connects_to_the_address_it_checked(settings, season, monkeypatch):
    """The name is resolved once, for the check; the connection goes to that address (a
    second lookup of the name would fail here) and says the name in ``Host``."""
    settings.WEBHOOKS_ALLOW_HTTP = True
    settings.WEBHOOKS_ALLOW_PRIVATE = True  # the receiver is on this machine
    receiver, server = receivers.start()
    try:
        port = server.server_address[1]
        asked = _resolving(monkeypatch, {"hooks.example.test": ["127.0.0.1"]})
        endpoint = _endpoint(season, f"http://hooks.example.test:{port}/hook")
        receiver.secret = endpoint.secret
        for pk in webhooks.deliver(_event(season)):
            tasks.send_webhook.delay(pk)
        (got,) = receiver.got
        assert got.headers["host"] == f"hooks.example.test:{port}"
        assert got.verified["data"]["round"] == 1
        assert asked.count("hooks.example.test") == 1
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.django_db
def test_with_the_setting_off_the_local_receiver_gets_nothing(settings, season):
    """An endpoint stored while private addresses were allowed (or rebound since): with
    the setting off, every send is refused and kept as such."""
    settings.WEBHOOKS_ALLOW_HTTP = True
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    receiver, server = receivers.start()
    try:
        _endpoint(season, receiver.url)
        for pk in webhooks.deliver(_event(season)):
            tasks.send_webhook.delay(pk)
        assert receiver.got == []
        assert Delivery.objects.get().error == "refused"
    finally:
        server.shutdown()
        server.server_close()

"""The load balancer's checks (docs/operations.md): ``/healthz`` says the process answers
(no database), ``/readyz`` that its database answers too, 503 when it does not, tried on
real connections: a port that refuses them, and a connection the server ended."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from django.db import connections


def backend_pid(connection) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


@pytest.fixture
def refusing_port() -> Iterator[int]:
    """A loopback port that refuses connections (bound, never listening)."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        yield held.getsockname()[1]


@pytest.mark.django_db
def test_readiness_asks_the_database_once(client, django_assert_num_queries):
    with django_assert_num_queries(1):
        response = client.get("/readyz")
    assert response.status_code == 200 and response.content == b"ok"
    assert "no-store" in response["Cache-Control"]  # never a kept answer
    assert client.post("/readyz").status_code == 405


@pytest.mark.django_db
def test_readiness_answers_over_plain_http_behind_tls(client, settings):
    """The balancer probes over HTTP: no redirect to HTTPS (as ``/healthz``)."""
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert client.get("/", HTTP_HOST="127.0.0.1").status_code == 301
    assert client.get("/readyz").status_code == 200


def test_a_database_that_refuses_makes_the_site_unready(
    transactional_db, client, refusing_port, monkeypatch
):
    connection = connections["default"]
    connection.close()
    with monkeypatch.context() as moved:
        moved.setitem(connection.settings_dict, "HOST", "127.0.0.1")
        moved.setitem(connection.settings_dict, "PORT", str(refusing_port))
        unready = client.get("/readyz")
        alive = client.get("/healthz")
        connection.close()
    assert unready.status_code == 503 and unready.content == b"database unavailable"
    assert unready["Content-Type"].startswith("text/plain")
    assert alive.status_code == 200  # the process itself answers: liveness
    assert client.get("/readyz").status_code == 200  # the database back: ready again


def test_a_connection_the_server_ended_does_not_make_the_site_unready(transactional_db, client):
    """A kept connection ended by the server (a restart, an idle timeout) is replaced: the
    answer is about the database, not about a connection of the past."""
    connection = connections["default"]
    assert client.get("/readyz").status_code == 200
    ended = backend_pid(connection)
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s, 5000)", [ended])
            assert cursor.fetchone() == (True,)
    finally:
        other.close()
    response = client.get("/readyz")
    assert response.status_code == 200 and response.content == b"ok"
    assert backend_pid(connection) != ended

"""Signed webhooks to a club's own tools (reach.webhooks, docs/webhooks.md), received by a
local receiver that checks every delivery with the reference ``standardwebhooks``
verifier: what is sent, the retries on a moved clock, one delivery per event and
endpoint however often and however concurrently, and nothing to another club."""

from __future__ import annotations

import base64
import datetime as dt
import threading

import pytest
from django.db import connection, transaction
from standardwebhooks import webhooks as reference
from standardwebhooks.webhooks import WebhookVerificationError

from actions import rounds
from reach import tasks, webhooks
from reach.events import TYPES, Event
from reach.models import Delivery, Endpoint
from tests.reach import receiver as receivers
from tournaments.models import Club, Season

pytestmark = pytest.mark.django_db


@pytest.fixture
def local(settings):
    """The tests' receiver is on this machine, over HTTP: allowed for these tests only."""
    settings.WEBHOOKS_ALLOW_HTTP = True
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    receiver, server = receivers.start()
    yield receiver
    server.shutdown()
    server.server_close()


def endpoint_for(club: Club, receiver: receivers.Receiver, events: list[str], **kw) -> Endpoint:
    endpoint = Endpoint.objects.create(
        club=club, url=receiver.url, secret=webhooks.new_secret(), events=events, **kw
    )
    receiver.secret = endpoint.secret
    return endpoint


def drawn(season: Season, number: int = 1) -> Event:
    return Event(
        id=f"round.drawn:{number}",
        type="round.drawn",
        club=season.club_id,
        season=season.pk,
        night=None,
        data={"night": 7, "round": number, "tables": [{"name": "Table 1", "players": [3, 4]}]},
    )


def deliver(event: Event, capture) -> list[int]:
    """As ``reach.tasks.fan_out`` does: store, then send the new deliveries after the commit."""
    with capture(execute=True):
        made = webhooks.deliver(event)
        transaction.on_commit(lambda: [tasks.send_webhook.delay(pk) for pk in made])
    return made


def test_a_delivery_is_signed_as_standard_webhooks_says(
    local, season, django_capture_on_commit_callbacks
):
    endpoint = endpoint_for(season.club, local, ["round.drawn", "deal.confirmed"])
    deliver(drawn(season), django_capture_on_commit_callbacks)

    (got,) = local.got
    assert not isinstance(got.verified, Exception), got.verified
    assert got.verified["type"] == "round.drawn"
    assert got.verified["data"] == {
        "season": season.pk,
        "night": 7,
        "round": 1,
        "tables": [{"name": "Table 1", "players": [3, 4]}],
    }
    at = dt.datetime.fromisoformat(got.verified["timestamp"])
    assert abs((dt.datetime.now(dt.UTC) - at).total_seconds()) < 60
    assert got.headers["webhook-id"].startswith("msg_")
    assert got.headers["webhook-signature"].startswith("v1,")
    assert got.headers["content-type"] == "application/json"
    delivery = Delivery.objects.get()
    assert (delivery.endpoint, delivery.status, delivery.attempts) == (endpoint, "delivered", 1)
    assert delivery.response_status == 200 and delivery.next_attempt_at is None
    assert delivery.message_id == got.headers["webhook-id"]


def test_the_secret_is_whsec_and_random_bytes():
    secrets = {webhooks.new_secret() for _ in range(20)}
    assert len(secrets) == 20
    for secret in secrets:
        assert secret.startswith("whsec_")
        assert 24 <= len(base64.b64decode(secret.removeprefix("whsec_"))) <= 64


def test_a_type_not_chosen_a_disabled_endpoint_and_another_club_get_nothing(
    local, season, django_capture_on_commit_callbacks
):
    endpoint_for(season.club, local, ["season.closed"])
    endpoint_for(season.club, local, ["round.drawn"], active=False)
    rival = Club.objects.create(name="Rival", slug="rival")
    Season.objects.create(club=rival, name="Theirs", games=["napoleon"])
    endpoint_for(rival, local, ["round.drawn"])
    deliver(drawn(season), django_capture_on_commit_callbacks)
    assert local.got == [] and Delivery.objects.count() == 0


def test_an_event_of_a_season_its_club_does_not_own_is_not_delivered(
    local, season, django_capture_on_commit_callbacks
):
    """An event naming club B but a season of club A: club B's endpoint hears nothing."""
    rival = Club.objects.create(name="Rival", slug="rival")
    endpoint_for(rival, local, ["round.drawn"])
    event = drawn(season)
    deliver(
        Event(event.id, event.type, rival.pk, season.pk, None, event.data),
        django_capture_on_commit_callbacks,
    )
    assert local.got == [] and Delivery.objects.count() == 0


def test_a_season_no_longer_the_clubs_is_not_sent(
    local, season, django_capture_on_commit_callbacks
):
    """Checked again at the send: a delivery stored for a season that is not the
    endpoint's club's any more is given up, never sent."""
    endpoint_for(season.club, local, ["round.drawn"])
    webhooks.deliver(drawn(season))  # stored, not yet sent
    rival = Club.objects.create(name="Rival", slug="rival")
    Season.objects.filter(pk=season.pk).update(club=rival)
    assert webhooks.send_due() == 1
    assert local.got == []
    assert Delivery.objects.get().status == "failed"


def test_a_replay_older_than_five_minutes_is_refused(
    local, season, django_capture_on_commit_callbacks, monkeypatch
):
    endpoint_for(season.club, local, ["round.drawn"])
    deliver(drawn(season), django_capture_on_commit_callbacks)
    (captured,) = local.got
    verifier = reference.Webhook(local.secret)
    assert verifier.verify(captured.body, captured.headers)  # now: accepted

    class SixMinutesLater(dt.datetime):
        @classmethod
        def now(cls, tz=None):
            return dt.datetime.now(tz) + dt.timedelta(minutes=6)

    monkeypatch.setattr(reference, "datetime", SixMinutesLater)
    with pytest.raises(WebhookVerificationError, match="too old"):
        verifier.verify(captured.body, captured.headers)
    # Nor does a fresh timestamp on the old signature pass.
    fresh = {**captured.headers, "webhook-timestamp": str(int(SixMinutesLater.now().timestamp()))}
    with pytest.raises(WebhookVerificationError, match="No matching signature"):
        verifier.verify(captured.body, fresh)


def test_a_receiver_failing_twice_gets_it_on_the_third_attempt_on_schedule(
    local, season, django_capture_on_commit_callbacks
):
    endpoint_for(season.club, local, ["round.drawn"])
    local.answers = [500, 503]
    before = dt.datetime.now(dt.UTC)
    deliver(drawn(season), django_capture_on_commit_callbacks)
    after = dt.datetime.now(dt.UTC)
    first = Delivery.objects.get()
    assert (first.status, first.attempts, first.response_status) == ("retrying", 1, 500)
    assert first.error.startswith("status: busy, try later")
    assert len(first.error) <= 220  # an excerpt of the answer, not the whole of it
    assert (
        before + dt.timedelta(seconds=5) <= first.next_attempt_at <= after + dt.timedelta(seconds=5)
    )

    # Not due yet: the sweep leaves it (no sleeping: the clock is moved).
    assert webhooks.send_due(now=first.next_attempt_at - dt.timedelta(seconds=1)) == 0
    second_at = first.next_attempt_at
    assert webhooks.send_due(now=second_at) == 1
    second = Delivery.objects.get()
    assert (second.status, second.attempts, second.response_status) == ("retrying", 2, 503)
    assert second.next_attempt_at == second_at + dt.timedelta(minutes=5)

    assert webhooks.send_due(now=second.next_attempt_at - dt.timedelta(seconds=30)) == 0
    assert webhooks.send_due(now=second.next_attempt_at) == 1
    third = Delivery.objects.get()
    assert (third.status, third.attempts, third.response_status) == ("delivered", 3, 200)
    assert third.next_attempt_at is None and third.error == ""

    assert len(local.got) == 3
    assert all(not isinstance(g.verified, Exception) for g in local.got)
    assert len({g.headers["webhook-id"] for g in local.got}) == 1  # one message, retried
    assert webhooks.send_due(now=second.next_attempt_at + dt.timedelta(days=2)) == 0


def test_after_eight_attempts_over_about_a_day_it_is_given_up(
    local, season, django_capture_on_commit_callbacks
):
    endpoint_for(season.club, local, ["round.drawn"])
    local.answers = [500] * 20
    deliver(drawn(season), django_capture_on_commit_callbacks)
    waits = []
    while (row := Delivery.objects.get()).status == "retrying":
        now = row.next_attempt_at
        assert webhooks.send_due(now=now) == 1
        later = Delivery.objects.get()
        if later.next_attempt_at:
            waits.append(later.next_attempt_at - now)
    assert waits == list(webhooks.RETRY_DELAYS[1:])
    assert (row.status, row.attempts, row.next_attempt_at) == ("failed", 8, None)
    assert len(local.got) == 8
    assert (
        dt.timedelta(hours=20) < sum(webhooks.RETRY_DELAYS, dt.timedelta()) < dt.timedelta(hours=30)
    )


def test_a_redirect_is_not_followed(local, season, django_capture_on_commit_callbacks):
    endpoint_for(season.club, local, ["round.drawn"])
    local.answers = [302]
    deliver(drawn(season), django_capture_on_commit_callbacks)
    assert len(local.got) == 1
    delivery = Delivery.objects.get()
    assert (delivery.status, delivery.response_status) == ("retrying", 302)
    assert delivery.error.startswith("redirect")


def test_deliver_twice_stores_and_sends_once(local, season, django_capture_on_commit_callbacks):
    endpoint_for(season.club, local, ["round.drawn"])
    first = deliver(drawn(season), django_capture_on_commit_callbacks)
    assert deliver(drawn(season), django_capture_on_commit_callbacks) == []  # nothing new
    assert len(first) == 1 and Delivery.objects.count() == 1 and len(local.got) == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_fan_outs_store_and_send_once_per_event_and_endpoint(local, season):
    """Four workers deliver the same two events to three endpoints at once."""
    endpoints = [endpoint_for(season.club, local, ["round.drawn"]) for _ in range(3)]
    local.secret = ""  # three secrets: verified below, per endpoint
    start = threading.Barrier(4)
    failures: list[BaseException] = []
    news: list[int] = []

    def worker() -> None:
        try:
            start.wait()
            for number in (1, 2):  # as fan_out: store, then send those new
                with transaction.atomic():
                    made = webhooks.deliver(drawn(season, number))
                news.extend(made)
                for pk in made:
                    tasks.send_webhook.delay(pk)
        except BaseException as failed:  # noqa: BLE001 - reported below
            failures.append(failed)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    assert Delivery.objects.count() == 6
    assert sorted(news) == sorted(Delivery.objects.values_list("pk", flat=True))  # each once
    assert sorted(Delivery.objects.values_list("status", "attempts")) == [("delivered", 1)] * 6
    assert len(local.got) == 6
    ids = {g.headers["webhook-id"] for g in local.got}
    assert ids == set(Delivery.objects.values_list("message_id", flat=True))
    by_id = {d.message_id: d.endpoint for d in Delivery.objects.select_related("endpoint")}
    for got in local.got:
        endpoint = by_id[got.headers["webhook-id"]]
        assert reference.Webhook(endpoint.secret).verify(got.body, got.headers)
    assert {d.endpoint_id for d in Delivery.objects.all()} == {e.pk for e in endpoints}


@pytest.mark.django_db(transaction=True)
def test_concurrent_sweeps_send_each_attempt_once(local, season):
    endpoint_for(season.club, local, ["round.drawn"])
    for n in range(8):  # stored, not yet sent (no commit hook ran): all due
        Delivery.objects.create(
            endpoint=Endpoint.objects.get(),
            event=f"round.drawn:{n}",
            message_id=webhooks.new_message_id(),
            event_type="round.drawn",
            payload={"type": "round.drawn", "timestamp": "2026-01-01T00:00:00Z", "data": {}},
            next_attempt_at=dt.datetime.now(dt.UTC),
        )
    start = threading.Barrier(3)
    counts: list[int] = []

    def sweeper() -> None:
        try:
            start.wait()
            counts.append(webhooks.send_due())
        finally:
            connection.close()

    threads = [threading.Thread(target=sweeper) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(counts) == 8
    assert len(local.got) == 8
    assert len({g.headers["webhook-id"] for g in local.got}) == 8
    assert set(Delivery.objects.values_list("status", "attempts")) == {("delivered", 1)}


def test_a_second_claim_of_one_attempt_fails(local, season):
    endpoint_for(season.club, local, ["round.drawn"])
    delivery = Delivery.objects.create(
        endpoint=Endpoint.objects.get(),
        event="round.drawn:1",
        message_id=webhooks.new_message_id(),
        event_type="round.drawn",
        payload={"type": "round.drawn", "timestamp": "2026-01-01T00:00:00Z", "data": {}},
        next_attempt_at=dt.datetime.now(dt.UTC),
    )
    now = dt.datetime.now(dt.UTC)
    assert webhooks.claim(delivery.pk, now) is True
    assert webhooks.claim(delivery.pk, now) is False
    assert webhooks.send_now(delivery.pk, now) is False
    # A worker that died mid-send: the lease runs out and the attempt is taken again.
    assert webhooks.send_now(delivery.pk, now + webhooks.LEASE) is True
    assert Delivery.objects.get().attempts == 2 and len(local.got) == 1


def test_a_test_event_reaches_one_endpoint(local, season, django_capture_on_commit_callbacks):
    endpoint = endpoint_for(season.club, local, ["season.closed"])
    Endpoint.objects.create(
        club=season.club, url="http://127.0.0.1:9/", secret=webhooks.new_secret(), events=["ping"]
    )
    with django_capture_on_commit_callbacks(execute=True):
        tasks.send_test_event(endpoint)
    (got,) = local.got
    assert got.verified["type"] == "ping"
    assert got.verified["data"] == {"endpoint": endpoint.pk}
    assert Delivery.objects.get(endpoint=endpoint).status == "delivered"


def test_a_real_draw_reaches_the_clubs_endpoint_and_no_other(
    local, room, django_capture_on_commit_callbacks
):
    """End to end: the league draws a round; its club's endpoint gets ``round.drawn``
    (checked by the reference verifier), another club's endpoint nothing."""
    night, players = room
    endpoint_for(night.season.club, local, ["round.drawn", "night.closed"])
    rival = Club.objects.create(name="Rival", slug="rival")
    Endpoint.objects.create(
        club=rival, url=local.url, secret=webhooks.new_secret(), events=list(TYPES)
    )
    with django_capture_on_commit_callbacks(execute=True):
        drawn_round = rounds.draw_next_round(
            night,
            game="napoleon",
            method="balanced",
            players=[p.pk for p in players[:12]],
            deals=2,
            seed=3,
        ).round
    (got,) = local.got
    assert not isinstance(got.verified, Exception), got.verified
    data = got.verified["data"]
    assert got.verified["type"] == "round.drawn"
    assert (data["season"], data["night"], data["round"]) == (night.season_id, night.pk, 1)
    assert sum(len(t["players"]) for t in data["tables"]) == 12
    delivery = Delivery.objects.get()
    assert delivery.event == f"round.drawn:{drawn_round.pk}" and delivery.status == "delivered"


def test_a_night_called_off_and_held_again_reaches_the_endpoint_that_chose_it(
    local, room, django_capture_on_commit_callbacks
):
    """End to end: the night called off, then held after all, reaches the club's endpoint
    that chose both (checked by the reference verifier), each once whatever the retries;
    an endpoint that chose only draws hears of neither."""
    from actions import nights

    night, _players = room
    endpoint_for(night.season.club, local, ["night.cancelled", "night.restored"])
    Endpoint.objects.create(
        club=night.season.club, url=local.url, secret=webhooks.new_secret(), events=["round.drawn"]
    )
    with django_capture_on_commit_callbacks(execute=True):
        nights.cancel_night(night)
    tasks.fan_out("night.cancelled", {"night": night.pk})  # a retry
    with django_capture_on_commit_callbacks(execute=True):
        nights.restore_night(night)
    assert all(not isinstance(g.verified, Exception) for g in local.got), local.got
    assert [g.verified["type"] for g in local.got] == ["night.cancelled", "night.restored"]
    called, held = (g.verified["data"] for g in local.got)
    assert (called["night"], called["cancelled"], held["cancelled"]) == (night.pk, True, False)
    assert called["date"] == "2026-11-28" and called["url"] == f"/nights/{night.pk}/"
    assert Delivery.objects.count() == 2


def test_a_new_secret_signs_beside_the_old_one_for_a_day_then_alone(
    local, season, django_capture_on_commit_callbacks
):
    """Standard Webhooks' rotation: after a new secret is made, each message carries both
    signatures, so a receiver that still holds the old secret, or already the new one,
    accepts it (the reference verifier); a day later the old one no longer verifies; made
    again within the day, only the secret just replaced signs beside the newest."""
    from actions import webhooks as webhook_actions

    endpoint = endpoint_for(season.club, local, ["round.drawn"])
    first = endpoint.secret
    webhook_actions.rotate_secret(endpoint)
    second = endpoint.secret
    assert second != first and webhooks.overlap_until(endpoint) is not None
    deliver(drawn(season, 1), django_capture_on_commit_callbacks)  # the receiver holds the old
    (got,) = local.got
    assert not isinstance(got.verified, Exception), got.verified
    assert len(got.headers["webhook-signature"].split(" ")) == 2
    assert reference.Webhook(second).verify(got.body, got.headers)["type"] == "round.drawn"

    webhook_actions.rotate_secret(endpoint)  # again, within the day
    third = endpoint.secret
    deliver(drawn(season, 2), django_capture_on_commit_callbacks)
    assert isinstance(local.got[-1].verified, WebhookVerificationError)  # the first: no more
    for held in (second, third):
        reference.Webhook(held).verify(local.got[-1].body, local.got[-1].headers)

    Endpoint.objects.filter(pk=endpoint.pk).update(
        previous_until=dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1)
    )  # a day later
    local.secret = second
    deliver(drawn(season, 3), django_capture_on_commit_callbacks)
    assert isinstance(local.got[-1].verified, WebhookVerificationError)
    assert len(local.got[-1].headers["webhook-signature"].split(" ")) == 1
    reference.Webhook(third).verify(local.got[-1].body, local.got[-1].headers)


def test_the_old_secret_ended_early_signs_nothing_more(
    local, season, django_capture_on_commit_callbacks
):
    """A leaked secret: made new, and the old one stopped at once rather than after its
    day; the next message verifies with the new secret alone (the reference verifier)."""
    from actions import webhooks as webhook_actions

    endpoint = endpoint_for(season.club, local, ["round.drawn"])
    leaked = endpoint.secret
    webhook_actions.rotate_secret(endpoint)
    assert webhook_actions.end_previous_secret(endpoint) is True
    assert webhook_actions.end_previous_secret(endpoint) is False  # again: nothing to end
    assert webhooks.overlap_until(Endpoint.objects.get(pk=endpoint.pk)) is None
    deliver(drawn(season, 1), django_capture_on_commit_callbacks)  # the receiver: old one
    assert isinstance(local.got[-1].verified, WebhookVerificationError)
    assert len(local.got[-1].headers["webhook-signature"].split(" ")) == 1
    reference.Webhook(endpoint.secret).verify(local.got[-1].body, local.got[-1].headers)
    with pytest.raises(WebhookVerificationError):
        reference.Webhook(leaked).verify(local.got[-1].body, local.got[-1].headers)

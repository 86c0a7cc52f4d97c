"""reach's Celery tasks: the fan-out of what the league announced, the sends."""

from __future__ import annotations

from functools import partial
from typing import Any

from celery import shared_task
from django.db import OperationalError, transaction


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def fan_out(kind: str, ids: dict[str, int]) -> None:
    """Make the events ``kind`` announced, store their notices and deliveries, and send
    those new: a retry stores nothing twice (their keys are the events' ids), so it
    sends nothing twice."""
    from reach import push, sources, webhooks

    with transaction.atomic():  # all of an announcement's messages, or none (a savepoint
        # when run eagerly inside a transaction: a failure leaves the caller's intact)
        told: list[int] = []
        delivered: list[int] = []
        for event in sources.events(kind, ids):
            told += push.tell(event)
            delivered += webhooks.deliver(event)
    send_later(told)
    for pk in delivered:
        send_webhook.delay(pk)


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def standings_changed(season_ids: list[int]) -> None:
    """Tell the listeners of ``season_ids`` that their standings changed: the last task
    of a refresh's chain (``actions.after``), run once the standings are new."""
    for season_id in season_ids:
        fan_out("standings.changed", {"season": season_id})


@shared_task
def send_webhook(pk: int) -> None:
    """Send one webhook delivery now, if it is still due (reach.webhooks)."""
    from reach import webhooks

    webhooks.send_now(pk)


@shared_task
def send_due_webhooks() -> int:
    """The periodic sweep (settings.CELERY_BEAT_SCHEDULE): the deliveries due, retries
    among them."""
    from reach import webhooks

    return webhooks.send_due()


@shared_task(ignore_result=True)
def send_notices(ids: list[int]) -> None:
    """Send these push notices (``reach.push.send``: each at most once, whoever else tries)."""
    from reach import push

    push.send_all(ids)


def send_test_event(endpoint: Any) -> int:
    """The webhooks page's "send a test event": a ``ping`` delivery to this endpoint,
    sent after the commit; its id."""
    from reach import webhooks

    pk = webhooks.ping(endpoint)
    transaction.on_commit(lambda: send_webhook.delay(pk))
    return pk


def send_later(ids: list[int]) -> None:
    """Send these push notices by tasks of ``push.BATCH`` each (several workers share a
    big event), once the transaction commits (at once outside one)."""
    from reach import push

    for start in range(0, len(ids), push.BATCH):
        transaction.on_commit(partial(send_notices.delay, ids[start : start + push.BATCH]))

"""Revoked means revoked: no page makes a link for a revoked table, a phone that held a
withdrawn link is told so (not asked to sign in) and forgets the page, and entries
through one table's link are limited."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from actions import table_links as link_actions
from tests.conftest import napoleon_deal
from tournaments.models import Deal, Table

pytestmark = pytest.mark.django_db


def _phone(table: Table) -> Client:
    phone = Client()
    assert phone.get(f"/t/{link_actions.ensure(table)}/").status_code == 302
    return phone


def _entry(key: str = "k1", number: int = 1) -> dict[str, str]:
    return {"full_record": json.dumps(napoleon_deal()), "number": str(number), "key": key}


def test_a_revoked_link_stays_revoked_on_the_table_list_and_the_paper(tonight, match, admin):
    token = link_actions.ensure(tonight)
    admin.post(f"/tables/{tonight.pk}/link/", {"action": "revoke"})
    listing = admin.get(f"/nights/{tonight.club_night_id}/tables/").content.decode()
    assert "/t/" not in listing and "link is revoked" in listing
    assert admin.get(f"/nights/{tonight.club_night_id}/paper.pdf").status_code == 200
    assert admin.get(f"/matches/{match.pk}/paper.pdf").status_code == 200
    tonight.refresh_from_db()
    assert tonight.link_token == "" and tonight.link_revoked_at is not None
    assert Client().get(f"/t/{token}/").status_code == 410
    # Until an administrator makes a new one.
    admin.post(f"/tables/{tonight.pk}/link/", {"action": "new"})
    listing = admin.get(f"/nights/{tonight.club_night_id}/tables/").content.decode()
    fresh = re.search(r"http://testserver/t/([\w-]+)/", listing).group(1)
    assert fresh != token and Client().get(f"/t/{fresh}/").status_code == 302


def test_a_phone_with_a_withdrawn_link_is_told_so_and_stores_nothing(tonight, match, admin):
    phone = _phone(tonight)
    assert phone.get(f"/matches/{match.pk}/enter/").status_code == 200
    admin.post(f"/tables/{tonight.pk}/link/", {"action": "revoke"})
    for url in (f"/matches/{match.pk}/enter/", f"/tables/{tonight.pk}/"):
        page = phone.get(url)
        assert page.status_code == 410 and "withdrew this table" in page.content.decode()
    sent = phone.post(f"/matches/{match.pk}/enter/", _entry())
    assert sent.status_code == 410
    queued = phone.post(f"/matches/{match.pk}/enter/", _entry(), HTTP_ACCEPT="application/json")
    assert queued.status_code == 410 and queued.json()["status"] == "withdrawn"
    assert not Deal.objects.exists()


def test_entries_through_one_tables_link_are_limited(tonight, match, monkeypatch):
    from django.core.cache import cache
    from rest_framework.throttling import SimpleRateThrottle

    # DRF reads the rates once, into the class: set them there, for this test alone.
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", {"deal_entry": "3/min"})
    cache.clear()
    answers = [
        _phone(tonight).post(f"/matches/{match.pk}/enter/", _entry(f"k{n}", 99)) for n in range(5)
    ]  # five phones of one link: the table's count, not each phone's
    cache.clear()
    codes = [a.status_code for a in answers]
    assert codes[3:] == [429, 429] and 429 not in codes[:3]
    assert answers[-1]["Retry-After"]

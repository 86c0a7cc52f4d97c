"""The match's history is one timeline (issue 43, 7): corrections and the match's own
events (ended, reopened) together, newest first, in the order they were made."""

from __future__ import annotations

import pytest
from django.test import Client

import actions.deals
from actions import corrections
from tests.conftest import member_of, napoleon_deal
from tournaments.models import Membership

pytestmark = pytest.mark.django_db


def test_events_and_corrections_read_as_one_timeline(match, club, django_user_model):
    admin = member_of(club, django_user_model, "lena", Membership.Role.ADMIN)
    first = actions.deals.enter_deal(match, napoleon_deal(), key="d1").stored()
    second = actions.deals.enter_deal(match, napoleon_deal(count=16), key="d2").stored()
    corrections.delete_deal(second, admin, "entered twice")
    corrections.end_match(match, admin, "the hall closes")
    corrections.reopen_match(match, admin, "one more deal after all")
    corrections.correct_deal(first, napoleon_deal(adjutant="ben"), admin, "wrong adjutant")
    page = Client()
    page.force_login(admin)
    html = page.get(f"/matches/{match.pk}/").content.decode()
    history = html[html.index('id="history"') :]
    said = [
        history.index(reason)
        for reason in (
            "wrong adjutant",
            "one more deal after all",
            "the hall closes",
            "entered twice",
        )
    ]
    assert said == sorted(said)  # newest first, events among the corrections

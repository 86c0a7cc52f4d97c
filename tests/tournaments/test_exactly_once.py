"""Two scorers submit the same deal number at the same moment: one deal, one clear 409."""

import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

from tests.conftest import NAPOLEON_SEATS, member_of, napoleon_deal
from tournaments.models import Deal, Membership

pytestmark = pytest.mark.django_db(transaction=True)


def test_simultaneous_submits_of_one_deal_number_store_it_once(make_match, django_user_model):
    match = make_match("napoleon", NAPOLEON_SEATS)
    club = match.table.club_night.season.club
    scorers = [  # administrators of the club: each may enter at every table
        member_of(club, django_user_model, f"s{i}", Membership.Role.ADMIN) for i in range(4)
    ]
    start = threading.Barrier(len(scorers))
    answers: list[tuple[int, dict]] = []

    def submit(user):
        client = APIClient()
        client.force_authenticate(user)
        try:
            start.wait(timeout=10)
            response = client.post(
                f"/api/matches/{match.pk}/deals/",
                {"record": napoleon_deal(), "number": 1},
                format="json",
            )
            answers.append((response.status_code, response.json()))
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(u,)) for u in scorers]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    codes = sorted(code for code, _ in answers)
    assert codes == [201, 409, 409, 409]
    for code, body in answers:
        if code == 409:
            assert body["errors"][0]["code"] == "deal_exists"
            assert body["existing"]["number"] == 1
    assert Deal.objects.filter(match=match).count() == 1

"""Public API answers name no accounts (issue 24, 8): no login name and no account id
(``user``, ``scorer``, ``entered_by``, ``confirmed_by``) reaches a reader who does not
administer the club; its administrators still see and set them."""

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tests import worlds
from tournaments.models import Deal, Membership, Player, Table

pytestmark = pytest.mark.django_db

ACCOUNT_KEYS = {"user", "scorer", "entered_by", "confirmed_by", "changed_by", "username"}


def walk(value, found):
    if isinstance(value, dict):
        for key, item in value.items():
            found["keys"].add(key)
            walk(item, found)
    elif isinstance(value, list):
        for item in value:
            walk(item, found)
    elif isinstance(value, str):
        found["strings"].add(value)


def answers(client):
    """Every list and object the API has, as the client reads them."""
    found = {"keys": set(), "strings": set()}
    for url in [
        "/api/clubs/",
        "/api/players/",
        "/api/seasons/",
        "/api/club-nights/",
        "/api/tables/",
        "/api/matches/",
        "/api/deals/",
    ]:
        body = client.get(url).json()
        walk(body, found)
        for row in body["results"][:3]:
            walk(client.get(f"{url}{row['id']}/").json(), found)
    match = Deal.objects.filter(confirmed_by__isnull=False).first() or Deal.objects.first()
    walk(client.get(f"/api/matches/{match.match_id}/deals/").json(), found)
    return found


@pytest.fixture
def demo():
    worlds.demo()
    Deal.objects.update(confirmed_by=User.objects.get(username="admin"))
    return User.objects.get(username="admin")


def test_anonymous_and_other_clubs_readers_see_no_account(demo, django_user_model):
    names = set(User.objects.values_list("username", flat=True))
    stranger = django_user_model.objects.create_user("stranger", password="stranger-pass-1")
    member = User.objects.get(username="member")
    for client, who in (
        (APIClient(), "anonymous"),
        (APIClient(), "stranger"),
        (APIClient(), "member"),
    ):
        if who != "anonymous":
            client.force_authenticate(stranger if who == "stranger" else member)
        found = answers(client)
        assert not found["keys"] & ACCOUNT_KEYS, (who, found["keys"] & ACCOUNT_KEYS)
        assert not found["strings"] & names, (who, found["strings"] & names)


def test_the_clubs_administrator_sees_and_sets_the_accounts(demo):
    admin = APIClient()
    admin.force_authenticate(demo)
    player = Player.objects.filter(user__isnull=False).first()
    assert admin.get(f"/api/players/{player.pk}/").json()["user"] == player.user_id
    table = Table.objects.filter(scorer__isnull=False).first()
    assert admin.get(f"/api/tables/{table.pk}/").json()["scorer"] == table.scorer_id
    assert Membership.objects.filter(user=demo, role="admin").exists() or demo.is_superuser

"""Sign-up cannot be farmed: a few clubs an address a day and an account, no name that
looks like a taken one, nothing said of who holds a name, and a race refused in words."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.conftest import at_the_same_moment
from tournaments.models import Club, Membership

pytestmark = pytest.mark.django_db

PASSWORD = "a long pass phrase 2026"


def _form(username: str, club: str) -> dict[str, str]:
    return {
        "account-username": username,
        "account-email": "",
        "account-password1": PASSWORD,
        "account-password2": PASSWORD,
        "club-club": club,
    }


@pytest.fixture(autouse=True)
def _open(settings):
    settings.ALLOW_SIGN_UP = True
    settings.SIGN_UPS_PER_ADDRESS = 3
    settings.CLUBS_PER_ACCOUNT = 2


def _sign_up(username: str, club: str, address: str = "203.0.113.7"):
    return Client(REMOTE_ADDR=address).post("/accounts/sign-up/", _form(username, club))


def test_an_address_starts_a_few_clubs_a_day(db):
    for n in range(3):
        assert _sign_up(f"farmer{n}", f"Farm {n}").status_code == 302
    refused = _sign_up("farmer3", "Farm 3")
    assert refused.status_code == 200 and "too many clubs were started" in refused.content.decode()
    assert not User.objects.filter(username="farmer3").exists()  # nothing half-made
    assert Club.objects.count() == 3
    assert _sign_up("neighbour", "Next Door", address="198.51.100.2").status_code == 302


def test_an_account_starts_at_most_its_number_of_clubs(db):
    assert _sign_up("kana", "First").status_code == 302
    kana = Client(REMOTE_ADDR="198.51.100.9")
    kana.force_login(User.objects.get(username="kana"))
    assert kana.post("/accounts/sign-up/", {"club-club": "Second"}).status_code == 302
    third = kana.post("/accounts/sign-up/", {"club-club": "Third"})
    assert "an account starts at most 2 clubs" in third.content.decode()
    assert Membership.objects.filter(user__username="kana").count() == 2


@pytest.mark.parametrize(
    "fake",
    [
        "Kanda  Card Club",  # two spaces
        "Kanda\u200b Card Club",  # a zero-width space
        "Kanda\u00a0Card Club",  # a non-breaking space
        "Kаnda Card Club",  # a Cyrillic а
        "ＫＡＮＤＡ Card Club",  # full-width letters
        "KANDA CARD CLUB",
        "Kanda Card CIub",  # a capital I for the l
    ],
)
def test_a_club_name_that_looks_like_a_taken_one_is_refused_without_naming_it(fake):
    Club.objects.create(name="Kanda Card Club", slug="kanda")
    page = _sign_up("someone", fake).content.decode()
    assert "this name is taken, or looks like a name that is" in page
    assert "Kanda Card Club" not in page.replace(fake, "")
    assert Club.objects.count() == 1 and not User.objects.filter(username="someone").exists()


@pytest.mark.parametrize("fake", ["kana", "Kana", "kаna", "ｋａｎａ", "kana\u200b"])
def test_an_account_name_that_looks_like_a_taken_one_is_refused_alike(fake, django_user_model):
    django_user_model.objects.create_user("kana")
    page = _sign_up(fake, "A new club").content.decode()
    assert "This user name cannot be used" in page
    assert "already exists" not in page  # nothing said of who holds it
    assert User.objects.count() == 1 and not Club.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_two_sign_ups_of_one_name_at_once_make_one_and_refuse_the_other_in_words():
    answers = at_the_same_moment(
        lambda: _sign_up("twin", "Twin Club", "192.0.2.1"),
        lambda: _sign_up("twin", "Twin Club", "192.0.2.2"),
    )
    codes = sorted(a.status_code for a in answers)
    assert codes == [200, 302], answers
    refused = next(a for a in answers if a.status_code == 200).content.decode()
    assert "cannot be used" in refused or "this name is taken" in refused
    assert User.objects.filter(username="twin").count() == 1 and Club.objects.count() == 1

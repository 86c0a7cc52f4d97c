"""The rounds page's "Confirm the round" checks what the API checks: it sends a proposal
changed by hand, so it may say anything (``rounds.seat`` validates all of it)."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.test import Client

from tests.conftest import member_of
from tournaments.models import Club, ClubNight, Membership, Player, Round, Season, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(club):
    season = Season.objects.create(club=club, name="Open", games=["napoleon"], public=True)
    return ClubNight.objects.create(season=season, date=dt.date(2026, 11, 28), venue="Hall")


@pytest.fixture
def nine(club):
    return [
        Player.objects.create(club=club, handle=f"p{i}", display_name=f"P{i}").pk
        for i in range(1, 10)
    ]


@pytest.fixture
def hidden():
    """Another club's player, seen by nobody outside it."""
    other = Club.objects.create(name="Other", slug="other")
    return Player.objects.create(club=other, handle="secret", display_name="Secret Sato")


@pytest.fixture
def director(club, django_user_model):
    page = Client()
    page.force_login(member_of(club, django_user_model, "dir", Membership.Role.ADMIN))
    return page


def _confirm(nine, **changes):
    """Three tables of three, as a proposal comes back from the page."""
    form = {
        "game": "napoleon",
        "method": "balanced",
        "deals": "2",
        "players": nine,
        "action": "confirm",
        "tables": "3",
        "number": "1",
        "player": list(nine),
    }
    for n, table in enumerate([nine[0:3], nine[3:6], nine[6:9]], 1):
        for p in table:
            form[f"table_{p}"] = str(n)
    form.update(changes)
    return form


def _refused(director, night, form) -> str:
    answer = director.post(f"/nights/{night.pk}/rounds/", form)
    assert answer.status_code == 400, answer.status_code
    assert not Round.objects.exists() and not Table.objects.exists()
    return answer.content.decode()


def test_another_clubs_player_never_sits_out_and_is_never_published(night, nine, hidden, director):
    form = _confirm(nine, player=[*nine, hidden.pk], **{f"table_{hidden.pk}": "out"})
    assert "no player" in _refused(director, night, form)
    for url in (
        f"/nights/{night.pk}/",
        f"/nights/{night.pk}/live/",
        f"/api/club-nights/{night.pk}/standings/",
    ):
        assert "Secret Sato" not in Client().get(url).content.decode()  # fmt: skip


def test_a_game_outside_the_season_seats_nothing_and_the_night_still_answers(night, nine, director):
    _refused(director, night, _confirm(nine, game="poker", player=[]))
    _refused(director, night, _confirm(nine, game="comp13"))
    _refused(director, night, _confirm(nine, game="x" * 5000))
    for url in (f"/nights/{night.pk}/", f"/nights/{night.pk}/live/", f"/nights/{night.pk}/rounds/"):
        assert director.get(url).status_code == 200  # fmt: skip


@pytest.mark.parametrize(
    "changes",
    [
        {"player": ["999999999"], "table_999999999": "1"},
        {"player": ["99999999999999999"], "table_99999999999999999": "1"},
        {"deals": "40000"},
        {"deals": "0"},
        {"method": "m" * 5000},
        {"number": "9" * 18},
    ],
    ids=["unknown", "huge-id", "deals-over", "deals-zero", "long-method", "huge-number"],
)
def test_hostile_values_are_refused_in_words(night, nine, director, changes):
    form = _confirm(nine, **changes)
    if "player" in changes:
        form["player"] = [*nine, *changes["player"]]
    answer = director.post(f"/nights/{night.pk}/rounds/", form)
    assert answer.status_code in (400, 409) and b"<ul" in answer.content
    assert not Round.objects.exists()


def test_a_huge_table_count_builds_nothing(night, nine, director):
    started = time.monotonic()
    form = _confirm(nine, tables="9" * 18)
    answer = director.post(f"/nights/{night.pk}/rounds/", form)
    assert time.monotonic() - started < 5
    assert answer.status_code in (302, 400)


def test_the_api_refuses_the_same_values(night, nine, hidden, club, django_user_model):
    from tests.conftest import client_of

    api = client_of(member_of(club, django_user_model, "dir2", Membership.Role.ADMIN))
    url = f"/api/club-nights/{night.pk}/rounds/"
    for body in (
        {"game": "napoleon", "players": [*nine[:8], hidden.pk]},
        {"game": "napoleon", "players": [*nine[:8], 10**20]},
        {"game": "napoleon", "players": [*nine[:8], -1]},
        {"game": "napoleon", "players": nine, "deals": 40000},
        {"game": "poker", "players": nine},
        {"game": "napoleon", "players": nine, "method": "final", "size": 10**20},
        {"game": "napoleon", "players": "everyone"},
    ):
        answer = api.post(url, body, format="json")
        assert answer.status_code == 400 and answer.json()["errors"], body
    assert not Round.objects.exists()

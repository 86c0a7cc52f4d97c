"""No 500 from a name or a length (issue 28, 8): an over-long value posted into every field
of every form of the pages and of every API serializer is answered in words (a 4xx or the
form again), never a 500, and nothing over-long is stored; a season's name is unique in
its club as the score-sheet import compares names."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from rest_framework.test import APIClient

import actions.deals
from tests.conftest import NAPOLEON_SEATS, napoleon_deal
from tournaments.models import ClubNight, Deal, DealVersion, Player, Season

pytestmark = pytest.mark.django_db
LONG = "x" * 5000


class Forms(HTMLParser):
    """The POST forms of a page: their action and their fields' names and values."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = dict(attrs)
        if tag == "form" and (a.get("method") or "").lower() == "post":
            self.forms.append({"action": a.get("action") or "", "fields": {}})
        elif self.forms and tag in ("input", "textarea", "select") and a.get("name"):
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio") and "checked" not in a:
                self.forms[-1]["fields"].setdefault(a["name"], "")
            elif kind not in ("submit", "file"):
                self.forms[-1]["fields"][a["name"]] = a.get("value") or ""


def forms_of(html: str) -> list[dict]:
    parser = Forms()
    parser.feed(html)
    return parser.forms


@pytest.fixture
def club_with_a_match(club, players, scorer, table, make_match):
    match = make_match("napoleon", NAPOLEON_SEATS)
    actions.deals.enter_deal(match, napoleon_deal(), user=scorer).stored()
    return match


def test_every_field_of_every_page_form_takes_an_over_long_value_in_words(
    client, club, club_admin, club_with_a_match
):
    client.force_login(club_admin)
    match = club_with_a_match
    deal = Deal.objects.get()
    season = Season.objects.get()
    night = ClubNight.objects.get()
    pages = [
        f"/clubs/{club.slug}/setup/",
        f"/clubs/{club.slug}/players/{Player.objects.first().pk}/",
        f"/clubs/{club.slug}/seasons/new/",
        f"/clubs/{club.slug}/seasons/{season.pk}/",
        f"/seasons/{season.pk}/nights/new/",
        f"/nights/{night.pk}/draw/",
        f"/matches/{match.pk}/enter/",
        f"/deals/{deal.pk}/correct/",
        f"/matches/{match.pk}/",
        f"/clubs/{club.slug}/import/",
    ]
    tried = 0
    for page in pages:
        for form in forms_of(client.get(page).content.decode()):
            url = form["action"] or page
            if "logout" in url or "i18n" in url:
                continue
            for name in form["fields"]:
                if name == "csrfmiddlewaretoken":
                    continue
                answer = client.post(url, {**form["fields"], name: LONG})
                tried += 1
                assert answer.status_code < 500, (page, url, name, answer.status_code)
    assert tried > 40
    assert not Player.objects.filter(display_name__startswith="xxxx").exists()
    assert not Season.objects.filter(name__startswith="xxxx").exists()
    assert not DealVersion.objects.filter(reason__startswith="xxxx").exists()


def test_every_serializer_field_takes_an_over_long_value_in_words(
    club, club_admin, club_with_a_match
):
    api = APIClient()
    api.force_authenticate(club_admin)
    deal = Deal.objects.get()
    season = Season.objects.get()
    night = ClubNight.objects.get()
    player = Player.objects.first()
    sends = [
        ("post", "/api/clubs/", {"name": "N", "slug": "n"}),
        ("patch", f"/api/clubs/{club.pk}/", {"name": "N", "slug": "n"}),
        (
            "post",
            "/api/players/",
            {"club": club.pk, "handle": "h", "display_name": "D", "name_ja": ""},
        ),
        (
            "patch",
            f"/api/players/{player.pk}/",
            {"handle": "h", "display_name": "D", "name_ja": "J"},
        ),
        ("post", "/api/seasons/", {"club": club.pk, "name": "S2", "games": ["napoleon"]}),
        ("patch", f"/api/seasons/{season.pk}/", {"name": "S"}),
        ("post", "/api/club-nights/", {"season": season.pk, "date": "2026-12-01", "venue": "V"}),
        ("patch", f"/api/club-nights/{night.pk}/", {"venue": "V"}),
        ("post", "/api/tables/", {"club_night": night.pk, "name": "T"}),
        ("put", f"/api/deals/{deal.pk}/", {"record": napoleon_deal(), "reason": "r"}),
        ("post", f"/api/deals/{deal.pk}/restore/", {"reason": "r"}),
    ]
    for method, url, body in sends:
        for name, value in body.items():
            if not isinstance(value, str):
                continue
            answer = getattr(api, method)(url, {**body, name: LONG}, format="json")
            assert 400 <= answer.status_code < 500, (url, name, answer.status_code)
    refused = api.delete(f"/api/deals/{deal.pk}/?reason={LONG}")
    assert refused.status_code == 400 and Deal.objects.get().deleted_at is None


def test_a_season_name_is_unique_in_its_club_as_names_are_compared(
    club, club_admin, client, season
):
    client.force_login(club_admin)
    for name in (season.name, season.name.upper(), f"  {season.name.lower()} "):
        page = client.post(
            f"/clubs/{club.slug}/seasons/new/", {"name": name, "games": ["napoleon"]}
        )
        assert page.status_code == 200 and "a season of this name already" in page.content.decode()
    other = Season.objects.create(club=club, name="Autumn", games=["napoleon"])
    renamed = client.post(
        f"/clubs/{club.slug}/seasons/{other.pk}/", {"name": "SPRING", "games": ["napoleon"]}
    )
    assert renamed.status_code == 200
    api = APIClient()
    api.force_authenticate(club_admin)
    answer = api.post(
        "/api/seasons/", {"club": club.pk, "name": "spring", "games": ["napoleon"]}, format="json"
    )
    assert answer.status_code == 400 and answer.json()["errors"][0]["path"] == "name"
    assert Season.objects.filter(club=club).count() == 2

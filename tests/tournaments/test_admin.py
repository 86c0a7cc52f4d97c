"""The admin enters deals through the engine too, and lists what a league admin needs."""

import json
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import Permission, User

from tests import worlds
from tests.conftest import NAPOLEON_SEATS, napoleon_deal
from tournaments.models import Club, Deal, Match, Season

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client, league_admin):
    client.force_login(league_admin)
    return client


def test_an_invalid_deal_entered_in_the_admin_shows_the_engines_errors(admin_client, make_match):
    match = make_match("napoleon", NAPOLEON_SEATS)
    record = {**napoleon_deal(), "adjutants": ["zed"]}
    response = admin_client.post(
        "/admin/tournaments/deal/add/", {"match": match.pk, "record": json.dumps(record)}
    )
    assert response.status_code == 200  # the form again, with errors
    assert "adjutants[0]: &#x27;zed&#x27; is not one of the players" in response.content.decode()
    assert not Deal.objects.exists()


def test_a_valid_deal_entered_in_the_admin_is_stored_with_scores(
    admin_client, make_match, league_admin
):
    match = make_match("napoleon", NAPOLEON_SEATS)
    response = admin_client.post(
        "/admin/tournaments/deal/add/", {"match": match.pk, "record": json.dumps(napoleon_deal())}
    )
    assert response.status_code == 302
    deal = Deal.objects.get()
    assert deal.number == 1 and deal.entered_by == league_admin
    assert deal.scores.count() == 4


@pytest.mark.parametrize(
    "url",
    [
        "/admin/tournaments/match/",
        "/admin/tournaments/match/?game__exact=napoleon",
        "/admin/tournaments/player/?q=aki",
        "/admin/tournaments/deal/",
        "/admin/tournaments/clubnight/",
        "/admin/tournaments/season/",
    ],
)
def test_admin_lists_load(admin_client, make_match, url):
    make_match("napoleon", NAPOLEON_SEATS)
    assert admin_client.get(url).status_code == 200


def test_the_match_page_shows_its_seats_and_deals(admin_client, make_match):
    import actions.deals

    match = make_match("napoleon", NAPOLEON_SEATS)
    actions.deals.enter_deal(match, napoleon_deal()).stored()
    page = admin_client.get(f"/admin/tournaments/match/{match.pk}/change/").content.decode()
    assert "aki +40" in page and "Seats" in page


def seat_form(players, handles, prefix="seats"):
    data = {
        f"{prefix}-TOTAL_FORMS": str(len(handles)),
        f"{prefix}-INITIAL_FORMS": "0",
        f"{prefix}-MIN_NUM_FORMS": "2",
        f"{prefix}-MAX_NUM_FORMS": "1000",
        "deals-TOTAL_FORMS": "0",
        "deals-INITIAL_FORMS": "0",
        "deals-MIN_NUM_FORMS": "0",
        "deals-MAX_NUM_FORMS": "1000",
    }
    for i, handle in enumerate(handles):
        data[f"{prefix}-{i}-player"] = str(players[handle].pk)
        data[f"{prefix}-{i}-position"] = str(i)
    return data


def test_a_league_admin_creates_a_match_with_its_seats(admin_client, table, players):
    from tournaments.models import Match

    form = {"table": table.pk, "game": "comp13", "rules": "{}", "target": "", "status": "open"}
    response = admin_client.post(
        "/admin/tournaments/match/add/", {**form, **seat_form(players, ["aki", "ben", "chika"])}
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    match = Match.objects.get()
    assert [p.handle for p in match.seated_players()] == ["aki", "ben", "chika"]
    assert match.target == 12


def test_the_admin_refuses_seats_the_game_does_not_allow(admin_client, table, players):
    from tournaments.models import Match

    form = {"table": table.pk, "game": "packing", "rules": "{}", "target": "", "status": "open"}
    handles = ["aki", "ben", "chika", "dai", "emi"]
    response = admin_client.post(
        "/admin/tournaments/match/add/", {**form, **seat_form(players, handles)}
    )
    assert response.status_code == 200
    assert "Packing is played by 2, 3, 4, 6 players, not 5" in response.content.decode()
    assert not Match.objects.exists()


def test_the_deal_page_shows_its_history(admin_client, make_match, league_admin):
    import actions.deals
    from actions import corrections

    match = make_match("napoleon", NAPOLEON_SEATS)
    deal = actions.deals.enter_deal(match, napoleon_deal()).stored()
    corrections.delete_deal(deal, league_admin, "entered at the wrong table")
    page = admin_client.get(f"/admin/tournaments/deal/{deal.pk}/change/").content.decode()
    assert "entered at the wrong table" in page and "deleted" in page


def test_a_staff_club_administrator_sees_only_their_club_in_the_admin(
    client, club_admin, season, make_match, django_user_model
):
    """Staff rights on the models do not reach another club: lists, change pages, choices."""
    club_admin.is_staff = True
    club_admin.save()
    club_admin.user_permissions.set(
        Permission.objects.filter(content_type__app_label="tournaments")
    )
    other = Club.objects.create(name="Rival Club", slug="rival")
    secret = Season.objects.create(club=other, name="Secret", games=["napoleon"])
    client.force_login(club_admin)
    listing = client.get("/admin/tournaments/season/").content.decode()
    assert season.name in listing and "Secret" not in listing
    assert client.get(f"/admin/tournaments/season/{secret.pk}/change/").status_code == 302
    assert client.get(f"/admin/tournaments/club/{other.pk}/change/").status_code == 302
    add_form = client.get("/admin/tournaments/season/add/").content.decode()
    assert "Test Club" in add_form and "Rival Club" not in add_form
    answer = client.post(
        f"/admin/tournaments/season/{secret.pk}/change/",
        {"club": other.pk, "name": "Mine", "games": '["napoleon"]'},
    )
    assert answer.status_code == 302 and Season.objects.get(pk=secret.pk).name == "Secret"


class _FormValues(HTMLParser):
    """The values a browser would send for the admin's change form, as rendered."""

    def __init__(self) -> None:
        super().__init__()
        self.values: list[tuple[str, str]] = []
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        name = a.get("name")
        if tag == "input" and name and a.get("type") not in ("submit", "button", "file"):
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                return
            self.values.append(
                (name, a.get("value") or ("on" if a.get("type") == "checkbox" else ""))
            )
        elif tag == "select" and name:
            self._select = name
        elif tag == "option" and self._select and "selected" in a:
            self.values.append((self._select, a.get("value") or ""))
        elif tag == "textarea" and name:
            self._textarea = name
            self.values.append((name, ""))

    def handle_data(self, data):
        if self._textarea:
            name, text = self.values[-1]
            self.values[-1] = (name, text + data)

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None


@pytest.mark.parametrize(
    "game", ["rettler", "napoleon", "comp13", "packing", "twentytwo", "1234", "bhabhi", "comrade"]
)
def test_saving_an_existing_match_unchanged_in_the_admin_works(client, game):
    """Each kind of match, through the admin's own change form (it crashed with a 500)."""

    worlds.demo()
    client.force_login(User.objects.get(username="admin"))
    match = Match.objects.filter(game=game).first()
    version = match.version
    url = f"/admin/tournaments/match/{match.pk}/change/"
    page = client.get(url)
    assert page.status_code == 200
    form = _FormValues()
    form.feed(page.content.decode().split('id="match_form"', 1)[1].split("</form>", 1)[0])
    data: dict[str, list[str]] = {}
    for name, value in form.values:
        data.setdefault(name, []).append(value)
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    match.refresh_from_db()
    # Rules, target or seats may have been changed: the match's kept progress is redone.
    assert match.version == version + 1 and match.state is None
    assert [s.player.handle for s in match.seats.order_by("position")] == [
        p.handle for p in match.seated_players()
    ]


def test_a_long_list_is_counted_no_further_than_its_cap(admin_client, make_match, monkeypatch):
    """A federation's million deals are not counted each time the list opens: past the cap
    the list says "or more", and still pages."""
    from web.admin.base import CappedPaginator

    monkeypatch.setattr(CappedPaginator, "CAP", 3)
    for _ in range(5):
        make_match("napoleon", NAPOLEON_SEATS)
    page = " ".join(admin_client.get("/admin/tournaments/match/").content.decode().split())
    assert "3 or more" in page and "5 matches" not in page
    few = " ".join(admin_client.get("/admin/tournaments/club/").content.decode().split())
    assert "1 club" in few and "or more" not in few


def test_the_deal_and_match_lists_read_no_record_and_no_kept_progress(admin_client, make_match):
    """A list of a hundred deals parsed every record (and each match's kept progress)
    that it never shows; the deal's page still shows the record."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    import actions.deals

    match = make_match("napoleon", NAPOLEON_SEATS)
    deal = actions.deals.enter_deal(match, napoleon_deal()).stored()
    for url, rows in (
        ("/admin/tournaments/deal/", 'SELECT "tournaments_deal"."id"'),
        ("/admin/tournaments/match/", 'SELECT "tournaments_match"."id"'),
    ):
        with CaptureQueriesContext(connection) as seen:
            assert admin_client.get(url).status_code == 200
        listed = [q["sql"] for q in seen.captured_queries if q["sql"].startswith(rows)]
        assert listed, url
        for sql in listed:
            for column in ('"record"', '"event"', '"state"', '"rules"'):
                assert column not in sql, (url, column)
    page = admin_client.get(f"/admin/tournaments/deal/{deal.pk}/change/").content.decode()
    assert "&quot;point_cards&quot;" in page  # the record, read on its own page


def test_the_admin_refuses_a_season_as_its_action_does_on_the_form(
    admin_client, make_match, season
):
    """The admin's season form asks the season's action (its rules, the games it keeps)
    before saving: a refusal is on the form (200), never a 500, and nothing changes."""
    make_match("napoleon", NAPOLEON_SEATS)
    url = f"/admin/tournaments/season/{season.pk}/change/"
    form = _FormValues()
    page = admin_client.get(url).content.decode()
    form.feed(page.split('id="season_form"', 1)[1].split("</form>", 1)[0])
    data: dict[str, list[str]] = {}
    for name, value in form.values:
        data.setdefault(name, []).append(value)
    for change, said in (
        ({"games": ['["rettler"]']}, "Napoleon has matches in this season"),
        ({"rules": ['{"napoleon": {"jokers": 9}}']}, "Napoleon:"),
    ):
        answer = admin_client.post(url, {**data, **change})
        assert answer.status_code == 200 and said in answer.content.decode(), change
    season.refresh_from_db()
    assert "napoleon" in season.games and season.rules == {}
    assert admin_client.post(url, data).status_code == 302  # unchanged: saved

"""A league administrator sets the club up from its own pages (no staff rights)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from actions.seating import PlannedTable, seat_night
from dbtools import backend
from tests import worlds
from tests.conftest import member_of
from tournaments.errors import Rejection
from tournaments.models import ClubNight, Match, Membership, Player, Season, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin(client, club, django_user_model):
    user = django_user_model.objects.create_user("lena", password="pw-lena-2026")
    Membership.objects.create(club=club, user=user, role=Membership.Role.ADMIN)
    client.force_login(user)
    return user


def test_only_the_clubs_administrators_set_it_up(client, club, scorer):
    client.force_login(scorer)
    response = client.get(f"/clubs/{club.slug}/setup/")
    assert response.status_code == 403
    assert "Only a league administrator of this club sets it up." in response.content.decode()


def test_a_player_is_added_by_name_and_the_handle_is_made_unique(client, club, admin):
    for another in ("", "on"):  # the second Lena Ito is someone else: said so
        response = client.post(
            f"/clubs/{club.slug}/setup/",
            {
                "player-display_name": "Lena Ito",
                "player-name_ja": "伊藤 玲奈",
                "player-another": another,
            },
        )
        assert response.status_code == 302
    assert sorted(Player.objects.filter(club=club).values_list("handle", flat=True)) == [
        "lena-ito",
        "lena-ito-2",
    ]
    response = client.post(
        f"/clubs/{club.slug}/setup/", {"player-display_name": "X", "player-handle": "Not A Slug"}
    )
    assert (
        response.status_code == 200
        and "Use small letters, digits and hyphens" in response.content.decode()
    )


def test_members_get_roles_and_the_last_administrator_stays(client, club, admin, django_user_model):
    sam = django_user_model.objects.create_user("sam")
    made = client.post(
        f"/clubs/{club.slug}/members/",
        {"member-username": "sam", "member-role": "scorer"},
        follow=True,
    ).content.decode()
    assert not Membership.objects.filter(user=sam).exists()  # not without his consent
    link = re.search(r"/join/[\w-]+/", made).group(0)
    stranger = Client()
    stranger.force_login(django_user_model.objects.create_user("someone"))
    stranger.post(link)  # for sam's account alone
    assert not Membership.objects.filter(club=club, user__username="someone").exists()
    accepting = Client()
    accepting.force_login(sam)
    accepting.post(link)
    assert Membership.objects.get(user__username="sam").role == "scorer"
    client.post(f"/clubs/{club.slug}/members/", {"member-username": "sam", "member-role": "member"})
    assert Membership.objects.get(user__username="sam").role == "member"  # a member's role
    mine = Membership.objects.get(user=admin)
    client.post(f"/clubs/{club.slug}/members/", {"membership": mine.pk, "role": "member"})
    assert Membership.objects.get(user=admin).role == "admin"  # refused: the club keeps one
    response = client.post(
        f"/clubs/{club.slug}/members/",
        {"member-username": "nobody", "member-role": "scorer"},
        follow=True,
    )
    assert "No account is called “nobody”." in response.content.decode()


def test_a_season_and_a_night_from_the_pages(client, club, admin):
    response = client.post(
        f"/clubs/{club.slug}/seasons/new/",
        {"name": "Winter", "games": ["rettler", "napoleon"], "public": "on"},
    )
    assert response.status_code == 302
    season = Season.objects.get(name="Winter")
    assert season.games == ["rettler", "napoleon"] and season.public
    response = client.post(
        f"/seasons/{season.pk}/nights/new/", {"date": "2026-12-04", "venue": "Hall"}
    )
    night = ClubNight.objects.get(season=season)
    assert response.url == f"/nights/{night.pk}/draw/"
    # Back on the night's page later, its administrator finds the draw from there.
    page = client.get(f"/nights/{night.pk}/").content.decode()
    assert f'href="/nights/{night.pk}/draw/" id="night-draw"' in page
    client.logout()
    assert 'id="night-draw"' not in client.get(f"/nights/{night.pk}/").content.decode()


def proposal(page: str) -> dict[str, list[str]]:
    """The draw's proposal form as the browser would post it back."""
    data: dict[str, list[str]] = {}
    for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page):
        data.setdefault(name, []).append(value)
    for name, value in re.findall(
        r'<select name="([^"]+)"[^>]*>(?:(?!</select>).)*?<option value="([^"]*)" selected',
        page,
        re.S,
    ):
        data[name] = [value]
    data.pop("csrfmiddlewaretoken", None)
    return data


def test_a_proposal_changed_by_hand_is_answered_never_a_server_error(client, club, admin):
    season = Season.objects.create(club=club, name="Winter", games=["napoleon"])
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 12, 4))
    players = [
        Player.objects.create(club=club, handle=f"p{i}", display_name=f"P{i}") for i in range(8)
    ]
    page = client.post(
        f"/nights/{night.pk}/draw/",
        {"present": [p.pk for p in players], "games": ["napoleon"]},
        follow=True,
    ).content.decode()
    data = {**proposal(page), "action": ["review"]}
    assert data["tables"] == ["2"]  # the proposal's form was read
    first = players[0].pk
    for field, value in [
        ("tables", "x"),
        ("tables", "²"),
        ("tables", "1000000000"),
        (f"seat_{first}", "x"),
        (f"seat_{first}", "²"),
        (f"table_{first}", "99"),
        ("scorer_1", "²"),
        ("player", "²"),
        ("player", "1" * 5000),
        (f"seat_{first}", "9" * 5000),
    ]:
        response = client.post(f"/nights/{night.pk}/draw/", {**data, field: [value]})
        assert response.status_code in (200, 302), (field, value, response.status_code)
    assert not Table.objects.filter(club_night=night).exists()  # none of them confirmed


def test_attendance_draw_and_confirmation_seat_everyone_once(client, club, admin):
    season = Season.objects.create(club=club, name="Winter", games=["rettler", "napoleon"])
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 12, 4))
    players = [
        Player.objects.create(club=club, handle=f"p{i}", display_name=f"P{i}") for i in range(13)
    ]
    page = client.post(
        f"/nights/{night.pk}/draw/",
        {
            "present": [p.pk for p in players],
            "guests": "Guest One",
            "games": ["rettler", "napoleon"],
        },
        follow=True,
    ).content.decode()
    assert not Player.objects.filter(handle="guest-one").exists()  # made at the confirmation
    # The proposal as a form: post it back unchanged, then confirm.
    data = proposal(page)
    data["action"] = ["confirm"]
    response = client.post(f"/nights/{night.pk}/draw/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Player.objects.filter(handle="guest-one").count() == 1
    # Sent again (a double tap, Back and send): nothing more, and the tables are shown.
    again = client.post(f"/nights/{night.pk}/draw/", data)
    assert again.status_code == 302 and again["Location"] == f"/nights/{night.pk}/tables/"
    assert Table.objects.filter(club_night=night).count() == 3
    assert Player.objects.filter(display_name="Guest One").count() == 1
    matches = Match.objects.filter(table__club_night=night)
    assert sorted(m.game for m in matches) == ["napoleon", "napoleon", "rettler"]
    seated = [s.player_id for m in matches for s in m.seats.all()]
    assert len(seated) == 14 == len(set(seated))
    assert all(t.scorer == admin for t in Table.objects.filter(club_night=night))
    listing = client.get(f"/nights/{night.pk}/tables/").content.decode()
    assert "Paper score sheet" in listing and "Guest One" in listing
    paper = client.get(f"/matches/{matches[0].pk}/paper.pdf")
    assert paper.status_code == 200 and paper.content.startswith(b"%PDF")


def test_seating_a_night_is_all_or_nothing(club):
    season = Season.objects.create(club=club, name="Winter", games=["napoleon"])
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 12, 4))
    players = [
        Player.objects.create(club=club, handle=f"p{i}", display_name=f"P{i}") for i in range(6)
    ]
    with pytest.raises(Rejection) as refused:
        seat_night(
            night, [PlannedTable("napoleon", players[:4]), PlannedTable("napoleon", players[4:])]
        )
    assert refused.value.errors[0]["path"].startswith("tables[1]")  # two players: no Napoleon
    assert not Table.objects.filter(club_night=night).exists()


def test_each_role_has_its_own_home(client, django_user_model):
    worlds.demo()
    client.force_login(User.objects.get(username="member"))
    page = client.get("/").content.decode()
    assert 'id="member-home"' in page and 'id="admin-home"' not in page
    client.force_login(User.objects.get(username="scorer"))
    page = client.get("/").content.decode()
    assert 'id="scorer-home"' in page and "/enter/" in page
    client.force_login(User.objects.get(username="admin"))
    page = client.get("/").content.decode()
    assert 'id="admin-home"' in page and "Set up Kanda Card Club" in page
    assert "matches not finished" in page


def test_a_refused_draw_creates_no_guest(client, club, admin):
    season = Season.objects.create(club=club, name="Winter", games=["napoleon"])
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 12, 4))
    for _ in range(3):  # one guest alone cannot make a Napoleon table: refused every time
        client.post(f"/nights/{night.pk}/draw/", {"guests": "Lena Ito", "games": ["napoleon"]})
    assert not Player.objects.filter(display_name="Lena Ito").exists()


@pytest.mark.django_db(transaction=True)
def test_a_draw_confirmed_twice_at_once_seats_everyone_once(club, django_user_model):
    """Two confirmations of one draw at the same moment (PostgreSQL): one seats the
    tables, the other finds them seated."""
    from django.db import connection

    from actions.seating import Guest
    from tests.conftest import at_the_same_moment

    if backend.vendor_of(connection) != "postgresql":
        pytest.fail("the race runs on PostgreSQL (make test)")
    season = Season.objects.create(club=club, name="Winter", games=["napoleon"])
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 12, 4))
    players = [
        Player.objects.create(club=club, handle=f"p{i}", display_name=f"P{i}") for i in range(7)
    ]
    plan = [
        PlannedTable("napoleon", players[:4]),
        PlannedTable("napoleon", [*players[4:], Guest(-1, "Lena Ito")]),
    ]
    answers = [
        type(a).__name__
        for a in at_the_same_moment(
            lambda: seat_night(night, plan), lambda: seat_night(night, plan)
        )
    ]
    assert sorted(answers) == ["AlreadySeated", "list"]  # one refused, one seated the tables
    assert Table.objects.filter(club_night=night).count() == 2
    assert Player.objects.filter(display_name="Lena Ito").count() == 1


def test_the_add_member_menu_starts_at_the_least_role(client, club, admin):
    page = client.get(f"/clubs/{club.slug}/setup/").content.decode()
    menu = page[page.index('name="member-role"') :]
    options = menu[: menu.index("</select>")]
    assert options.index('value="member"') < options.index('value="admin"')
    assert 'value="member" selected' in options and 'value="admin" selected' not in options


def test_a_name_the_club_has_is_a_question_not_a_second_player(client, club, admin):
    """Issue 29, 6: "the same person?"; a second one only when the administrator says so;
    a guest typed at attendance who is a player is pointed to the list."""
    Player.objects.create(club=club, handle="aki-ito", display_name="Aki Ito", name_ja="伊藤 亜紀")
    page = client.get(f"/clubs/{club.slug}/setup/").content.decode()
    # Not asked yet: the question's field is hidden, and so is its label.
    assert 'type="hidden" name="player-another"' in page
    assert "Another person of this name" not in page
    for name in ("Aki Ito", "aki  ito", "ＡＫＩ ＩＴＯ", "AkiIto", "伊藤亜紀", "伊藤\u3000亜紀"):
        page = client.post(
            f"/clubs/{club.slug}/setup/", {"player-display_name": name}
        ).content.decode()
        assert "the same person?" in page and 'type="checkbox" name="player-another"' in page
    client.post(
        f"/clubs/{club.slug}/setup/",
        {"player-name_ja": "伊藤 亜紀", "player-display_name": "A. Ito"},
    )
    assert Player.objects.filter(club=club).count() == 1
    client.post(
        f"/clubs/{club.slug}/setup/", {"player-display_name": "Aki Ito", "player-another": "on"}
    )
    assert Player.objects.filter(club=club, display_name="Aki Ito").count() == 2
    season = Season.objects.create(club=club, name="Winter", games=["napoleon"])
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 12, 4))
    for guest in ("aki ito", "伊藤亜紀"):  # spaces and width ignored, as the form above
        page = client.post(f"/nights/{night.pk}/draw/", {"guests": guest, "games": ["napoleon"]})
        assert "is a player of the club: tick them" in page.content.decode(), guest
    # A guest whose name only looks like a player's (an accent, i for l) is another person.
    Player.objects.create(club=club, handle="all", display_name="All")
    for guest in ("Ali", "Akí Ito"):
        page = client.post(f"/nights/{night.pk}/draw/", {"guests": guest, "games": ["napoleon"]})
        assert "is a player of the club" not in page.content.decode(), guest


def test_a_proposal_is_kept_through_a_reload_until_its_tables_are_seated(
    client, club, admin, django_user_model
):
    """The draw's answer is a redirect: a reload (or Back, or a look at another page)
    shows the same proposal, its typed guest and the administrator's changes, never a
    new draw; "Start again" goes back to the attendance; once seated it is gone.  It is
    the administrator's own: another administrator of the club sees the attendance."""
    season = Season.objects.create(club=club, name="Winter", games=["napoleon"])
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 12, 4))
    players = [
        Player.objects.create(club=club, handle=f"p{i}", display_name=f"P{i}") for i in range(7)
    ]
    url = f"/nights/{night.pk}/draw/"
    drawn = client.post(
        url, {"present": [p.pk for p in players], "guests": "Lena Ito", "games": ["napoleon"]}
    )
    assert drawn.status_code == 302 and drawn["Location"] == url
    first = client.get(url).content.decode()
    assert 'id="proposal"' in first and 'name="guest_-1" value="Lena Ito"' in first
    assert proposal(client.get(url).content.decode()) == proposal(first)  # the same tables
    # Moved by hand and checked: the reload shows the change.
    data = {**proposal(first), "action": ["review"]}
    mover = players[0].pk
    data[f"table_{mover}"] = ["2" if data[f"table_{mover}"] == ["1"] else "1"]
    client.post(url, data)
    assert proposal(client.get(url).content.decode())[f"table_{mover}"] == data[f"table_{mover}"]
    other = Client()
    other.force_login(member_of(club, django_user_model, "second", Membership.Role.ADMIN))
    assert 'id="proposal"' not in other.get(url).content.decode()
    # Start again: the attendance as it was, its guest and game kept; the proposal gone.
    again = client.get(url + "?again").content.decode()
    assert 'id="proposal"' not in again and ">\nLena Ito</textarea>" in again
    assert re.search(r'value="napoleon"[^>]*checked', again)
    assert 'id="proposal"' not in client.get(url).content.decode()
    # Proposed without a game: said at the top of the form, with a link to the field.
    refused = client.post(url, {"present": [p.pk for p in players]}).content.decode()
    assert 'id="form-problems"' in refused and 'href="#field-games"' in refused
    client.post(url, {"present": [p.pk for p in players[:4]], "games": ["napoleon"]})
    data = {**proposal(client.get(url).content.decode()), "action": ["confirm"]}
    assert client.post(url, data)["Location"] == f"/nights/{night.pk}/tables/"
    page = client.get(url).content.decode()
    assert 'id="proposal"' not in page  # seated: not shown again
    assert 'id="seated"' in page and "1 table is seated tonight." in page
    # Latecomers drawn later at tables of their own: their proposal is shown and kept.
    client.post(url, {"present": [p.pk for p in players[4:]], "games": ["napoleon"]})
    later = client.get(url).content.decode()
    # Names as the page shows them: a random CSRF token may hold "P0" anywhere else.
    assert 'id="proposal"' in later and 'class="name">P6' in later
    assert 'class="name">P0' not in later


def test_a_new_night_starts_where_and_when_the_club_last_met(client, club, admin):
    season = Season.objects.create(club=club, name="Winter", games=["napoleon"])
    url = f"/seasons/{season.pk}/nights/new/"
    assert 'name="venue" value=' not in client.get(url).content.decode()  # a first night
    ClubNight.objects.create(season=season, date=dt.date(2026, 11, 6), venue="Old hall")
    ClubNight.objects.create(
        season=season,
        date=dt.date(2026, 11, 20),
        venue="Kanda hall, room 2",
        starts_at=dt.time(18, 30),
    )
    page = client.get(url).content.decode()
    assert 'value="Kanda hall, room 2"' in page and 'value="18:30"' in page

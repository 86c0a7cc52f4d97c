"""Table links and invitations an organiser can manage (issue 43, 4): a scorer who joins
after the draw is made scorer of tonight's tables, every invitation says whom it was
for, a phone holding a replaced link is told to scan the new code, and a newly joined
scorer lands on their tables."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest
from django.test import Client

import actions.deals
import actions.matches
from actions import seating
from actions import table_links as link_actions
from tests.conftest import NAPOLEON_SEATS, member_of, napoleon_deal
from tests.markup import squeezed, words
from tournaments.errors import Rejection
from tournaments.models import Club, Invitation, Membership

pytestmark = pytest.mark.django_db


def test_a_scorer_who_joined_after_the_draw_is_made_the_tables_scorer(
    table, admin, club, players, django_user_model
):
    match = actions.matches.create_match(table, "napoleon", [players[h] for h in NAPOLEON_SEATS])
    late = member_of(club, django_user_model, "late", Membership.Role.SCORER)
    listing = squeezed(admin.get(f"/nights/{table.club_night_id}/tables/").content.decode())
    assert f'<option value="{late.pk}">late</option>' in listing
    answer = admin.post(f"/tables/{table.pk}/scorer/", {"scorer": late.pk})
    assert answer.status_code == 302 and answer["Location"].endswith(f"#table-{table.pk}")
    table.refresh_from_db()
    assert table.scorer == late
    phone = Client()
    phone.force_login(late)
    assert f"/matches/{match.pk}/enter/" in phone.get("/").content.decode()  # their table
    assert phone.get(f"/matches/{match.pk}/enter/").status_code == 200
    admin.post(f"/tables/{table.pk}/scorer/", {"scorer": ""})  # nobody
    table.refresh_from_db()
    assert table.scorer is None
    # Said as the secretary knows them: the player's name, then the account's.
    players["aki"].user = late
    players["aki"].save()
    said = admin.post(f"/tables/{table.pk}/scorer/", {"scorer": late.pk}, follow=True)
    assert f"{table.name}: scorer {players['aki'].display_name} (late)." in said.content.decode()


def test_only_a_scorer_of_the_club_can_be_a_tables_scorer(table, admin, club, django_user_model):
    reader = member_of(club, django_user_model, "reader", Membership.Role.MEMBER)
    other = Club.objects.create(name="Other Club", slug="other")
    outsider = member_of(other, django_user_model, "outsider", Membership.Role.ADMIN)
    before = table.scorer
    for who in (reader, outsider):
        with pytest.raises(Rejection):
            seating.set_scorer(table, who)
    page = admin.post(f"/tables/{table.pk}/scorer/", {"scorer": reader.pk}, follow=True)
    assert "reader is not a scorer of this club" in page.content.decode()
    # An account outside the club is as unknown as an id nobody has: its name is not
    # said, else an administrator of any club could list the site's accounts by id.
    for unknown in (outsider.pk, "9" * 40):
        said = admin.post(f"/tables/{table.pk}/scorer/", {"scorer": unknown}, follow=True)
        assert "no such scorer in this club" in said.content.decode()
        assert "outsider" not in words(said.content.decode())
    table.refresh_from_db()
    assert table.scorer == before
    # The API says the same, in the same words.
    api = Client()
    api.force_login(Membership.objects.get(club=club, role="admin").user)
    refused = api.patch(
        f"/api/tables/{table.pk}/",
        json.dumps({"scorer": reader.pk}),
        content_type="application/json",
    )
    assert refused.status_code == 400
    [said] = refused.json()["errors"]
    assert (said["code"], said["path"], said["message"]) == (
        "not_a_scorer",
        "scorer",
        "reader is not a scorer of this club",
    )
    hidden = api.patch(
        f"/api/tables/{table.pk}/",
        json.dumps({"scorer": outsider.pk}),
        content_type="application/json",
    )
    assert hidden.status_code == 400 and "outsider" not in hidden.content.decode()


def test_another_clubs_administrator_cannot_name_a_scorer(table, club, django_user_model):
    other = Club.objects.create(name="Other Club", slug="other")
    stranger = Client()
    stranger.force_login(member_of(other, django_user_model, "olga", Membership.Role.ADMIN))
    before = table.scorer_id
    assert stranger.post(f"/tables/{table.pk}/scorer/", {"scorer": ""}).status_code == 404
    table.refresh_from_db()
    assert table.scorer_id == before


def test_the_invitation_list_says_whom_each_link_was_for(admin, club, players):
    admin.post(f"/clubs/{club.slug}/invitations/", {"role": "scorer", "meant_for": "Ken  Sato"})
    admin.post(f"/clubs/{club.slug}/invitations/", {"role": "member", "player": players["ben"].pk})
    admin.post(f"/clubs/{club.slug}/invitations/", {"role": "member"})
    page = admin.get(f"/clubs/{club.slug}/setup/").content.decode()
    listing = page[page.index('id="invitations"') :]
    assert "for Ken Sato" in listing and "for Ben" in listing
    assert "for anyone with the link" in listing
    assert listing.count("data-copy") == 3  # a Copy button on every open link
    too_long = admin.post(
        f"/clubs/{club.slug}/invitations/", {"role": "member", "meant_for": "x" * 81}, follow=True
    )
    assert "“For whom” takes at most 80 characters" in too_long.content.decode()
    assert Invitation.objects.filter(club=club).count() == 3


def test_a_newly_joined_scorer_lands_on_their_tables(admin, club):
    admin.post(f"/clubs/{club.slug}/invitations/", {"role": "scorer", "meant_for": "Kana"})
    token = Invitation.objects.get(club=club).token
    newcomer = Client()
    joined = newcomer.post(
        f"/join/{token}/",
        {
            "account-username": "kana",
            "account-email": "",
            "account-password1": "a long pass phrase 2026",
            "account-password2": "a long pass phrase 2026",
        },
    )
    assert joined["Location"] == "/#scorer-home"
    home = newcomer.get("/").content.decode()
    assert 'id="scorer-home"' in home and "No table is yours yet" in home


def test_a_phone_holding_a_replaced_link_is_told_to_scan_the_new_code(tonight, match):
    table = tonight
    phone = Client()
    assert phone.get(f"/t/{link_actions.ensure(table)}/").status_code == 302
    link_actions.make(table)  # a new link: the old one stops
    entry = {"full_record": json.dumps(napoleon_deal()), "number": "1", "key": "k1"}
    sent = phone.post(f"/matches/{match.pk}/enter/", entry, HTTP_ACCEPT="application/json")
    assert sent.status_code == 410 and "scan the new code" in sent.json()["errors"][0]
    page = phone.get(f"/matches/{match.pk}/enter/")
    assert page.status_code == 410 and "This table has a new link" in page.content.decode()
    link_actions.revoke(table)  # revoked: no new code to scan
    gone = phone.get(f"/matches/{match.pk}/enter/").content.decode()
    assert "scan the new code" not in gone and "withdrew this table" in gone
    assert not match.deals.exists()
    said = gone[gone.index("<main") :]
    assert re.search("sign in", said, re.I) is None  # it has no account: never "sign in"


def test_a_draw_naming_a_member_as_scorer_seats_nobody(season, players, club, django_user_model):
    from tournaments.models import ClubNight

    night = ClubNight.objects.create(season=season, date=dt.date(2026, 11, 20))
    reader = member_of(club, django_user_model, "reader", Membership.Role.MEMBER)
    seated = [players[h] for h in NAPOLEON_SEATS]
    with pytest.raises(Rejection) as refused:
        seating.seat_night(night, [seating.PlannedTable("napoleon", seated, scorer=reader)])
    assert refused.value.errors[0]["path"] == "tables[0].scorer"
    assert not night.tables.exists()


def test_a_deal_refused_on_arrival_names_its_field(tonight, match):
    phone = Client()
    phone.get(f"/t/{link_actions.ensure(tonight)}/")
    form = {"declarer": "aki", "trump": "hearts", "count": "99", "number": "1", "key": "k1"}
    sent = phone.post(f"/matches/{match.pk}/enter/", form, HTTP_ACCEPT="application/json")
    assert sent.status_code == 422
    assert any(e.startswith("Count declared") for e in sent.json()["errors"]), sent.json()


def test_a_rounds_tables_scorer_is_changed_on_that_rounds_list(
    table, admin, club, django_user_model
):
    """Every round has its "Table 1": the change goes back to the round's own list and
    says which round's table it was."""
    from tournaments.models import Round

    late = member_of(club, django_user_model, "late", Membership.Role.SCORER)
    second = Round.objects.create(
        club_night=table.club_night, number=2, game="napoleon", method="balanced"
    )
    type(table).objects.filter(pk=table.pk).update(round=second, name="Table 1")
    answer = admin.post(f"/tables/{table.pk}/scorer/", {"scorer": late.pk})
    assert answer["Location"] == f"/nights/{table.club_night_id}/tables/?round=2#table-{table.pk}"
    page = words(admin.get(answer["Location"]).content.decode())
    assert "Round 2 · Table 1: scorer late." in page
    # The list is the round's only, and says so, with the way to every table.
    assert "Round 2's tables only. Every table of the night" in page
    whole = admin.get(f"/nights/{table.club_night_id}/tables/").content.decode()
    assert 'id="round-only"' not in whole


def test_the_tables_page_marks_a_finished_match_and_offers_no_entry(admin, match):
    from actions import corrections

    url = f"/nights/{match.table.club_night_id}/tables/"
    assert f"/matches/{match.pk}/enter/" in admin.get(url).content.decode()
    corrections.end_match(match, None, "the hall closed")
    page = admin.get(url).content.decode()
    assert (
        "Table 1 · Napoleon · finished" in words(page) and f"/matches/{match.pk}/enter/" not in page
    )

"""A second person is a second person (issue 55, 3): a seated player who scores on a
phone with the table's link, signed out, never confirms his own deal, by his PIN on that
phone or another, or by his account on another device.  A PIN proves who typed it, so
an anonymous phone says who scores on it, with that player's PIN, before it enters
(``tournaments.table_links.bind``); every attempt below is one a hostile player made."""

from __future__ import annotations

import json

import pytest
from django.test import Client

import actions.deals
from actions import pins
from actions import table_links as link_actions
from tests.conftest import member_of, napoleon_deal
from tournaments import table_links
from tournaments.models import Deal, LinkScorer, Membership, Player, Season, Table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("confirming")]


@pytest.fixture
def ben(players):
    pins.set_pin(players["ben"], "2468")
    return players["ben"]


def follow(table: Table) -> Client:
    """A phone, signed out, that opens the table's link."""
    phone = Client()
    assert phone.get(f"/t/{link_actions.ensure(table)}/").status_code == 302
    return phone


def say_who(phone: Client, table: Table, player: Player, pin: str):
    return phone.post(f"/tables/{table.pk}/who/", {"player": player.pk, "pin": pin})


def enter(phone: Client, match, key: str = "k1", **headers):
    form = {"full_record": json.dumps(napoleon_deal()), "number": "1", "key": key}
    return phone.post(f"/matches/{match.pk}/enter/", form, **headers)


def pin_confirm(phone: Client, deal: Deal, player: Player, pin: str):
    return phone.post(f"/deals/{deal.pk}/pin/", {"player": player.pk, "pin": pin})


def confirmed(deal: Deal) -> Player | None:
    deal.refresh_from_db()
    return deal.confirmed_by_player if deal.confirmed_at else None


def test_a_phone_says_who_scores_before_it_enters_and_stores_nothing_until_then(
    tonight, match, aki
):
    phone = follow(tonight)
    page = phone.get(f"/matches/{match.pk}/enter/")
    assert page.status_code == 302 and f"/tables/{tonight.pk}/who/" in page["Location"]
    assert enter(phone, match).status_code == 302  # sent to say who scores
    queued = enter(phone, match, HTTP_ACCEPT="application/json")  # the offline queue
    assert queued.status_code == 409 and queued.json()["status"] == "refused"
    assert not Deal.objects.exists()
    assert say_who(phone, tonight, aki, "1357").status_code == 302
    assert enter(phone, match).status_code == 302
    assert Deal.objects.get().entered_by_holder == table_links.holder(phone.session)


def test_the_scorer_never_confirms_his_deal_by_pin_or_account(tonight, match, aki, ben, member):
    phone = follow(tonight)
    say_who(phone, tonight, aki, "1357")
    enter(phone, match)
    deal = Deal.objects.get()
    # His own PIN on the phone he entered with: not offered, and refused when sent.
    offered = phone.get(f"/deals/{deal.pk}/pin/").content.decode()
    assert f'id="id_player_{aki.pk}"' not in offered and f'id="id_player_{ben.pk}"' in offered
    pin_confirm(phone, deal, aki, "1357")
    assert confirmed(deal) is None
    # His own PIN on another phone with the table's link (bound to Ben).
    other = follow(tonight)
    say_who(other, tonight, ben, "2468")
    pin_confirm(other, deal, aki, "1357")
    assert confirmed(deal) is None
    # His own account on his own phone, by the API and by the match page.
    own = Client()
    own.force_login(member)
    api = own.post(f"/api/deals/{deal.pk}/confirm/")
    assert api.status_code == 400 and api.json()["errors"][0]["code"] == "same_person"
    own.post(f"/deals/{deal.pk}/confirm/")
    assert confirmed(deal) is None
    # Another seated player's PIN on the entering phone is the second person.
    pin_confirm(phone, deal, ben, "2468")
    assert confirmed(deal) == ben


def test_claiming_another_players_seat_needs_that_players_pin(tonight, match, aki, ben):
    phone = follow(tonight)
    answer = say_who(phone, tonight, ben, "1357")  # Aki types his own PIN under Ben's name
    assert answer.status_code == 422
    ben.refresh_from_db()
    assert ben.pin_failures == 1  # a wrong try, counted against Ben's PIN
    assert not LinkScorer.objects.exists()
    assert enter(phone, match).status_code == 302 and not Deal.objects.exists()


def test_only_a_player_seated_at_the_table_scores_on_its_phone(
    tonight, match, aki, players, club, season
):
    stranger = Player.objects.create(club=club, handle="zed", display_name="Zed")
    pins.set_pin(stranger, "9999")
    phone = follow(tonight)
    assert say_who(phone, tonight, stranger, "9999").status_code == 422
    offered = phone.get(f"/tables/{tonight.pk}/who/").content.decode()
    assert f'id="id_player_{stranger.pk}"' not in offered and f'id="id_player_{aki.pk}"' in offered
    assert not LinkScorer.objects.exists()


def test_no_pin_yet_is_said_and_is_not_a_wrong_try(tonight, match, players, aki):
    phone = follow(tonight)
    answer = say_who(phone, tonight, players["chika"], "1234")
    assert answer.status_code == 422 and "no PIN yet" in answer.content.decode()
    say_who(phone, tonight, aki, "1357")
    enter(phone, match)
    answer = pin_confirm(phone, Deal.objects.get(), players["chika"], "1234")
    assert answer.status_code == 422 and "no PIN yet" in answer.content.decode()
    players["chika"].refresh_from_db()
    assert players["chika"].pin_failures == 0 and confirmed(Deal.objects.get()) is None


def test_saying_who_twice_stores_one_binding_and_a_handed_phone_keeps_both(
    tonight, match, aki, ben, players
):
    phone = follow(tonight)
    say_who(phone, tonight, aki, "1357")
    say_who(phone, tonight, aki, "1357")  # resent
    assert LinkScorer.objects.count() == 1
    say_who(phone, tonight, ben, "2468")  # the phone is handed to Ben
    enter(phone, match)
    deal = Deal.objects.get()
    pin_confirm(phone, deal, aki, "1357")
    pin_confirm(phone, deal, ben, "2468")
    assert confirmed(deal) is None
    pins.set_pin(players["chika"], "1111")
    pin_confirm(phone, deal, players["chika"], "1111")
    assert confirmed(deal) == players["chika"]


def test_a_deal_of_a_phone_that_never_said_who_scores_is_confirmed_by_the_club(
    tonight, match, aki, ben, member, scorer, club, django_user_model
):
    """Stored before the rule (or before the season asked for confirmation): its author
    is one of the seated players, so none of them confirms it."""
    deal = actions.deals.enter_deal(match, napoleon_deal(), at_table=True, holder="f" * 32).stored()
    other = follow(tonight)
    say_who(other, tonight, ben, "2468")
    pin_confirm(other, deal, aki, "1357")
    own = Client()
    own.force_login(member)
    answer = own.post(f"/api/deals/{deal.pk}/confirm/")
    assert answer.status_code == 400 and answer.json()["errors"][0]["code"] == "unknown_scorer"
    assert confirmed(deal) is None
    director = Client()
    director.force_login(member_of(club, django_user_model, "rin", Membership.Role.ADMIN))
    assert director.post(f"/api/deals/{deal.pk}/confirm/").status_code == 200
    assert Deal.objects.get(pk=deal.pk).confirmed_at is not None


def test_the_pin_check_does_not_send_a_phone_elsewhere(tonight, match, aki):
    phone = follow(tonight)
    answer = phone.post(
        f"/tables/{tonight.pk}/who/?next=https://evil.example/",
        {"player": aki.pk, "pin": "1357"},
    )
    assert answer["Location"] == f"/tables/{tonight.pk}/"


def test_a_season_without_confirmation_asks_nobody(tonight, match, season):
    season.require_confirmation = False
    season.save()
    phone = follow(tonight)
    assert enter(phone, match).status_code == 302
    assert Deal.objects.count() == 1 and not LinkScorer.objects.exists()


def test_the_phones_names_are_in_the_order_a_reader_looks_them_up(tonight, match, players):
    """「この端末で記録するのは誰ですか？」 listed 伊藤, 小林, 松本, 高橋 (the characters'
    code points): in Japanese the names follow their readings (いとう, こばやし, たかはし,
    まつもと), in English their romaji, as every list of players does."""
    names = {
        "aki": ("高橋 彩", "たかはし あや"),
        "ben": ("伊藤 翔", "いとう しょう"),
        "chika": ("松本 拓也", "まつもと たくや"),
        "dai": ("小林 さくら", "こばやし さくら"),
    }
    for handle, (name, reading) in names.items():
        Player.objects.filter(pk=players[handle].pk).update(display_name=name, reading=reading)
    phone = follow(tonight)
    for language, order in (("ja", "伊藤 小林 高橋 松本"), ("en", "伊藤 小林 松本 高橋")):
        page = phone.get(f"/tables/{tonight.pk}/who/", HTTP_ACCEPT_LANGUAGE=language)
        at = [page.content.decode().index(f"{n} ") for n in order.split()]
        assert at == sorted(at), (language, order)


def test_the_secretary_sees_who_scores_on_a_phone(
    tonight, match, ben, admin, django_assert_max_num_queries
):
    """A table scored on a phone has no scorer's account: the home page and the table list
    said "Scorer: —" while Ben scored (a newcomer's walk).  They name the player who said
    so with his PIN, in the reader's language; with an account, the account."""
    tables = f"/nights/{tonight.club_night_id}/tables/"
    assert "Scorer: —" in admin.get("/").content.decode()
    assert "(on a phone)" not in admin.get(tables).content.decode()
    say_who(follow(tonight), tonight, ben, "2468")
    admin.get("/")  # the first answer warms the caches: the count is the second's
    with django_assert_max_num_queries(18):
        home = admin.get("/").content.decode()
    assert "Scorer: Ben (on a phone)" in home
    assert "Ben (on a phone)" in admin.get(tables).content.decode()  # under the scorer's menu
    assert "記録係: Ben（端末）" in admin.get("/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    Season.objects.filter(pk=tonight.club_night.season_id).update(public=True)
    assert "Scorer: Ben (on a phone)" in Client().get(tables).content.decode()  # a reader

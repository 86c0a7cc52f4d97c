"""One person never decides a result: whoever entered or changed a deal, as themselves or
through the table's link, and the phone that did it, never confirm it, by the match page,
the API or a PIN; a deleted deal is never confirmed (``actions.confirmation``)."""

from __future__ import annotations

import json

import pytest
from django.test import Client

import actions.deals
from actions import corrections, pins
from actions import table_links as link_actions
from tests.conftest import member_of, napoleon_deal
from tournaments import table_links
from tournaments.models import Deal, Membership, Player, Table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("confirming")]


def _follow(phone: Client, table: Table) -> Client:
    assert phone.get(f"/t/{link_actions.ensure(table)}/").status_code == 302
    return phone


def _enter(phone: Client, match, key="k1", record=None) -> Deal:
    form = {"full_record": json.dumps(record or napoleon_deal()), "number": "1", "key": key}
    assert phone.post(f"/matches/{match.pk}/enter/", form).status_code == 302
    return Deal.objects.get(match=match, number=1)


def _signed_in(user) -> Client:
    phone = Client()
    phone.force_login(user)
    return phone


def _refused_everywhere(phone: Client, deal: Deal, pin_player=None, pin="") -> None:
    """The match page offers no Confirm; its button, the API and the PIN page refuse."""
    page = phone.get(f"/matches/{deal.match_id}/").content.decode()
    assert f"/deals/{deal.pk}/confirm/" not in page
    phone.post(f"/deals/{deal.pk}/confirm/")
    api = phone.post(f"/api/deals/{deal.pk}/confirm/")
    assert api.status_code == 400 and api.json()["errors"][0]["code"] == "same_person"
    if pin_player is not None:
        form = phone.get(f"/deals/{deal.pk}/pin/").content.decode()
        assert f'id="id_player_{pin_player.pk}"' not in form  # not offered
        phone.post(f"/deals/{deal.pk}/pin/", {"player": pin_player.pk, "pin": pin})
    assert Deal.objects.get(pk=deal.pk).confirmed_at is None


def test_a_signed_in_member_who_enters_through_the_link_is_the_enterer(tonight, match, member, aki):
    phone = _follow(_signed_in(member), tonight)
    deal = _enter(phone, match)
    assert deal.entered_by == member and deal.entered_at_table  # still "at table 1"
    assert deal.entered_by_holder == table_links.holder(phone.session)
    _refused_everywhere(phone, deal, pin_player=aki, pin="1357")
    # From another phone of his own, with a token: still his deal.
    _refused_everywhere(_signed_in(member), deal)


def test_the_phone_that_entered_through_the_link_never_confirms_once_signed_in(
    tonight, match, django_user_model, club
):
    phone = _follow(Client(), tonight)
    ben = Player.objects.get(seats__match=match, handle="ben")
    pins.set_pin(ben, "2468")  # a phone with no account says who scores on it first
    phone.post(f"/tables/{tonight.pk}/who/", {"player": ben.pk, "pin": "2468"})
    deal = _enter(phone, match)
    assert deal.entered_by is None and deal.entered_by_holder
    # Someone signs in on that phone (the session keeps its link): still the same phone.
    scorer = member_of(club, django_user_model, "yuki", Membership.Role.SCORER)
    phone.force_login(scorer)
    assert table_links.holder(phone.session) == deal.entered_by_holder
    _refused_everywhere(phone, deal)
    # The same account on another phone is another person for all the server knows.
    other = _signed_in(scorer).post(f"/api/deals/{deal.pk}/confirm/")
    assert other.status_code == 200 and other.json()["confirmed_at"]


def test_whoever_corrected_through_the_link_never_confirms(tonight, match, member, aki, players):
    entered = actions.deals.enter_deal(match, napoleon_deal()).stored()
    phone = _follow(_signed_in(member), tonight)
    correction = {
        "full_record": json.dumps(napoleon_deal(count=16)),
        "number": "1",
        "key": "",
        "reason": "count was 16",
    }
    assert phone.post(f"/deals/{entered.pk}/correct/", correction).status_code == 302
    deal = Deal.objects.get(pk=entered.pk)
    assert deal.revised_by == member and deal.revised_by_holder
    _refused_everywhere(phone, deal, pin_player=aki, pin="1357")
    # A second player's PIN on the same phone is the second person.
    pins.set_pin(players["ben"], "2468")
    phone.post(f"/deals/{deal.pk}/pin/", {"player": players["ben"].pk, "pin": "2468"})
    assert Deal.objects.get(pk=deal.pk).confirmed_by_player == players["ben"]


def test_a_deleted_deal_is_never_confirmed(tonight, match, club_admin, club, django_user_model):
    deal = actions.deals.enter_deal(match, napoleon_deal()).stored()
    corrections.delete_deal(deal, club_admin, "entered twice")
    other_admin = member_of(club, django_user_model, "rin", Membership.Role.ADMIN)
    answer = _signed_in(other_admin).post(f"/api/deals/{deal.pk}/confirm/")
    assert answer.status_code == 409 and answer.json()["errors"][0]["code"] == "deleted"
    _signed_in(other_admin).post(f"/deals/{deal.pk}/confirm/")
    assert Deal.objects.get(pk=deal.pk).confirmed_at is None


def test_an_unseated_member_may_not_confirm_and_learns_only_that(tonight, match, member, players):
    deal = actions.deals.enter_deal(match, napoleon_deal()).stored()
    answer = _signed_in(member).post(f"/api/deals/{deal.pk}/confirm/")
    assert answer.status_code == 403
    assert _signed_in(member).post(f"/deals/{deal.pk}/confirm/").status_code == 403
    assert Deal.objects.get(pk=deal.pk).confirmed_at is None

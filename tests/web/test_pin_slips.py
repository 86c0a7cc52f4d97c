"""Confirmation from the first night (issue 56, 3): nobody has a PIN yet, so a league
administrator prints the night's PIN slips and each player proves who they are with their
slip's first PIN, then may choose their own (``tournaments.pin_slips``).  Each attack
tried is kept here: the slips of another club, the slips fetched by a scorer or a phone,
the enterer's own slip, a slip after a PIN of one's own, a slip of another night, brute
force, and an open redirect in ``next``."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest
from django.test import Client
from django.utils import timezone

import actions.deals
from actions import confirmation, pins
from actions import table_links as link_actions
from scoring.sheets import match_sheet
from tests.conftest import member_of, napoleon_deal
from tournaments import pin_slips
from tournaments.models import Club, ClubNight, Deal, Membership, Player, Season, Table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("confirming")]


def _phone(table: Table, address: str = "127.0.0.1") -> Client:
    phone = Client(REMOTE_ADDR=address)
    assert phone.get(f"/t/{link_actions.ensure(table)}/").status_code == 302
    return phone


def _slip(player: Player, table: Table) -> str:
    return pin_slips.first_pin(player, table.club_night_id)


def _seated(match, handle: str) -> Player:
    return Player.objects.get(seats__match=match, handle=handle)


def _failures(player: Player) -> int:
    return Player.objects.get(pk=player.pk).pin_failures


@pytest.fixture
def first_night(tonight, match):
    """The first night: nobody has a PIN; Aki says who scores on the phone with his slip
    (and skips choosing a PIN), then the phone enters deal 1."""
    aki = _seated(match, "aki")
    phone = _phone(tonight)
    bound = phone.post(f"/tables/{tonight.pk}/who/", {"player": aki.pk, "pin": _slip(aki, tonight)})
    assert bound.status_code == 302 and bound["Location"].startswith(
        f"/tables/{tonight.pk}/own-pin/"
    )
    phone.post(bound["Location"], {"action": "skip"})
    form = {"full_record": json.dumps(napoleon_deal()), "number": "1", "key": "k1"}
    assert phone.post(f"/matches/{match.pk}/enter/", form).status_code == 302
    return phone, Deal.objects.get(match=match, number=1)


# -- the slips page --------------------------------------------------------------------------


def test_the_slips_are_the_nights_players_without_a_pin_and_print_the_same_twice(
    admin, tonight, match, players
):
    night = tonight.club_night
    pins.set_pin(players["dai"], "4444")
    page = admin.get(f"/nights/{night.pk}/slips/")
    assert page.status_code == 200 and "no-store" in page["Cache-Control"]
    text = page.content.decode()
    for handle in ("aki", "ben", "chika"):
        assert players[handle].display_name in text
        assert pin_slips.first_pin(players[handle], night.pk) in text
    assert "Dai" not in text and pin_slips.first_pin(players["dai"], night.pk) not in text
    assert players["emi"].display_name not in text  # not at the night's tables
    codes = re.findall(r'class="slip-code slip-pin"[^>]*>(\d+)<', text)
    again = admin.get(f"/nights/{night.pk}/slips/").content.decode()
    assert re.findall(r'class="slip-code slip-pin"[^>]*>(\d+)<', again) == codes  # printed again
    # Six digits each, and no two players share one on this night.
    assert len(codes) == 3 and len(set(codes)) == 3 and all(len(c) == 6 for c in codes)


def test_a_night_with_nobody_seated_or_present_prints_every_player_of_the_club(
    admin, season, players
):
    night = ClubNight.objects.create(season=season, date=timezone.localdate(), venue="Hall")
    text = admin.get(f"/nights/{night.pk}/slips/").content.decode()
    assert all(p.display_name in text for p in players.values())
    night.present.set([players["ben"]])
    text = admin.get(f"/nights/{night.pk}/slips/").content.decode()
    assert "Ben" in text and "Aki" not in text


def test_only_the_clubs_administrators_print_slips(
    tonight, match, club, django_user_model, players
):
    night = tonight.club_night
    url = f"/nights/{night.pk}/slips/"
    secret = pin_slips.first_pin(players["ben"], night.pk)
    other = Club.objects.create(name="Other", slug="other")
    stranger_admin = member_of(other, django_user_model, "otto", Membership.Role.ADMIN)
    answers = {}
    for name, role in (("scorer", Membership.Role.SCORER), ("member", Membership.Role.MEMBER)):
        client = Client()
        client.force_login(member_of(club, django_user_model, f"{name}-2", role))
        answers[name] = client.get(url)
    outsider = Client()
    outsider.force_login(stranger_admin)
    answers["other admin"] = outsider.get(url)
    answers["other admin, missing night"] = outsider.get("/nights/999999/slips/")
    answers["link phone"] = _phone(tonight).get(url)
    answers["anonymous"] = Client().get(url)
    got = {who: r.status_code for who, r in answers.items()}
    assert got == {
        "scorer": 403,
        "member": 403,
        "other admin": 404,
        "other admin, missing night": 404,
        "link phone": 302,
        "anonymous": 302,
    }
    assert "/login/" in answers["link phone"]["Location"]
    assert not any(secret in r.content.decode() for r in answers.values())


def test_another_clubs_administrator_cannot_print_slips_of_their_own_night_for_our_players(
    tonight, match, players, django_user_model
):
    """An administrator of another club prints their own night's slips: our players are
    not on them, and their slips do not work at our tables."""
    other = Club.objects.create(name="Other", slug="other")
    boss = Client()
    boss.force_login(member_of(other, django_user_model, "otto", Membership.Role.ADMIN))
    theirs = ClubNight.objects.create(
        season=Season.objects.create(club=other, name="Theirs", games=["napoleon"]),
        date=timezone.localdate(),
    )
    text = boss.get(f"/nights/{theirs.pk}/slips/").content.decode()
    assert "Ben" not in text
    deal = actions.deals.enter_deal(match, napoleon_deal()).stored()
    ben = players["ben"]
    forged = pin_slips.first_pin(ben, theirs.pk)  # a slip for Ben made for their night
    _phone(tonight).post(f"/deals/{deal.pk}/pin/", {"player": ben.pk, "pin": forged})
    assert Deal.objects.get(pk=deal.pk).confirmed_at is None


# -- a first night ---------------------------------------------------------------------------


def test_a_player_who_said_later_is_not_asked_again_at_the_table(first_night, tonight, match):
    """A newcomer's walk: confirming four deals with a slip asked four times whether to
    choose a PIN.  Once a player says "later" on this phone, their next confirmations at
    the table go straight on; another player is still asked."""
    phone, deal = first_night
    ben, chika = _seated(match, "ben"), _seated(match, "chika")
    first = phone.post(f"/deals/{deal.pk}/pin/", {"player": ben.pk, "pin": _slip(ben, tonight)})
    assert first["Location"].startswith(f"/tables/{tonight.pk}/own-pin/")
    phone.post(first["Location"], {"action": "skip"})
    form = {"full_record": json.dumps(napoleon_deal(count=16)), "number": "2", "key": "k2"}
    assert phone.post(f"/matches/{match.pk}/enter/", form).status_code == 302
    second = Deal.objects.get(match=match, number=2)
    again = phone.post(f"/deals/{second.pk}/pin/", {"player": ben.pk, "pin": _slip(ben, tonight)})
    assert again.status_code == 302 and again["Location"] == f"/tables/{tonight.pk}/"
    assert Deal.objects.get(pk=second.pk).confirmed_by_player == ben
    form = {"full_record": json.dumps(napoleon_deal(count=17)), "number": "3", "key": "k3"}
    assert phone.post(f"/matches/{match.pk}/enter/", form).status_code == 302
    third = Deal.objects.get(match=match, number=3)
    other = phone.post(
        f"/deals/{third.pk}/pin/", {"player": chika.pk, "pin": _slip(chika, tonight)}
    )
    assert other["Location"].startswith(f"/tables/{tonight.pk}/own-pin/")


def test_a_first_night_confirms_by_slip_and_the_player_chooses_a_pin_on_the_spot(
    first_night, tonight, match
):
    phone, deal = first_night
    ben = _seated(match, "ben")
    form = phone.get(f"/deals/{deal.pk}/pin/").content.decode()
    aki = _seated(match, "aki")
    assert f'value="{aki.pk}"' not in form and f'value="{ben.pk}"' in form  # not its scorer
    answer = phone.post(f"/deals/{deal.pk}/pin/", {"player": ben.pk, "pin": _slip(ben, tonight)})
    deal.refresh_from_db()
    assert deal.confirmed_by_player == ben
    offer = answer["Location"]
    assert offer.startswith(f"/tables/{tonight.pk}/own-pin/")
    assert "Ben" in phone.get(offer).content.decode()
    differ = phone.post(offer, {"action": "save", "pin": "2468", "again": "2486"})
    assert differ.status_code == 422 and not Player.objects.get(pk=ben.pk).pin
    short = phone.post(offer, {"action": "save", "pin": "12", "again": "12"})
    assert short.status_code == 422 and not Player.objects.get(pk=ben.pk).pin
    saved = phone.post(offer, {"action": "save", "pin": "2468", "again": "2468"})
    assert saved.status_code == 302 and saved["Location"] == f"/tables/{tonight.pk}/"
    assert pins.check(Player.objects.get(pk=ben.pk), "2468") is pins.Check.RIGHT
    # Sent again (a retry, or someone else on the phone): nothing changes.
    again = phone.post(offer, {"action": "save", "pin": "9999", "again": "9999"})
    assert again.status_code == 302
    assert pins.check(Player.objects.get(pk=ben.pk), "2468") is pins.Check.RIGHT


def test_the_enterers_own_slip_never_confirms_their_deal(first_night, tonight, match):
    phone, deal = first_night
    aki = _seated(match, "aki")
    slip = _slip(aki, tonight)
    for device in (phone, _phone(tonight, "10.0.0.9")):
        device.post(f"/deals/{deal.pk}/pin/", {"player": aki.pk, "pin": slip})
        assert Deal.objects.get(pk=deal.pk).confirmed_at is None
    # He is not among the names offered, and the one rule refuses him however he proved it.
    refused = _phone(tonight, "10.0.0.8").post(
        f"/deals/{deal.pk}/pin/", {"player": aki.pk, "pin": slip}
    )
    assert refused.status_code == 422 and "Pick your name" in refused.content.decode()
    who = confirmation.Confirmer(player=aki, holder="another phone")
    assert confirmation.refusal(deal, who)["code"] == "same_person"
    assert _failures(aki) == 0  # his slip was never even checked


def test_a_slip_dies_once_the_player_has_a_pin_of_their_own(first_night, tonight, match):
    phone, deal = first_night
    ben = _seated(match, "ben")
    pins.set_pin(ben, "2468")  # on his player page, or by an administrator
    answer = phone.post(f"/deals/{deal.pk}/pin/", {"player": ben.pk, "pin": _slip(ben, tonight)})
    assert answer.status_code == 422
    assert "chosen a PIN of their own" in answer.content.decode()
    assert Deal.objects.get(pk=deal.pk).confirmed_at is None
    assert _failures(ben) == 1  # a wrong PIN all the same


def test_a_slip_of_another_night_confirms_nothing(first_night, tonight, season, match):
    phone, deal = first_night
    ben = _seated(match, "ben")
    other = ClubNight.objects.create(season=season, date=dt.date(2026, 1, 5), venue="Hall")
    stale = pin_slips.first_pin(ben, other.pk)
    answer = phone.post(f"/deals/{deal.pk}/pin/", {"player": ben.pk, "pin": stale})
    assert answer.status_code == 422 and "not the first PIN" in answer.content.decode()
    assert Deal.objects.get(pk=deal.pk).confirmed_at is None and _failures(ben) == 1


def test_no_pin_yet_is_said_and_not_counted(first_night, match):
    phone, deal = first_night
    ben = _seated(match, "ben")
    for typed in ("", "1234", "12345678", "١٢٣٤٥٦"):
        answer = phone.post(f"/deals/{deal.pk}/pin/", {"player": ben.pk, "pin": typed})
        assert answer.status_code == 422
        assert "Ben has no PIN yet" in answer.content.decode()
    assert _failures(ben) == 0 and Deal.objects.get(pk=deal.pk).confirmed_at is None


def test_guessing_slips_is_counted_and_locks_like_pins(first_night, tonight, match, settings):
    phone, deal = first_night
    ben = _seated(match, "ben")
    right = _slip(ben, tonight)
    wrong = [f"{n:06d}" for n in range(settings.SIGN_IN_ATTEMPTS + 1) if f"{n:06d}" != right]
    for n, guess in enumerate(wrong[: settings.SIGN_IN_ATTEMPTS]):
        device = _phone(tonight, f"10.0.1.{n + 1}")
        answer = device.post(f"/deals/{deal.pk}/pin/", {"player": ben.pk, "pin": guess})
        assert answer.status_code == 422
    locked = phone.post(f"/deals/{deal.pk}/pin/", {"player": ben.pk, "pin": right})
    assert locked.status_code == 429
    assert Deal.objects.get(pk=deal.pk).confirmed_at is None


# -- choosing a PIN after a slip -------------------------------------------------------------


def test_the_offer_to_choose_a_pin_is_the_slip_players_alone_and_short(
    first_night, tonight, match, admin, monkeypatch
):
    phone, deal = first_night
    ben, chika = _seated(match, "ben"), _seated(match, "chika")
    url = f"/tables/{tonight.pk}/own-pin/"
    # Without a slip typed on this phone, nobody is offered anything.
    for device in (_phone(tonight, "10.0.2.1"), admin):
        answer = device.post(url, {"action": "save", "pin": "1111", "again": "1111"})
        assert answer.status_code == 302
    # Aki skipped his offer: the phone that he scores on cannot come back to it.
    answer = phone.post(url, {"action": "save", "pin": "1111", "again": "1111"})
    assert answer.status_code == 302
    assert not Player.objects.get(pk=_seated(match, "aki").pk).pin
    # Ben types his slip; the next name typed on the phone ends Ben's offer.
    phone.post(f"/deals/{deal.pk}/pin/", {"player": ben.pk, "pin": _slip(ben, tonight)})
    phone.post(f"/deals/{deal.pk}/pin/", {"player": chika.pk, "pin": "000000"})
    phone.post(url, {"action": "save", "pin": "1111", "again": "1111"})
    assert not Player.objects.get(pk=ben.pk).pin
    # An offer left alone ends after CHOICE_SECONDS.
    from web.pages import pins as pin_pages

    other = _phone(tonight, "10.0.2.2")
    session = other.session
    session[pin_pages.CHOICE_KEY] = {"table": tonight.pk, "player": ben.pk, "until": 0}
    session.save()
    other.post(url, {"action": "save", "pin": "1111", "again": "1111"})
    assert not Player.objects.get(pk=ben.pk).pin


def test_a_pin_chosen_never_replaces_one_set_meanwhile(players):
    ben = players["ben"]
    assert pins.choose_first_pin(ben, "2468")
    assert not pins.choose_first_pin(Player.objects.get(pk=ben.pk), "1111")
    assert pins.check(Player.objects.get(pk=ben.pk), "2468") is pins.Check.RIGHT


# -- the page shows the deal; back to the rounds page -----------------------------------------


def test_the_pin_page_shows_the_deal_it_confirms(first_night, match):
    phone, deal = first_night
    text = phone.get(f"/deals/{deal.pk}/pin/").content.decode()
    shown = text[text.index('id="deal-shown"') : text.index("</section>")]
    # Each seat's score as the match's sheet has it, the declaration and the counts.
    scores = re.findall(r'<td class="num">([+-]\d+)</td>', shown)
    (row,) = match_sheet(match).rows
    assert scores == [f"{s:+d}" for s in row.scores] and any(row.scores)
    found = re.findall(r"<dt>([^<]+)</dt>\s*<dd>([^<]+)</dd>", shown)
    fields = {k.strip(): v.strip() for k, v in found}
    assert fields["declaration · player"] == "Aki" and fields["declaration · count"] == "15"
    assert fields["adjutants"] == "Chika" and fields["point cards · Ben"] == "3"


def test_a_confirmation_from_the_rounds_page_goes_back_there(admin, first_night, tonight, match):
    _, deal = first_night
    ben = _seated(match, "ben")
    rounds = f"/nights/{tonight.club_night_id}/rounds/"
    url = f"/deals/{deal.pk}/pin/?next={rounds}"
    assert f'href="{rounds}"' in admin.get(url).content.decode()
    answer = admin.post(url, {"player": ben.pk, "pin": _slip(ben, tonight)})
    assert Deal.objects.get(pk=deal.pk).confirmed_by_player == ben
    skipped = admin.post(answer["Location"], {"action": "skip"})
    assert skipped["Location"] == rounds


@pytest.mark.parametrize(
    "hostile",
    [
        "https://evil.example/",
        "//evil.example/",
        "/\\evil.example/",
        "\\\\evil.example",
        "javascript:alert(1)",
        "http://testserver@evil.example/",
    ],
)
def test_next_never_leaves_the_site(first_night, tonight, match, hostile):
    phone, deal = first_night
    ben = _seated(match, "ben")
    pins.set_pin(ben, "2468")
    page = phone.get(f"/deals/{deal.pk}/pin/", {"next": hostile}).content.decode()
    assert f'<a href="/tables/{tonight.pk}/">' in page  # its way back: the table
    assert 'href="javascript' not in page and not re.search(
        r'href="[/\\]*(https?:)?[/\\]*[^"]*evil', page
    )
    answer = phone.post(f"/deals/{deal.pk}/pin/?next={hostile}", {"player": ben.pk, "pin": "2468"})
    assert answer.status_code == 302 and answer["Location"] == f"/tables/{tonight.pk}/"
    offer = phone.get(f"/tables/{tonight.pk}/own-pin/", {"next": hostile})
    assert offer["Location"] == f"/tables/{tonight.pk}/"
    who = phone.post(f"/tables/{tonight.pk}/who/?next={hostile}", {"player": ben.pk, "pin": "2468"})
    assert who["Location"] == f"/tables/{tonight.pk}/"

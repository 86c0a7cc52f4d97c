"""Words a newcomer's walk on a phone, in Japanese, found missing or in the way: each page
says what a secretary or a player needs at the place they need it."""

import pytest
from django.utils import timezone

from tests.markup import words
from tournaments.models import ClubNight, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def japanese(client):
    client.cookies["django_language"] = "ja"
    return client


def test_the_scorer_is_chosen_by_the_name_the_club_knows(japanese, club_admin, scorer, make_match):
    """The list of scorers named accounts (tanaka, yamamoto): each is now the player's
    name in the club, then the account's."""
    match = make_match("napoleon", ["aki", "ben", "chika", "dai"])
    Player.objects.filter(handle="aki").update(user=scorer, name_ja="佐藤 明")
    japanese.force_login(club_admin)
    page = japanese.get(f"/nights/{match.table.club_night_id}/tables/").content.decode()
    assert "佐藤 明 (scorer)" in words(page)


def test_the_pin_field_says_what_a_player_without_a_pin_types(japanese, scorer, make_match):
    """Saying who scores on a phone asked for 「あなたの PIN」 on a first night when nobody
    has one: the field says the slip's six digits do."""
    from actions import table_links

    match = make_match("napoleon", ["aki", "ben", "chika", "dai"])
    ClubNight.objects.filter(pk=match.table.club_night_id).update(date=timezone.localdate())
    token = table_links.ensure(match.table)
    japanese.get(f"/t/{token}/")
    page = words(japanese.get(f"/tables/{match.table_id}/who/").content.decode())
    assert "あなたの PIN" in page and "PIN 票の 6 桁" in page


def test_the_nights_name_says_when_it_is_needed(japanese, club_admin, season):
    japanese.force_login(club_admin)
    page = words(japanese.get(f"/seasons/{season.pk}/nights/new/").content.decode())
    assert "例会の名前(任意)" in page and "同じ日・同じ会場の例会がほかにあるときは必要" in page


def test_rounds_on_a_night_seated_by_tables_say_so(japanese, club_admin, make_match):
    match = make_match("napoleon", ["aki", "ben", "chika", "dai"])
    japanese.force_login(club_admin)
    page = words(japanese.get(f"/nights/{match.table.club_night_id}/rounds/").content.decode())
    assert "この例会はラウンドなしで 1 卓に着席済みです" in page
    assert "選手" not in page

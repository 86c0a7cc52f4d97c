"""Players in reading order (issue 43, 6): Japanese names in 五十音 order by their
reading, katakana read as hiragana, a name in kanji placed by the reading typed for it,
or with none typed by pykakasi's reading of it; Japanese pages sort the Japanese names."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.utils import translation

from actions import roster
from tests.conftest import member_of
from tournaments.models import Membership, Player
from tournaments.names import reading_key, reading_order

pytestmark = pytest.mark.django_db


def test_kana_sort_in_gojuon_order_and_kanji_by_their_reading(club):
    for name, reading in [
        ("渡辺 健", "わたなべ けん"),
        ("さとう", ""),
        ("伊藤 亜紀", "いとう あき"),
        ("カトウ", ""),
        ("Alice", ""),  # Latin letters: after the names read in kana (on a Japanese page)
        ("青木", ""),  # no reading typed: pykakasi's, あおき
        ("うえの", ""),
        ("李 明", "り めい"),  # typed: pykakasi would say すもも めい
    ]:
        Player.objects.create(
            club=club,
            handle=f"p{len(reading)}{len(name)}{ord(name[0])}",
            display_name=name,
            reading=reading,
        )
    with translation.override("ja"):
        ordered = [p.display_name for p in reading_order(club.players.all())]
    assert ordered == [
        "青木",
        "伊藤 亜紀",
        "うえの",
        "カトウ",
        "さとう",
        "李 明",
        "渡辺 健",
        "Alice",
    ]
    assert reading_key("ｶﾄｳ") == reading_key("かとう")  # half-width katakana too


def test_a_reading_is_kana(club):
    player = Player(club=club, handle="ito", display_name="伊藤", reading="Ito")
    with pytest.raises(ValidationError) as refused:
        player.full_clean()
    assert "reading" in refused.value.message_dict
    with pytest.raises(roster.Rejection) as wrong:
        roster.read(club, "name,よみ\n伊藤,ito\n".encode())
    assert wrong.value.errors[0]["path"] == "row 2.reading"
    listed = roster.read(club, "name,よみ\n伊藤,イトウ\n".encode())
    assert listed.new[0].reading == "イトウ"


def test_the_pages_list_players_in_reading_order(club, django_user_model):
    for handle, name, reading in [
        ("w", "渡辺", "わたなべ"),
        ("a", "青木", "あおき"),
        ("k", "加藤", ""),
    ]:
        Player.objects.create(club=club, handle=handle, display_name=name, reading=reading)
    Player.objects.create(club=club, handle="b", display_name="Ben", name_ja="ベン")
    admin = Client()
    admin.force_login(member_of(club, django_user_model, "lena", Membership.Role.ADMIN))
    page = admin.get(f"/clubs/{club.slug}/setup/").content.decode()
    listing = page[page.index('id="players"') :]
    # 加藤 has no reading: pykakasi's かとう puts it between あおき and わたなべ.
    assert listing.index("青木") < listing.index("加藤") < listing.index("渡辺")
    # In English Ben is a Latin name, before the Japanese ones; in Japanese ベン is べん.
    assert listing.index("Ben") < listing.index("青木")
    admin.cookies["django_language"] = "ja"
    page = admin.get(f"/clubs/{club.slug}/setup/").content.decode()
    listing = page[page.index('id="players"') :]
    assert (
        listing.index("青木")
        < listing.index("加藤")
        < listing.index("ベン")
        < listing.index("渡辺")
    )


def test_the_players_list_shows_a_guessed_reading_as_a_guess(club, django_user_model):
    """李 明 with no reading sorts by pykakasi's すもも めい: the list shows that in grey with
    a "?" and says how to put it right; the edit form offers it as a placeholder, never
    as a value; a typed reading shows plain."""
    li = Player.objects.create(club=club, handle="li", display_name="李 明")
    Player.objects.create(club=club, handle="sato", display_name="佐藤", reading="さとう")
    admin = Client()
    admin.force_login(member_of(club, django_user_model, "lena", Membership.Role.ADMIN))
    page = admin.get(f"/clubs/{club.slug}/setup/").content.decode()
    assert '<span class="muted guess">すもも めい?</span>' in page
    assert 'id="guessed-readings"' in page and "さとう?" not in page
    form = admin.get(f"/clubs/{club.slug}/players/{li.pk}/").content.decode()
    field = form[form.index('name="reading"') :]
    field = field[: field.index(">")]
    assert 'placeholder="すもも めい"' in field and "value=" not in field
    Player.objects.filter(pk=li.pk).update(reading="り めい")
    page = admin.get(f"/clubs/{club.slug}/setup/").content.decode()
    assert "すもも" not in page and 'id="guessed-readings"' not in page


def listed(club, players: list[tuple[str, str, str]]) -> dict[str, list[str]]:
    """``players`` (handle, name, reading) made the club's, as a page in English and one
    in Japanese list them."""
    for handle, name, reading in players:
        Player.objects.create(club=club, handle=handle, display_name=name, reading=reading)
    lists = {}
    for language in ("en", "ja"):
        with translation.override(language):
            lists[language] = [p.display_name for p in reading_order(club.players.all())]
    return lists


def test_an_english_page_lists_latin_names_by_their_letters_first(club):
    """A club that types its players' names in Latin letters and their readings in kana:
    an English page lists them A to Z, before the names in Japanese script; a Japanese
    page lists every name that has a reading in 五十音 order, the Latin names with none
    after them."""
    lists = listed(
        club,
        [
            ("chika", "Chika Abe", "あべ ちか"),
            ("aki", "Aki Ito", "いとう あき"),
            ("zoe", "Zoe", ""),
            ("sato", "佐藤", "さとう"),
            ("aoki", "青木", ""),
            ("jose", "José", ""),
        ],
    )
    assert lists["en"] == ["Aki Ito", "Chika Abe", "José", "Zoe", "青木", "佐藤"]
    assert lists["ja"] == ["青木", "Chika Abe", "Aki Ito", "佐藤", "José", "Zoe"]


def test_kana_sort_as_a_dictionary_and_english_pages_by_romaji(club):
    """A Japanese page sorts as a dictionary does: 大 (だい) before 高橋 (たかはし), since
    だ is た until the rest is alike, and ばば after はは; an English page lists the names
    in Japanese script after the Latin ones, A to Z by their reading in romaji: 渡辺
    (watanabe) before 山田 (yamada)."""
    lists = listed(
        club,
        [
            ("takahashi", "高橋", "たかはし"),
            ("dai", "大", "だい"),
            ("yamada", "山田", "やまだ"),
            ("watanabe", "渡辺", "わたなべ"),
            ("baba", "馬場", "ばば"),
            ("haha", "母", "はは"),
            ("ben", "Ben", ""),
        ],
    )
    assert lists["ja"] == ["大", "高橋", "母", "馬場", "山田", "渡辺", "Ben"]
    assert lists["en"] == ["Ben", "馬場", "大", "母", "高橋", "渡辺", "山田"]

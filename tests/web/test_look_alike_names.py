"""Names a stranger could pass off as another's (issue 55, 5): accents and combining marks,
hyphens, dashes and dots, ``rn`` for ``m``, invisible characters and letters of other
scripts make no new name, for a club (sign-up, the API, a restore), an account, a season's
divisions and the club's players alike; full-width and half-width Japanese is one name,
and different Japanese names stay different."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.test import Client

import actions.divisions
from tests.conftest import client_of, member_of
from tournaments.errors import Rejection
from tournaments.models import AccountName, Club, Membership, Player, Season
from tournaments.names import KEY_LENGTH, look_alike

pytestmark = pytest.mark.django_db

ONE_NAME = [
    ("Kanda Card Club", "Kanda Card Clúb"),  # an accent, composed
    ("Kanda Card Club", "Kanda Card Clu\u0301b"),  # an accent, combining
    ("Kanda Card Club", "Kanda Card Club\u0301\u0308"),  # marks on nothing in particular
    ("Kanda Card Club", "Kanda-Card-Club"),  # hyphens for spaces
    ("Kanda Card Club", "Kanda Card Club."),  # a full stop at the end
    ("Kanda Card Club", "Kanda\u2013Card\u2013Club"),  # en dashes
    ("Kanda Card Club", "Kanda\u2212Card\u2212Club"),  # minus signs
    ("Kanda Card Club", "Kanda\u2010Card\u2011Club"),  # a hyphen and a non-breaking one
    ("Kanda Card Club", "Kanda_Card_Club!"),
    ("Kanda Card Club", "(Kanda) Card Club"),
    ("Kanda Card Club", "KANDA CARD CLUB"),
    ("Kanda Card Club", "Kanda Card CIub"),  # a capital I for the l
    ("Kanda Card Club", "Kanda Card C1ub"),  # a one for the l
    ("Kanda Card Club", "Kаnda Card Club"),  # a Cyrillic а
    ("Kanda Card Club", "Kanda\u200b Card\u2060 Club\ufeff"),  # zero-width characters
    ("Kanda Card Club", "Kanda\u3164Card Club"),  # a Hangul filler: a letter that shows nothing
    ("Kanda Card Club", "Kanda Card Club\ufe0f"),  # a variation selector
    ("Kanda Card Club", "ＫＡＮＤＡ ＣＡＲＤ ＣＬＵＢ"),  # full-width
    ("Mori Club", "Rnori Club"),  # rn for m
    ("Aki Ito", "AKI ITO"),  # case, though a capital I looks like an l
    ("Łódź", "Lodz"),  # a stroke and accents
    ("A", "A\u200b"),  # a division's name and the same with a zero-width space
    ("神田カード部", "神田カード部\u200b"),
    ("カンダカード部", "ｶﾝﾀﾞｶｰﾄﾞ部"),  # half-width kana with its voicing marks
    ("神田カード部", "神田ｶｰﾄﾞ部"),
    ("ＡＢＣカード部", "ABCカード部"),
    ("神田・カード部", "神田カード部"),  # a middle dot
    ("神田カード部", "「神田」カード部"),  # brackets
]

TWO_NAMES = [
    ("神田カード部", "神田カード会"),
    ("神田カード部", "神田カルタ部"),
    ("カード部", "ガード部"),  # a voicing mark
    ("ハート会", "パート会"),  # a semi-voicing mark
    ("バート会", "パート会"),
    ("さくら会", "さら会"),  # く (which Unicode reads as an angle bracket) is a letter
    ("ノート部", "ート部"),  # ノ (which Unicode reads as a slash) is a letter
    ("東京トランプ部", "京都トランプ部"),
    ("大阪ナポレオン会", "大坂ナポレオン会"),
    ("Kanda Card Club", "Kanda Card Clubs"),
    ("Club A", "Club B"),
    ("Mori", "Moni"),
]


@pytest.mark.parametrize("name, fake", ONE_NAME)
def test_a_look_alike_is_one_name(name, fake):
    assert look_alike(name) == look_alike(fake) != ""


@pytest.mark.parametrize("name, other", TWO_NAMES)
def test_different_names_stay_different(name, other):
    assert look_alike(name) != look_alike(other)


def test_a_key_fits_its_column_however_long_the_name():
    """NFKC and the confusables lengthen a name (``m`` is ``rn``, ``㍻`` is ``平成``): a
    long key is kept as its hash, the same for the same look."""
    assert len(look_alike("m" * 200)) <= KEY_LENGTH
    assert look_alike("m" * 200) == look_alike("rn" * 200) != look_alike("n" * 200)
    assert look_alike("") == look_alike("\u200b - .") == ""


PASSWORD = "a long pass phrase 2026"


@pytest.fixture
def open_sign_up(settings):
    settings.ALLOW_SIGN_UP = True
    settings.SIGN_UPS_PER_ADDRESS = 10
    settings.CLUBS_PER_ACCOUNT = 5


@pytest.mark.parametrize(
    "language, words",
    [
        ("en", "this name is taken, or looks like a name that is"),
        ("ja", "この名前は使われているか、使われている名前と見分けがつきません"),
    ],
)
@pytest.mark.parametrize("fake", ["Kanda-Card-Club.", "Kanda Card Clúb", "Kanda Card Cluｂ"])
def test_sign_up_refuses_a_look_alike_club_in_the_readers_language(
    open_sign_up, language, words, fake
):
    Club.objects.create(name="Kanda Card Club", slug="kanda")
    client = Client(REMOTE_ADDR="203.0.113.8")
    client.cookies["django_language"] = language
    form = {
        "account-username": "stranger",
        "account-email": "",
        "account-password1": PASSWORD,
        "account-password2": PASSWORD,
        "club-club": fake,
    }
    page = client.post("/accounts/sign-up/", form).content.decode()
    assert words in page
    assert Club.objects.count() == 1 and not User.objects.filter(username="stranger").exists()


def test_a_japanese_club_of_another_name_is_started(open_sign_up):
    Club.objects.create(name="神田カード部", slug="kanda")
    client = Client(REMOTE_ADDR="203.0.113.9")
    form = {
        "account-username": "kai",
        "account-email": "",
        "account-password1": PASSWORD,
        "account-password2": PASSWORD,
        "club-club": "神田カード会",
    }
    assert client.post("/accounts/sign-up/", form).status_code == 302
    assert Club.objects.filter(name="神田カード会").exists()


def test_an_account_name_with_a_dot_or_an_accent_is_refused(open_sign_up, django_user_model):
    django_user_model.objects.create_user("kana-ito")
    for fake in ("kana.ito", "kanaito", "kána_ito"):
        client = Client(REMOTE_ADDR="203.0.113.10")
        form = {
            "account-username": fake,
            "account-email": "",
            "account-password1": PASSWORD,
            "account-password2": PASSWORD,
            "club-club": f"A club of {fake}",
        }
        page = client.post("/accounts/sign-up/", form).content.decode()
        assert "This user name cannot be used" in page, fake
    assert User.objects.count() == 1


@pytest.mark.parametrize(
    "language, words",
    [
        ("en", "A club of this name, or of a name that looks like it, exists."),
        ("ja", "この名前、または見分けのつかない名前のクラブがすでにあります。"),
    ],
)
def test_a_club_renamed_by_the_api_may_not_look_like_another(
    club, django_user_model, language, words
):
    """A club's administrator renames the club: not to another club's look-alike (before,
    the unique key answered with a server error), nor to a name of nothing."""
    Club.objects.create(name="Kanda Card Club", slug="kanda")
    admin = member_of(club, django_user_model, "owner", Membership.Role.ADMIN)
    api = client_of(admin)
    refused = api.patch(
        f"/api/clubs/{club.pk}/",
        {"name": "Kanda–Card–Club."},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert refused.status_code == 400
    assert words in str(refused.json())
    blank = api.patch(f"/api/clubs/{club.pk}/", {"name": "\u200b-"}, format="json")
    assert blank.status_code == 400 and "name" in str(blank.json())
    club.refresh_from_db()
    assert club.name == "Test Club"
    renamed = api.patch(f"/api/clubs/{club.pk}/", {"name": "Test Card Club"}, format="json")
    assert renamed.status_code == 200
    again = api.patch(f"/api/clubs/{club.pk}/", {"name": "Test Card Club"}, format="json")
    assert again.status_code == 200  # its own name, kept


def test_a_restore_refuses_a_look_alike_club():
    from ops.document import ImportError_
    from ops.restore import import_club

    Club.objects.create(name="Kanda Card Club", slug="kanda")
    doc = {"format": "clubscore-club/1", "club": {"name": "Kanda-Card-Clüb", "slug": "k2"}}
    with pytest.raises(ImportError_, match="looks like it"):
        import_club(doc, accept_unsigned=True)
    assert Club.objects.count() == 1


def test_new_keys_for_stored_names_keep_every_club(django_user_model):
    """The migration makes every key again by the new rules: clubs that look alike only by
    them keep their names (the later one's key made unique with its id), may still be
    saved, and a new club may look like neither."""
    keys = __import__("tournaments.migrations.0031_look_alike_keys_again", fromlist=["keys"]).keys
    first = Club.objects.create(name="Kanda Card Club", slug="kanda")
    later = Club.objects.create(name="Mori Club", slug="mori")
    Club.objects.filter(pk=later.pk).update(name="Kanda-Card-Club", name_key="kanda-card-club")
    Club.objects.filter(pk=first.pk).update(name_key="kandacardclub-old")
    user = django_user_model.objects.create_user("kána")
    AccountName.objects.filter(user=user).update(key="kána")
    keys(apps, None)
    first.refresh_from_db()
    later.refresh_from_db()
    assert first.name_key == "kandacardclub"
    assert later.name_key == f"kandacardclub#{later.pk}"
    assert AccountName.objects.get(user=user).key == "kana"
    later.full_clean()  # its own name, kept
    later.save()
    later.refresh_from_db()
    assert later.name_key == f"kandacardclub#{later.pk}"
    with pytest.raises(Exception, match="looks like it"):
        Club(name="Kanda Card Club.", slug="k3").full_clean()


@pytest.fixture
def season_and_admin(club, django_user_model):
    season = Season.objects.create(club=club, name="Spring", games=["napoleon"])
    people = [
        Player.objects.create(club=club, handle=f"p{i}", display_name=f"P {i}") for i in range(4)
    ]
    return season, people, member_of(club, django_user_model, "secretary", Membership.Role.ADMIN)


@pytest.mark.parametrize(
    "names",
    [["A", "A\u200b"], ["A", "Ａ"], ["Gold", "Gold."], ["Div-1", "Div 1"], ["A", "\u0391"]],
)
def test_a_season_has_no_two_divisions_that_look_alike(season_and_admin, names):
    season, _people, _admin = season_and_admin
    with pytest.raises(Rejection) as refused:
        actions.divisions.set_divisions(season, names, {})
    assert refused.value.errors[0]["code"] == "duplicate"
    assert not season.divisions.exists()


def test_divisions_that_look_alike_are_refused_by_the_page_and_the_api_in_both_languages(
    season_and_admin,
):
    season, people, admin = season_and_admin
    client = Client()
    client.force_login(admin)
    client.cookies["django_language"] = "ja"
    page = client.post(
        f"/seasons/{season.pk}/divisions/",
        {"names": "A A\u200b", "moves": "1", "moves_by": "count"},
    ).content.decode()
    assert "ディビジョン A\u200b が二度指定されています" in page
    api = client_of(admin)
    answer = api.put(
        f"/api/seasons/{season.pk}/divisions/",
        {"names": ["A", "A\u200b"], "places": {}},
        format="json",
    )
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["path"] == "names[1]"
    assert "is named twice" in answer.json()["errors"][0]["message"]
    blank = api.put(
        f"/api/seasons/{season.pk}/divisions/",
        {"names": ["A", "\u200b\u200b"], "places": {}},
        format="json",
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert blank.status_code == 400
    assert "ディビジョンの名前は文字か数字で付けてください" in blank.json()["errors"][0]["message"]
    assert not season.divisions.exists()
    placed = api.put(
        f"/api/seasons/{season.pk}/divisions/",
        {"names": ["A", "B"], "places": {str(people[0].pk): "a\u200b"}},  # one look, one name
        format="json",
    )
    assert placed.status_code == 200, placed.json()
    assert [d["players"] for d in placed.json()["divisions"]] == [[people[0].pk], []]


def test_a_players_look_alike_is_the_same_person_question(club, admin):
    Player.objects.create(club=club, handle="mori", display_name="Mori Aki", name_ja="森 亜紀")
    for name in ("Rnori Aki", "Mori-Aki", "Morí Aki", "森・亜紀"):
        page = admin.post(
            f"/clubs/{club.slug}/setup/", {"player-display_name": name}
        ).content.decode()
        assert "the same person?" in page, name
    assert Player.objects.filter(club=club).count() == 1
    answer = admin.post(f"/clubs/{club.slug}/setup/", {"player-display_name": "森 亜希"})
    assert answer.status_code == 302  # another name: no question
    assert Player.objects.filter(club=club).count() == 2


def test_a_club_address_changed_by_the_api_may_not_look_like_another(club, django_user_model):
    Club.objects.create(name="Mori Club", slug="mori")
    api = client_of(member_of(club, django_user_model, "owner", Membership.Role.ADMIN))
    for fake in ("rnori", "m0ri", "mor-i"):
        refused = api.patch(
            f"/api/clubs/{club.pk}/", {"slug": fake}, format="json", HTTP_ACCEPT_LANGUAGE="ja"
        )
        assert refused.status_code == 400, fake
        assert "これと見分けのつかないアドレスのクラブがすでにあります" in str(refused.json())
    club.refresh_from_db()
    assert club.slug == "test"
    assert api.patch(f"/api/clubs/{club.pk}/", {"slug": "test"}, format="json").status_code == 200
    moved = api.patch(f"/api/clubs/{club.pk}/", {"slug": "moriya"}, format="json")
    assert moved.status_code == 200 and moved.json()["slug"] == "moriya"

"""Words and names (issue 56, 7): a game has one name in each language and a Japanese page
shows no English one (ナポレオン, not "ナポレオン Napoleon"); Bhabhi is バビ everywhere; one word
for signing in (Sign in, ログイン); no doubled さん; English plurals ("1 deal"); a player's
reading from the players' list, checked as a player's page checks it."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.template import Context, Template
from django.test import Client
from django.utils import translation

from actions import invitations, roster
from tournaments.errors import Rejection
from tournaments.games import LEAGUE_GAMES, label
from tournaments.models import Club, ClubNight, Match, Membership, Player
from tournaments.sheets.reading import read_game

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "locale" / "ja" / "LC_MESSAGES" / "django.po"
LATIN = {g.name_en for g in LEAGUE_GAMES.values() if g.name_en != g.name_ja}
"""The games' English names (1234 is written the same in both languages)."""


class Visible(HTMLParser):
    """A page's text as a reader sees it: no scripts or styles, nothing marked English
    (``lang="en"``: the English template's download link), chips and labels included."""

    def __init__(self) -> None:
        super().__init__()
        self.hidden: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in {"script", "style"} or (tag != "html" and dict(attrs).get("lang") == "en"):
            self.hidden.append(tag)
        elif self.hidden and tag == self.hidden[-1]:
            self.hidden.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.hidden and tag == self.hidden[-1]:
            self.hidden.pop()

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.text.append(data)


def visible(html: str) -> str:
    reader = Visible()
    reader.feed(html)
    return " ".join(" ".join(reader.text).split())


def test_each_game_has_one_name_in_each_language():
    for game in LEAGUE_GAMES.values():
        with translation.override("en"):
            assert label(game.name) == game.name_en
        with translation.override("ja"):
            assert label(game.name) == game.name_ja
        assert read_game(game.name_en) == read_game(game.name_ja) == game.name
        # a sheet typed from an export made before one name per language still reads
        assert read_game(f"{game.name_ja} {game.name_en}") == game.name
    assert read_game("1234 ヌン・ソーン・サーム・シィー") == "1234"
    with translation.override("ja"):
        assert label("bhabhi") == "バビ" and label("1234") == "1234"


def test_bhabhi_is_one_name_in_japanese_everywhere():
    """The catalogue called it バビ, ババ and ババ抜き: every msgstr says バビ now."""
    text = PO.read_text(encoding="utf-8")
    assert "ババ" not in text
    with translation.override("ja"):
        assert translation.gettext("bhabhi") == "バビ"


def test_japanese_pages_name_games_in_japanese_only(demo, django_user_model):
    """The main pages, the chips of the entry form and the season form among them, as a
    league administrator reads them in Japanese: no English game name anywhere."""
    club = Club.objects.get()
    admin = django_user_model.objects.get(username="admin")
    page = Client()
    page.force_login(admin)
    page.cookies["django_language"] = "ja"
    open_match = Match.objects.exclude(status="finished").first()
    assert open_match is not None
    night = open_match.table.club_night
    urls = ["/", f"/seasons/{demo.pk}/", f"/clubs/{club.slug}/setup/"]
    urls += [f"/clubs/{club.slug}/seasons/{demo.pk}/", f"/clubs/{club.slug}/seasons/new/"]
    urls += [f"/clubs/{club.slug}/import/", f"/seasons/{demo.pk}/nights/new/"]
    urls += [f"/nights/{n.pk}/" for n in ClubNight.objects.all()]
    urls += [f"/nights/{night.pk}/tables/", f"/nights/{night.pk}/draw/"]
    urls += [f"/matches/{m.pk}/" for m in Match.objects.all()]
    urls += [f"/matches/{m.pk}/enter/" for m in Match.objects.exclude(status="finished")]
    urls += [f"/tables/{open_match.table_id}/"]
    urls += [f"/players/{p.pk}/" for p in club.players.all()[:3]]
    games_seen = set()
    for url in urls:
        response = page.get(url)
        assert response.status_code == 200, url
        text = visible(response.content.decode())
        found = {name for name in LATIN if re.search(rf"(?<![\w-]){re.escape(name)}", text)}
        assert not found, (url, found)
        games_seen |= {g.name_ja for g in LEAGUE_GAMES.values() if g.name_ja in text}
    assert {"ナポレオン", "レットラー"} <= games_seen
    # the season form's game chips: each game by its Japanese name alone
    form = page.get(f"/clubs/{club.slug}/seasons/new/").content.decode()
    for game in LEAGUE_GAMES.values():
        chip = rf'class="chip"[^>]*>\s*<input[^>]*value="{game.name}"[^>]*><span>([^<]*)</span>'
        found = re.search(chip, form)
        assert found and found[1] == game.name_ja, (game.name, found and found[1])


SIGN_IN_OTHERS = re.compile(r"\b(?:Log ?in|Log ?out|Login|Logout|log in|log out|Sign-in button)\b")


def test_one_word_for_signing_in():
    """English says "Sign in"/"Sign out" (never "Log in", "Login"); Japanese ログイン/ログアウト
    (never サインイン), in the templates and the catalogue."""
    for path in (ROOT / "templates").rglob("*.html"):
        source = path.read_text(encoding="utf-8")
        assert not SIGN_IN_OTHERS.search(re.sub(r"{%.*?%}|{{.*?}}", "", source)) or (
            "blocktranslate" not in source and "translate" not in source
        ), path
        for said in re.findall(r'translate ["\'](.*?)["\']', source):
            assert not SIGN_IN_OTHERS.search(said), (path, said)
    catalogue = PO.read_text(encoding="utf-8")
    for entry in catalogue.split("\n\n"):
        msgid = "".join(re.findall(r'^(?:msgid|msgid_plural)?\s*"(.*)"$', entry, re.M)[:1])
        assert not SIGN_IN_OTHERS.search(entry.split("msgstr")[0]), entry
        assert "サインイン" not in entry and "サインアウト" not in entry, msgid
    with translation.override("ja"):
        assert translation.gettext("Sign in") == "ログイン"
        assert translation.gettext("Sign out") == "ログアウト"


def test_no_doubled_san(club, club_admin):
    """No msgstr adds さん after a name (a name may carry it already); an invitation for
    「山田さん」 reads 「山田さん 宛て」, not 「山田さん さん宛て」."""
    assert not re.search(r"%\(\w+\)s\s*さん|}}\s*さん", PO.read_text(encoding="utf-8"))
    for path in (ROOT / "templates").rglob("*.html"):
        assert not re.search(r"}}\s*さん", path.read_text(encoding="utf-8")), path
    invitations.invite(club, club_admin, Membership.Role.MEMBER, meant_for="山田さん")
    page = Client()
    page.force_login(club_admin)
    page.cookies["django_language"] = "ja"
    text = visible(page.get(f"/clubs/{club.slug}/setup/").content.decode())
    assert "山田さん 宛て" in text and "さん さん" not in text and "さんさん" not in text


@pytest.mark.parametrize(
    ("value", "en", "ja"),
    [(1, "1 point", "1 点"), (2, "2 points", "2 点"), (0, "0 points", "0 点")],
)
def test_points_have_their_plural(value, en, ja):
    template = Template("{% load clubscore %}{{ value|points }}")
    with translation.override("en"):
        assert template.render(Context({"value": value})) == en
    with translation.override("ja"):
        assert template.render(Context({"value": value})) == ja
    with translation.override("en"):
        from decimal import Decimal

        assert template.render(Context({"value": Decimal("1.500")})) == "1.5 points"


COUNTED = re.compile(
    r"{%\s*blocktranslate(?![^%]*\bcount\b)[^%]*%}[^{]*?(?:{{[^}]*}}[^{]*?)*?"
    r"{{\s*(?:n|count|total)\s*}}\s+(?:deals|matches|players|tables|nights|points|games)\b"
)


PENDING: set[str] = set()
"""Pages their owners rewrite for issue 56, 5 at the same time: the room display's round
line ("· 12 deals", the deals per match, redrawn by ``live.js``) and "my night"'s rank
line ("· 1 points": ``{{ total|points }}`` is the filter for it)."""


def test_templates_count_with_their_plural_forms():
    """A number before a plural noun is a ``{% blocktranslate count %}``, never ``{{ n }}
    {% translate "deals" %}`` nor a blocktranslate without ``count``."""
    for path in (ROOT / "templates").rglob("*.html"):
        if path.name in PENDING:
            continue
        source = path.read_text(encoding="utf-8")
        assert not re.search(
            r'}}\s*{%\s*translate\s+"(?:deals|matches|players|tables|nights|points|games)"',
            source,
        ), path
        assert not COUNTED.search(source), (path, COUNTED.search(source))


def test_one_and_two_on_the_pages(club, club_admin, make_match, django_capture_on_commit_callbacks):
    """1 deal, 2 deals; 1 player added, 2 players added; Japanese keeps its one form."""
    import actions.deals
    from tests.conftest import NAPOLEON_SEATS, napoleon_deal

    match = make_match("napoleon", NAPOLEON_SEATS)
    page = Client()
    page.force_login(club_admin)
    night = match.table.club_night
    with django_capture_on_commit_callbacks(execute=True):
        actions.deals.enter_deal(match, napoleon_deal(), user=club_admin).stored()
    text = visible(page.get(f"/nights/{night.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert "1 deal" in text and "1 deals" not in text
    with django_capture_on_commit_callbacks(execute=True):
        actions.deals.enter_deal(match, napoleon_deal(declarer="ben"), user=club_admin).stored()
    text = visible(page.get(f"/nights/{night.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert "2 deals" in text
    page.cookies["django_language"] = "ja"
    assert "2 ディール" in visible(page.get(f"/nights/{night.pk}/").content.decode())
    del page.cookies["django_language"]

    url = f"/clubs/{club.slug}/players/list/"
    one = SimpleUploadedFile("one.csv", b"name\nNew One\n", "text/csv")
    said = visible(page.post(url, {"list": one}, follow=True).content.decode())
    assert "1 player added; 0 already in the club." in said
    two = SimpleUploadedFile("two.csv", b"name\nNew Two\nNew Three\n", "text/csv")
    said = visible(page.post(url, {"list": two}, follow=True).content.decode())
    assert "2 players added; 0 already in the club." in said


def test_a_list_gives_each_player_a_reading(club, club_admin):
    """The ``reading`` column (よみ, ふりがな): kana as a player's page takes it, stored
    normalised (half-width katakana as full width)."""
    text = "name,reading,日本語名\n佐藤 彩,さとう あや,\n伊藤,ｲﾄｳ,\nLena Ito,,\n"
    added = roster.add_players(club, text.encode("utf-8"))
    readings = {p.display_name: p.reading for p in added.new}
    assert readings == {"佐藤 彩": "さとう あや", "伊藤": "イトウ", "Lena Ito": ""}
    saved = Player.objects.get(club=club, display_name="佐藤 彩")
    # the handle is romaji of the reading given, not the library's guess (彩 → sai)
    assert (saved.reading, saved.handle) == ("さとう あや", "satou-aya")
    for heading in ("よみ", "ふりがな", "読み"):
        read = roster.read(club, f"name,{heading}\n森,もり\n".encode())
        assert read.new[0].reading == "もり"


def test_a_list_without_a_reading_column_still_adds(club):
    added = roster.add_players(club, "名前,日本語名\n森 健,森 健\n".encode("shift_jis"))
    assert [(p.display_name, p.reading) for p in added.new] == [("森 健", "")]


def test_a_wrong_reading_is_named_by_row_and_column_and_nothing_is_stored(club, club_admin):
    text = "name,reading\n佐藤 彩,さとう あや\n伊藤,Ito\n森,もり1\n"
    with pytest.raises(Rejection) as refused:
        roster.add_players(club, text.encode())
    found = [(e["code"], e["path"]) for e in refused.value.errors]
    assert found == [("wrong_reading", "row 3.reading"), ("wrong_reading", "row 4.reading")]
    assert not Player.objects.filter(club=club).exists()

    page = Client()
    page.force_login(club_admin)
    url = f"/clubs/{club.slug}/players/list/"
    for language, said in [
        ("en", ["Nothing was added", "Row 3, Reading: a reading is written in kana"]),
        ("ja", ["何も追加していません", "3 行目, よみ: よみはかなで書きます"]),
    ]:
        upload = SimpleUploadedFile("players.csv", text.encode(), "text/csv")
        answer = page.post(url, {"list": upload}, follow=True, HTTP_ACCEPT_LANGUAGE=language)
        shown = visible(answer.content.decode())
        assert all(s in shown for s in said), (language, shown)
    assert not Player.objects.filter(club=club).exists()


def test_the_add_player_form_takes_a_reading(club, club_admin):
    page = Client()
    page.force_login(club_admin)
    form = page.get(f"/clubs/{club.slug}/setup/").content.decode()
    assert 'name="player-reading"' in form
    url = f"/clubs/{club.slug}/setup/"
    refused = page.post(url, {"player-display_name": "佐藤 彩", "player-reading": "sai"})
    assert not Player.objects.filter(club=club, display_name="佐藤 彩").exists()
    assert "Write the reading in kana" in refused.content.decode()
    page.post(url, {"player-display_name": "佐藤 彩", "player-reading": "さとう あや"})
    saved = Player.objects.get(club=club, display_name="佐藤 彩")
    assert (saved.reading, saved.handle) == ("さとう あや", "satou-aya")


TRUMP_CHIP = re.compile(
    r'<input[^>]*name="trump"[^>]*value="([\w-]+)"[^>]*>\s*<span>([^<]*)</span>'
)
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@pytest.mark.parametrize("game", ["napoleon", "rettler"])
def test_trump_chips_name_each_trump_in_the_readers_language_alone(game, club_admin, make_match):
    """The entry page's trump chips: 「♠ スペード」, 「ノートラ」 in Japanese, with no English;
    "♠ spades", "no-trump" in English, with no Japanese (not "♠ スペード spades")."""
    seats = ["aki", "ben", "chika", "dai", "emi"][: 4 if game == "napoleon" else 5]
    match = make_match(game, seats)
    page = Client()
    page.force_login(club_admin)
    expected = {
        "ja": {"spades": "♠ スペード", "hearts": "♡ ハート", "notrump": "ノートラ", "black": "黒"},
        "en": {"spades": "♠ spades", "hearts": "♡ hearts", "notrump": "no-trump", "black": "black"},
    }
    for language, says in expected.items():
        html = page.get(f"/matches/{match.pk}/enter/", HTTP_ACCEPT_LANGUAGE=language)
        chips = dict(TRUMP_CHIP.findall(html.content.decode()))
        assert len(chips) == 9, (language, chips)
        assert {t: " ".join(chips[t].split()) for t in says} == says
        for trump, text in chips.items():
            if language == "ja":
                assert not re.search(r"[A-Za-z]", text), (trump, text)
            else:
                assert not JAPANESE.search(text), (trump, text)


def test_the_pin_page_and_the_history_word_a_deal_in_the_readers_language(
    club_admin, make_match, django_capture_on_commit_callbacks
):
    """A deal's fields as people read them: the trump by its name (「♡ ハート」, not
    "hearts"), the named card as the card pad shows it (♠A, not SA), on the PIN page and
    in the match page's history of changes alike."""
    import actions.deals
    from actions import corrections
    from tests.conftest import NAPOLEON_SEATS, napoleon_deal

    match = make_match("napoleon", NAPOLEON_SEATS)
    with django_capture_on_commit_callbacks(execute=True):
        deal = actions.deals.enter_deal(match, napoleon_deal(), user=club_admin).stored()
    page = Client()
    page.force_login(club_admin)
    page.cookies["django_language"] = "ja"
    html = page.get(f"/deals/{deal.pk}/pin/").content.decode()
    shown = html[html.index('id="deal-shown"') : html.index("</section>")]
    found = re.findall(r"<dt>([^<]+)</dt>\s*<dd>([^<]+)</dd>", shown)
    fields = {k.strip(): v.strip() for k, v in found}
    assert fields["宣言 · 切り札"] == "♡ ハート", fields
    assert fields["副官の指名"] == "♠A", fields
    assert "hearts" not in visible(html)

    spades = {**napoleon_deal(), "adjutant_cards": ["HJ"]}
    spades["declaration"] = {**spades["declaration"], "trump": "spades"}
    corrections.correct_deal(deal, spades, club_admin, "スペードでした")
    history = visible(page.get(f"/matches/{match.pk}/").content.decode())
    assert "宣言 · 切り札 ♡ ハート ♠ スペード" in history, history
    assert "副官の指名 ♠A ♡J" in history
    assert "hearts" not in history and "spades" not in history, history
    page.cookies["django_language"] = "en"
    history = visible(page.get(f"/matches/{match.pk}/").content.decode())
    assert "declaration · trump ♡ hearts ♠ spades" in history
    assert "adjutant cards ♠A ♡J" in history


def test_a_typed_sheet_names_a_trump_in_either_language():
    """The chips name a trump in one language; a sheet typed in the other still reads."""
    from tournaments.games.declarer import TRUMP_LABELS
    from tournaments.sheets.reading import read_choice

    for language in ("en", "ja"):
        with translation.override(language):
            read = {t: read_choice(TRUMP_LABELS, t) for t in ("スペード", "♠ spades", "黒")}
            read |= {t: read_choice(TRUMP_LABELS, t) for t in ("ノートラ", "no-trump", "red")}
            read["地学部ノートラ"] = read_choice(TRUMP_LABELS, "地学部ノートラ")
        assert read == {
            "スペード": "spades",
            "♠ spades": "spades",
            "黒": "black",
            "ノートラ": "notrump",
            "no-trump": "notrump",
            "red": "red",
            "地学部ノートラ": "chigaku-notrump",
        }, language


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_language_menu_names_each_language_in_itself(client, lang):
    """English and 日本語 on every page, whatever its language: Django's own catalogue
    would call English 英語(米国) on a Japanese page."""
    client.cookies["django_language"] = lang
    page = client.get("/").content.decode()
    menu = page[page.index('name="language"') : page.index("</select>")]
    assert [o.strip() for o in re.findall(r">([^<]+)</option>", menu)] == ["English", "日本語"]

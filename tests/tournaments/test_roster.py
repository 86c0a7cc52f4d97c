"""Players from a list: encodings, headings in both languages, mistakes by row and
column with nothing written, names the club has skipped (the same list twice adds nothing)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client

from actions import roster
from tournaments.errors import Rejection
from tournaments.models import Player

pytestmark = pytest.mark.django_db

LIST = "名前,日本語名\nLena Ito,伊藤 玲奈\nKen Mori,森 健\n\nAki,\n"


def names(club):
    return sorted(Player.objects.filter(club=club).values_list("display_name", "name_ja", "handle"))


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "shift_jis"])
def test_a_list_in_any_of_excels_encodings_adds_its_players_once(club, players, encoding):
    before = Player.objects.filter(club=club).count()
    added = roster.add_players(club, LIST.encode(encoding))
    assert [p.display_name for p in added.new] == ["Lena Ito", "Ken Mori"]
    assert added.skipped == ["Aki"]  # the club has Aki (any case)
    lena = Player.objects.get(club=club, display_name="Lena Ito")
    assert (lena.name_ja, lena.handle) == ("伊藤 玲奈", "lena-ito")
    again = roster.add_players(club, LIST.encode(encoding))
    assert again.new == [] and sorted(again.skipped) == ["Aki", "Ken Mori", "Lena Ito"]
    assert Player.objects.filter(club=club).count() == before + 2


def test_every_mistake_is_named_by_row_and_column_and_nothing_is_written(club):
    text = "name,handle\nLena Ito,\n,ghost\nLena Ito,\nKen,Not A Handle\n" + "x" * 101 + ",\n"
    with pytest.raises(Rejection) as refused:
        roster.add_players(club, text.encode())
    found = [(e["code"], e["path"]) for e in refused.value.errors]
    assert found == [
        ("missing_field", "row 3.name"),
        ("duplicate", "row 4.name"),
        ("wrong_handle", "row 5.handle"),
        ("too_long", "row 6.name"),
    ]
    assert not Player.objects.filter(club=club).exists()


def test_a_list_without_a_name_column_or_text_is_refused(club):
    for data in (b"first,last\nLena,Ito\n", b"\xff\xfe\x00garbage\x81", b""):
        with pytest.raises(Rejection):
            roster.add_players(club, data)
    assert not Player.objects.filter(club=club).exists()


def test_a_league_administrator_uploads_a_list_on_the_setup_page(club, club_admin, scorer):
    page = Client()
    page.force_login(scorer)
    url = f"/clubs/{club.slug}/players/list/"
    upload = SimpleUploadedFile("players.csv", LIST.encode("shift_jis"), "text/csv")
    assert page.post(url, {"list": upload}).status_code == 403  # scorers do not set up
    page.force_login(club_admin)
    upload = SimpleUploadedFile("players.csv", LIST.encode("shift_jis"), "text/csv")
    answer = page.post(url, {"list": upload}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "3 players added; 0 already in the club." in answer.content.decode()
    bad = SimpleUploadedFile("players.csv", b"name\nAna\n,\nAna\n", "text/csv")
    answer = page.post(url, {"list": bad}, follow=True, HTTP_ACCEPT_LANGUAGE="ja")
    text = answer.content.decode()
    assert "何も追加していません" in text and "4 行目" in text
    assert not Player.objects.filter(club=club, display_name="Ana").exists()


def test_the_command_has_a_dry_run(club, tmp_path, capsys):
    path = tmp_path / "players.csv"
    path.write_bytes(LIST.encode("utf-8-sig"))
    call_command("import_players", str(path), "--club", club.slug, "--dry-run")
    assert "would add 3 players" in capsys.readouterr().out
    assert not Player.objects.filter(club=club).exists()
    call_command("import_players", str(path), "--club", club.slug)
    assert len(names(club)) == 3
    path.write_bytes("name,name_ja\n,森\n".encode())
    with pytest.raises(CommandError, match="row 2.name"):
        call_command("import_players", str(path), "--club", club.slug)


def test_a_japanese_only_name_gets_a_readable_handle(club):
    """Issue 29, 6: romaji (pykakasi), not ``player-2``; still unique in the club."""
    from tournaments.names import unique_handle

    assert unique_handle("伊藤 亜紀", set()) == "itou-aki"
    assert unique_handle("さくら", set()) == "sakura"
    Player.objects.create(club=club, handle="yamada-tarou", display_name="山田太郎")
    taken = set(club.players.values_list("handle", flat=True))
    assert unique_handle("山田太郎", taken) == "yamada-tarou-2"
    assert unique_handle("山田太郎", taken | {"yamada-tarou-2"}) == "yamada-tarou-3"
    assert unique_handle("Lena Ito", taken) == "lena-ito"
    assert unique_handle("★", taken) == "player"


def test_names_pasted_a_line_each_are_added_once(club, players):
    """Names pasted as a secretary copies them (a line each, blank lines and the
    spreadsheet's second column of readings too); the same paste again adds nothing."""
    pasted = "Lena Ito\r\n\u3000森 健\tもり けん\n\nAki\n"
    added = roster.add_players(club, pasted)
    assert [(p.display_name, p.reading) for p in added.new] == [
        ("Lena Ito", ""),
        ("森 健", "もり けん"),
    ]
    assert added.skipped == ["Aki"]
    again = roster.add_players(club, pasted)
    assert again.new == [] and sorted(again.skipped) == ["Aki", "Lena Ito", "森 健"]
    # A first line naming the columns: read as a list's heading, as a file is.
    headed = roster.add_players(club, "名前,日本語名\nYuki Sato,佐藤 雪\n")
    assert [(p.display_name, p.name_ja) for p in headed.new] == [("Yuki Sato", "佐藤 雪")]
    # A full-width space, or two, between the names: stored as one plain space.
    wide = roster.add_players(club, "高橋\u3000健\nKen  Mori\tもり\u3000\u3000けん\n")
    assert [(p.display_name, p.reading) for p in wide.new] == [
        ("高橋 健", ""),
        ("Ken Mori", "もり けん"),
    ]


def test_pasted_names_are_refused_by_their_line_and_nothing_is_written(club):
    before = Player.objects.filter(club=club).count()
    with pytest.raises(Rejection) as refused:
        roster.add_players(club, "Lena Ito\nKen\tKen\nLena Ito\n")
    found = [(e["code"], e["path"]) for e in refused.value.errors]
    assert found == [("wrong_reading", "row 2.reading"), ("duplicate", "row 3.name")]
    for nothing in ("", " \n\u3000\n", "\t\n"):
        with pytest.raises(Rejection) as refused:
            roster.add_players(club, nothing)
        assert refused.value.errors[0]["path"] == "names"
    assert Player.objects.filter(club=club).count() == before


def test_names_pasted_on_the_setup_page_are_kept_when_refused(club, club_admin, scorer):
    url = f"/clubs/{club.slug}/players/list/"
    page = Client()
    page.force_login(scorer)
    assert page.post(url, {"names": "Ana"}).status_code == 403  # scorers do not set up
    assert not Player.objects.filter(club=club).exists()
    page.force_login(club_admin)
    pasted = "Ana\nBo\tbo\n"
    answer = page.post(url, {"names": pasted}, HTTP_ACCEPT_LANGUAGE="ja")
    assert answer.status_code == 400
    text = answer.content.decode()
    assert "何も追加していません" in text and "2 行目, よみ: よみはかなで書きます" in text
    assert f">{pasted}</textarea>" in text  # nothing typed is lost
    assert f'action="/clubs/{club.slug}/setup/"' in text  # the page's other forms post home
    assert not Player.objects.filter(club=club).exists()
    upload = SimpleUploadedFile("players.csv", b"name\nCy\n", "text/csv")
    both = page.post(url, {"names": "Ana", "list": upload}, HTTP_ACCEPT_LANGUAGE="en")
    assert both.status_code == 400 and "not both" in both.content.decode()
    assert ">Ana</textarea>" in both.content.decode()
    hostile = "Ana\tx</textarea><script>alert(1)</script>\n"
    shown = page.post(url, {"names": hostile}).content.decode()
    assert "<script>alert(1)" not in shown and "&lt;/textarea&gt;&lt;script&gt;" in shown
    answer = page.post(url, {"names": " "}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "or paste them" in answer.content.decode()
    answer = page.post(url, {"names": "Ana\nBo\tぼ\n"}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "2 players added; 0 already in the club." in answer.content.decode()
    assert sorted(Player.objects.filter(club=club).values_list("display_name", "reading")) == [
        ("Ana", ""),
        ("Bo", "ぼ"),
    ]


def test_a_name_the_club_has_is_skipped_whatever_its_spaces_width_or_language(club):
    """As the attendance tells a guest who is a player: 山田　太郎 (a full-width space) and
    山田太郎 are 山田 太郎; 亜紀 is Aki, whose Japanese name it is.  A phone has no tab
    key: kana after a comma is the reading; a comma before letters is part of the name."""
    Player.objects.create(club=club, handle="yamada-tarou", display_name="山田 太郎")
    Player.objects.create(club=club, handle="aki", display_name="Aki", name_ja="亜紀")
    for pasted in ("山田　太郎\n", "山田太郎\n", "亜紀\n", "ＡＫＩ\n"):
        added = roster.add_players(club, pasted)
        assert added.new == [] and len(added.skipped) == 1, pasted
    added = roster.add_players(
        club, "木村 拓也, きむら たくや\n林 大輔、ハヤシ ダイスケ\nIto, Aki\n"
    )
    assert [(p.display_name, p.reading, p.handle) for p in added.new] == [
        ("木村 拓也", "きむら たくや", "kimura-takuya"),
        ("林 大輔", "ハヤシ ダイスケ", "hayashi-daisuke"),
        ("Ito, Aki", "", "ito-aki"),
    ]
    with pytest.raises(Rejection) as refused:  # one person twice in one paste
        roster.add_players(club, "森 健\n森　健\n")
    assert [(e["code"], e["path"]) for e in refused.value.errors] == [("duplicate", "row 2.name")]


def test_the_names_skipped_are_said(club, club_admin):
    Player.objects.create(club=club, handle="aki", display_name="Aki", name_ja="亜紀")
    page = Client()
    page.force_login(club_admin)
    answer = page.post(
        f"/clubs/{club.slug}/players/list/",
        {"names": "亜紀\nKen\n"},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert "すでにクラブにいるので追加しなかった名前: 亜紀" in answer.content.decode()

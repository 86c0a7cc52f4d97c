"""A player's Japanese name is what Japanese pages, files and the room display say
(``Player.shown_name``); English ones say the name, and the API keeps both as stored.

The demo club gives most players a Japanese name (Chika is 千佳) and Ben none."""

import io
import json

import pytest
from django.test import Client
from django.utils import translation
from openpyxl import load_workbook

from tournaments.models import ClubNight, Match, Player, Season

pytestmark = pytest.mark.django_db


def _in(client, lang: str, url: str) -> str:
    client.cookies["django_language"] = lang
    response = client.get(url)
    assert response.status_code == 200, url
    body = response.getvalue() if hasattr(response, "getvalue") else response.content
    return body.decode("utf-8-sig")


def _night_with(handle: str) -> ClubNight:
    return ClubNight.objects.filter(tables__matches__seats__player__handle=handle).earliest("pk")


def test_the_nights_standings_name_players_in_the_pages_language(client, demo):
    night = _night_with("chika")
    ja = _in(client, "ja", f"/nights/{night.pk}/")
    assert ">千佳</a>" in ja and ">Chika</a>" not in ja
    en = _in(client, "en", f"/nights/{night.pk}/")
    assert ">Chika</a>" in en and "千佳" not in en


def test_a_player_without_a_japanese_name_keeps_their_name_in_japanese(client, demo):
    night = _night_with("ben")
    assert ">Ben</a>" in _in(client, "ja", f"/nights/{night.pk}/")


def test_the_season_page_names_in_japanese_with_the_other_name_beside(client, demo):
    ja = _in(client, "ja", f"/seasons/{demo.pk}/")
    assert ">千佳</a>" in ja and '<span class="muted">Chika</span>' in ja
    en = _in(client, "en", f"/seasons/{demo.pk}/")
    assert ">Chika</a>" in en and '<span class="muted">千佳</span>' in en


def test_the_player_page_says_each_name_once(client, demo):
    chika = Player.objects.get(handle="chika")
    ja = _in(client, "ja", f"/players/{chika.pk}/")
    heading = ja[ja.index("<h1>") : ja.index("</h1>")]
    assert heading.count("千佳") == 1 and heading.count("Chika") == 1
    assert heading.index("千佳") < heading.index("Chika")


def test_the_room_displays_data_is_named_per_language_and_the_api_keeps_the_name(client, demo):
    night = _night_with("chika")
    for lang, name in (("ja", "千佳"), ("en", "Chika")):
        data = json.loads(_in(client, lang, f"/api/club-nights/{night.pk}/live/"))
        rows = [r for b in data["standings"]["boards"] for r in b["rows"]]
        chika = next(r for r in rows if r["display_name"] == "Chika")
        assert chika["shown"] == name and chika["name_ja"] == "千佳"
        seated = [n for t in data["tables"] for n in t["players"]]
        assert name in seated
        page = _in(client, lang, f"/nights/{night.pk}/live/")
        assert f'<td class="name">{name}</td>' in page
    standings = json.loads(_in(client, "ja", f"/api/club-nights/{night.pk}/standings/"))
    assert "Chika" in {r["display_name"] for r in standings["rows"]}


def test_downloads_name_players_in_the_language_they_are_asked_in(client, demo):
    match = Match.objects.filter(seats__player__handle="chika", game="comp13").earliest("pk")
    ja = _in(client, "ja", f"/matches/{match.pk}/sheet.csv").splitlines()
    assert "千佳" in ja[0] and "Chika" not in ja[0]
    season = _in(client, "ja", f"/seasons/{demo.pk}/standings.csv")
    assert ",千佳," in season and ",Chika," not in season
    assert ",Chika," in _in(client, "en", f"/seasons/{demo.pk}/standings.csv")
    client.cookies["django_language"] = "ja"
    workbook = load_workbook(io.BytesIO(client.get(f"/matches/{match.pk}/sheet.xlsx").getvalue()))
    cells = {c for row in workbook.active.iter_rows(values_only=True) for c in row}
    assert "千佳" in cells and "Chika" not in cells
    assert workbook.active.title == "コンプ・イチサン"  # the game's name, not its key


def test_the_entry_forms_labels_name_the_players_in_japanese(client, demo):
    match = Match.objects.filter(seats__player__handle="chika", game="comp13").earliest("pk")
    client.force_login(match.table.scorer)
    ja = _in(client, "ja", f"/matches/{match.pk}/enter/")
    assert "千佳" in ja and "Chika" not in ja


def test_players_level_on_points_are_listed_as_names_are_but_drawn_by_their_names(
    make_match, players, django_capture_on_commit_callbacks
):
    """Ben (阿部 真央, pasted with no Latin name) and Dai (大) lose alike in the coalition:
    a board lists them as every list of names does, 阿部 (あべ) before 大 (だい) in
    Japanese, and Dai (Latin letters) before 阿部 (Japanese script) in English; a draw
    seeds by their names alone, the same in either language."""
    import actions.deals
    from scoring import finals
    from scoring import night as night_data
    from tests.conftest import napoleon_deal

    Player.objects.filter(pk=players["ben"].pk).update(display_name="阿部 真央")
    Player.objects.filter(pk=players["dai"].pk).update(name_ja="大")
    match = make_match("napoleon", ["aki", "ben", "chika", "dai"])
    with django_capture_on_commit_callbacks(execute=True):
        actions.deals.enter_deal(match, napoleon_deal()).stored()
    night = match.table.club_night
    Season.objects.filter(pk=night.season_id).update(public=True)
    client = Client()
    ja = _in(client, "ja", f"/nights/{night.pk}/")
    assert ja.index(">阿部 真央</a>") < ja.index(">大</a>")
    en = _in(client, "en", f"/nights/{night.pk}/")
    assert en.index(">Dai</a>") < en.index(">阿部 真央</a>")
    seeds = []
    for lang in ("ja", "en"):
        with translation.override(lang):
            seeds.append(finals.draw_order(night, "napoleon"))
    assert seeds[0] == seeds[1]
    assert seeds[0].index(players["dai"].pk) < seeds[0].index(players["ben"].pk)  # "Dai" < "阿部"
    with translation.override("ja"):
        _method, boards = night_data.boards(night)
    assert [line.rank for line in boards[0].lines] == sorted(line.rank for line in boards[0].lines)


@pytest.mark.parametrize(
    ("game", "title", "other"),
    [("napoleon", "ナポレオン", "レットラー"), ("rettler", "レットラー", "ナポレオン")],
)
def test_the_declarer_is_called_by_the_games_own_name(client, demo, game, title, other):
    match = Match.objects.filter(game=game).earliest("pk")
    client.force_login(match.table.scorer)
    ja = _in(client, "ja", f"/matches/{match.pk}/enter/")
    assert f"{title}(立った人)" in ja and other not in ja
    assert f"Declarer ({title})" in _in(client, "en", f"/matches/{match.pk}/enter/")

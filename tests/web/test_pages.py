"""Pages and downloads through Django's test client (the browser tests are in tests/browser)."""

import datetime as dt
import io
import shutil
import subprocess

import pytest
from django.core.management import call_command
from openpyxl import load_workbook

from scoring.models import MatchStanding
from tests.conftest import NAPOLEON_FORM
from tests.markup import squeezed, words
from tournaments.models import Match, Player

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_page_of_the_demo_league_renders(client, demo, lang, django_assert_max_num_queries):
    client.cookies["django_language"] = lang
    urls = ["/", f"/seasons/{demo.pk}/"]
    urls += [f"/nights/{n.pk}/" for n in demo.club_nights.all()]
    urls += [f"/matches/{m.pk}/" for m in Match.objects.all()]
    urls += [f"/players/{p.pk}/" for p in demo.club.players.all()]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
    with django_assert_max_num_queries(20):
        client.get(f"/seasons/{demo.pk}/")


def test_deal_entry_needs_a_signed_in_user(client, demo):
    match = Match.objects.filter(game="napoleon").earliest("pk")
    response = client.get(f"/matches/{match.pk}/enter/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_match_xlsx_opens_with_the_right_totals_stored_as_numbers(client, demo):
    match = Match.objects.filter(game="rettler").earliest("pk")
    response = client.get(f"/matches/{match.pk}/sheet.xlsx")
    assert response.status_code == 200
    sheet = load_workbook(io.BytesIO(response.getvalue())).active
    rows = list(sheet.iter_rows(values_only=True))
    header = next(r for r in rows if r and r[0] == "Deal")
    total = next(r for r in rows if r and r[0] == "Total")
    expected = {s.player.display_name: s.total for s in MatchStanding.objects.filter(match=match)}
    assert {name: total[i] for i, name in enumerate(header) if name in expected} == expected
    assert all(isinstance(v, int) for v in total[1:-1])


def test_the_match_csv_has_one_row_per_deal_and_the_totals(client, demo):
    match = Match.objects.filter(game="comp13").earliest("pk")
    text = client.get(f"/matches/{match.pk}/sheet.csv").getvalue().decode("utf-8-sig")
    lines = text.strip().splitlines()
    assert lines[0].startswith("Deal,") and len(lines) == 1 + match.deals.count() + 3


@pytest.mark.parametrize(
    "url",
    ["/matches/{match}/sheet.pdf", "/seasons/{season}/standings.pdf", "/sheets/blank-rettler.pdf"],
)
def test_pdfs_render_as_a4_pages(client, demo, tmp_path, url):
    if not shutil.which("pdftoppm"):
        pytest.fail("pdftoppm (Debian's poppler-utils) is needed; make test installs it")
    match = Match.objects.filter(game="rettler").earliest("pk")
    response = client.get(url.format(match=match.pk, season=demo.pk))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(response.getvalue())
    subprocess.run(["pdftoppm", "-r", "72", "-png", str(pdf), str(tmp_path / "page")], check=True)
    pages = sorted(tmp_path.glob("page*.png"))
    assert 1 <= len(pages) <= 4  # the standings: every player of eight games, three nights
    for page in pages:
        header = page.read_bytes()[16:24]
        width, height = int.from_bytes(header[:4], "big"), int.from_bytes(header[4:], "big")
        short, long = sorted((width, height))  # a wide sheet is landscape
        assert abs(short - 595) <= 1 and abs(long - 842) <= 1  # A4 (595.3 x 841.9 pt) at 72 dpi


def test_exports_in_japanese_use_japanese_headers(client, demo):
    client.cookies["django_language"] = "ja"
    text = client.get(f"/seasons/{demo.pk}/standings.csv").getvalue().decode("utf-8-sig")
    assert text.splitlines()[0].startswith("ゲーム,順位,プレイヤー,得点")


def test_a_full_play_log_can_be_uploaded_on_the_entry_page(client, demo, django_user_model):
    import json as _json

    from django.core.files.uploadedfile import SimpleUploadedFile

    from tournaments.games import league_game

    match = Match.objects.filter(game="comp13").earliest("pk")
    client.force_login(django_user_model.objects.get(username="scorer"))
    record = league_game("comp13").demo_matches()[0].deals[0]  # a full play log
    upload = SimpleUploadedFile(
        "deal.json", _json.dumps(record).encode(), content_type="application/json"
    )
    before = match.deals.count()
    response = client.post(
        f"/matches/{match.pk}/enter/", {"full_record_file": upload, "number": before + 1}
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    assert match.deals.count() == before + 1
    bad = SimpleUploadedFile("deal.json", b"{not json", content_type="application/json")
    response = client.post(
        f"/matches/{match.pk}/enter/", {"full_record_file": bad, "number": before + 2}
    )
    assert response.status_code == 200 and "Not JSON" in response.content.decode()
    too_long = '{"game": "comp13", "n": ' + "1" * 5000 + "}"  # more digits than Python reads
    for text in (too_long, '{"game": "comp13", "n": NaN}'):
        response = client.post(
            f"/matches/{match.pk}/enter/", {"full_record": text, "number": before + 2}
        )
        assert response.status_code == 200 and "Not JSON" in response.content.decode()
    for text in ("true", "[1, 2]", '"a deal"', "12"):  # JSON, but not a record
        response = client.post(
            f"/matches/{match.pk}/enter/", {"full_record": text, "number": before + 2}
        )
        assert response.status_code == 200 and "one JSON object" in response.content.decode()
    assert match.deals.count() == before + 1


def test_the_health_check_answers_without_the_database(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get("/healthz")
    assert response.status_code == 200 and response.content == b"ok"


def test_the_tables_scorer_deletes_a_deal_on_the_page_as_through_the_api(
    client, scorer, member, make_match
):
    """What the roles table says: the table's scorer corrects and deletes its deals (the
    page as the API); a member does neither."""
    import actions.deals
    from tests.conftest import NAPOLEON_SEATS, napoleon_deal
    from tournaments.models import Deal

    match = make_match("napoleon", NAPOLEON_SEATS)
    deal = actions.deals.enter_deal(match, napoleon_deal(), user=scorer).stored()
    client.force_login(member)
    assert client.post(f"/deals/{deal.pk}/delete/", {"reason": "x"}).status_code == 403
    client.force_login(scorer)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert f'action="/deals/{deal.pk}/delete/"' in page
    client.post(f"/deals/{deal.pk}/delete/", {"reason": "entered at the wrong table"})
    assert Deal.objects.get(pk=deal.pk).deleted_at is not None


def test_the_demo_prints_its_three_accounts_every_time(db):
    import io

    for _ in range(2):
        out = io.StringIO()
        call_command("load_demo", stdout=out)
        text = out.getvalue()
        assert "admin / demo-admin-2026" in text and "scorer / demo-scorer-2026" in text
        assert "member / demo-member-2026" in text


def test_faster_at_the_table(client, scorer, players, table, make_match):
    """Issue 29, 10: the saved deal's scores in seat order; the card fields keep the phone's
    keyboard down (the pad types them); the scorer's home names club, venue and players."""
    match = make_match("napoleon", ["dai", "chika", "ben", "aki"])
    client.force_login(scorer)
    page = client.get(f"/matches/{match.pk}/enter/").content.decode()
    assert 'name="adjutant_cards"' in page
    card_input = page[
        page.index('name="adjutant_cards"') - 200 : page.index('name="adjutant_cards"') + 200
    ]
    assert 'inputmode="none"' in card_input
    form = {
        "declarer": "aki",
        "trump": "hearts",
        "count": "15",
        "adjutant_cards": "SA",
        "adjutants": ["chika"],
        "pc_dai": "1",
        "pc_chika": "7",
        "pc_ben": "3",
        "pc_aki": "9",
        "discarded": "0",
        "key": "k",
    }
    saved = client.post(f"/matches/{match.pk}/enter/", form, follow=True).content.decode()
    assert "Dai -30, Chika +20, Ben -30, Aki +40" in saved
    home = client.get("/").content.decode()
    scorer_home = home[home.index('id="scorer-home"') :]
    assert (
        "Test Club" in scorer_home
        and "Hall" in scorer_home
        and "Dai, Chika, Ben, Aki" in scorer_home
    )


def test_a_second_tap_on_save_lands_on_the_next_deal_without_a_fright(client, scorer, make_match):
    """A second tap on Save, a second after the first, is sent by the next deal's empty
    form: it stores nothing and says so with the deal just saved, not as a list of
    missing fields (which a scorer reads as "deal 2 was lost"); a form with anything in
    it is still checked field by field."""
    match = make_match("napoleon", ["aki", "ben", "chika", "dai"])
    client.force_login(scorer)
    client.cookies["django_language"] = "ja"
    url = f"/matches/{match.pk}/enter/"
    saved = client.post(url, {**NAPOLEON_FORM, "discarded": "0", "key": "k1"})
    assert saved.status_code == 302 and match.deals.count() == 1
    page = client.get(url).content.decode()
    assert "ディール 1 を保存しました" in page
    as_shown = {"number": "2", "key": "k2", "discarded": "0", "count": "", "full_record": ""}
    as_shown |= {"adjutant_cards": "", **{f"pc_{h}": "" for h in ("aki", "ben", "chika")}}
    again = client.post(url, as_shown, follow=True)
    said = squeezed(again.content.decode())
    assert again.redirect_chain == [(url, 302)]
    assert "何も入力されていないので、保存していません。ディール 1 は保存済みです" in said
    assert "このディールは保存されていません" not in said and match.deals.count() == 1
    touched = client.post(url, {**as_shown, "declarer": "aki"})
    assert touched.status_code == 200
    assert "このディールは保存されていません" in touched.content.decode()
    assert match.deals.count() == 1


def test_a_correction_says_what_it_moved_by_the_players_names(client, scorer, make_match):
    """The message after a correction names the season totals it moved by the players'
    names, as the sheet does, not by their handles."""
    match = make_match("napoleon", ["aki", "ben", "chika", "dai"])
    Player.objects.filter(handle="aki").update(name_ja="佐藤 明")
    client.force_login(scorer)
    client.cookies["django_language"] = "ja"
    url = f"/matches/{match.pk}/enter/"
    client.post(url, {**NAPOLEON_FORM, "discarded": "0", "key": "k1"})
    deal = match.deals.get()
    fixed = {**NAPOLEON_FORM, "count": "16", "discarded": "0", "reason": "16 枚でした"}
    said = words(client.post(f"/deals/{deal.pk}/correct/", fixed, follow=True).content.decode())
    line = said[said.index("ディール 1 を訂正しました") :][:200]
    assert "佐藤 明 " in line and "→" in line and "aki" not in line


def test_japanese_through_and_through(client, scorer, make_match):
    """Issue 29, 9: a drawn table is 「卓 1」 to a Japanese reader, the card pad shows cards
    (♠A, ♡10, JK), not codes."""
    match = make_match("comp13", ["aki", "ben", "chika", "dai"], rules={"jokers": 1})
    client.force_login(scorer)
    client.cookies["django_language"] = "ja"
    page = squeezed(client.get(f"/matches/{match.pk}/enter/").content.decode())
    assert "卓 1" in page and "Table 1" not in page
    assert 'data-code="SA"' in page and ">♠A</button>" in page and ">♡10</button>" in page
    assert 'data-code="JK"' in page and ">SA</button>" not in page
    client.cookies["django_language"] = "en"
    assert "Table 1" in client.get(f"/matches/{match.pk}/").content.decode()


def test_the_home_page_offers_to_start_a_club_where_sign_up_is_open(client, settings, db):
    settings.ALLOW_SIGN_UP = True
    assert 'href="/accounts/sign-up/"' in client.get("/").content.decode()
    settings.ALLOW_SIGN_UP = False
    assert 'href="/accounts/sign-up/"' not in client.get("/").content.decode()


def test_a_scorers_home_lists_tonights_tables_first_and_an_old_nights_apart(
    client, scorer, season, make_match
):
    """A table left open on an earlier night (a match nobody ended) is not mixed with
    tonight's: tonight's come first, the old one under "Still open from earlier nights";
    a night dated yesterday is still tonight (it may go on past midnight)."""
    from django.utils import timezone

    from actions import corrections
    from tournaments.models import ClubNight, Table

    today = timezone.localdate()

    def table_on(date: dt.date, name: str) -> Table:
        night = ClubNight.objects.create(season=season, date=date, venue=name)
        return Table.objects.create(club_night=night, name="Table 1", scorer=scorer)

    old = make_match("napoleon", ["aki", "ben", "chika"], at=table_on(dt.date(2026, 10, 3), "Old"))
    late = make_match(
        "napoleon", ["aki", "ben", "dai"], at=table_on(today - dt.timedelta(days=1), "Late")
    )
    now = make_match("napoleon", ["ben", "chika", "dai"], at=table_on(today, "Now"))
    client.force_login(scorer)
    home = client.get("/").content.decode()
    mine = home[
        home.index('id="scorer-home"') : home.index("</section>", home.index("scorer-home"))
    ]
    earlier = mine.index('id="earlier-tables"')
    for match in (now, late):
        assert mine.index(f"/matches/{match.pk}/enter/") < earlier
    assert mine.index(f"/matches/{old.pk}/enter/") > earlier
    assert 'id="none-tonight"' not in mine
    client.cookies["django_language"] = "ja"
    assert "前の例会で終わっていない卓" in client.get("/").content.decode()
    for match in (now, late):  # ended: only the old night's table is left
        corrections.end_match(match, None, "over")
    assert "今夜のあなたの卓はありません。" in client.get("/").content.decode()
    client.cookies["django_language"] = "en"
    assert 'id="more-tables"' not in client.get("/").content.decode()
    for _ in range(10):  # eleven left open in October: ten listed, the rest said
        make_match("napoleon", ["aki", "ben", "chika"], at=old.table)
    home = client.get("/").content.decode()
    assert home.count("/enter/") == 10 and 'id="more-tables"' in home
    assert "Table 1 · Napoleon · enter deal 1" in words(home)

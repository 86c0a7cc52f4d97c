"""Twenty-Two, 1234, Bhabhi and Comrade in the league app: entry form, API, pages, exports, demo."""

import csv
import io
import re

import pytest
from openpyxl import load_workbook

import actions.deals
import engine
from scoring.models import MatchStanding, Rating
from scoring.sheets import match_sheet
from tests.markup import squeezed, words
from tournaments.models import Match, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _season_counts_every_game(request):
    if "season" in request.fixturenames:
        season = request.getfixturevalue("season")
        season.games = sorted(engine.GAMES)
        season.save()


def post_form(client, match, data):
    return client.post(f"/matches/{match.pk}/enter/", data)


def test_twenty_two_by_the_entry_form_until_a_player_is_out(
    client, scorer, make_match, django_capture_on_commit_callbacks
):
    match = make_match("twentytwo", ["aki", "ben", "chika"])
    client.force_login(scorer)
    page = client.get(f"/matches/{match.pk}/enter/").content.decode()
    assert 'name="last_aki"' in page and 'name="dealer"' in page
    lasts = [("chika", "SA", "H2", "D3"), ("aki", "HA", "H3", "D4")]  # aki: 11 + 11 = 22, out
    for dealer, a, b, c in lasts:
        with django_capture_on_commit_callbacks(execute=True):
            response = post_form(
                client, match, {"dealer": dealer, "last_aki": a, "last_ben": b, "last_chika": c}
            )
        assert response.status_code == 302, response.content.decode()[:2000]
    page = client.get(f"/matches/{match.pk}/enter/").content.decode()
    assert 'name="last_aki"' not in page and 'name="last_ben"' in page  # aki is out
    deal = match.deals.order_by("number").last()
    assert deal.record["hand_size"] == 11 and deal.record["players"] == ["aki", "ben", "chika"]
    standings = {
        s.player.handle: (s.total, s.rank) for s in MatchStanding.objects.filter(match=match)
    }
    assert standings["aki"] == (-22, 3)
    # Out, aki is dealt no more: the sheet leaves their cell blank, not "+0".
    third = post_form(client, match, {"dealer": "ben", "last_ben": "S5", "last_chika": "D6"})
    assert third.status_code == 302, third.content.decode()[:2000]
    sheet = match_sheet(match)
    assert sheet.rows[2].scores[0] is None and None not in sheet.rows[1].scores
    page = squeezed(client.get(f"/matches/{match.pk}/").content.decode())
    assert '<td class="num muted" title="not dealt in">–</td>' in page
    rows = list(
        csv.reader(
            io.StringIO(client.get(f"/matches/{match.pk}/sheet.csv").getvalue().decode("utf-8-sig"))
        )
    )
    assert rows[3][:2] == ["3", ""] and rows[3][2] != ""


def test_twenty_two_refuses_a_wrong_hand_size_and_names_the_field(
    client, scorer, make_match, scorer_api
):
    match = make_match("twentytwo", ["aki", "ben", "chika"])
    bad = {
        "record": {
            "dealer": "chika",
            "hand_size": 9,
            "last_trick": {"aki": "SA", "ben": "H2", "chika": "D3"},
        }
    }
    response = scorer_api.post(f"/api/matches/{match.pk}/deals/", bad, format="json")
    assert response.status_code == 409, response.json()
    assert response.json()["errors"][0]["code"] == "wrong_hand_size"
    assert match.deals.count() == 0
    client.force_login(scorer)
    response = post_form(
        client, match, {"dealer": "chika", "last_aki": "SA", "last_ben": "XX", "last_chika": "D3"}
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "not a card" in page and 'value="XX"' in page
    assert "invalid_card" not in page  # the scorer reads words, not codes


def test_an_eliminated_players_card_is_refused_by_the_api(
    make_match, scorer_api, django_capture_on_commit_callbacks
):
    match = make_match("twentytwo", ["aki", "ben", "chika"])
    for last in (
        {"aki": "SA", "ben": "H2", "chika": "D3"},
        {"aki": "HA", "ben": "H3", "chika": "D4"},
    ):
        with django_capture_on_commit_callbacks(execute=True):
            assert (
                scorer_api.post(
                    f"/api/matches/{match.pk}/deals/",
                    {
                        "record": {
                            "last_trick": last,
                            "dealer": "chika" if "S" in last["aki"] else "aki",
                        }
                    },
                    format="json",
                ).status_code
                == 201
            )
    response = scorer_api.post(
        f"/api/matches/{match.pk}/deals/",
        {"record": {"dealer": "ben", "last_trick": {"aki": "S2", "ben": "H5", "chika": "D6"}}},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["path"] == "last_trick.aki"


def test_1234_form_records_the_drop_out_order_and_scores_the_chips(
    client, scorer, make_match, django_capture_on_commit_callbacks
):
    match = make_match("1234", ["aki", "ben", "chika"], rules={"scoring": "chips"}, target=2)
    client.force_login(scorer)
    data = {
        "dealer": "chika",
        "winner": "ben",
        "drop_chika": "1",
        "drop_aki": "2",
        "left_aki": "S4 C8",
        "left_ben": "HJ",
        "left_chika": "S6 HQ",
    }
    with django_capture_on_commit_callbacks(execute=True):
        assert post_form(client, match, data).status_code == 302
    record = match.deals.get().record
    assert record["dropped"] == ["chika", "aki"]
    scores = {s.player.handle: s.score for s in match.deals.get().scores.all()}
    assert scores == {"aki": -12, "ben": 30, "chika": -18}
    page = client.get(f"/matches/{match.pk}/enter/").content.decode()
    assert re.search(
        r'<input type="radio" name="dealer" value="ben"[^>]*checked', page
    )  # the winner deals next


def test_bhabhi_and_comrade_forms(client, scorer, make_match, django_capture_on_commit_callbacks):
    bhabhi = make_match("bhabhi", ["aki", "ben", "chika"])
    client.force_login(scorer)
    with django_capture_on_commit_callbacks(execute=True):
        assert post_form(client, bhabhi, {"bhabhi": "ben"}).status_code == 302
    assert {s.player.handle: s.total for s in MatchStanding.objects.filter(match=bhabhi)}[
        "ben"
    ] == -1
    comrade = make_match("comrade", ["aki", "ben", "chika"])
    data = {
        "dealer": "aki",
        "bids_aki": "S4 C1",
        "bids_ben": "H4",
        "bids_chika": "D3",
        "won_aki": "S4 C1",
        "won_ben": "H4",
        "won_chika": "D3",
    }
    with django_capture_on_commit_callbacks(execute=True):
        assert post_form(client, comrade, data).status_code == 302
    assert comrade.deals.get().record["bids"]["aki"] == {"spades": 4, "clubs": 1}
    page = client.get(f"/matches/{comrade.pk}/enter/").content.decode()
    assert re.search(
        r'<input type="radio" name="dealer" value="ben"[^>]*checked', page
    )  # the deal goes round
    response = post_form(client, comrade, {**data, "dealer": "ben", "bids_chika": "X3"})
    assert response.status_code == 200 and "is not one of spades" in response.content.decode()
    response = post_form(client, comrade, data)  # aki dealt the first game
    assert response.status_code == 200 and "the deal goes round" in response.content.decode()
    assert comrade.deals.count() == 1
    assert not Rating.objects.filter(game="comrade").exists()  # cooperative: not rated


def test_the_scorer_finds_how_to_end_a_match_with_no_end_of_its_own(client, scorer, make_match):
    """Bhabhi plays until the table stops: from the entry page the scorer reaches the
    match's page, where they end it (a walk found no way there but the browser's bar)."""
    match = make_match("bhabhi", ["aki", "ben", "chika"])
    client.force_login(scorer)
    assert post_form(client, match, {"bhabhi": "ben"}).status_code == 302
    entry = client.get(f"/matches/{match.pk}/enter/").content.decode()
    link = re.search(r'<p class="links" id="match-page">\s*<a href="([^"]+)">([^<]+)</a>', entry)
    assert link and link.group(1) == f"/matches/{match.pk}/" and "end the match" in link.group(2)
    page = client.get(link.group(1)).content.decode()
    assert 'id="end-match"' in page
    client.post(f"/matches/{match.pk}/end/", {"reason": "the club closes"})
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    # Ended by mistake: the scorer reads who can reopen it (no button of their own).
    ended = words(client.get(f"/matches/{match.pk}/").content.decode())
    assert "a league administrator of the club can reopen it" in ended


def test_the_demo_league_has_a_match_of_each_rulebook_game(client, demo):
    for game in ("twentytwo", "1234", "bhabhi", "comrade"):
        match = Match.objects.filter(game=game).earliest("pk")
        assert match.status == Match.Status.FINISHED, game
        assert client.get(f"/matches/{match.pk}/").status_code == 200
        text = client.get(f"/matches/{match.pk}/sheet.csv").getvalue().decode("utf-8-sig")
        rows = list(csv.reader(io.StringIO(text)))
        assert rows[0][0] == "Deal" and len(rows) >= 1 + match.deals.count()
        sheet = load_workbook(
            io.BytesIO(client.get(f"/matches/{match.pk}/sheet.xlsx").getvalue())
        ).active
        assert sheet.max_row > match.deals.count()
        assert client.get(f"/matches/{match.pk}/sheet.pdf")["Content-Type"] == "application/pdf"
        assert client.get(f"/sheets/blank-{game}.pdf").status_code == 200
    twentytwo = Match.objects.filter(game="twentytwo").earliest("pk")
    first = twentytwo.deals.order_by("number").first().record
    assert "tricks" in first  # the first deal is a full play log
    out = [s for s in MatchStanding.objects.filter(match=twentytwo) if s.rank > 1]
    assert len(out) == 3
    together = Match.objects.filter(game="comrade").earliest("pk").pk
    comrade = client.get(f"/matches/{together}/").content.decode()
    assert "1 of 3 games won: Bad" in comrade
    # Cooperative: a title, no winner (not "Winner: ·" with nobody after it).
    assert "Winner" not in words(comrade)
    title = load_workbook(io.BytesIO(client.get(f"/matches/{together}/sheet.xlsx").getvalue()))
    assert not any(
        "Winner" in str(c) for row in title.active.iter_rows(values_only=True) for c in row
    )
    assert "Out: " in client.get(f"/matches/{twentytwo.pk}/").content.decode()
    xlsx = client.get(
        f"/matches/{Match.objects.filter(game='1234').earliest('pk').pk}/sheet.xlsx"
    ).getvalue()
    rows = load_workbook(io.BytesIO(xlsx)).active.iter_rows(values_only=True)
    assert any(str(c).startswith("Chips: ") for row in rows for c in row if c)
    bhabhis = {
        engine.check(d.record).details["bhabhi"]
        for d in Match.objects.filter(game="bhabhi").earliest("pk").deals.all()
    }
    assert len(bhabhis) == 3
    response = client.get(f"/seasons/{demo.pk}/")
    assert "Bhabhi" in response.content.decode()
    seated = Seat.objects.filter(match__game="twentytwo").values("player").distinct().count()
    assert Rating.objects.filter(game="twentytwo", scope="club").count() == seated


def test_the_entry_page_reads_the_next_deal_from_the_kept_progress(
    client, scorer, make_match, monkeypatch
):
    """A GET of a Twenty-Two entry page replays the match once, for its score sheet: who
    plays the next deal and who deals it come from the action layer's kept progress
    (``actions.deals.next_deal``), not from a replay of their own."""
    match = make_match("twentytwo", ["aki", "ben", "chika"])
    for dealer, a, b, c in [("chika", "SA", "H2", "D3"), ("aki", "HA", "H3", "D4")]:
        last = {"aki": a, "ben": b, "chika": c}
        actions.deals.enter_deal(
            match, {"dealer": dealer, "last_trick": last}, user=scorer
        ).stored()
    match.refresh_from_db()
    assert match.state  # the kept progress of the two deals
    replays = []
    check_match = engine.check_match
    monkeypatch.setattr(engine, "check_match", lambda r: replays.append(r) or check_match(r))
    client.force_login(scorer)
    page = client.get(f"/matches/{match.pk}/enter/").content.decode()
    assert 'name="last_aki"' not in page and 'name="last_ben"' in page  # aki is out
    assert len(replays) == 1, "the score sheet replays the match; nothing else does"

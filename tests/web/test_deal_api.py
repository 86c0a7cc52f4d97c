"""Entering deals through the API: the engine decides, nothing invalid is stored."""

import json

import pytest

from scoring.models import MatchStanding, SeasonStanding
from tests.conftest import NAPOLEON_SEATS, napoleon_deal
from tournaments.models import Deal, DealScore, Match

pytestmark = pytest.mark.django_db


def post_deal(client, match, record, **extra):
    return client.post(
        f"/api/matches/{match.pk}/deals/", {"record": record, **extra}, format="json"
    )


def test_a_valid_deal_is_stored_with_the_engines_scores(scorer_api, make_match, scorer):
    match = make_match("napoleon", NAPOLEON_SEATS)
    response = post_deal(scorer_api, match, napoleon_deal())
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["number"] == 1
    scores = {s["handle"]: s["score"] for s in body["scores"]}
    # 4 players, 15 declared, the army took 16: the x1 win row of C.2 (+40/+20/-30).
    assert scores == {"aki": 40, "ben": -30, "chika": 20, "dai": -30}
    deal = Deal.objects.get(match=match)
    assert deal.entered_by == scorer
    assert deal.record["players"] == NAPOLEON_SEATS and deal.record["game"] == "napoleon"
    assert sorted(
        DealScore.objects.filter(deal=deal, won=True).values_list("player__handle", flat=True)
    ) == ["aki", "chika"]


def test_each_answer_has_its_own_deal_and_fields_worked_out_once(scorer_api, make_match):
    """The deal's serializer works its fields out from the model once: every answer still
    says its own deal, and no serializer shares a field with another."""
    from web.api.match_serializers import DealSerializer

    match = make_match("napoleon", NAPOLEON_SEATS)
    first = post_deal(scorer_api, match, napoleon_deal()).json()
    second = post_deal(scorer_api, match, napoleon_deal(declarer="ben")).json()
    assert (first["number"], second["number"]) == (1, 2)
    assert (
        set(first)
        == set(second)
        == {"id", "match", "number", "record", "scores", "entered_at", "confirmed_at", "deleted_at"}
    )
    assert first["record"]["declaration"]["player"] == "aki"
    assert second["record"]["declaration"]["player"] == "ben"
    one, other = DealSerializer(), DealSerializer()
    assert all(one.fields[name] is not other.fields[name] for name in one.fields)
    assert one.fields["number"].parent is one and other.fields["number"].parent is other


def test_an_illegal_card_is_refused_with_400_naming_it_and_nothing_is_stored(
    scorer_api, make_match
):
    match = make_match("napoleon", NAPOLEON_SEATS)
    record = {**napoleon_deal(), "adjutant_cards": ["S1"]}
    response = post_deal(scorer_api, match, record)
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert [(e["code"], e["path"]) for e in errors] == [("invalid_card", "adjutant_cards[0]")]
    assert "'S1'" in errors[0]["message"]
    assert not Deal.objects.exists() and not DealScore.objects.exists()


def test_a_player_not_at_the_table_is_refused_with_400_naming_them(scorer_api, make_match):
    match = make_match("napoleon", NAPOLEON_SEATS)
    record = napoleon_deal(adjutant="emi")  # emi is a club member, not seated here
    response = post_deal(scorer_api, match, record)
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert ("unknown_player", "adjutants[0]") in [(e["code"], e["path"]) for e in errors]
    assert any("'emi'" in e["message"] for e in errors)
    assert not Deal.objects.exists()


def test_a_record_with_other_players_than_the_seats_is_refused(scorer_api, make_match):
    match = make_match("napoleon", NAPOLEON_SEATS)
    record = {**napoleon_deal(), "players": ["aki", "ben", "chika", "emi"]}
    response = post_deal(scorer_api, match, record)
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "players_mismatch"
    said = scorer_api.post(
        f"/api/matches/{match.pk}/deals/",
        {"record": {**record, "game": "packing"}},
        format="json",
        HTTP_ACCEPT_LANGUAGE="ja",
    ).json()["errors"]
    assert [e["code"] for e in said] == ["game_mismatch", "players_mismatch"]
    assert "ナポレオン" in said[0]["message"] and "packing" in said[0]["message"]
    assert "aki, ben, chika, dai" in said[1]["message"] and "ハンドル" in said[1]["message"]
    assert "[" not in said[1]["message"]  # the players, not a Python list


def test_every_engine_error_is_returned_at_once(scorer_api, make_match):
    match = make_match("napoleon", NAPOLEON_SEATS)
    record = napoleon_deal(count=30, points={"aki": 9, "ben": 3, "chika": 7, "dai": 9})
    errors = post_deal(scorer_api, match, record).json()["errors"]
    assert {e["code"] for e in errors} == {"count_out_of_range", "point_cards_total"}
    assert all(set(e) == {"code", "path", "message", "params"} for e in errors)


def test_a_deal_cannot_be_added_to_a_finished_match(scorer_api, make_match):
    comp = {
        "captured": {"aki": ["SK"], "ben": [], "chika": [], "dai": []},
        "hand_faces": {"aki": [], "ben": [], "chika": [], "dai": []},
    }
    match = make_match("comp13", NAPOLEON_SEATS, target=1)
    assert post_deal(scorer_api, match, comp).status_code == 201
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.finished_at is not None
    response = post_deal(scorer_api, match, comp)
    assert response.status_code == 409
    assert response.json()["errors"][0]["code"] == "match_finished"
    assert Deal.objects.filter(match=match).count() == 1


def test_a_retried_submit_with_the_same_number_gets_409_and_the_existing_deal(
    scorer_api, make_match
):
    match = make_match("napoleon", NAPOLEON_SEATS)
    assert post_deal(scorer_api, match, napoleon_deal(), number=1).status_code == 201
    again = post_deal(scorer_api, match, napoleon_deal(), number=1)
    assert again.status_code == 409
    assert again.json()["errors"][0]["code"] == "deal_exists"
    assert again.json()["existing"]["number"] == 1
    skipped = post_deal(scorer_api, match, napoleon_deal(), number=5)
    assert skipped.status_code == 400 and skipped.json()["errors"][0]["code"] == "wrong_number"
    assert Deal.objects.filter(match=match).count() == 1


def test_packing_teams_come_from_the_seats(scorer_api, make_match):
    match = make_match("packing", NAPOLEON_SEATS)
    record = {"packs": {"aki": [["HA", "H5"]], "ben": [], "chika": [], "dai": [["SK", "S2"]]}}
    response = post_deal(scorer_api, match, record)
    assert response.status_code == 201, response.json()
    scores = {s["handle"]: s["score"] for s in response.json()["scores"]}
    assert scores == {"aki": 25, "chika": 25, "ben": 15, "dai": 15}


def test_anonymous_users_cannot_enter_deals(api, make_match):
    match = make_match("napoleon", NAPOLEON_SEATS)
    response = post_deal(api, match, napoleon_deal())
    assert response.status_code in (401, 403)
    assert response.json()["errors"][0]["code"] in ("not_authenticated", "permission_denied")
    assert not Deal.objects.exists()


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ("{not json", "parse_error"),
        ('{"number": 1}', "required"),
        ('{"record": [1, 2]}', "wrong_type"),
        ('{"record": {"game": "napoleon"}, "number": "seven"}', "invalid"),
    ],
)
def test_malformed_requests_get_400_with_the_error_shape(scorer_api, make_match, body, code):
    match = make_match("napoleon", NAPOLEON_SEATS)
    response = scorer_api.post(
        f"/api/matches/{match.pk}/deals/", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert code in [e["code"] for e in response.json()["errors"]]
    assert not Deal.objects.exists()


def test_deals_of_a_match_are_listed_in_order(
    scorer_api, make_match, django_assert_max_num_queries
):
    match = make_match("napoleon", NAPOLEON_SEATS)
    for declarer in ("aki", "ben", "dai"):
        deal = napoleon_deal(declarer=declarer, adjutant="chika")
        assert post_deal(scorer_api, match, deal).status_code == 201
    with django_assert_max_num_queries(6):
        listed = scorer_api.get(f"/api/matches/{match.pk}/deals/").json()
    assert [d["number"] for d in listed] == [1, 2, 3]
    by_filter = scorer_api.get(f"/api/deals/?match={match.pk}").json()
    assert by_filter["count"] == 3


def test_standings_follow_the_deals(
    scorer_api, make_match, season, django_capture_on_commit_callbacks
):
    match = make_match("napoleon", NAPOLEON_SEATS)
    with django_capture_on_commit_callbacks(execute=True):
        post_deal(scorer_api, match, napoleon_deal())
        post_deal(
            scorer_api,
            match,
            napoleon_deal(
                declarer="ben",
                adjutant=None,
                points={"aki": 2, "ben": 12, "chika": 3, "dai": 3},
                count=14,
            ),
        )
    rows = {r.player.handle: r for r in MatchStanding.objects.filter(match=match)}
    # deal 1: +40 -30 +20 -30; deal 2: ben alone declared 14, took 12 (x1 loss): -60, +20 each.
    assert {h: r.total for h, r in rows.items()} == {"aki": 60, "ben": -90, "chika": 40, "dai": -10}
    assert rows["aki"].rank == 1 and rows["ben"].rank == 4
    season_rows = SeasonStanding.objects.filter(season=season, game="napoleon")
    assert {r.player.handle: (r.total, r.deals, r.deals_won) for r in season_rows} == {
        "aki": (60, 2, 2),
        "ben": (-90, 2, 0),
        "chika": (40, 2, 2),
        "dai": (-10, 2, 1),
    }
    api_rows = scorer_api.get(f"/api/standings/?match={match.pk}").json()["results"]
    assert [r["handle"] for r in api_rows] == ["aki", "chika", "dai", "ben"]
    season_api = scorer_api.get(f"/api/standings/?season={season.pk}&game=napoleon").json()
    assert season_api["count"] == 4 and season_api["results"][0]["handle"] == "aki"


def test_the_standings_endpoint_needs_a_match_or_a_season(api):
    assert api.get("/api/standings/").status_code == 400
    assert api.get("/api/standings/?match=x").status_code == 400


def test_the_request_body_limit_refuses_huge_payloads(scorer_api, make_match):
    match = make_match("napoleon", NAPOLEON_SEATS)
    huge = json.dumps({"record": {**napoleon_deal(), "padding": "x" * (2 * 1024 * 1024)}})
    response = scorer_api.post(
        f"/api/matches/{match.pk}/deals/", huge, content_type="application/json"
    )
    assert response.status_code in (400, 413)
    assert not Deal.objects.exists()


def test_cards_typed_with_suit_symbols_are_stored_as_their_codes(
    scorer_api, make_match, scorer, client, league_admin
):
    """Issue 24, 8: the contract's promise, through the API, a correction and the page."""
    match = make_match("comp13", NAPOLEON_SEATS, rules={"jokers": 1})
    record = {
        "captured": {
            "aki": ["♠K", "hk", "♢K", "♣k", "♠A"],
            "ben": ["♡A", "d10", "JK"],
            "chika": ["sq", "♥Q"],
            "dai": ["CA", "S10"],
        },
        "hand_faces": {"aki": [], "ben": [], "chika": ["♣Q"], "dai": ["dj"]},
    }
    response = post_deal(scorer_api, match, record, number=1)
    assert response.status_code == 201, response.json()
    stored = Deal.objects.get(match=match).record
    assert stored["captured"]["aki"] == ["SK", "HK", "DK", "CK", "SA"]
    assert stored["hand_faces"] == {"aki": [], "ben": [], "chika": ["CQ"], "dai": ["DJ"]}
    assert response.json()["record"]["captured"]["ben"] == ["HA", "D10", "JK"]
    again = post_deal(scorer_api, match, record, number=1)
    assert again.status_code == 409  # deal 1 exists: numbered retries are refused, not stored

    deal = Deal.objects.get(match=match)
    corrected = scorer_api.put(
        f"/api/deals/{deal.pk}/",
        {
            "record": {**record, "hand_faces": {**record["hand_faces"], "dai": ["♢J"]}},
            "reason": "typo",
        },
        format="json",
    )
    assert corrected.status_code == 200, corrected.json()
    assert Deal.objects.get(pk=deal.pk).record["hand_faces"]["dai"] == ["DJ"]

    napoleon = make_match("napoleon", NAPOLEON_SEATS)
    client.force_login(league_admin)
    form = {
        "declarer": "aki",
        "trump": "hearts",
        "count": "15",
        "adjutant_cards": "♠a",
        "adjutants": ["chika"],
        "pc_aki": "9",
        "pc_ben": "3",
        "pc_chika": "7",
        "pc_dai": "1",
        "discarded": "0",
        "key": "k-1",
    }
    page = client.post(f"/matches/{napoleon.pk}/enter/", form)
    assert page.status_code == 302, page.content.decode()[:3000]
    assert Deal.objects.get(match=napoleon).record["adjutant_cards"] == ["SA"]


def test_another_clubs_scorer_finds_no_private_match_and_enters_nothing_in_a_public_one(
    make_match, django_user_model
):
    """The match of ``deals/`` is found by the reader's visibility alone (the action takes
    no list filters): another club's scorer gets 404 for a private season's match, whatever
    filters the address carries, and may read a public season's deals but not add one."""
    from tests.conftest import client_of, member_of
    from tournaments.models import Club, Membership

    match = make_match("napoleon", NAPOLEON_SEATS)
    rival_club = Club.objects.create(name="Rival Club", slug="rival")
    rival = client_of(member_of(rival_club, django_user_model, "rival", Membership.Role.SCORER))
    season = match.table.club_night.season
    season.public = False
    season.save()
    for address in (
        f"/api/matches/{match.pk}/deals/",
        f"/api/matches/{match.pk}/deals/?season={season.pk}&table={match.table_id}",
    ):
        assert rival.get(address).status_code == 404
        posted = rival.post(address, {"record": napoleon_deal()}, format="json")
        assert posted.status_code == 404
    season.public = True
    season.save()
    assert rival.get(f"/api/matches/{match.pk}/deals/").status_code == 200
    assert post_deal(rival, match, napoleon_deal()).status_code == 403
    assert not Deal.objects.exists()


def test_a_scorer_asking_for_a_deals_history_is_told_who_reads_it(scorer_api, make_match):
    """The refusal named deleting and restoring, not what was asked."""
    match = make_match("napoleon", NAPOLEON_SEATS)
    deal = post_deal(scorer_api, match, napoleon_deal()).json()
    refused = scorer_api.get(f"/api/deals/{deal['id']}/history/", HTTP_ACCEPT_LANGUAGE="ja")
    assert refused.status_code == 403
    assert "履歴" in refused.json()["errors"][0]["message"]

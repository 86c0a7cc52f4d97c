"""Hostile and broken input: always a 4xx with a clear message, never a 500, never a partial write."""

import json
import random
import re
from typing import Any

import pytest
from django_filters import NumberFilter

from tests.conftest import HANDLES, NAPOLEON_SEATS, napoleon_deal
from tournaments.models import Deal, DealScore

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(make_match):
    return make_match("napoleon", NAPOLEON_SEATS)


def post(client, match, body):
    return client.post(f"/api/matches/{match.pk}/deals/", body, content_type="application/json")


@pytest.mark.parametrize(
    "body",
    [
        "[" * 100_000 + "]" * 100_000,  # deeper than the parser's recursion
        '{"record": {"a": ' + "[" * 40 + "1" + "]" * 40 + "}}",  # deep but parseable
        "{not json",
        "",
        "null",
        "[]",
        '{"record": "napoleon"}',
        '{"record": {"game": "chess"}}',
        '{"record": {"declaration": 5}}',
        '{"record": {}, "number": -1}',
        '{"record": {}, "number": 1e309}',
        # JSON that Python reads and nothing else agrees on: a lone surrogate (no character;
        # it was a 500 where the record was stored), NaN, a key given twice.
        json.dumps({"record": {**napoleon_deal(), "rules": {"\ud800": 1}}}),
        json.dumps({"record": {**napoleon_deal(), "note": "x\udfff"}}),
        json.dumps({"record": {**napoleon_deal(), "point_cards": {"aki": float("nan")}}}),
        '{"record": '  # a whole deal, its declarer given twice
        + json.dumps(napoleon_deal())[:-1]
        + ', "declaration": {"player": "ben", "count": 15, "trump": "hearts"}}}',
        json.dumps({"record": {**napoleon_deal(), "adjutant_cards": ["♠Z"]}}),
        json.dumps({"record": {**napoleon_deal(), "point_cards": {"aki": "nine"}}}),
        json.dumps(
            {
                "record": {
                    **napoleon_deal(),
                    "declaration": {"player": ["aki"], "count": 15, "trump": "hearts"},
                }
            }
        ),
    ],
)
def test_broken_bodies_get_a_4xx_with_the_error_shape_and_store_nothing(scorer_api, match, body):
    response = post(scorer_api, match, body)
    assert 400 <= response.status_code < 500, (response.status_code, response.content[:300])
    errors = response.json()["errors"]
    assert errors and all(e["message"] for e in errors)
    assert not Deal.objects.exists() and not DealScore.objects.exists()


def test_a_body_of_many_mistakes_is_answered_with_the_first_hundred(scorer_api, match):
    """A hundred thousand wrong cards (500 KB) were answered one by one, 15 MB: the answer
    lists the first hundred and how many more, in the reader's language."""
    from tournaments.messages import ANSWERED

    body = json.dumps({"record": {**napoleon_deal(), "adjutant_cards": ["XX"] * 100_000}})
    response = scorer_api.post(
        f"/api/matches/{match.pk}/deals/",
        body,
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    errors = response.json()["errors"]
    assert response.status_code == 400 and len(response.content) < 100_000
    assert len(errors) == ANSWERED + 1 and errors[-1]["code"] == "more"
    assert errors[-1]["params"]["n"] > 90_000 and "ほかに" in errors[-1]["message"]
    assert not Deal.objects.exists()


def test_a_body_over_one_megabyte_is_refused(scorer_api, match):
    body = json.dumps({"record": napoleon_deal(), "pad": "x" * (1024 * 1024 + 10)})
    response = post(scorer_api, match, body)
    assert response.status_code in (400, 413)
    assert not Deal.objects.exists()


def test_unknown_matches_get_404(scorer_api):
    response = scorer_api.post(
        "/api/matches/999999/deals/", {"record": napoleon_deal()}, format="json"
    )
    assert response.status_code == 404 and response.json()["errors"][0]["code"] == "not_found"


@pytest.mark.parametrize(
    "how", [{"HTTP_COOKIE": "sessionid=ab\x00cd"}, {"QUERY_STRING": "club=1%00"}]
)
def test_nul_characters_in_cookies_or_query_get_400_not_a_database_error(client, how):
    response = client.get("/api/clubs/", **how)
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "nul_character"


ENTRY_VALUES = ["", "x", "-1", "0", "²", "１２", "99999999999999999999", "1e309", "JK", "SA",
                "S2 S3", "♠A", "zzz", "a" * 2000, "9" * 5000, "[]", "true", "on", "13", "hearts"]  # fmt: skip
SIZES = {"napoleon": 4, "rettler": 6, "comp13": 4, "packing": 4, "twentytwo": 4, "1234": 4,
         "bhabhi": 4, "comrade": 5}  # fmt: skip


@pytest.mark.parametrize("game", sorted(SIZES))
def test_the_entry_page_answers_any_posted_values_in_words(
    client, scorer, season, make_match, game
):
    """Seeded: each field of the game's entry page posted with what a phone (or a page changed
    by hand) can send, one to three values each; the page answers with its form or a
    saved deal, never a server error, and stores a deal only when it says so."""
    season.games = sorted(SIZES)
    season.save()
    match = make_match(game, HANDLES[: SIZES[game]])
    client.force_login(scorer)
    page = client.get(f"/matches/{match.pk}/enter/").content.decode()
    offered: dict[str, list[str]] = {}
    for name, value in re.findall(r'name="([^"]+)"[^>]*value="([^"]*)"', page):
        offered.setdefault(name, []).append(value)
    names = sorted(set(re.findall(r'name="([^"]+)"', page)) - {"csrfmiddlewaretoken", "key"})
    rng = random.Random(game)
    for attempt in range(40):
        data = {
            n: [
                rng.choice(offered.get(n, []) + ENTRY_VALUES)
                for _ in range(rng.choice((1, 1, 2, 3)))
            ]
            for n in names
            if rng.random() < 0.6
        }
        before = Deal.objects.filter(match=match).count()
        response = client.post(
            f"/matches/{match.pk}/enter/",
            {**data, "key": f"k{attempt}"},
            HTTP_ACCEPT=rng.choice(("text/html", "application/json")),
        )
        assert response.status_code < 500, (data, response.status_code)
        stored = Deal.objects.filter(match=match).count() - before
        refused = response.status_code >= 400  # a refusal stores nothing
        assert stored in ((0,) if refused else (0, 1)), data


def list_filters() -> list[tuple[str, str, Any]]:
    """Every list filter of the API's routes, as (route, name, filter)."""
    from config.urls import router
    from web.api.filters import ClubScopedFilterSet

    found = []
    for prefix, viewset, _basename in router.registry:
        filterset = getattr(viewset, "filterset_class", None)
        if filterset is None:
            fields = getattr(viewset, "filterset_fields", None)
            if not fields:
                continue
            model = viewset.serializer_class.Meta.model
            filterset = type(
                "F",
                (ClubScopedFilterSet,),
                {"Meta": type("Meta", (), {"model": model, "fields": fields})},
            )
        found += [(prefix, name, f) for name, f in filterset.base_filters.items()]
    return found


@pytest.mark.parametrize(
    "value", ["99999999999999999999", "-99999999999999999999", "1.5", "1e309", "x", "-1"]
)
def test_any_value_of_any_list_filter_answers_200_or_a_400_that_names_it(scorer_api, value):
    """``/api/matches/?season=99999999999999999999`` was a 500 on SQLite (the demo's): each
    filter takes what a stranger types, and a value it cannot read is a 400 naming it,
    in the reader's language."""
    routes = list_filters()
    numbers = {(prefix, name) for prefix, name, f in routes if isinstance(f, NumberFilter)}
    assert {("matches", "season"), ("deals", "number")} <= numbers
    for prefix, name, _ in routes:
        answer = scorer_api.get(f"/api/{prefix}/", {name: value}, HTTP_ACCEPT_LANGUAGE="ja")
        assert answer.status_code in (200, 400), (prefix, name, answer.status_code)
        if (prefix, name) in numbers and value != "-1":  # not a whole number of 64 bits
            assert answer.status_code == 400, (prefix, name, answer.status_code)
        if answer.status_code == 400:
            (error,) = answer.json()["errors"]
            assert error["path"] == name and re.search(r"[ぁ-んァ-ン一-龯]", error["message"]), (
                error
            )


def test_an_unknown_match_is_not_found_in_the_readers_language(scorer_api):
    """Django's own words ("No Match matches the given query.") are English and name the
    model: the answer says "not found" in the reader's language."""
    answer = scorer_api.post(
        "/api/matches/999999/deals/",
        {"record": napoleon_deal()},
        format="json",
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert answer.status_code == 404
    assert answer.json()["errors"] == [
        {"code": "not_found", "path": "", "message": "見つかりません"}
    ]

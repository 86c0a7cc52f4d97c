"""The API's own words in the reader's language (``Accept-Language``), as the pages say
them: a refusal says a sentence of ``web.refusals`` (the one module of refusals, which the
pages share) or the action's own; a bad query, body or upload says what is wrong and
where; a season the action refuses is refused alike by the page and the API."""

from __future__ import annotations

import ast
import datetime as dt
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.utils import translation

import actions.deals
from actions import seasons
from tests.conftest import NAPOLEON_SEATS, client_of, member_of, napoleon_deal
from tests.web.test_messages import english_words
from tournaments.models import Membership, Season
from web import refusals

ROOT = Path(__file__).resolve().parents[2]
SAID_BY = ("gettext", "gettext_lazy", "_")


def _said(path: Path) -> set[str]:
    """The texts ``path`` marks for translation."""
    return {
        node.args[0].value
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", "") in SAID_BY
        and node.args
        and isinstance(node.args[0], ast.Constant)
    }


def _bare(expr: ast.expr) -> bool:
    """A message written as a plain string: said in English to every reader."""
    if isinstance(expr, ast.Dict):
        return any(_bare(value) for value in expr.values)
    if isinstance(expr, ast.DictComp):
        return _bare(expr.value)
    return isinstance(expr, ast.JoinedStr) or (
        isinstance(expr, ast.Constant) and isinstance(expr.value, str)
    )


def test_every_word_the_api_says_is_translated_into_japanese():
    sources = [*sorted((ROOT / "web" / "api").glob("*.py")), ROOT / "web" / "refusals.py"]
    said = set().union(*map(_said, sources))
    assert len(said) > 20
    with translation.override("ja"):
        wrong = [(t, translation.gettext(t)) for t in sorted(said) if english_words(t)]
        wrong = [(t, ja) for t, ja in wrong if ja == t or english_words(ja)]
    assert wrong == []


def _messages(node: ast.AST) -> list[ast.expr]:
    """What ``node`` says if it raises an error or refuses (``deny(allowed, refusal)``)."""
    if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
        return node.exc.args
    if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "deny":
        return node.args[1:]
    return []


def test_the_api_raises_no_message_written_in_english_only():
    bare = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in sorted((ROOT / "web" / "api").glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if any(_bare(message) for message in _messages(node))
    ]
    assert bare == []


def test_a_refusal_is_said_in_one_module():
    """``ADMINS_ONLY`` and its kin are defined once, in ``web.refusals``."""
    defined = sorted(
        f"{path.relative_to(ROOT)}:{target.id}"
        for path in sorted((ROOT / "web").rglob("*.py"))
        for node in ast.parse(path.read_text(encoding="utf-8")).body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
        and (target.id.endswith("_ONLY") or target.id.startswith("NOT_"))
    )
    assert defined and all(d.startswith("web/refusals.py:") for d in defined), defined
    assert [d for d in defined if d.endswith(":ADMINS_ONLY")] == ["web/refusals.py:ADMINS_ONLY"]


@pytest.fixture
def ja_api():
    def of(user):
        client = client_of(user)
        client.credentials(HTTP_ACCEPT_LANGUAGE="ja")
        return client

    return of


def _refusal(answer) -> str:
    assert answer.status_code == 403, answer.content
    (error,) = answer.json()["errors"]
    assert error["code"] == "permission_denied"
    return error["message"]


@pytest.mark.django_db
def test_the_api_refuses_in_the_pages_words_and_the_readers_language(
    ja_api, member, season, make_match, club, django_user_model
):
    match = make_match("napoleon", NAPOLEON_SEATS)
    deal = actions.deals.enter_deal(match, napoleon_deal()).stored()
    stranger = member_of(club, django_user_model, "other-scorer", Membership.Role.SCORER)
    tries = [
        (member, "put", f"/api/seasons/{season.pk}/divisions/", refusals.ADMINS_ONLY),
        (member, "patch", f"/api/seasons/{season.pk}/", refusals.ADMINS_ONLY),
        (member, "post", f"/api/matches/{match.pk}/reopen/", refusals.DEALS_ADMINS_ONLY),
        (stranger, "post", f"/api/matches/{match.pk}/deals/", refusals.SCORERS_ENTER),
        (stranger, "post", f"/api/matches/{match.pk}/finish/", refusals.NOT_YOUR_MATCH),
        (stranger, "put", f"/api/deals/{deal.pk}/", refusals.NOT_YOUR_TABLE),
        (stranger, "post", f"/api/deals/{deal.pk}/restore/", refusals.DEALS_ADMINS_ONLY),
    ]
    for user, method, url, refusal in tries:
        message = _refusal(getattr(ja_api(user), method)(url, {}, format="json"))
        with translation.override("ja"):
            assert message == str(refusal), url
        assert english_words(message) == [], url
        english = _refusal(getattr(client_of(user), method)(url, {}, format="json"))
        assert english == str(refusal) and english != message, url
    assert Season.objects.get(pk=season.pk).divisions.count() == 0
    assert match.deals.count() == 1 and match.deals.get().deleted_at is None


@pytest.mark.django_db
def test_a_member_not_at_the_table_hears_the_actions_words_from_the_api_and_the_page(
    season, make_match, member
):
    season.require_confirmation = True
    seasons.save_season(season)
    deal = actions.deals.enter_deal(
        make_match("napoleon", NAPOLEON_SEATS), napoleon_deal()
    ).stored()
    phone = Client(HTTP_ACCEPT_LANGUAGE="ja")
    phone.force_login(member)
    message = phone.post(f"/api/deals/{deal.pk}/confirm/").json()["errors"][0]["message"]
    assert message and english_words(message) == []
    page = phone.post(f"/deals/{deal.pk}/confirm/")
    assert page.status_code == 403 and message in page.content.decode()
    assert deal.match.deals.get().confirmed_at is None


@pytest.mark.django_db
def test_bad_queries_and_bodies_say_what_and_where_in_japanese(ja_api, scorer, season):
    api = ja_api(scorer)
    answers = {
        "neither": api.get("/api/standings/"),
        "not a number": api.get("/api/standings/", {"season": "two"}),
        "order": api.get("/api/standings/", {"season": season.pk, "order": "luck"}),
        "not JSON": api.generic(
            "POST", "/api/seasons/", '{"name": "x",\n "games": [}', "application/json"
        ),
    }
    for case, answer in answers.items():
        assert answer.status_code == 400, case
        for error in answer.json()["errors"]:
            assert english_words(error["message"]) == [], (case, error)
    assert answers["not a number"].json()["errors"][0]["path"] == "season"
    assert "'two'" in answers["not a number"].json()["errors"][0]["message"]
    assert "2 行 12 列目" in answers["not JSON"].json()["errors"][0]["message"]


@pytest.mark.django_db
def test_a_season_the_action_refuses_is_refused_alike_by_page_and_api(ja_api, club_admin, club):
    """``seasons.save_season`` checks what it is given; the API answers its refusal by
    field, in the reader's language, and stores nothing."""
    backwards = {"starts_on": "2026-12-01", "ends_on": "2026-11-01"}
    answer = ja_api(club_admin).post(
        "/api/seasons/",
        {"club": club.pk, "name": "Winter", "games": ["napoleon"], **backwards},
        format="json",
    )
    assert answer.status_code == 400
    (error,) = answer.json()["errors"]
    assert error["path"] == "ends_on" and english_words(error["message"]) == []
    starts, ends = (dt.date.fromisoformat(d) for d in backwards.values())
    with pytest.raises(ValidationError) as refused:
        seasons.save_season(
            Season(club=club, name="Winter", games=["napoleon"], starts_on=starts, ends_on=ends)
        )
    with translation.override("ja"):
        assert refused.value.message_dict["ends_on"] == [error["message"]]
    assert not Season.objects.filter(name="Winter").exists()
    Season.objects.create(club=club, name="Autumn", games=["napoleon"])
    taken = client_of(club_admin).post(
        "/api/seasons/", {"club": club.pk, "name": "autumn", "games": ["napoleon"]}, format="json"
    )
    assert [(e["code"], e["path"]) for e in taken.json()["errors"]] == [("unique", "name")]


@pytest.mark.django_db
def test_a_club_still_in_use_names_what_uses_it_in_the_readers_language(
    ja_api, league_admin, season, club
):
    """The 409 names the kinds of rows that hold the club (the models' names, which the
    admin shows too), in Japanese as in English."""
    answers = {
        language: client.delete(f"/api/clubs/{club.pk}/")
        for language, client in (("ja", ja_api(league_admin)), ("en", client_of(league_admin)))
    }
    assert [a.status_code for a in answers.values()] == [409, 409]
    ja, en = (a.json()["errors"][0]["message"] for a in answers.values())
    assert "シーズン" in ja and english_words(ja) == []
    assert en.startswith("still used by seasons")
    assert Season.objects.filter(pk=season.pk).exists()

"""The site's own 403, 404 and 500 pages, in both languages, with the header and a way back."""

import pytest
from django.test import RequestFactory

from tests.conftest import NAPOLEON_FORM, NAPOLEON_SEATS
from web.pages.errors import server_error

pytestmark = pytest.mark.django_db


def test_an_unknown_page_is_the_sites_own_404(client):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert 'class="brand"' in page and "Page not found" in page and 'href="/"' in page


def test_the_404_in_japanese(client):
    client.cookies["django_language"] = "ja"
    page = client.get("/matches/99999/").content.decode()
    assert "ページが見つかりません" in page and "Page not found" not in page


def test_a_member_on_an_entry_page_gets_a_403_that_says_why_and_a_way_back(
    client, member, make_match
):
    match = make_match("napoleon", NAPOLEON_SEATS)
    client.force_login(member)
    response = client.get(
        f"/matches/{match.pk}/enter/", HTTP_REFERER=f"http://testserver/matches/{match.pk}/"
    )
    assert response.status_code == 403
    page = response.content.decode()
    assert (
        "Only this table&#x27;s scorer, a league administrator or whoever holds the table&#x27;s link enters its deals."
        in page
    )
    assert f'href="http://testserver/matches/{match.pk}/"' in page  # back where they came from
    assert 'class="brand"' in page


def test_a_server_error_is_the_sites_own_500():
    request = RequestFactory().get("/")
    response = server_error(request)
    assert response.status_code == 500
    assert "Something went wrong" in response.content.decode()


def test_a_database_that_cannot_be_had_answers_503_with_retry_after(
    client, scorer_api, scorer, make_match, monkeypatch
):
    """Issue 24, 5: a lock not had in time is a clear 503 (the change was rolled back),
    in the API's error shape and as the site's own page, in the reader's language."""
    from django.db import OperationalError

    import actions.deals
    from tests.conftest import napoleon_deal

    def locked(*args, **kwargs):
        raise OperationalError("database is locked")

    match = make_match("napoleon", NAPOLEON_SEATS)
    monkeypatch.setattr(actions.deals, "enter_deal", locked)
    api = scorer_api.post(
        f"/api/matches/{match.pk}/deals/", {"record": napoleon_deal()}, format="json"
    )
    assert api.status_code == 503 and api["Retry-After"] == "2"
    assert api.json()["errors"][0]["code"] == "busy"
    client.force_login(scorer)
    client.cookies["django_language"] = "ja"
    form = NAPOLEON_FORM
    page = client.post(f"/matches/{match.pk}/enter/", form)
    assert page.status_code == 503 and page["Retry-After"] == "2"
    assert 'class="brand"' in page.content.decode() and "混み合って" in page.content.decode()


def test_a_csrf_failure_a_large_form_and_a_wrong_method_get_the_sites_pages(
    client, scorer, make_match
):
    """Issue 28, 10: never Django's bare English pages; the API keeps its error shape."""
    from django.test import Client

    match = make_match("napoleon", NAPOLEON_SEATS)
    strict = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="ja")
    strict.force_login(scorer)
    expired = strict.post(f"/matches/{match.pk}/enter/", {"csrfmiddlewaretoken": "stale"})
    page = expired.content.decode()
    assert expired.status_code == 403 and 'class="brand"' in page and "フォームの有効期限" in page
    api = strict.post("/api/clubs/", {"name": "x"}, content_type="application/json")
    assert api.status_code == 403 and "errors" in api.json()

    client.force_login(scorer)
    large = client.post(f"/matches/{match.pk}/enter/", {"full_record": "x" * (2 * 1024 * 1024)})
    assert large.status_code == 400 and 'class="brand"' in large.content.decode()

    wrong = client.get(f"/deals/{match.pk}/confirm/")
    assert wrong.status_code == 405 and 'class="brand"' in wrong.content.decode()
    assert "POST" in wrong["Allow"] and "Content-Security-Policy" in wrong
    api_wrong = client.put("/api/standings/")
    assert api_wrong.status_code == 405 and "errors" in api_wrong.json()


def test_a_csv_with_old_mac_line_ends_is_read():
    from tournaments.textfile import csv_rows

    assert list(csv_rows(b"name,handle\rAki Ito,aki\r")) == [["name", "handle"], ["Aki Ito", "aki"]]

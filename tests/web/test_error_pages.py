"""The site's own 403, 404 and 500 pages, in both languages, with the header and a way back."""

import pytest
from django.test import RequestFactory

from tests.conftest import NAPOLEON_SEATS
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
    assert "Only this table&#x27;s scorer or a league administrator enters its deals." in page
    assert f'href="http://testserver/matches/{match.pk}/"' in page  # back where they came from
    assert 'class="brand"' in page


def test_a_server_error_is_the_sites_own_500():
    request = RequestFactory().get("/")
    response = server_error(request)
    assert response.status_code == 500
    assert "Something went wrong" in response.content.decode()

"""A merge cannot be undone: it asks once more, naming both players, before it acts."""

from __future__ import annotations

import pytest

from tests.web.browser.conftest import Questions
from tournaments.models import Club, Membership, Player

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_merge_asks_naming_both_players(browser, live_server, django_user_model):
    club = Club.objects.create(name="Hongo Card Club", slug="hongo")
    lena = django_user_model.objects.create_user("lena", password="lena-pw-2026")
    Membership.objects.create(club=club, user=lena, role="admin")
    kept = Player.objects.create(club=club, handle="aki-ito", display_name="Aki Ito")
    gone = Player.objects.create(club=club, handle="a-ito", display_name="A. Ito")
    page = browser.new_page(viewport={"width": 375, "height": 740})
    page.goto(f"{live_server.url}/accounts/login/?next=/clubs/hongo/players/{gone.pk}/")
    page.fill("#id_username", "lena")
    page.fill("#id_password", "lena-pw-2026")
    page.click("button[type=submit]")
    page.select_option("#id_into", str(kept.pk))
    questions = Questions(page)
    questions.answer_next(accept=False)
    page.click("#merge button[type=submit]")
    page.wait_for_timeout(300)
    assert Player.objects.filter(pk=gone.pk).exists()
    assert "Merge A. Ito into Aki Ito (aki-ito)?" in questions.asked[0]
    questions.answer_next(accept=True)
    with page.expect_navigation():
        page.click("#merge button[type=submit]")
    assert not Player.objects.filter(pk=gone.pk).exists()
    page.close()

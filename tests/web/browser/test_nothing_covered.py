"""Nothing sticky covers a control (issue 43, 7): on the pages used at a club night, at
375×740 and 1366×900, every control brought into view by the browser itself (as focus
and a tap bring it: to the top or the bottom edge) is the element at its own centre,
never under the sticky Save bar or a card pad."""

from __future__ import annotations

import pytest

from tournaments.models import ClubNight, Match

pytestmark = pytest.mark.django_db(transaction=True)

CONTROLS = (
    "main input:not([type=hidden]):not(.chip input), main select, main textarea, main button,"
    " main a.button, main label.chip"
)
COVERED = """(selector) => {
  const out = [];
  for (const el of document.querySelectorAll(selector)) {
    if (el.closest('[hidden], details:not([open])') || !el.getClientRects().length) continue;
    if (el.closest('.save, .cardpad')) continue;  // the sticky bars themselves
    for (const block of ['start', 'end']) {
      el.scrollIntoView({block: block, inline: 'nearest'});
      const box = el.getBoundingClientRect();
      const x = box.left + box.width / 2, y = box.top + Math.min(box.height / 2, 10);
      const found = document.elementFromPoint(x, y);
      if (!found || !(el === found || el.contains(found) || found.contains(el)
                      || (el.labels && [...el.labels].some(l => l.contains(found))))) {
        out.push(`${block}: ${el.outerHTML.slice(0, 80)} under ${found && found.outerHTML.slice(0, 60)}`);
      }
    }
  }
  return out;
}"""


def pages(demo_night: ClubNight) -> list[str]:
    rettler = Match.objects.filter(game="rettler").earliest("pk")
    packing = Match.objects.filter(game="packing").earliest("pk")
    return [
        f"/nights/{demo_night.pk}/rounds/",
        f"/nights/{demo_night.pk}/draw/",
        f"/nights/{demo_night.pk}/tables/",
        f"/matches/{rettler.pk}/enter/",
        f"/matches/{packing.pk}/enter/",
    ]


@pytest.mark.parametrize("size", [(375, 740), (1366, 900)])
def test_no_sticky_element_covers_a_control(browser, live_server, demo, size):
    night = ClubNight.objects.filter(tables__isnull=False).distinct().latest("date")
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, has_touch=size[0] < 500
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "admin")
    page.fill("#id_password", "demo-admin-2026")
    page.click("button[type=submit]")
    page.wait_for_load_state()
    problems = {}
    for path in pages(night):
        page.goto(live_server.url + path)
        covered = page.evaluate(COVERED, CONTROLS)
        if covered:
            problems[path] = covered
    context.close()
    assert problems == {}

"""A deal's way from the entry view to the leaderboard, counted (docs/architecture.md,
"A deal's way"): the project modules whose functions the deal passes through, traced
while a deal is entered on the page and its season's leaderboard is made.

How it counts, so that the figure means something and cannot creep up unseen:

- from the entry view's call to the return of the season's leaderboard
  (``scoring.season_totals.rebuild_season_standings``); what the same chain does after
  it (ratings, telling players) is not on the way to the leaderboard;
- a module counts once, however often it is called;
- not counted: what every request crosses (the middleware), rights and the table's
  phone (``tournaments.access``, ``web.pages.tables``), the models, the database seam
  (``dbtools``: it imports nothing of the project), and the compiled engine (a library
  of its own, whose modules the tracer does not see: it counts as one);
- a game's league modules (``tournaments/games/``) count as one: the game's web side.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.conftest import NAPOLEON_FORM, NAPOLEON_SEATS

ROOT = Path(__file__).resolve().parents[1]
MOST = 14
NOT_THE_WAY = (
    "config/",
    "web/caching.py",
    "web/previews.py",
    "web/pages/errors.py",
    "tournaments/access.py",
    "web/pages/tables.py",
    "tournaments/models/",
    "dbtools/",
)
PROJECT = ("tournaments", "scoring", "reach", "actions", "web", "ops", "engine")


def deal_way(client, match, capture) -> list[str]:
    seen: list[str] = []
    done = False

    def trace(frame, event, arg):
        nonlocal done
        code = frame.f_code
        if done or code.co_name == "<module>" or not code.co_filename.startswith(str(ROOT)):
            return
        path = Path(code.co_filename).relative_to(ROOT).as_posix()
        if event == "return" and code.co_name == "rebuild_season_standings":
            done = True
        if event != "call" or not path.startswith(PROJECT) or path.startswith(NOT_THE_WAY):
            return
        name = (
            "tournaments/games/ (the game's web side)"
            if path.startswith("tournaments/games/")
            else path
        )
        if name not in seen:
            seen.append(name)

    form = {**NAPOLEON_FORM, "discarded": "0", "number": "1", "key": "k"}
    sys.setprofile(trace)
    try:
        with capture(execute=True):
            client.post(f"/matches/{match.pk}/enter/", form)
    finally:
        sys.setprofile(None)
    return [*seen, "engine (compiled: one library)"]


@pytest.mark.django_db
def test_a_deal_crosses_at_most_fourteen_modules_to_the_leaderboard(
    client, scorer, make_match, django_capture_on_commit_callbacks
):
    client.force_login(scorer)
    warm = make_match("napoleon", NAPOLEON_SEATS)  # the first request imports what it needs
    deal_way(client, warm, django_capture_on_commit_callbacks)
    way = deal_way(
        client, make_match("napoleon", NAPOLEON_SEATS), django_capture_on_commit_callbacks
    )
    print("\n".join(f"{i}. {m}" for i, m in enumerate(way, 1)))
    assert way[0] == "web/pages/entry.py" and "scoring/season_totals.py" in way
    assert len(way) <= MOST, way

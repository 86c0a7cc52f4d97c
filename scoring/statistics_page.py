"""The documents' page of statistics (``docs/statistics.md`` and ``docs/statistics.ja.md``):
every game's statistics with their one-line definitions, written from the games' own
lists (``LeagueGame.all_statistics``) so that the page says what the code counts.
``python manage.py statistics_page`` writes both; a test fails when either is stale."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.utils import translation

from tournaments.games import LEAGUE_GAMES
from tournaments.games.statistics import GENERIC

INTRO = {
    "en": """# Statistics

The player page shows, for each season and game a player played, the figures below; the
API gives them by key (`GET /api/standings/?season=N&player=M`, `statistics`) and the
season page's **Statistics** download (CSV, XLSX, PDF) has a row per game, player and
figure. The rebuild's Celery tasks count them from the checked deals and keep the sums on
the season's lines: a page reads them, it never counts. A rate is in per cent, an average
per what it names; a figure with nothing to divide by shows "—".

A *finished* match is one its game ended (or its scorer ended by hand). Deals kept as a
full play (every card played) give the trick-level figures; the others are counted from
what every record holds (`docs/deal-records.md`).

This page is written by `python manage.py statistics_page` from the games' own lists.
""",
    "ja": """# 統計

プレイヤーのページには、プレイしたシーズンとゲームごとに次の数値が出ます。API はキーごとに返し
（`GET /api/standings/?season=N&player=M` の `statistics`）、シーズンのページの **統計**
（CSV・XLSX・PDF）はゲーム・プレイヤー・数値ごとに1行です。数値は再集計の Celery タスクが
確認済みのディールから数え、シーズンの行に合計を保存します。ページは読むだけで、数えません。
率は百分率、平均は名前のとおりの単位です。割るものがないときは「—」と出ます。

「終わった対戦」はゲームのルールで終わった（または記録係が手で終えた）対戦です。全プレイ（出した
カードすべて）が記録されたディールからトリックの数値を数え、その他は記録が必ず持つ項目から数えます
（`docs/deal-records.md`）。

このページは `python manage.py statistics_page` がゲームの定義から書きます。
""",
}
HEADINGS = {"en": ("Statistic", "Key", "Definition"), "ja": ("統計", "キー", "定義")}
EVERY_GAME = {"en": "Every game", "ja": "すべてのゲーム"}


def page(language: str) -> str:
    """The page in ``language`` (``en`` or ``ja``)."""
    games = sorted(LEAGUE_GAMES.values(), key=lambda g: g.name_en)
    with translation.override(language):
        lines = [INTRO[language]]
        sections = [(EVERY_GAME[language], GENERIC)]
        sections += [(g.label, g.statistics) for g in games]
        for title, statistics in sections:
            lines += ["", f"## {title}", "", "| {} | {} | {} |".format(*HEADINGS[language])]
            lines.append("| --- | --- | --- |")
            lines += [f"| {s.label} | `{s.key}` | {s.definition} |" for s in statistics]
    return "\n".join(lines) + "\n"


def paths() -> dict[str, Path]:
    docs = Path(settings.BASE_DIR) / "docs"
    return {"en": docs / "statistics.md", "ja": docs / "statistics.ja.md"}

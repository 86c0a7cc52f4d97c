"""The season's standings PDF reads on A4 in both languages (issue 56, 5): a titled table
per game and division, every word inside the page, every figure whole, headings never
broken inside a word, long Japanese and Latin names wrapped in their column."""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass

import pytest
from django.test import Client
from django.utils import translation

import actions.divisions
from scoring import pdf as printed
from scoring.documents import Document, Section
from scoring.models import Rating, SeasonStanding
from tournaments import divisions
from tournaments.games import label
from tournaments.models import Club, Player, Season

pytestmark = pytest.mark.django_db

NAMES = [
    "長谷川・ヴァレンティーナ・美咲子",
    "佐々木 太郎左衛門之助",
    "勅使河原 彩",
    "Aki",
    "Bartholomew Featherstonehaugh-Cholmondeley",
    "小鳥遊 まどか",
    "西園寺 龍之介",
    "Chika",
]
GAMES = ["napoleon", "comp13", "packing"]
A4 = {(595, 842), (842, 595)}


def season_of_three_games() -> Season:
    """Eight players in two divisions, three games, ranked by the best 2 nights with a
    minimum of 2: every column the standings print, ratings too."""
    club = Club.objects.create(name="神田カードクラブ", slug="kanda")
    season = Season.objects.create(
        club=club,
        name="2026年秋季リーグ",
        games=GAMES,
        public=True,
        ranking="best_nights",
        best_of=2,
        qualify_minimum=2,
    )
    players = [
        Player.objects.create(club=club, handle=f"p{i}", display_name=name)
        for i, name in enumerate(NAMES)
    ]
    actions.divisions.set_divisions(
        season, ["A", "B"], {p.pk: "AB"[i % 2] for i, p in enumerate(players)}
    )
    for g, game in enumerate(GAMES):
        SeasonStanding.objects.bulk_create(
            SeasonStanding(
                season=season,
                game=game,
                player=p,
                total=-1234 + 317 * i + g,
                deals=12 + i,
                deals_won=3 + i,
                matches=2,
                matches_won=i % 2,
                rank=len(players) - i,
                score=-1234 + 317 * i + g,
                qualified=i % 3 != 0,
                nights=1 + i % 3,
            )
            for i, p in enumerate(players)
        )
        Rating.objects.bulk_create(
            Rating(
                player=p,
                game=game,
                scope="public",
                mu=25,
                sigma=3,
                rating=1500.25 + 10 * i + g,
                deals=9,
            )
            for i, p in enumerate(players)
        )
    return season


@dataclass
class Word:
    page: int
    x0: float
    y0: float
    x1: float
    y1: float
    text: str


def words(pdf: bytes) -> tuple[list[tuple[float, float]], list[Word]]:
    """Each page's size, and every word with its box (``pdftotext -bbox``)."""
    html = subprocess.run(
        ["pdftotext", "-bbox", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()
    sizes, found = [], []
    for n, page in enumerate(re.findall(r"<page (.*?)</page>", html, re.S)):
        sizes.append(tuple(float(v) for v in re.findall(r'(?:width|height)="([\d.]+)"', page)[:2]))
        found += [
            Word(n, *map(float, box), text)
            for *box, text in re.findall(
                r'<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">'
                r"([^<]*)</word>",
                page,
            )
        ]
    return sizes, found


def raw(pdf: bytes) -> str:
    """The text in the order it is drawn (cell by cell, row by row), without whitespace:
    a name wrapped in its cell reads whole."""
    text = subprocess.run(
        ["pdftotext", "-raw", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()
    return re.sub(r"\s+", "", text)


def squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_standings_pdf_is_a_titled_table_per_game_and_division_inside_a4(language):
    season = season_of_three_games()
    client = Client()
    client.cookies["django_language"] = language
    answer = client.get(f"/seasons/{season.pk}/standings.pdf")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
    pdf = answer.content
    sizes, found = words(pdf)
    assert all((round(w), round(h)) in A4 for w, h in sizes), sizes
    outside = [
        w.text
        for w in found
        if w.x0 < 0 or w.y0 < 0 or w.x1 > sizes[w.page][0] or w.y1 > sizes[w.page][1]
    ]
    assert outside == []
    with translation.override(language):
        division = translation.gettext("Division %(name)s")
        titles = [f"{label(game)} · {division % {'name': d}}" for game in GAMES for d in ("A", "B")]
        headings = [
            translation.gettext(h)
            for h in ("Rank", "Player", "Qualified", "Club nights", "Points", "Deals")
            + ("Deals won", "Matches", "Matches won", "Rating")
        ]
    # Every heading word is one word on the page (never broken inside), on every table.
    texts = [w.text for w in found]
    for heading in headings:
        for word in heading.split():
            assert texts.count(word) >= len(titles), (heading, word)
    # The game and division are the tables' titles, in the season's order, not columns.
    text = raw(pdf)
    at = [text.find(squeezed(t)) for t in titles]
    assert -1 not in at and at == sorted(at), titles
    assert squeezed(label("napoleon")) + squeezed(label("napoleon")) not in text
    # Every player's line under its title: rank in the division, name, then every figure.
    yes_no = {True: "yes", False: "no"}
    with translation.override(language):
        yes_no = {k: translation.gettext(v) for k, v in yes_no.items()}
    placed = divisions.placed(season)
    for game in GAMES:
        for d in ("A", "B"):
            start = at[titles.index(f"{label(game)} · {division % {'name': d}}")]
            ends = [a for a in at if a > start]
            part = text[start : min(ends, default=len(text))]
            lines = SeasonStanding.objects.filter(season=season, game=game).select_related("player")
            mine = sorted((x for x in lines if placed[x.player_id].name == d), key=lambda x: x.rank)
            assert len(mine) == 4
            for rank, x in enumerate(mine, 1):
                rating = Rating.objects.get(player=x.player, game=game, scope="public").rating
                shown = rank if x.qualified else ""  # no rank before qualifying, as the page
                row = [shown, x.player.display_name, int(x.score), yes_no[x.qualified], x.nights]
                row += [x.total, x.deals, x.deals_won, x.matches, x.matches_won, round(rating, 1)]
                assert squeezed("".join(str(c) for c in row)) in part, (game, d, row)


def test_a_page_turns_then_its_type_shrinks_and_a_figure_is_never_cut():
    """Six columns fit a portrait page; twelve turn it; twenty shrink the type: every
    word stays on the page, every figure whole."""
    for columns, orientation in ((6, (595, 842)), (12, (842, 595)), (20, (842, 595))):
        header = ["Player", *(f"Figure {n} won" for n in range(columns - 1))]
        rows = [
            ["長谷川・ヴァレンティーナ・美咲子", *(-12345 - n for n in range(columns - 1))],
            ["Bartholomew Featherstonehaugh-Cholmondeley", *range(columns - 1)],
        ]
        document = Document(
            "s", ["Club – Season"], header, rows, sections=[Section("Napoleon · Division A", 0)]
        )
        pdf = printed.book([document])
        sizes, found = words(pdf)
        assert {(round(w), round(h)) for w, h in sizes} == {orientation}, columns
        width, height = sizes[0]
        assert all(0 <= w.x0 and w.x1 <= width and 0 <= w.y0 and w.y1 <= height for w in found)
        text = [w.text for w in found]
        assert all(str(-12345 - n) in text for n in range(columns - 1)), columns
        assert text.count("won") == columns - 1  # each heading whole, its words on the page


def test_a_division_name_is_text_in_its_title_never_markup():
    season = season_of_three_games()
    from tournaments.models import Division

    Division.objects.filter(season=season, name="B").update(name="<b>B</b>")
    pdf = Client().get(f"/seasons/{season.pk}/standings.pdf").content
    assert pdf.startswith(b"%PDF")
    assert squeezed("Napoleon · Division <b>B</b>") in raw(pdf)


def test_reportlabs_c_accelerator_is_the_one_measuring_and_writing():
    """``rl_accel`` (pinned) is what reportlab measures text and writes numbers with: not
    its Python fallbacks, twice as slow on a thousand players' standings; and a text's
    width is measured once, then scaled by the type size."""
    from reportlab.lib import rl_accel
    from reportlab.pdfbase import pdfmetrics

    from scoring import pdf_columns

    assert not rl_accel._py_funcs, sorted(rl_accel._py_funcs)  # every function from C
    assert {"instanceStringWidthTTF", "fp_str", "escapePDF"} <= set(rl_accel._c_funcs)
    for text in ("1,234", "勅使河原 彩", "Bartholomew"):
        for size in (4.5, 8, 9):
            measured = pdfmetrics.stringWidth(text, pdf_columns.FONT, size)
            assert pdf_columns.text_width(text, size) == pytest.approx(measured, rel=1e-9)

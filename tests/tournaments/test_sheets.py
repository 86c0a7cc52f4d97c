"""Past score sheets: the template is the entry form's fields; a three-season file per game
with mistakes in it is refused at each mistake's row and column with nothing written;
corrected, it imports once however often it is given, and the leaderboards and
ratings equal those of the same deals entered one by one."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from openpyxl import load_workbook

import actions.deals
import actions.matches
from actions import imports
from scoring.models import Rating, SeasonStanding
from scoring.players import sums
from tournaments.errors import Rejection
from tournaments.games import LEAGUE_GAMES, league_game
from tournaments.models import Club, ClubNight, Deal, Match, Player, Season, Table
from tournaments.sheets import check, columns, template
from web.pages.forms import DealEntryForm

from .sheet_history import NAMES, add_players, history, sheet_rows

pytestmark = pytest.mark.django_db

GAMES = list(LEAGUE_GAMES)
FORMATS = ["csv", "csv-shift_jis", "xlsx"]


def sheet(game: str, rows: list[dict[str, str]], fmt: str = "csv", language: str = "en") -> bytes:
    table = template.as_table(game, rows, language)
    if fmt == "xlsx":
        return template.to_xlsx(table)
    data = template.to_csv(table)
    if fmt == "csv-shift_jis":
        return data.decode("utf-8-sig").encode("cp932")
    return data


@pytest.fixture
def members(club):
    return add_players(club)


def where(preview_or_errors):
    errors = getattr(preview_or_errors, "errors", preview_or_errors)
    return {(e["row"], e["path"].partition(".")[2], e["code"]) for e in errors}


# -- the template --------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_the_template_has_a_column_for_every_field_of_the_entry_form(game, table, members):
    """Every table size the game allows: the entry form's fields (stand-in handles aside)
    are the template's columns, and no heading means two things in either language."""
    web = LEAGUE_GAMES[game]
    keys = {c.key for c in columns.template_columns(game)}
    table.club_night.season.games = [game]
    table.club_night.season.save()
    for count in sorted(web.rules.player_counts):
        seated = list(members.values())[:count] if count <= len(members) else None
        if seated is None:
            continue
        plan = next((p for p in web.federation if p.players == count), None)
        match = actions.matches.create_match(
            table,
            game,
            seated,
            rules=plan.rules if plan else {},
            target=plan.target if plan else None,
        )
        form = DealEntryForm(match=match)
        seat_of = {p.handle: columns.seat_handle(i) for i, p in enumerate(seated, 1)}
        for name in form.game_field_names:
            for handle, stand_in in seat_of.items():
                name = (
                    name.replace(f"_{handle}", f"_{stand_in}")
                    if name.endswith(f"_{handle}")
                    else name
                )
            assert name in keys, f"{game} at {count}: no column for {name}"
    headings = [
        normal for c in columns.template_columns(game) for normal in map(columns.normal, c.headings)
    ]
    for language in range(len(columns.LANGUAGES)):
        one = [columns.normal(c.headings[language]) for c in columns.template_columns(game)]
        assert len(one) == len(set(one)), f"{game}: a heading twice"
    known = columns.known_headings()
    assert all(known[h] in keys for h in headings), "a heading of another game's column"


def test_headings_are_japanese_in_the_japanese_template():
    book = load_workbook(io.BytesIO(template.template("rettler", "xlsx", "ja")))
    blank, example = book.worksheets
    header = [c.value for c in blank[1]]
    assert header[:4] == ["シーズン", "日付", "卓", "ゲーム"]
    assert "プレイヤー1" in header and "プレイヤー8" in header
    assert blank.max_row == 1  # blank: nothing of the example is imported by mistake
    assert example.max_row > 1
    text = template.template("comp13", "csv", "en").decode("utf-8-sig")
    assert text.splitlines()[0].startswith("Season,Date,Table,Game,Match,Rules,Target,Player 1")


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_the_templates_own_example_imports(fmt, club):
    """The example sheet of the XLSX template, copied as a club would, imports cleanly."""
    for handle in NAMES:
        Player.objects.create(club=club, handle=handle, display_name=handle.capitalize())
    for game in GAMES:
        rows = template.example_rows(game)
        preview = check.check(club, sheet(game, rows, fmt, "ja"))
        assert preview.errors == [], game
        assert preview.counts()["deals"] == len(rows)


# -- mistakes --------------------------------------------------------------------------------

CARD_FIELD = {"rettler": "adjutant_cards", "napoleon": "adjutant_cards", "comp13": "cap_seat1",
              "packing": "packs_seat1", "twentytwo": "last_seat1", "1234": "left_seat1",
              "comrade": "bids_seat1", "bhabhi": "bhabhi"}  # fmt: skip
"""Where each game's rows hold cards (Bhabhi's only cell is a name: it gets one that is not
at the table)."""


def plant_mistakes(game: str, rows: list[dict[str, str]]) -> dict[str, tuple[int, str]]:
    """A misspelled player, a point total that does not add up (the declarer games), a
    wrong card, a date without a table: where each is (sheet row, column)."""
    first_rows = [
        i
        for i, r in enumerate(rows)
        if i == 0 or (r["date"], r["table"]) != (rows[i - 1]["date"], rows[i - 1]["table"])
    ]
    planted: dict[str, tuple[int, str]] = {}
    # A misspelled player, copied down the whole match as a spreadsheet does.
    start = first_rows[1]
    end = first_rows[2] if len(first_rows) > 2 else len(rows)
    for row in rows[start:end]:
        row["player_2"] = row["player_2"].replace("Ben", "Bem").replace("Chika", "Chica")
    planted["misspelled"] = (start + 2, "player_2")
    card_row = first_rows[-1] + (1 if game not in ("twentytwo", "1234", "bhabhi", "comrade") else 0)
    cell = CARD_FIELD[game]
    rows[card_row][cell] = (
        "Nobody" if game == "bhabhi" else (rows[card_row].get(cell, "") + " S99").strip()
    )
    planted["card"] = (card_row + 2, cell)
    if game in ("rettler", "napoleon"):
        total_row = first_rows[-2] + 1
        rows[total_row]["pc_seat1"] = str(int(rows[total_row]["pc_seat1"]) + 1)
        planted["total"] = (total_row + 2, "")
    table_row = first_rows[3] + 1
    rows[table_row]["table"] = ""
    planted["table"] = (table_row + 2, "table")
    return planted


@pytest.mark.parametrize("game", GAMES)
def test_each_mistake_is_reported_at_its_row_and_column_and_nothing_is_written(game, club, members):
    rows = sheet_rows(game, history(game))
    planted = plant_mistakes(game, rows)
    data = sheet(game, rows, FORMATS[GAMES.index(game) % 3])
    with pytest.raises(Rejection) as refused:
        imports.import_sheet(club, data)
    found = refused.value.errors
    at = {(e["row"], e["path"].partition(".")[2]) for e in found}
    row, column = planted["misspelled"]
    assert (row, column) in at
    misspelled = next(e for e in found if (e["row"], e["path"].partition(".")[2]) == (row, column))
    assert misspelled["code"] == "unknown_player"
    assert (
        "Ben Mori" in misspelled["message"] or "Chika Sato" in misspelled["message"]
    )  # the close name
    assert planted["card"] in at, found
    assert planted["table"] in at
    assert next(e for e in found if e["row"] == planted["table"][0])["code"] == "missing_field"
    if "total" in planted:  # the point cards of the row do not add up to the deck's
        total_row = planted["total"][0]
        total = next(e for e in found if e["row"] == total_row and e["code"] == "point_cards_total")
        assert total["path"].partition(".")[2].startswith("pc_"), total  # at the point columns
    assert all(e["column"] for e in found if e["path"].count(".")), "every column is named"
    assert not Deal.objects.exists() and not Match.objects.exists()
    assert not Season.objects.exists() and not ClubNight.objects.exists()
    assert Player.objects.filter(club=club).count() == len(NAMES)


# -- the corrected file ----------------------------------------------------------------------


ORDER_OUT = {"ordered", "first_out", "place_sum"}
"""Bhabhi's counts of the order the others went out in: a sheet keeps the bhabhi alone, the
records entered one by one keep the order too."""


def standings(club: Club) -> dict[tuple[str, str, str], tuple]:
    lines = SeasonStanding.objects.filter(season__club=club)
    return {
        (s.season.name, s.game, s.player.handle): (
            s.total,
            s.deals,
            s.deals_won,
            s.matches,
            s.matches_won,
            s.rank,
            {k: v for k, v in sums(s).items() if not (s.game == "bhabhi" and k in ORDER_OUT)},
        )
        for s in lines.select_related("season", "player")
    }


def ratings(club: Club) -> dict[tuple[str, str], tuple]:
    found = Rating.objects.filter(player__club=club).select_related("player")
    return {(r.game, r.player.handle): (round(r.mu, 9), round(r.sigma, 9), r.deals) for r in found}


def enter_one_by_one(game: str, matches) -> Club:
    """The same history typed in at the table, deal by deal, in another club."""
    club = Club.objects.create(name="By hand", slug="by-hand")
    people = add_players(club)
    seasons: dict[str, Season] = {}
    for m in matches:
        season = seasons.get(m.season) or Season.objects.create(
            club=club, name=m.season, games=[game]
        )
        seasons[m.season] = season
        night, _ = ClubNight.objects.get_or_create(season=season, date=m.date)
        table, _ = Table.objects.get_or_create(club_night=night, name=f"Table {m.table}")
        match = actions.matches.create_match(
            table, game, [people[h] for h in m.handles], rules=m.rules, target=m.target
        )
        for deal in m.deals:
            actions.deals.enter_deal(match, deal).stored()
    return club


@pytest.mark.parametrize("game", GAMES)
def test_the_corrected_file_imports_once_and_equals_entry_one_by_one(
    game, club, members, django_capture_on_commit_callbacks
):
    matches = history(game)
    data = sheet(game, sheet_rows(game, matches), FORMATS[(GAMES.index(game) + 1) % 3])
    with django_capture_on_commit_callbacks(execute=True):
        done = imports.import_sheet(club, data)
    deals = sum(len(m.deals) for m in matches)
    assert done.preview.counts()["deals"] == deals
    assert Deal.objects.filter(match__table__club_night__season__club=club).count() == deals
    assert Season.objects.filter(club=club).count() == 3
    with django_capture_on_commit_callbacks(execute=True):
        again = imports.import_sheet(club, data)
    assert again.preview.counts()["deals"] == 0
    assert again.preview.counts()["deals_imported_before"] == deals
    assert Deal.objects.filter(match__table__club_night__season__club=club).count() == deals
    imported = standings(club)
    assert imported, "the workers rebuilt the leaderboards"
    with django_capture_on_commit_callbacks(execute=True):
        by_hand = enter_one_by_one(game, matches)
    assert imported == standings(by_hand)
    assert ratings(club) == ratings(by_hand)
    # The imported matches go on at the table as if entered there.
    for match in Match.objects.filter(table__club_night__season__club=club):
        kept = match.state
        assert kept and kept["number"] == match.deals.count()


def test_a_deal_imported_before_with_other_values_is_a_mistake_not_a_copy(club, members):
    matches = history("napoleon", nights=1)
    rows = sheet_rows("napoleon", matches)
    imports.import_sheet(club, sheet("napoleon", rows))
    rows[1]["count"] = str(int(rows[1]["count"]) - 1)
    rows.append({**rows[-1]})
    preview = check.check(club, sheet("napoleon", rows))
    assert {(e["row"], e["code"]) for e in preview.errors} == {
        (3, "imported_before"),
        (len(rows) + 1, "imported_before"),
    }
    with pytest.raises(Rejection):
        imports.import_sheet(club, sheet("napoleon", rows))


def test_unknown_names_are_made_players_or_mapped_to_the_clubs_as_answered(club, members):
    matches = history("comp13", nights=1)
    rows = sheet_rows("comp13", matches)
    for row in rows:
        for key in ("player_1", "player_2"):
            row[key] = {"Aki Ito": "A. Ito", "Ben Mori": "Newcomer"}.get(row[key], row[key])
    data = sheet("comp13", rows)
    preview = check.check(club, data)
    assert set(preview.unknown) == {"A. Ito", "Newcomer"}
    assert [p.handle for p in preview.suggestions["A. Ito"]] == ["aki"]
    answered = {"A. Ito": "aki", "Newcomer": check.NEW}
    done = imports.import_sheet(club, data, answered)
    assert done.preview.counts()["players"] == 1
    newcomer = Player.objects.get(club=club, display_name="Newcomer")
    assert newcomer.handle == "newcomer"
    aki_seats = Match.objects.filter(
        seats__player__handle="aki", table__club_night__season__club=club
    )
    assert aki_seats.exists()
    assert not Player.objects.filter(display_name="A. Ito").exists()
    # Given again, the file's names are the club's now: nothing more.
    assert imports.import_sheet(club, data, answered).preview.counts() == {
        "matches": 0,
        "deals": 0,
        "deals_checked": 0,
        "nights": 0,
        "players": 0,
        "seasons": 0,
        "matches_imported_before": len(matches),
        "deals_imported_before": sum(len(m.deals) for m in matches),
    }


def test_rows_find_an_existing_season_and_its_night_and_table(club, members):
    season = Season.objects.create(
        club=club,
        name="Current",
        games=["bhabhi"],
        starts_on=dt.date(2023, 1, 1),
        ends_on=dt.date(2024, 12, 31),
    )
    night = ClubNight.objects.create(season=season, date=dt.date(2023, 4, 7))
    Table.objects.create(club_night=night, name="Table 1")
    rows = sheet_rows("bhabhi", history("bhabhi", nights=1))
    for row in rows:
        row["season"] = ""  # the club's one season covering the date
    done = imports.import_sheet(club, sheet("bhabhi", rows))
    assert done.preview.counts()["seasons"] == 0
    assert ClubNight.objects.filter(season=season, date=dt.date(2023, 4, 7)).count() == 1
    assert Table.objects.filter(club_night=night).count() == 2  # Table 1 and the new Table 2
    outside = Season.objects.create(club=club, name="Other", games=["packing"])
    rows = sheet_rows("bhabhi", history("bhabhi", nights=1))
    for row in rows:
        row["season"] = outside.name
    preview = check.check(club, sheet("bhabhi", rows))
    assert {e["code"] for e in preview.errors} == {"game_not_in_season"}
    # A row of a dated season on a date outside it: a slip of the date, said at its cell.
    rows = sheet_rows("bhabhi", history("bhabhi", nights=1))
    for row in rows:
        row["season"] = season.name
    rows[0]["date"] = "1850-01-01"
    preview = check.check(club, sheet("bhabhi", rows))
    assert {w for w in where(preview) if w[0] == 2} == {(2, "date", "date_outside_season")}
    assert "2023-01-01 – 2024-12-31" in preview.errors[0]["message"]
    # A new season's name: asked about when it is a slip of the club's (not of another new
    # one of the file), never when its numbers differ (next year's season is new).
    Season.objects.create(club=club, name="2024 Spring", games=["bhabhi"])
    rows = sheet_rows("bhabhi", history("bhabhi", nights=2))
    names = ["Curent", "2025 Spring", "2025 Sprng", "2024 Sprng"]
    for i, row in enumerate(rows):
        row["season"] = names[i % len(names)]
    preview = check.check(club, sheet("bhabhi", rows))
    assert set(preview.new_seasons) == {"Curent", "2025 Spring", "2025 Sprng", "2024 Sprng"}
    assert preview.close_seasons == {"Curent": "Current", "2024 Sprng": "2024 Spring"}


def test_a_file_that_is_not_a_sheet_is_refused_in_words(club):
    for data in (b"", b"PK\x03\x04broken", b"\x81\x00\xfe"):
        with pytest.raises(Rejection):
            check.check(club, data)
    preview = check.check(club, b"Season,When,Game\n2024,2024-01-01,Napoleon\n")
    assert {e["code"] for e in preview.errors} == {"missing_column"}


@pytest.mark.django_db(transaction=True)
def test_two_imports_of_one_file_at_once_add_it_once(club, members):
    """Two administrators (or a double click) confirm the same file at the same moment."""
    import threading

    from django.db import connection

    matches = history("packing", nights=1)
    data = sheet("packing", sheet_rows("packing", matches))
    start = threading.Barrier(2)
    added: list[int] = []

    def confirm() -> None:
        try:
            start.wait()
            added.append(imports.import_sheet(club, data).preview.counts()["deals"])
        finally:
            connection.close()

    threads = [threading.Thread(target=confirm) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    deals = sum(len(m.deals) for m in matches)
    assert sorted(added) == [0, deals]
    assert Deal.objects.count() == deals
    assert Season.objects.filter(club=club).count() == 3


def test_a_season_spelled_two_ways_is_one_season_and_a_seat_gap_is_named(club, members):
    rows = sheet_rows("bhabhi", history("bhabhi", nights=2))
    for row in rows:
        if row["date"] == rows[-1]["date"]:
            row["season"] = row["season"].upper()  # "2023 SPRING" on the second night
    done = imports.import_sheet(club, sheet("bhabhi", rows))
    assert list(done.preview.new_seasons) == ["2023 Spring", "2023 Autumn", "2024 Spring"]
    assert Season.objects.filter(club=club).count() == 3
    gap = sheet_rows("bhabhi", history("bhabhi", nights=1, seed=7))
    gap[0]["player_2"] = ""
    preview = check.check(club, sheet("bhabhi", gap))
    assert (2, "player_2", "missing_player") in where(preview)


def test_a_match_written_in_kanji_on_one_row_and_romaji_on_the_next_is_one_match(club, members):
    """Scorers write a player as the club knows them, in either language: a match's later
    row naming its players by their Japanese names seats the same players (it was "太郎
    differs from row 2"); a name of another player there is still a mistake."""
    kanji = {
        "aki": "伊藤 亜紀",
        "ben": "森 勉",
        "chika": "佐藤 千佳",
        "dai": "加藤 大",
        "emi": "阿部 恵美",
        "fumi": "上田 文",
        "gen": "織田 元",
        "hana": "小野 花",
    }
    for handle, name in kanji.items():
        Player.objects.filter(club=club, handle=handle).update(name_ja=name)
    by_name = {n: kanji[h] for h, n in NAMES.items()}
    rows = sheet_rows("napoleon", history("napoleon", nights=1))
    seats = [k for k in rows[0] if k.startswith("player_")]
    matches = {(r["date"], r["table"]) for r in rows}
    later = [
        r
        for r in rows
        if r is not next(x for x in rows if (x["date"], x["table"]) == (r["date"], r["table"]))
    ]
    assert later
    for row in later:
        for seat in seats:
            row[seat] = by_name.get(row[seat], row[seat])
    done = imports.import_sheet(club, sheet("napoleon", rows))
    assert len(done.preview.to_add) == len(matches)
    assert Deal.objects.filter(match__table__club_night__season__club=club).count() == len(rows)
    swapped = sheet_rows("napoleon", history("napoleon", nights=1, seed=3))
    first = swapped[0]
    row = next(r for r in swapped[1:] if (r["date"], r["table"]) == (first["date"], first["table"]))
    other = next(n for n in NAMES.values() if n not in {first[s] for s in seats})
    row["player_1"] = by_name[other]  # someone not at the table
    assert (swapped.index(row) + 2, "player_1", "differs_in_match") in where(
        check.check(club, sheet("napoleon", swapped))
    )


def test_a_choice_not_understood_says_what_may_be_written_in_the_readers_language(club, members):
    """ "spade is not one of the available choices" left the secretary guessing: the
    mistake lists the choices, as the reader's language names them (each of which reads)."""
    from django.utils import translation

    rows = sheet_rows("napoleon", history("napoleon", nights=1))
    rows[0]["trump"] = "spade"
    with translation.override("ja"):
        (said,) = [e["message"] for e in check.check(club, sheet("napoleon", rows)).errors]
    assert "spade" in said and "次のどれか" in said and "スペード" in said and "ハート" in said
    rows[0]["trump"] = "スペード"  # as the list names it: read
    assert check.check(club, sheet("napoleon", rows)).valid


def test_the_japanese_templates_example_is_in_japanese_and_imports(club):
    """The Japanese template's example sheet shows Japanese names, season and game, and
    imports as it stands into a club whose players have those Japanese names."""
    for handle, ja in zip(NAMES, template.EXAMPLE_NAMES["ja"], strict=False):
        Player.objects.create(club=club, handle=handle, display_name=handle.title(), name_ja=ja)
    for game in GAMES:
        rows = template.example_rows(game, "ja")
        assert rows[0]["player_1"] == "亜紀" and rows[0]["season"] == "2024年春"
        assert rows[0]["game"] == league_game(game).name_ja
        preview = check.check(club, sheet(game, rows, "xlsx", "ja"))
        assert preview.errors == [], game
        assert preview.counts()["deals"] == len(rows)

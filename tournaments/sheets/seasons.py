"""Which season a score sheet's row is in (``tournaments.sheets.check``): the one its
Season column names, spelled in any case (a new one, registered in the preview, when
the club has none of that name; asked about when it is a slip of the club's), or the
club's one season whose dates cover the row's when the column is empty.  A row of a
season with dates must fall within them, and its game must be one the season counts."""

from __future__ import annotations

import datetime as dt
import difflib
import re

from django.utils.translation import gettext

from tournaments.games import LEAGUE_GAMES, league_game
from tournaments.models import Club, Season
from tournaments.sheets.columns import normal
from tournaments.sheets.names import Fail, Fits
from tournaments.sheets.preview import Preview


class SheetSeasons:
    """The sheet's seasons, found as the rows are read."""

    def __init__(self, club: Club, preview: Preview, fail: Fail, fits: Fits) -> None:
        self.club = club
        self.preview = preview
        self.fail = fail
        self.fits = fits
        self.by_name = {normal(s.name): s for s in Season.objects.filter(club=club)}
        """The club's seasons and the sheet's new ones, by normalised name."""

    def of_row(self, row: int, name: str, date: dt.date, game: str) -> str | None:
        """The name of the row's season (the club's, or a new one registered in the
        preview; spelled as first written), or ``None``."""
        if not name:
            covering = [
                s
                for s in self.by_name.values()
                if s.pk is not None
                and s.starts_on
                and s.ends_on
                and s.starts_on <= date <= s.ends_on
            ]
            if len(covering) != 1:
                self.fail(
                    "missing_field",
                    row,
                    "season",
                    gettext("a season is required (no single season of the club covers %(date)s)")
                    % {"date": date.isoformat()},
                )
                return None
            name = covering[0].name
        season = self.by_name.get(normal(name))
        if season is None:
            if not self.fits(row, "season", Season, "name", name):
                return None
            season = Season(club=self.club, name=name, games=[], starts_on=date, ends_on=date)
            close = self.close_to(name)
            if close is not None:  # a slip of the club's season's name, likely: the preview asks
                self.preview.close_seasons[name] = close.name
            self.by_name[normal(name)] = self.preview.new_seasons[name] = season
        self.preview.seasons[season.name] = season
        if season.pk is None:
            if game not in season.games:
                season.games = [g for g in LEAGUE_GAMES if g in {*season.games, game}]
            season.starts_on = min(date, season.starts_on or date)
            season.ends_on = max(date, season.ends_on or date)
        elif season.starts_on and season.ends_on and not season.starts_on <= date <= season.ends_on:
            # The dates place a row without a season; one outside its season's is a slip
            # (1850 for 2026) far more often than a night the secretary means there.
            self.fail(
                "date_outside_season",
                row,
                "date",
                gettext(
                    "%(date)s is outside the season %(season)s (%(starts)s – %(ends)s): correct the date, or change the season's dates first"
                )
                % {
                    "date": date.isoformat(),
                    "season": season.name,
                    "starts": season.starts_on.isoformat(),
                    "ends": season.ends_on.isoformat(),
                },
            )
            return None
        elif game not in season.games:
            self.fail(
                "game_not_in_season",
                row,
                "game",
                gettext(
                    "the season %(season)s does not count %(game)s: add the game to the season first"
                )
                % {"season": season.name, "game": league_game(game).name_en},
            )
            return None
        return season.name

    def close_to(self, name: str) -> Season | None:
        """The club's season whose name ``name`` is a slip of, if any: spelled alike, with
        the same numbers ("2023 Sprng" for "2023 Spring"; "2025 Spring" is a new season
        of its own, not a slip of "2024 Spring")."""
        digits = re.sub(r"\D", "", normal(name))
        stored = {
            key: s
            for key, s in self.by_name.items()
            if s.pk is not None and re.sub(r"\D", "", key) == digits
        }
        close = difflib.get_close_matches(normal(name), stored, n=1, cutoff=0.8)
        return stored[close[0]] if close else None

"""Standings and ratings: derived data, rebuilt from the deals by ``scoring.standings`` (matches),
``scoring.season_totals`` (seasons) and ``scoring.ratings``."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments import access
from tournaments.models import Club, ClubNight, Match, Player, Season

COUNTS = 20
"""Columns of a match line for the game's own counts (``count_1`` …): the values of
``LeagueGame.player_numbers`` in the order of its ``number_labels``.  Numbers in
columns, so that a season's are summed as numbers (not taken apart from JSON per key);
a game uses as many as it has counts, the others stay null (a null costs a bit)."""
COUNT_COLUMNS = [f"count_{i}" for i in range(1, COUNTS + 1)]


class Counts(models.Model):
    """The game's own counts of a line (see COUNTS): a match line's, and a season line's
    sums of them.  A score as declarer is one, so they may be negative."""

    count_1 = models.IntegerField(null=True)
    count_2 = models.IntegerField(null=True)
    count_3 = models.IntegerField(null=True)
    count_4 = models.IntegerField(null=True)
    count_5 = models.IntegerField(null=True)
    count_6 = models.IntegerField(null=True)
    count_7 = models.IntegerField(null=True)
    count_8 = models.IntegerField(null=True)
    count_9 = models.IntegerField(null=True)
    count_10 = models.IntegerField(null=True)
    count_11 = models.IntegerField(null=True)
    count_12 = models.IntegerField(null=True)
    count_13 = models.IntegerField(null=True)
    count_14 = models.IntegerField(null=True)
    count_15 = models.IntegerField(null=True)
    count_16 = models.IntegerField(null=True)
    count_17 = models.IntegerField(null=True)
    count_18 = models.IntegerField(null=True)
    count_19 = models.IntegerField(null=True)
    count_20 = models.IntegerField(null=True)

    class Meta:
        abstract = True


class MatchStanding(Counts):
    """One player's line in a match, as the engine's match rules rank it, and what the
    season's leaderboard adds up from it (``season``, ``game``, ``finished``, ``points``,
    ``scored``, the game's own counts): a season is totalled from these rows alone."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="match_standings")
    total = models.IntegerField()
    deals = models.PositiveIntegerField()
    deals_won = models.PositiveIntegerField()
    rank = models.PositiveIntegerField()
    updated_at = models.DateTimeField(auto_now=True)
    # Indexed with the line's id (Meta.indexes), not alone.
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="match_standings", db_index=False
    )
    game = models.CharField(max_length=20)
    # A night is its own key (issue 56): two club nights on one date are two nights.  Read
    # through the season's covering index (``match_line_by_night``), not by the night alone;
    # a night with matches is never deleted (they are protected), so no index of its own.
    club_night = models.ForeignKey(
        ClubNight,
        on_delete=models.CASCADE,
        related_name="+",
        db_index=False,
        help_text="The match's club night.",
    )
    finished = models.BooleanField()
    points = models.IntegerField(help_text="The sum of the player's deal scores in the match.")
    scored = models.PositiveIntegerField(help_text="The match's deals with a score for the player.")
    top_half = models.BooleanField(
        default=False,
        help_text="A finished match the player ended in its top half: rank × 2 ≤ its players.",
    )
    last_place = models.BooleanField(
        default=False,
        help_text="A finished match the player ended last: nobody below, somebody above.",
    )

    class Meta:
        ordering = ["match", "rank", "player"]
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="match_standing_unique")
        ]
        indexes = [
            models.Index(fields=["season", "game", "player"]),
            # A season's fingerprint is the ids of its lines (scoring.fingerprints): read
            # from this index alone, not from the whole table.
            models.Index(fields=["season", "id"], name="match_line_by_season"),
        ]

    def __str__(self) -> str:
        return f"{self.match}: {self.rank}. {self.player} {self.total}"


class SeasonStanding(Counts):
    """One player's line in a season's leaderboard for one game."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standings")
    game = models.CharField(max_length=20)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="season_standings")
    total = models.IntegerField()
    deals = models.PositiveIntegerField()
    deals_won = models.PositiveIntegerField()
    matches = models.PositiveIntegerField()
    matches_won = models.PositiveIntegerField()
    rank = models.PositiveIntegerField()
    updated_at = models.DateTimeField(auto_now=True)
    # The rank statistics' sums over the player's finished matches (``MatchStanding``):
    # average rank = rank_sum / finished_matches, the top-half and last-place rates by it.
    finished_matches = models.PositiveIntegerField(default=0, help_text="Finished matches played.")
    rank_sum = models.PositiveIntegerField(default=0, help_text="The sum of their ranks.")
    top_half = models.PositiveIntegerField(default=0, help_text="Those ended in the top half.")
    last_place = models.PositiveIntegerField(default=0, help_text="Those ended last.")
    # By the season's ranking (tournaments.ranking): the figure ranked, whether the player has
    # played the qualifying minimum (the others rank after the qualified), and the nights.
    score = models.DecimalField(max_digits=14, decimal_places=3, default=0)
    qualified = models.BooleanField(default=True)
    nights = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["season", "game", "rank", "player"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "game", "player"], name="season_standing_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.season} {self.game}: {self.rank}. {self.player} {self.total}"


class Scope(models.TextChoices):
    """Which deals a rating counts: readers see only ratings made of what they may read
    (``scoring.ratings.scope_for``)."""

    CLUB = "club", "every season of the club"
    PUBLIC = "public", "the club's public seasons"


class Rating(models.Model):
    """A player's current skill rating in one game (the last of their ``RatingHistory``)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=20)
    scope = models.CharField(max_length=6, choices=Scope.choices, default=Scope.CLUB)
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.FloatField(
        help_text="The displayed rating: mu - 3 sigma (OpenSkill's ordinal)."
    )
    deals = models.PositiveIntegerField()

    class Meta:
        ordering = ["game", "-rating", "player"]
        constraints = [
            models.UniqueConstraint(fields=["player", "game", "scope"], name="rating_unique")
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.game}: {self.rating:.1f}"


class RatingHistory(models.Model):
    """A player's rating at the end of one club night in one game: what the rating plot
    draws, and where a replay from a later night starts."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_history")
    game = models.CharField(max_length=20)
    scope = models.CharField(max_length=6, choices=Scope.choices, default=Scope.CLUB)
    club_night = models.ForeignKey(
        ClubNight,
        on_delete=models.CASCADE,
        related_name="+",
        db_index=False,
        help_text="The club night (ratings are replayed by night: by date, then night).",
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.FloatField()
    deals = models.PositiveIntegerField(help_text="The player's deals rated so far in the game.")

    class Meta:
        ordering = ["player", "game", "club_night__date", "club_night_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "game", "scope", "club_night"], name="rating_history_per_night"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.game} {self.club_night_id}: {self.rating:.1f}"


class Fingerprint(models.Model):
    """What a set of derived rows was last made from (issue 26): a season's leaderboards
    (``kind`` "season", ``of`` the season's id: its checked match lines)
    or a club's ratings ("ratings", the club's id: its matches' versions, nights and
    seasons' settings).  A rebuild that finds the same fingerprint writes nothing."""

    kind = models.CharField(max_length=16)
    of = models.BigIntegerField()
    value = models.CharField(max_length=64)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kind", "of"], name="fingerprint_unique")]

    def __str__(self) -> str:
        return f"{self.kind} {self.of}: {self.value}"


class Export(models.Model):
    """A file made by a worker for a club's league administrators, when making it may take
    longer than a web request may (``scoring.jobs``): asked for on a page, made by a
    Celery task that counts its steps, downloaded from the page when done."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting for a worker")
        WORKING = "working", _("being made")
        DONE = "done", _("ready")
        FAILED = "failed", _("failed")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="exports")
    kind = models.CharField(max_length=20, help_text="What is made (scoring.jobs.KINDS).")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    requested_at = models.DateTimeField(default=timezone.now)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    done = models.PositiveIntegerField(default=0, help_text="Steps made so far.")
    steps = models.PositiveIntegerField(default=0, help_text="Steps in all (0: not known yet).")
    name = models.CharField(max_length=255, blank=True, default="", help_text="The file's name.")
    content_type = models.CharField(max_length=100, blank=True, default="")
    data = models.BinaryField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["club", "-requested_at"]
        constraints = [  # one at a time per club and kind: a second request joins it
            models.UniqueConstraint(
                fields=["club", "kind"],
                condition=models.Q(status__in=["waiting", "working"]),
                name="one_export_at_a_time",
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} of {self.club} ({self.status})"


class SeasonFile(models.Model):
    """A season's download kept for the version of what it holds (``scoring.season_files``):
    one row per season, document, format, language and rating scope (``slot``), replaced
    when a newer version is made, so that what is kept is bounded by the seasons, however
    many readers ask.  Served only to a reader who may read the season, checked each time."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="files")
    slot = models.CharField(
        max_length=60, help_text="Document, format, language and rating scope of the file."
    )
    version = models.CharField(max_length=64, help_text="A hash of everything the file is made of.")
    data = models.BinaryField(null=True, blank=True, help_text="Empty while a worker makes it.")
    asked_at = models.DateTimeField(default=timezone.now)
    made_at = models.DateTimeField(
        null=True, blank=True, help_text="Empty while a worker makes it."
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["season", "slot"], name="one_season_file_per_slot")
        ]

    def __str__(self) -> str:
        return f"{self.season} {self.slot} ({self.version[:8]})"


# Standings are read with the rows they summarise: a season's and a match's visibility.
access.scope(SeasonStanding, "season__club", "season")
access.scope(MatchStanding, f"{access.MATCH_PATH}__club", access.MATCH_PATH)
access.scope(Export, "club", None)  # never public
access.scope(SeasonFile, "season__club", "season")

"""A season's club nights, a night's rounds (each a draw of the present players) and its
tables: where the league meets at the table."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop, pgettext_lazy

from tournaments.models.league import Player, Season, game_choices
from tournaments.names import night_label

FINAL_TAKEN = gettext_noop("The season has its final night already.")
"""The refusal of a second final night (the model's check and ``nights.save_night``'s)."""
TABLE_SIZES = (2, 8)
"""A night's or a round's table size: 2 to 8 players (the league's games' sizes)."""
ROUNDS_PLANNED = (1, 20)
TABLE_SIZE_OUT = gettext_noop(
    "A table seats 2 to 8 players: write a number from 2 to 8, or leave it empty."
)
ROUNDS_OUT = gettext_noop(
    "A night plays 1 to 20 rounds: write a number from 1 to 20, or leave it empty."
)


class ClubNight(models.Model):
    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="club_nights")
    date = models.DateField()
    name = models.CharField(
        max_length=40,
        blank=True,
        default="",
        help_text=_(
            "Optional: a short name that tells this night from another on the same date "
            "(Afternoon, Final)."
        ),
    )
    venue = models.CharField(max_length=200, blank=True)
    deals_per_match = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_(
            "Matches of open-ended games (Napoleon, Rettler; 1234 and Bhabhi count games) "
            "started this night end by themselves after this many deals."
        ),
    )

    class Standings(models.TextChoices):
        POINTS = "points", _("raw points")
        RANKS = "ranks", _("table ranks")

    standings = models.CharField(
        max_length=10,
        choices=Standings.choices,
        default=Standings.POINTS,
        help_text=_(
            "The night's standings across tables: the deal scores summed, or points for "
            "each place at a table (a night of several games or table sizes)."
        ),
    )
    rank_points = models.JSONField(
        default=list,
        blank=True,
        help_text=_(
            "Points for first, second, third… at a table (table ranks); empty: 4, 2, 1, 0."
        ),
    )
    present = models.ManyToManyField(
        Player,
        blank=True,
        related_name="+",
        help_text=_("Who came, as the attendance page ticked them: round 1 starts from them."),
    )
    final = models.BooleanField(
        default=False,
        help_text=_(
            "The season's final: a final table drawn this night seats the top qualified "
            "players of the season's leaderboard, and its winner is the season's champion."
        ),
    )

    table_size = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(TABLE_SIZES[0]), MaxValueValidator(TABLE_SIZES[1])],
        help_text=_(
            "Optional: every table of this night's rounds seats this many (a tournament "
            "day at tables of 4); whoever does not fit sits out, in turn. Empty: the draw "
            "picks the sizes nearest the game's best that keep the most pairs apart."
        ),
    )
    rounds_planned = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(ROUNDS_PLANNED[0]), MaxValueValidator(ROUNDS_PLANNED[1])],
        help_text=_(
            "Optional: how many rounds the night plays. With the attendance taken and a "
            "table size, the draw can follow a schedule in which nobody meets twice."
        ),
    )
    draw_plan = models.JSONField(
        null=True,
        blank=True,
        editable=False,
        help_text="The known design the night's rounds follow (tournaments.draw_plan).",
    )
    starts_at = models.TimeField(
        _("starts at"),
        null=True,
        blank=True,
        help_text=_("Optional: when the night begins, in the club's time zone (calendars)."),
    )
    ends_at = models.TimeField(
        _("ends at"),
        null=True,
        blank=True,
        help_text=_("Optional: when the night ends (after midnight: the next day)."),
    )
    cancelled_at = models.DateTimeField(
        null=True, blank=True, editable=False, help_text="When the night was called off."
    )
    sequence = models.PositiveIntegerField(
        default=0,
        editable=False,
        help_text="Raised when the night's date, time, place or state changes (iCalendar "
        "SEQUENCE): calendars replace what they hold.",
    )
    changed_at = models.DateTimeField(
        default=timezone.now,
        editable=False,
        help_text="When the night's calendar entry last changed (LAST-MODIFIED).",
    )

    form_key = models.CharField(
        max_length=64,
        blank=True,
        default="",
        editable=False,
        help_text="The new-night form's one-time key (empty: none): the same form sent "
        "twice (a double tap) adds the night once.",
    )

    replayed = False
    """Set on the night :func:`~actions.nights.save_night` returns when its form key had
    stored it before (not a column)."""

    class Meta:
        ordering = ["-date", "-id"]  # two nights on one date: the later made first
        verbose_name = pgettext_lazy("model", "club night")
        verbose_name_plural = pgettext_lazy("model", "club nights")
        # The latest nights first (home page, admin) read from the newest end, not sorted.
        indexes = [models.Index(fields=["date", "id"], name="night_latest")]
        constraints = [
            models.UniqueConstraint(
                fields=["season"], condition=models.Q(final=True), name="one_final_a_season"
            ),
            models.UniqueConstraint(
                fields=["season", "form_key"],
                condition=~models.Q(form_key=""),
                name="night_form_key_unique_in_season",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.season.name} {night_label(self)}"

    def clean(self) -> None:
        if self.final and self.season_id and ClubNight.final_taken(self.season_id, self.pk):
            raise ValidationError({"final": _(FINAL_TAKEN)})

    @staticmethod
    def final_taken(season_id: int, pk: int | None = None) -> bool:
        """Another night of the season is its final (a season has one)."""
        others = ClubNight.objects.filter(season_id=season_id, final=True)
        return others.exclude(pk=pk).exists() if pk else others.exists()


class Round(models.Model):
    """A round of a club night played in rounds (``actions.rounds``): a draw of the
    present players onto tables, each playing the round's length; who sat out."""

    class Method(models.TextChoices):
        BALANCED = "balanced", _("balanced")
        SWISS = "swiss", _("Swiss")
        FINAL = "final", _("final table")

    club_night = models.ForeignKey(ClubNight, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    game = models.CharField(max_length=20, choices=game_choices)
    method = models.CharField(max_length=10, choices=Method.choices)
    deals = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_("Deals per match (open-ended games); else the game's end."),
    )
    sat_out = models.ManyToManyField(Player, blank=True, related_name="rounds_sat_out")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    ended_early_at = models.DateTimeField(null=True, blank=True)
    ended_early_reason = models.CharField(max_length=500, blank=True, default="")

    class Meta:
        ordering = ["club_night", "number"]
        constraints = [
            models.UniqueConstraint(fields=["club_night", "number"], name="round_number_unique")
        ]

    def __str__(self) -> str:
        return f"{self.club_night} round {self.number}"


class Table(models.Model):
    club_night = models.ForeignKey(ClubNight, on_delete=models.CASCADE, related_name="tables")
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.CASCADE, related_name="tables"
    )
    name = models.CharField(max_length=60)
    scorer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="scored_tables",
    )
    link_token = models.CharField(
        max_length=64,
        blank=True,
        default="",
        db_default="",
        db_index=True,
        help_text=_(
            "The secret of the table's link (tournaments.table_links): whoever holds it enters "
            "and corrects this table's deals that night. Empty: no link (or revoked)."
        ),
    )
    link_revoked_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_(
            "The table's link was revoked: no link is made for it until an administrator "
            "makes a new one."
        ),
    )

    class Meta:
        ordering = ["club_night", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["club_night", "name"],
                condition=models.Q(round__isnull=True),
                name="table_name_unique_per_night",
            ),
            # A night in rounds names its tables again in every round (the room's tables).
            models.UniqueConstraint(
                fields=["round", "name"],
                condition=models.Q(round__isnull=False),
                name="table_name_unique_per_round",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club_night} {self.name}"


class LinkScorer(models.Model):
    """A seated player who proved with their PIN that they score on a phone that holds the
    table's link (``tournaments.table_links.bind``): the deals that phone enters or
    changes are theirs, and they never confirm them (``actions.confirmation``)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="link_scorers")
    holder = models.CharField(
        max_length=32, help_text=_("The phone's link-holder id (tournaments.table_links).")
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    bound_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["table", "holder", "player"], name="link_scorer_once_per_phone"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} scores on a phone at {self.table}"

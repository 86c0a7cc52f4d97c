"""A season's divisions (issue 40): its players placed in A, B, C…, and the moves between
one season's divisions and the next's when it closes (``tournaments.divisions``)."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models.league import Player, Season


class Division(models.Model):
    """One division of a season; ``order`` 0 is the top one (A)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="divisions")
    name = models.CharField(max_length=20)
    order = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["season", "order"]
        constraints = [
            models.UniqueConstraint(fields=["season", "name"], name="division_name_unique"),
            models.UniqueConstraint(fields=["season", "order"], name="division_order_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.season.name} {self.name}"


class Placement(models.Model):
    """A player's division in a season: at most one (the season is repeated here so that
    the database keeps it to one)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="placements")
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="placements")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="placements")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="one_division_a_season")
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.division}"


class Move(models.Model):
    """Where a player of a closed season goes in the next one: the player's history."""

    class Kind(models.TextChoices):
        UP = "up", _("promoted")
        DOWN = "down", _("relegated")
        STAY = "stay", _("stays")
        NEW = "new", _("placed")
        LEFT = "left", _("not placed")

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="moves_made")
    next_season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="moves")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    division = models.CharField(
        max_length=20, blank=True, help_text=_("The division in the closed season ('': none).")
    )
    rank = models.PositiveIntegerField(
        null=True, blank=True, help_text=_("The player's rank in that division.")
    )
    next_division = models.CharField(
        max_length=20, blank=True, help_text=_("The division in the next season ('': none).")
    )
    made_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["season", "kind", "player"]
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="one_move_a_season")
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.division or '–'} → {self.next_division or '–'}"

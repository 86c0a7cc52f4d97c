"""Standings rows: derived data, rebuilt from the deals by ``scoring.standings``."""

from __future__ import annotations

from django.db import models

from tournaments.models import Match, Player, Season


class MatchStanding(models.Model):
    """One player's line in a match, as the engine's match rules rank it."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="match_standings")
    total = models.IntegerField()
    deals = models.PositiveIntegerField()
    deals_won = models.PositiveIntegerField()
    rank = models.PositiveIntegerField()
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["match", "rank", "player"]
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="match_standing_unique")
        ]

    def __str__(self) -> str:
        return f"{self.match}: {self.rank}. {self.player} {self.total}"


class SeasonStanding(models.Model):
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

    class Meta:
        ordering = ["season", "game", "rank", "player"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "game", "player"], name="season_standing_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.season} {self.game}: {self.rank}. {self.player} {self.total}"

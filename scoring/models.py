"""Standings and ratings: derived data, rebuilt from the deals by ``scoring.standings``
and ``scoring.ratings``."""

from __future__ import annotations

from django.db import models

from tournaments import access
from tournaments.models import Deal, Match, Player, Season


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


class Rating(models.Model):
    """A player's current skill rating in one game (the last of their ``RatingHistory``)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=20)
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.FloatField(
        help_text="The displayed rating: mu - 3 sigma (OpenSkill's ordinal)."
    )
    deals = models.PositiveIntegerField()

    class Meta:
        ordering = ["game", "-rating", "player"]
        constraints = [models.UniqueConstraint(fields=["player", "game"], name="rating_unique")]

    def __str__(self) -> str:
        return f"{self.player} {self.game}: {self.rating:.1f}"


class RatingHistory(models.Model):
    """A player's rating after one deal; ``seq`` orders a club's deals of one game."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_history")
    game = models.CharField(max_length=20)
    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="rating_history")
    night = models.DateField(
        help_text="The club night of the deal (ratings are replayed by night)."
    )
    seq = models.PositiveIntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.FloatField()
    deals = models.PositiveIntegerField()

    class Meta:
        ordering = ["player", "game", "seq"]
        indexes = [models.Index(fields=["player", "game", "seq"])]
        constraints = [
            models.UniqueConstraint(fields=["player", "deal"], name="rating_history_unique")
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.game} #{self.seq}: {self.rating:.1f}"


# Standings are read with the rows they summarise: a season's and a match's visibility.
access.scope(SeasonStanding, "season__club", "season")
access.scope(MatchStanding, f"{access.MATCH_PATH}__club", access.MATCH_PATH)

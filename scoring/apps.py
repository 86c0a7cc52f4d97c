from django.apps import AppConfig


class ScoringConfig(AppConfig):
    """The derived rows: standings, ratings, leaderboards, exports; refreshed by the
    tasks the actions hand on after their commits (``actions.after``)."""

    name = "scoring"
    default_auto_field = "django.db.models.BigAutoField"

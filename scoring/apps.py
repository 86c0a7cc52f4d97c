from typing import Any

from django.apps import AppConfig


def _queue_refresh(sender: Any, match_id: int, **kwargs: Any) -> None:
    from scoring.tasks import refresh_standings

    refresh_standings.delay(match_id)


def _queue_rebuild(sender: Any, season_ids: list[int], **kwargs: Any) -> None:
    from scoring.tasks import refresh_seasons

    refresh_seasons.delay(season_ids)


def _queue_season(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A season saved (made public or private, its games or confirmation changed): its
    standings and its club's ratings are derived from it, so both are made again."""
    from django.db import transaction

    from scoring.tasks import refresh_season

    season_id = instance.pk
    transaction.on_commit(lambda: refresh_season.delay(season_id), robust=True)


class ScoringConfig(AppConfig):
    name = "scoring"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from tournaments.events import deals_changed, seasons_changed_signal
        from tournaments.models import Season

        deals_changed.connect(_queue_refresh, dispatch_uid="scoring.refresh_standings")
        seasons_changed_signal.connect(_queue_rebuild, dispatch_uid="scoring.refresh_seasons")
        post_save.connect(_queue_season, sender=Season, dispatch_uid="scoring.season_saved")

from typing import Any

from django.apps import AppConfig


def _queue_refresh(sender: Any, match_id: int, **kwargs: Any) -> None:
    from scoring.tasks import refresh_standings

    refresh_standings.delay(match_id)


def _queue_rebuild(sender: Any, season_ids: list[int], **kwargs: Any) -> None:
    from scoring.tasks import refresh_seasons

    refresh_seasons.delay(season_ids)


class ScoringConfig(AppConfig):
    name = "scoring"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tournaments.events import deals_changed, seasons_changed_signal

        deals_changed.connect(_queue_refresh, dispatch_uid="scoring.refresh_standings")
        seasons_changed_signal.connect(_queue_rebuild, dispatch_uid="scoring.refresh_seasons")

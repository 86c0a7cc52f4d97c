from typing import Any

from django.apps import AppConfig


def _queue_refresh(sender: Any, match_id: int, **kwargs: Any) -> None:
    from scoring.tasks import refresh_standings

    refresh_standings.delay(match_id)


class ScoringConfig(AppConfig):
    name = "scoring"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tournaments.events import deals_changed

        deals_changed.connect(_queue_refresh, dispatch_uid="scoring.refresh_standings")

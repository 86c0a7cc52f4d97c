from typing import Any

from django.apps import AppConfig


def _fan_out(sender: Any, kind: str, ids: dict[str, int], **kwargs: Any) -> None:
    from reach.tasks import fan_out

    fan_out.delay(kind, ids)


class ReachConfig(AppConfig):
    """Reaching players and a club's tools: push, webhooks (``reach.sources`` turns what
    the league announces into events)."""

    name = "reach"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tournaments.events import happened

        happened.connect(_fan_out, dispatch_uid="reach.fan_out")

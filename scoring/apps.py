from typing import Any

from django.apps import AppConfig


def _queue_refresh(sender: Any, match_id: int, **kwargs: Any) -> None:
    from scoring.tasks import refresh_standings

    refresh_standings.delay(match_id)


def _queue_rebuild(sender: Any, season_ids: list[int], **kwargs: Any) -> None:
    from scoring.tasks import refresh_seasons

    refresh_seasons.delay(season_ids)


DERIVED_FROM = ("public", "require_confirmation", "games")
"""A season's settings that its standings and its club's ratings are derived from."""


def _note_season(sender: Any, instance: Any, **kwargs: Any) -> None:
    """Before a season is saved: what its settings were (nothing for a new season)."""
    before = (
        sender.objects.filter(pk=instance.pk).values(*DERIVED_FROM).first() if instance.pk else None
    )
    instance._derived_from = before


def _queue_season(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    """A season made public or private, or its games or confirmation changed: its
    standings and its club's ratings are made again once the change commits.  A new
    season has no match yet: nothing to make."""
    from django.db import transaction
    from django.db.models import F

    from scoring.tasks import refresh_season
    from tournaments.models import Match

    before = getattr(instance, "_derived_from", None)
    if created or before is None:
        return
    if all(before[name] == getattr(instance, name) for name in DERIVED_FROM):
        return
    season_id = instance.pk
    if before["require_confirmation"] != instance.require_confirmation:
        # What counts changed for every match of the season: each is checked again.
        Match.objects.filter(table__club_night__season_id=season_id).update(
            version=F("version") + 1
        )
    transaction.on_commit(lambda: refresh_season.delay(season_id), robust=True)


class ScoringConfig(AppConfig):
    name = "scoring"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_save, pre_save

        from tournaments.events import deals_changed, seasons_changed_signal
        from tournaments.models import Season

        deals_changed.connect(_queue_refresh, dispatch_uid="scoring.refresh_standings")
        seasons_changed_signal.connect(_queue_rebuild, dispatch_uid="scoring.refresh_seasons")
        pre_save.connect(_note_season, sender=Season, dispatch_uid="scoring.season_saving")
        post_save.connect(_queue_season, sender=Season, dispatch_uid="scoring.season_saved")

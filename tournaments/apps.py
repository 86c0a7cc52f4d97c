from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models import ForeignKey

        from tournaments.bulk import AnyOf
        from tournaments.models import Player
        from tournaments.renames import rewrite_records

        ForeignKey.register_lookup(AnyOf)

        Player.on_rename = rewrite_records

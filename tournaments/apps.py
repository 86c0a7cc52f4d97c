from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models import ForeignKey

        from dbtools.lookups import AnyOf

        ForeignKey.register_lookup(AnyOf)

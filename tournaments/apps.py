from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models import ForeignKey
        from django.db.models.signals import post_save

        from dbtools.lookups import AnyOf
        from tournaments.invitations import keep_account_name

        ForeignKey.register_lookup(AnyOf)

        post_save.connect(keep_account_name, sender=get_user_model(), dispatch_uid="account_name")

from django.apps import AppConfig


class ActionsConfig(AppConfig):
    """The workflows (no models); an app so that every saved account keeps the key of
    its name's look (``actions.invitations.keep_account_name``), however it was saved."""

    name = "actions"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_save

        from actions.invitations import keep_account_name

        post_save.connect(keep_account_name, sender=get_user_model(), dispatch_uid="account_name")

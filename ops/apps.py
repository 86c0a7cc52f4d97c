from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OpsConfig(AppConfig):
    name = "ops"

    def ready(self) -> None:
        from ops.backup import backup_file
        from scoring import jobs

        # A club's backup, downloaded by its league administrators from the club's page.
        jobs.register("backup", _("The club's backup"), _("Prepare the club's backup"), backup_file)

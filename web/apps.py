from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "web"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from web.caching import signed_out

        # Every sign-out (the site's, the Django admin's, the browsable API's) clears
        # the browser's copy of the site (web.caching).
        user_logged_out.connect(signed_out, dispatch_uid="web.clear_site_data")

"""WSGI entry point: ``gunicorn config.wsgi``.

Once the project is loaded (its URLconf imports every view), everything loaded so far
is taken out of the garbage collector's reach (``gc.freeze``): about 200,000 objects
that live as long as the process.  A full collection otherwise walks them all, about
100 ms on these machines, every few requests of a page that makes many objects (the
admin's lists); frozen, it walks only what requests made since.
"""

import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()
get_resolver().url_patterns  # noqa: B018  (imports every view before the freeze)
gc.collect()
gc.freeze()

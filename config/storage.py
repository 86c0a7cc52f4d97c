"""Static files as production serves them."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFiles(CompressedManifestStaticFilesStorage):
    """WhiteNoise's compressed files with hashed names, the ``import`` statements of the
    JavaScript modules rewritten to the hashed names as well (Django's
    ``support_js_module_import_aggregation``): the entry page's modules always import the
    version their page was served with, and the service worker keeps that version."""

    support_js_module_import_aggregation = True

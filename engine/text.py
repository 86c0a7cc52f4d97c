"""Message templates: the engine speaks English; the league app translates.

:func:`gettext_noop` marks a template (with ``%(name)s`` placeholders) so that the
league app's ``makemessages`` finds it; the engine imports no translation machinery.
"""

from __future__ import annotations


def gettext_noop(template: str) -> str:
    """Marks ``template`` for translation and returns it unchanged."""
    return template

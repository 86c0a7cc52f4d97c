"""A small database toolkit under the league: what PostgreSQL does faster than the ORM
(``COPY``, rows streamed from the server, plan settings for a transaction, the ``any_of``
lookup) and the one seam where the code chooses between PostgreSQL and the embedded
demo's SQLite (:mod:`dbtools.backend`).  It knows nothing of clubs or games: it imports
Django and nothing of the project."""

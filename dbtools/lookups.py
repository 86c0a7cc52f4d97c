"""Lookups the ORM lacks, registered on foreign keys by the league app."""

from __future__ import annotations

from typing import Any

from django.db.models import Lookup


class AnyOf(Lookup):
    """``player__any_of=<ids subquery>``: on PostgreSQL ``= ANY(ARRAY(subquery))``, the ids
    made into an array once and each looked up in the column's index, where ``IN
    (subquery)`` is a join PostgreSQL often answers by reading the whole table, again for
    every batch of clubs (docs/benchmarks.md); ``IN (subquery)`` elsewhere.  Registered on foreign keys
    (``tournaments.apps``)."""

    lookup_name = "any_of"

    def as_sql(self, compiler: Any, connection: Any) -> tuple[str, list[Any]]:
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        return f"{lhs} IN {rhs}", [*lhs_params, *rhs_params]

    def as_postgresql(self, compiler: Any, connection: Any) -> tuple[str, list[Any]]:
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        return f"{lhs} = ANY(ARRAY{rhs})", [*lhs_params, *rhs_params]

"""What a club does: every workflow that changes the league, one module per concept.

The floor between the data (``tournaments``, ``scoring``, ``reach``) and the ways in
(``web``'s pages and API, ``ops``' commands): a view or a command translates a request
into one call here and the answer back into a response; it never composes the layers
below itself.  See ``docs/architecture.md`` ("The actions floor").
"""

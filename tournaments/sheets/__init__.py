"""Past score sheets brought in from a spreadsheet: one row per deal.

A sheet's columns are the table-side entry form's, made generic: the date, the
table, the game, the players in seat order and the game's own fields as its web
module (:mod:`tournaments.games`) adds them to the entry form, with their English
and Japanese labels as headings (:mod:`~tournaments.sheets.columns`).  A file is
read into cells (:mod:`~tournaments.sheets.cells`: CSV in UTF-8 or Shift_JIS, or
XLSX), checked as a whole without writing (:mod:`~tournaments.sheets.check`: every
deal by the engine, every mistake by row and column), and written in one
transaction (:mod:`~actions.imports`).  :mod:`~tournaments.sheets.template`
makes the blank templates.
"""

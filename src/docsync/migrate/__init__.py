"""``docsync migrate``: collapse legacy ADR/RFC trees into one lifecycle tree.

Data moves one way: :mod:`.discover` finds the legacy trees and reads each
record once (:mod:`.status` reads its status, :mod:`.tree` the records
already in the target tree); :mod:`.plan` turns them into a
:class:`~.model.Plan`, read-only, and :mod:`.planfile` writes and reads it as
TOML; :mod:`.changes` computes every file's new content in memory
(:mod:`.assemble` builds record bodies, :mod:`docsync.rewrite.references` fixes
references; :mod:`.adoption` adds the adoption record and the conventions
doc); :mod:`.apply` is the only module that changes the repository,
and it rolls back on failure. :mod:`.run` gathers what a run reads, once;
:mod:`.show` renders a plan for people and programs.
"""

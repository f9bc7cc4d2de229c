"""``docsync migrate``: collapse legacy ADR/RFC trees into one lifecycle tree.

Data moves one way, through four rooms; a room imports only the rooms before it
and :mod:`.model` (the types all share; ``tests/test_architecture.py`` checks it):

- :mod:`.read`: what is there. :mod:`.read.discover` finds the legacy trees and reads
  each record once (:mod:`.read.status` its status, :mod:`.read.tree` the records
  already in the target tree, :mod:`.read.dating` when each first appeared).
- :mod:`.plan`: what becomes what. :mod:`.plan.plan` turns what was read into a
  :class:`~.model.Plan`, read-only, and :mod:`.plan.planfile` writes and reads it as TOML.
- :mod:`.rewrite`: every byte the plan changes, in memory. :mod:`.rewrite.changes`
  computes every file's new content (:mod:`.rewrite.assemble` builds record bodies,
  :mod:`docsync.rewrite.references` fixes references; :mod:`.rewrite.adoption` adds the
  adoption record and the conventions doc).
- :mod:`.apply`: :mod:`.apply.apply` is the only module that changes the repository,
  and it rolls back on failure; :mod:`.apply.verdict` checks what it wrote.

On top, :mod:`.run` gathers what a run reads, once, and wires the stages;
:mod:`.show` renders a plan for people and programs.
"""

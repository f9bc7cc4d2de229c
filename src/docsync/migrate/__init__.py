"""``docsync migrate``: collapse legacy ADR/RFC trees into one lifecycle tree.

Data moves one way: :mod:`.discover` finds the legacy trees and reads each
record once (:mod:`.status` reads its status), :mod:`.plan` turns them into a
:class:`~.model.Plan` (read-only; :mod:`.planfile` writes and reads it as
TOML), :mod:`.changes` computes every file's new content in memory
(:mod:`.assemble` builds record bodies, the rewriter fixes references), and
:mod:`.apply` is the only module that writes, with a full rollback.
:mod:`.run` wires these together for the CLI; :mod:`.show` renders a plan.
"""

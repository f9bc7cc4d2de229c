"""``docsync new`` and ``docsync move``: records enter the tree and change state."""

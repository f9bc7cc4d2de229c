"""``docsync check`` and ``docsync fix`` as plain functions: results in, no printing."""

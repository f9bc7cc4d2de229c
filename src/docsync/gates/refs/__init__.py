"""Gate ``refs``: nothing names a record by a former id or a path that moved."""

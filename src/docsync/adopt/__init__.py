"""``docsync init``: plan and write the files that adopt docsync."""

"""Gate ``links``: its check and its fix."""

"""Gate ``wrap``: its check, its fix, and the counts ``init`` weighs."""

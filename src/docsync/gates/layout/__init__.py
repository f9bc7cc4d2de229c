"""Gate ``layout``: the record tree stays in the shape migrate left it."""

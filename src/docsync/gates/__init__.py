"""The gates: each a pure function from parsed documents to findings."""

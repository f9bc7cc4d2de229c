"""Which findings are reported (selection, suppressions) and how they are rendered."""

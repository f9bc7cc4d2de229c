"""docsync: governance for design records kept as Markdown."""

__version__ = "0.1.0"
DISTRIBUTION = "docsync-records"
"""The name docsync is published under (``docsync`` on the package index is another project)."""

"""docsync: governance for design records kept as Markdown."""

__version__ = "0.1.0"

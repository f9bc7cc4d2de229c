"""The parsers: bytes to the document model (markdown-it), GitHub's slugs and rendering, program comments."""

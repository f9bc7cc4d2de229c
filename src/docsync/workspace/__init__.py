"""Discover a repository's Markdown files and parse each once, with a content-keyed cache."""

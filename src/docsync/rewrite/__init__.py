"""Rewriting references when files move: links, fragments and bare ids."""

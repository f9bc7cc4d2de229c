"""What is there: the legacy trees, each record's id, title and status, when its content
first appeared, which relations it writes, and which other tools point at it.

The first room of a migration. It imports no other room; every room after it may import it.
"""

"""The only writes of a migration, and what ``check`` says of them afterwards.

It imports only the rooms before it (read, plan, rewrite) and :mod:`..model`.
"""

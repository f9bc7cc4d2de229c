"""What becomes what: topics, states, dates, slugs and retirements, and the plan as a
person edits it (TOML).

It imports only :mod:`..read` and :mod:`..model`.
"""

"""Every byte the plan changes, computed in memory: where each old path, heading and id
leads, and each file's new text. Nothing here writes.

It imports only :mod:`..read`, :mod:`..plan` and :mod:`..model`.
"""

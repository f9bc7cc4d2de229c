"""Which rule codes are reported: ``select``, ``ignore`` and ``per-file-ignores``.

A selector is a rule code (``L001``), a prefix of codes (``L``, ``W00``) or a
gate name (``links``, which means the gate's codes). As in ruff, the most
specific selector that matches a code decides: ``select = ["L"]`` with
``ignore = ["L009"]`` reports every links rule but L009, and
``ignore = ["W"]`` with ``select = ["W002"]`` reports W002 alone of the wrap
rules. When a selector of ``ignore`` is exactly as specific as one of
``select``, ignore wins. An empty ``select`` selects everything.
``per-file-ignores`` adds selectors to ``ignore`` for the files its globs match.

Opt-in rules (:data:`~docsync.gates.rules.OPT_IN`, L009 and L010) are off unless
``select`` names their exact code; a code of theirs in ``select`` turns the rule
on and narrows nothing (``select = ["L009"]`` reports the defaults and L009).
An opt-in rule that is off is not reported, nor counted as silenced.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..config import Config
from ..errors import ConfigError
from ..gates.rules import OPT_IN, Rule, all_rules
from ..suggest import did_you_mean

GATE_SPECIFICITY = 1
"""A gate name is as broad as its family's letter (``links`` is ``L``)."""


def gate_names() -> tuple[str, ...]:
    return tuple(dict.fromkeys(rule.gate for rule in all_rules()))


def _specificity(selector: str, rule: Rule) -> int:
    """How specifically ``selector`` names ``rule``; -1 when it does not."""
    if selector == rule.gate:
        return GATE_SPECIFICITY
    return len(selector) if rule.code.startswith(selector) else -1


def _best(selectors: Iterable[str], rule: Rule) -> int:
    return max((_specificity(s, rule) for s in selectors), default=-1)


def normalized(selector: str) -> str:
    """Codes and prefixes in upper case; gate names as they are."""
    return selector if selector.lower() in gate_names() else selector.upper()


def validate(selectors: Iterable[str], where: str) -> tuple[str, ...]:
    """The selectors, normalised; :class:`ConfigError` for one that names no rule."""
    rules = all_rules()
    out: list[str] = []
    for raw in selectors:
        selector = normalized(raw.strip())
        if not selector or not any(_specificity(selector, rule) >= 0 for rule in rules):
            known = [*gate_names(), *(rule.code for rule in rules)]
            raise ConfigError(
                f"{where}: {raw!r} names no rule code, prefix or gate{did_you_mean(raw, known)}"
            )
        out.append(selector.lower() if selector.lower() in gate_names() else selector)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Selection:
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    opted: frozenset[str] = frozenset()
    """The opt-in rules ``select`` names."""

    @classmethod
    def of(
        cls, config: Config, select: Sequence[str] | None = None, ignore: Sequence[str] = ()
    ) -> Selection:
        """Config's selection; ``--select`` replaces config's, ``--ignore`` adds to it."""
        chosen = validate(select, "--select") if select else validate(config.select, config.origin)
        ignored = validate(config.ignore, config.origin) + validate(ignore, "--ignore")
        per_file = tuple(
            (glob, validate(codes, f"{config.origin} per-file-ignores {glob!r}"))
            for glob, codes in config.per_file_ignores
        )
        opted = frozenset(s for s in chosen if s in OPT_IN)
        return cls(tuple(s for s in chosen if s not in OPT_IN), ignored, per_file, opted)

    @property
    def off(self) -> frozenset[str]:
        """The opt-in rules this selection leaves off: dropped, not silenced."""
        return OPT_IN - self.opted

    @property
    def everything(self) -> bool:
        return not self.select and not self.ignore and not self.per_file_ignores

    def _ignored_in(self, path: str) -> tuple[str, ...]:
        if not self.per_file_ignores:
            return self.ignore
        from ..workspace.load import matches

        extra = [s for glob, codes in self.per_file_ignores if matches(path, [glob]) for s in codes]
        return (*self.ignore, *extra)

    def reports(self, rule: Rule, path: str | None = None) -> bool:
        """Whether ``rule`` is reported (in ``path``; None: ignoring per-file-ignores)."""
        if rule.opt_in:
            return rule.code in self.opted and len(rule.code) > _best(self._ignored(path), rule)
        chosen = _best(self.select, rule) if self.select else 0
        if chosen < 0:
            return False
        return chosen > _best(self._ignored(path), rule)

    def _ignored(self, path: str | None) -> tuple[str, ...]:
        return self.ignore if path is None else self._ignored_in(path)

    def gates(self, gates: Sequence[str]) -> tuple[str, ...]:
        """The gates of ``gates`` that have at least one reported rule somewhere."""
        if not self.select and not self.ignore:
            return tuple(gates)
        reported = {rule.gate for rule in all_rules() if self.reports(rule)}
        return tuple(g for g in gates if g in reported)

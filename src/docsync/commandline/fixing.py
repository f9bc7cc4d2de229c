"""``docsync fix -`` as the command line runs it: the text on stdin fixed as the named file,
printed; nothing is written, so no journal and no unfinished-run check."""

from __future__ import annotations

from pathlib import Path

from . import arguments, output


def fix_stdin(
    stdin: tuple[str, str],
    gates: list[str] | None,
    select: list[str] | None,
    ignore: list[str] | None,
    config_path: Path | None,
    *,
    dry: bool,
    diff: bool,
) -> int:
    """The fixed text (its diff with ``diff``, nothing when ``dry``) on stdout, what is left
    on stderr; the exit code (:meth:`~docsync.check.fix.TextFix.exit_code`)."""
    from ..check.fix import fix_text  # only `fix` needs the gates' fixes

    fixed = fix_text(
        Path.cwd(),
        *stdin,
        gates,
        config=arguments.config(config_path),
        select=arguments.codes(select) or None,
        ignore=arguments.codes(ignore),
    )
    output.fix_text_report(fixed, stdin[1], dry=dry, diff=diff)
    return fixed.exit_code(dry)

"""Command help made from a function's docstring."""

from __future__ import annotations

import inspect
import os


def help_text(doc: str | None, rich: bool | None = None) -> str:
    """A docstring as command help: each paragraph on one line (the help formatter wraps
    it to the terminal), and ``\\b`` blocks (examples) kept line for line. Typer's Rich help
    keeps single line breaks, which wrapped paragraphs raggedly, and shows ``\\b`` as an
    empty line."""
    if rich is None:
        rich = os.environ.get("TYPER_USE_RICH", "1") not in ("0", "false", "False")
    out = []
    for i, paragraph in enumerate(inspect.cleandoc(doc or "").split("\n\n")):
        if not paragraph.startswith("\b\n"):
            out.append(" ".join(line.strip() for line in paragraph.splitlines()))
        elif not rich:
            out.append(paragraph)
        else:  # Typer dedents what follows the first paragraph by the indentation of its
            # lines after the first: a leading empty line keeps "Example:" in that count
            out.append(("\n" if i == 1 else "") + paragraph[2:])
    return "\n\n".join(out)

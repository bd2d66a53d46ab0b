"""The work of ``papers --library LIB search TERM`` without the command line around it.

    python benchmarks/search_floor.py LIB TERM

Opens the index, runs the same query with the same snippets and prints the same
tab-separated lines as a piped ``papers search``, calling the plain functions the Typer
command calls. Timed beside ``papers search`` in ``run.py``, the difference is what Typer
(import, building the commands, parsing) costs a search.
"""

from __future__ import annotations

import sys
from pathlib import Path

from papercli.engine import lean
from papercli.render import Environment, print_hits, snippet_width
from papercli.search.index.paper_index import PaperIndex
from papercli.search.questions.search import search
from papercli.store.library import Library


def main(library: str, text: str) -> int:
    lean.load()  # as the command line imports Whoosh (this script is a program too)
    env = Environment.of_process()
    index = PaperIndex(Library(Path(library))).open()
    hits = search(index, text, None, snippet_cells=snippet_width(env))
    print_hits(env, hits, scores=True)
    return 0 if hits else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))

"""Whoosh, adapted: the one package that reaches into Whoosh's private classes.

Everything else in papers uses Whoosh's public interface (queries, the query parser,
fields, analysis, searchers and readers). What replaces or patches a piece of Whoosh lives
here, each with a differential test against Whoosh's own (``tests/engine/``):

    lean.py      Whoosh imported without the modules it never uses (when a command starts)
    codec.py     the segment format: stored fields uncompressed, terms looked up once
    pool.py      the posting pool of an indexing writer, compact, spilling to private runs
    writers.py   writers with a temporary folder of their own; leftovers of dead writers
    parallel.py  Whoosh's multiprocess writer, safe to interrupt, kill and fill the disk
    unions.py    an OR matched by a plain tree of unions (the query-class swap)
    scoring.py   every match's score, as Whoosh's unlimited search makes it
    postings.py  a term's postings and a phrase's matches, read a block at a time
    ranking.py   the best hits, equal scores ordered by paper id

All of it is written against one release, which ``check_version`` insists on (when a command
starts, and when an index is opened).
"""

from __future__ import annotations

from ..errors import PapersError

WHOOSH_VERSION = (2, 7, 5)  # whoosh-reloaded, pinned in pyproject.toml


class EngineVersionError(PapersError):
    """Whoosh is not the release this package was written against."""


def check_version() -> None:
    """Raise ``EngineVersionError`` unless the installed Whoosh is ``WHOOSH_VERSION``: the
    pieces here replace Whoosh's private classes, whose shape is only known for it."""
    import whoosh  # (its package alone: a version tuple, nothing imported)

    found = tuple(whoosh.__version__[:3])
    if found != WHOOSH_VERSION:
        want, have = (".".join(map(str, v)) for v in (WHOOSH_VERSION, found))
        raise EngineVersionError(
            f"papers needs whoosh-reloaded {want}, found {have}: "
            f"pip install 'whoosh-reloaded=={want}'"
        )

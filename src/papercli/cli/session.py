"""One ``Session`` per command: its settings, output environment, taxonomy, library and
index, each made when first asked for."""

from __future__ import annotations

import os
from functools import cached_property

from ..errors import NothingFound, UsageError

ADD_PAPERS = "papers ingest FILE… (or papers ingest --sample for two example documents)"


class Session:
    """What one command works with, made once when it starts and handed to it as
    ``ctx.obj``: the flags given, the settings in force, where output goes, the taxonomy
    and the library. Nothing here outlives the command."""

    def __init__(self) -> None:
        self.flags: dict[str, str | None] = {"library": None, "color": None}
        self._index = None  # the index, once a command has asked for it

    @cached_property
    def settings(self) -> dict:
        from .. import config

        return config.load(self.flags)

    @cached_property
    def env(self):
        from ..render import Environment

        return Environment.of_process(self.settings["color"].value)

    @cached_property
    def taxonomy(self):
        from ..tags.taxonomy import load_taxonomy

        return load_taxonomy(self.settings["taxonomy"].value)

    def resolve_tag(self, name: str) -> str | None:
        """The tag an alias names (联邦学习 → federated-learning): the taxonomy is read
        only when a query asks for a tag."""
        return self.taxonomy.resolve(name)

    def out(self, line: str) -> None:
        self.env.stdout.write(line + "\n")

    def piped_ids(self, example: str) -> list[str]:
        """The paper ids piped in where ``-`` stands for them (as ``--ids`` writes them:
        whitespace between). A terminal is not read: the command would wait for a typed
        list nobody knows it wants."""
        stdin = self.env.stdin
        if stdin is None or self.env.stdin_is_terminal:
            raise UsageError(f"'-' reads paper ids piped in, and none are: {example}")
        ids = stdin.read().split()
        if not ids:
            raise UsageError(f"no paper ids on standard input: {example}")
        return ids

    def library(self, create: bool = False):
        """The library in force; unless *create* (ingest), one that does not exist is an
        error that names the path: a mistyped --library must not look like an empty one."""
        from ..store.library import Library

        library = Library(self.settings["library"].value)
        if not create and not library.root.is_dir():
            what = "is not a folder" if library.root.exists() else "does not exist"
            raise UsageError(
                f"no library at {library.root}: it {what}; create one with {ADD_PAPERS}"
            )
        if not create and _other_folder(library):  # (not made a library by a search in it)
            raise UsageError(
                f"no library at {library.root}: the folder holds other files and no papers/; "
                "--library names a library's folder"
            )
        if create:  # (a file where the library or one of its parents should be)
            there = next(p for p in (library.root, *library.root.parents) if p.exists())
            if not there.is_dir():
                raise UsageError(f"cannot make a library at {library.root}: {there} is a file")
        env = self.env
        library.on_wait = lambda: env.say(
            f"waiting for another papers command to finish writing to {library.root} …"
        )
        recovered = library.recover()  # two stats unless a killed process left work behind
        if recovered:
            env.say(recovered)
        return library

    def index(self):
        """The library's index, up to date; skipped records are warned about."""
        from ..search.concepts.glossary import GlossaryFiles
        from ..search.index.paper_index import PaperIndex

        glossary = GlossaryFiles(taxonomy=self.settings["taxonomy"].value)
        self._index = PaperIndex(self.library(), glossary).open(progress=self.env.progress)
        for notice in self._index.notices:
            self.env.warn(notice)
        repaired = self._index.repaired()
        if repaired and not self._index.notices and self._index.doc_count():
            self.env.say(repaired)
        for message in sorted(self._index.invalid.values()):
            self.env.warn(f"skipped invalid record {message}")
        return self._index

    def nothing(self, what: str, filters=None) -> NothingFound:
        """Nothing found: *what*, the filters in force, or, in a library with no papers,
        where it is and how to add some."""
        index = self._index
        if index is not None and not index.invalid and index.doc_count() == 0:
            root = index.library.root
            return NothingFound(
                f"the library at {root} has no papers yet; add some with {ADD_PAPERS}"
            )
        active = filters.describe() if filters else ""
        return NothingFound(what + (f" (filters: {active})" if active else ""))

    def filters(self, tags=None, any_tag: bool = False, venue=None, year: str | None = None):
        from ..search.querying.syntax import year_bounds
        from ..search.questions.filters import Filters, resolve_tags
        from ..venues import venue_named

        tags = resolve_tags(tags or (), self.taxonomy if tags else None)
        years = year_bounds(year, "--year ") if year is not None else None
        venue = venue_named(venue) if venue else venue  # (--venue NIPS: NeurIPS)
        return Filters(tags=tags, any_tag=any_tag, venue=venue, year=years)

    def passing(self, explicit: bool | None) -> bool:
        """Whether a search lists the papers naming its concepts only in passing:
        --passing/--no-passing, else the ``passing`` setting."""
        return self.settings["passing"].value if explicit is None else explicit

    def limit(self, explicit: int | None, complete: bool) -> tuple[int | None, int | None]:
        """(rows to show, hits to ask for) for a listing.

        --limit wins; else the ``limit`` setting (not for --json/--ids, which are complete
        unless --limit is given); else, on a terminal, the first screenfuls. One more hit
        than shown is asked for, to know whether to say that there are more.
        """
        from ..render import TERMINAL_LIMIT

        if explicit:
            return explicit, explicit
        if complete:
            return None, None
        shown = self.settings["limit"].value or (TERMINAL_LIMIT if self.env.tables else None)
        return shown, (shown + 1 if shown else None)


def _other_folder(library) -> bool:
    """Whether the library's folder is some other folder: no ``papers/`` in it, and files
    other than what a command leaves in an empty library (``.index``, ``.lock``). A
    mistyped --library (the home folder, a project) would otherwise be searched as an
    empty library and left holding an index."""
    if library.papers_dir.is_dir():
        return False
    with os.scandir(library.root) as entries:
        return any(e.name not in (".index", ".lock", "sources") for e in entries)

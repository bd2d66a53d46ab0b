"""The bilingual glossary: the bridge between English and Chinese in search.

In: the topic taxonomy (each tag is a concept), the bundled ``glossary.yaml`` (further
concepts, each with its English terms, abbreviations, Chinese terms and one line of
provenance) and the user's ``glossary.yaml`` in the config folder, which extends it (new
concepts, or more terms for a known one). Terms match as taxonomy aliases do: English as
whole words (an abbreviation as written, plurals too), Chinese as substrings, never inside
an ``exclude`` phrase; so in a paper 推理 stays split between reasoning and inference the
way the taxonomy splits it. A word with two senses (``senses``: 推理) names both concepts in a
query. Two terms written once with their shared last word ("sample and time complexity")
are each found (``coordination``).

Out: the concepts a paper speaks of, indexed in its ``concept`` field when the index is
built, and the compiled glossary saved beside the index (``query_glossary``): a query is
matched against it without reading YAML. The files' stamps are the
glossary's fingerprint; the index is rebuilt when they change.

A paper speaks of a concept when its text holds one of the concept's names or one of the
taxonomy's aliases for the tag of that id. A query is bridged only through names: the
taxonomy's aliases include signs of a topic that are not its names (GSM8K is a sign of
math reasoning; a search for GSM8K wants GSM8K, not every paper on math reasoning).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from ...errors import PapersError, TaxonomyError
from ...tags.taxonomy import PACKAGE_FILE as TAXONOMY_FILE
from ...tags.taxonomy import TAG_RE, Tag, Taxonomy, load_taxonomy, term_lists
from .concept import Concept
from .coordination import Coordination

PACKAGE_FILE = Path(__file__).with_name("glossary.yaml")
FULL = "concepts.json"  # every concept with its names and signs, for indexing (YAML: ~130 ms)


@dataclass(frozen=True)
class GlossaryFiles:
    """Where the glossary comes from: the taxonomy in force, the bundled glossary, the
    user's extension (if the file exists)."""

    taxonomy: Path | None = None  # None: the user's taxonomy.yaml or the bundled one
    user: Path | None = None  # None: glossary.yaml in the user's config folder

    def paths(self) -> list[Path]:
        from ...tags.taxonomy import user_taxonomy_path

        taxonomy = self.taxonomy or user_taxonomy_path()
        if self.taxonomy is None and not taxonomy.is_file():
            taxonomy = TAXONOMY_FILE
        return [taxonomy, PACKAGE_FILE, self.user or user_glossary_path()]

    def fingerprint(self) -> list:
        """Each file's path, size and modification time (three ``stat`` calls); None for
        the user's glossary when there is none."""
        out = []
        for path in self.paths():
            try:
                st = os.stat(path)
            except OSError:  # (absent: where it would be does not matter)
                out.append(None)
                continue
            out.append([str(path), st.st_size, st.st_mtime_ns])
        return out

    def load(self) -> Glossary:
        taxonomy_path, package, user = self.paths()
        taxonomy = load_taxonomy(taxonomy_path)
        source = f"taxonomy tag ({taxonomy.source})"
        concepts = {
            name: Concept(name, [], [], list(tag.exclude), source, signs=[*tag.en, *tag.zh])
            for name, tag in taxonomy.tags.items()
        }
        for path in (package, user):
            if path.is_file():
                more, senses = _read(path)
                _merge(concepts, more)
                _check_broader(concepts, path)
                _add_senses(concepts, senses, path)
        return Glossary(list(concepts.values()))


def user_glossary_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_config_dir("papers", appauthor=False)) / "glossary.yaml"


def _read(path: Path) -> tuple[list[Concept], dict[str, list[str]]]:
    """The concepts of the glossary file *path*, and its words of two senses (each with
    the concepts it names)."""
    from ...store.yamlio import load_yaml

    try:
        data = load_yaml(path.read_text(encoding="utf-8"), str(path))
    except OSError as exc:
        raise TaxonomyError(f"{path}: cannot read the glossary ({exc.strerror})") from None
    except PapersError as exc:
        raise TaxonomyError(str(exc)) from None
    if not isinstance(data, dict) or not isinstance(data.get("concepts"), dict):
        raise TaxonomyError(f"{path}: expected a mapping with a 'concepts' mapping")
    senses = data.get("senses") or {}
    if not isinstance(senses, dict) or not all(
        isinstance(ids, list) and all(isinstance(i, str) for i in ids) for ids in senses.values()
    ):
        raise TaxonomyError(f"{path}: senses must give each word a list of concept ids")
    out = []
    for name, spec in data["concepts"].items():
        where = f"{path}: concept {name!r}"
        if not isinstance(name, str) or not TAG_RE.match(name):
            raise TaxonomyError(f"{where}: concept ids are lower-case kebab-case")
        lists = term_lists(
            spec, ("en", "abbr", "zh", "exclude", "broader"), ("source", "note"), where
        )
        source = (spec or {}).get("source") or path.name
        out.append(
            Concept(
                name,
                lists["en"] + lists["abbr"],
                lists["zh"],
                lists["exclude"],
                str(source),
                broader=lists["broader"],
            )
        )
    return out, {str(word): ids for word, ids in senses.items()}


def _add_senses(concepts: dict[str, Concept], senses: dict[str, list[str]], path: Path) -> None:
    """Each word of two senses names each concept listed for it in a query
    (``Concept.senses``); every concept listed is known."""
    for word, ids in senses.items():
        for cid in ids:
            concept = concepts.get(cid)
            if concept is None:
                raise TaxonomyError(
                    f"{path}: senses of {word!r}: concept {cid!r} is not in the glossary or "
                    "the taxonomy"
                )
            if word not in concept.en + concept.zh + concept.senses:
                concept.senses.append(word)


def _check_broader(concepts: dict[str, Concept], path: Path) -> None:
    """Every ``broader`` names a known concept, and no concept is a kind of itself."""
    for concept in concepts.values():
        for other in concept.broader:
            if other not in concepts:
                raise TaxonomyError(
                    f"{path}: concept {concept.id!r}: broader concept "
                    f"{other!r} is not in the glossary or the taxonomy"
                )
        if concept.id in _ancestors(concepts, concept.id):
            raise TaxonomyError(f"{path}: concept {concept.id!r} is broader than itself")


def _ancestors(concepts: dict[str, Concept], cid: str) -> list[str]:
    """The concepts *cid* is a kind of, nearest first (each once; a cycle ends the walk)."""
    out: list[str] = []
    todo = list(concepts[cid].broader)
    while todo:
        other = todo.pop(0)
        if other not in out and other in concepts:
            out.append(other)
            if other != cid:
                todo += concepts[other].broader
    return out


def _merge(concepts: dict[str, Concept], more: list[Concept]) -> None:
    """Add *more* to *concepts*: a known id gains the new terms and exclusions."""
    for concept in more:
        known = concepts.get(concept.id)
        if known is None:
            concepts[concept.id] = concept
            continue
        known.en += [t for t in concept.en if t not in known.en]
        known.zh += [t for t in concept.zh if t not in known.zh]
        known.exclude += [t for t in concept.exclude if t not in known.exclude]
        known.broader += [t for t in concept.broader if t not in known.broader]


class Glossary:
    """Concepts and their terms; which of them a text speaks of."""

    def __init__(self, concepts: list[Concept]) -> None:
        self.concepts = {c.id: c for c in concepts}

    @cached_property
    def _matcher(self) -> Taxonomy:
        return Taxonomy([c.tag for c in self.concepts.values()], "glossary")

    @property
    def tags(self) -> dict[str, Tag]:
        """Each concept's ``Concept.tag``, as the matcher holds it (its patterns compiled
        once, not once a paper)."""
        return self._matcher.tags

    @cached_property
    def _name_matcher(self) -> Taxonomy:
        named = [c.name_tag for c in self.concepts.values() if c.en or c.zh or c.senses]
        return Taxonomy(named, "glossary names")

    @cached_property
    def _coordinated(self) -> Coordination:
        return Coordination(self.concepts.values())

    @cached_property
    def broader_map(self) -> dict[str, list[str]]:
        """Each concept with a broader one -> all its broader concepts."""
        return {
            cid: _ancestors(self.concepts, cid) for cid, c in self.concepts.items() if c.broader
        }

    def find(self, *texts: str | None) -> dict[str, str]:
        """The concepts the texts speak of (terms outside their exclusions): id -> the
        words of the texts that matched. A paper that speaks of a concept speaks of the
        broader ones too, in the same words (zeroth-order optimization is gradient-free)."""
        found = self._matcher.terms_in(*texts)
        for text in texts:
            for cid, words in self._coordinated.find(text or "").items():
                found.setdefault(cid, words)
        for cid, words in list(found.items()):
            for broader in self.broader_map.get(cid, ()):
                found.setdefault(broader, words)
        return found

    def read(self, record) -> tuple[dict[str, str], list[str]]:
        """The concepts *record* speaks of (its texts' plain readings), each with the words
        that speak of it; and those it names only in passing (``passing.aside``), none of its
        tags."""
        from ...text.latex import latex_to_text
        from ...text.variants import normalize
        from .passing import aside

        # (the passages first: the words stored are the first that match, and a snippet
        # shows them in their passage)
        names = ("abstract", "summary_zh", "title", "short_name")
        texts = {
            name: normalize(latex_to_text(text))
            for name in names
            if (text := getattr(record, name))
        }
        found = self.find(*texts.values())
        # (a paper tagged with a concept is about it, however its text names it)
        return found, [cid for cid in aside(self, texts, found) if cid not in record.tags]

    def __getstate__(self) -> dict:
        """Only the concepts (for an indexing process): what it matches with is compiled
        there, as it is needed."""
        return {"concepts": self.concepts}

    def compiled(self) -> dict:
        """What a query needs, as JSON: each concept's terms and exclusions, and the
        needles that make a concept a candidate (see ``Taxonomy._needles``): a word with
        the words each name needs beside it (``Taxonomy._candidates``)."""
        words = self._name_matcher._candidates[0]  # (each with the words it needs)
        others = self._name_matcher._needles[1]
        return {
            # The names a query knows, the id's words among them: precomputed, not worked
            # out for every candidate of every query.
            "concepts": {
                c.id: [*c.names, c.exclude]
                for c in self.concepts.values()
                if c.en or c.zh or c.senses
            },
            "words": {
                k: sorted([name, sorted(required)] for name, required in v)
                for k, v in words.items()
            },
            "others": {k: sorted(v) for k, v in others.items()},
        }

    def save(self, folder: Path) -> None:
        from ...store.files import atomic_write
        from .query_glossary import COMPILED, encode

        full = {
            c.id: [c.en, c.zh, c.exclude, c.signs, c.broader, c.senses]
            for c in self.concepts.values()
        }
        atomic_write(folder / FULL, json.dumps(full, ensure_ascii=False).encode("utf-8"))
        atomic_write(folder / COMPILED, encode(self.compiled()))

    @classmethod
    def saved(cls, folder: Path) -> Glossary | None:
        """The glossary ``save`` wrote into *folder* (None: missing or not what it wrote)."""
        try:
            data = json.loads((folder / FULL).read_text("utf-8"))
            return cls(
                [
                    Concept(cid, en, zh, exclude, "", signs, broader, senses)
                    for cid, (en, zh, exclude, signs, broader, senses) in data.items()
                ]
            )
        except (OSError, ValueError, TypeError, AttributeError):
            return None

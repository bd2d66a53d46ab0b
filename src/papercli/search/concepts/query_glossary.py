"""The glossary as a query reads it: compiled when the index is built, saved beside it
(``.index/glossary.lines``), and read as bytes, each entry decoded only when a query needs
it.

In: ``Glossary.compiled()`` (each concept's names and exclusions, the needles that make a
concept a candidate). Out: ``QueryGlossary``: the concepts a query's text names
(``spans``), the abbreviation a word typed in lower case stands for, a concept by id.

The file is UTF-8 text, one entry a line, in sections: ``[concepts]`` (id, tab, its names
as JSON), ``[words]`` (a word, tab, as JSON the ids it makes candidates, each with the
words its name needs beside it), ``[others]`` (a needle, tab, the ids it makes candidates),
``[abbreviations]`` (in lower case, tab, as written) and ``[english]`` (every word of the
English names, on one line). A query needs a few entries: decoding the whole glossary as
one JSON document was a noticeable part of a cold search.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from functools import cached_property
from pathlib import Path

from ...tags.taxonomy import Tag

COMPILED = "glossary.lines"
OLD_COMPILED = "glossary.json"  # (what schema 27 and before wrote: removed at a rebuild)
_MAGIC = b"papers query glossary 1\n"
_SECTIONS = ("concepts", "words", "others", "abbreviations", "english")
_WORD_RE = re.compile(r"[a-z]+")

# Abbreviations that are also English words: typed in lower case, the word is meant (clip
# a gradient, zero-shot, reinforce), not CLIP, ZeRO, REINFORCE.
LOWER_CASE_WORDS = frozenset({"clip", "zero", "reinforce", "soap", "rag", "glove"})


def encode(compiled: dict) -> bytes:
    """*compiled* (``Glossary.compiled()``) as the file ``QueryGlossary.load`` reads."""
    concepts = compiled["concepts"]
    abbreviations = {
        term.lower(): term
        for en, _zh, _exclude in concepts.values()
        for term in en
        if " " not in term and sum(c.isupper() for c in term) >= 2
    }
    english = sorted(
        {
            w
            for en, _zh, _exclude in concepts.values()
            for term in en
            for w in _WORD_RE.findall(term.lower())
        }
    )
    tables = {
        "concepts": {cid: json.dumps(spec, ensure_ascii=False) for cid, spec in concepts.items()},
        "words": {k: json.dumps(v) for k, v in compiled["words"].items()},
        "others": {k: " ".join(v) for k, v in compiled["others"].items()},
        "abbreviations": abbreviations,
    }
    out = [_MAGIC]
    for name, table in tables.items():
        # Each section's lines sorted, as bytes: looked up by bisection, not read into a dict.
        lines = sorted(f"{key}\t{value}\n".encode() for key, value in table.items() if _plain(key))
        out += [f"[{name}]\n".encode(), *lines]
    out.append(f"[english]\n{' '.join(english)}\n".encode())
    return b"".join(out)


def _plain(key: str) -> bool:
    return "\t" not in key and "\n" not in key  # (no name holds either: a YAML string could)


class QueryGlossary:
    """The compiled glossary read back for a query: only the candidate concepts are
    decoded and turned into matchers."""

    def __init__(self, sections: dict[str, bytes]) -> None:
        self._sections = sections
        self._specs: dict[str, list | None] = {}

    @classmethod
    def load(cls, folder: Path) -> QueryGlossary | None:
        """The file in *folder*; None when it is missing or not what ``encode`` wrote (no
        bridge, rather than a traceback)."""
        try:
            raw = (folder / COMPILED).read_bytes()
        except OSError:
            return None
        if not raw.startswith(_MAGIC):
            return None
        # (each section sliced once, at offsets: slicing off what was left after each one
        # would copy the file once a section)
        sections, pos = {}, len(_MAGIC)
        for name, after in zip(_SECTIONS, (*_SECTIONS[1:], None), strict=True):
            head = f"[{name}]\n".encode()
            if not raw.startswith(head, pos):
                return None
            start = pos + len(head)
            end = raw.find(f"\n[{after}]\n".encode(), start - 1) + 1 if after else len(raw)
            if end <= 0:
                return None
            sections[name], pos = raw[start:end], end
        return cls(sections)

    @cached_property
    def _lines(self) -> dict[str, list[bytes]]:
        """Each section's lines, sorted (split at line ends only: splitting keys from
        values too would cost far more than a query's lookups)."""
        return {
            name: self._sections[name].split(b"\n")[:-1]
            for name in ("concepts", "words", "others", "abbreviations")
        }

    def _get(self, name: str, key: str) -> bytes | None:
        """The value of *key* in the section *name*, found by bisection; None if absent."""
        lines, head = self._lines[name], key.encode() + b"\t"
        i = bisect_left(lines, head)
        return lines[i][len(head) :] if i < len(lines) and lines[i].startswith(head) else None

    def _others_in(self, lowered: str) -> set[str]:
        """The ids the needles found in *lowered* make candidates: only the lines that begin
        with one of its characters are read."""
        lines, encoded, ids = self._lines["others"], lowered.encode(), set()
        for char in set(lowered):
            first = char.encode()
            for i in range(bisect_left(lines, first), len(lines)):
                if not lines[i].startswith(first):
                    break
                needle, _, found = lines[i].partition(b"\t")
                # (a needle of whole characters is in the UTF-8 bytes where it is in the text)
                if needle in encoded:
                    ids.update(found.decode().split())
        return ids

    def _named_with(self, word: str) -> list[tuple[str, list[str]]]:
        """(concept id, the other words its name needs) for each name *word* is in; none
        for an entry the file garbles (no bridge through it, rather than a traceback)."""
        raw = self._get("words", word)
        try:
            pairs = json.loads(raw) if raw is not None else []
            return [(cid, list(needs)) for cid, needs in pairs if isinstance(cid, str)]
        except (ValueError, TypeError):
            return []

    def spec(self, cid: str) -> list | None:
        """[English names, Chinese names, exclusions] of the concept *cid*, as compiled;
        None for no such concept (or an entry the file garbles)."""
        if cid not in self._specs:
            raw = self._get("concepts", cid)
            try:
                spec = json.loads(raw) if raw is not None else None
            except ValueError:
                spec = None
            ok = isinstance(spec, list) and len(spec) == 3
            self._specs[cid] = spec if ok and all(isinstance(s, list) for s in spec) else None
        return self._specs[cid]

    def ids(self) -> list[str]:
        """Every concept's id."""
        return [line.partition(b"\t")[0].decode() for line in self._lines["concepts"]]

    def concept(self, cid: str):
        from .concept import Concept

        spec = self.spec(cid)
        return Concept(cid, *spec, source="") if spec else None

    def abbreviation(self, word: str) -> str | None:
        """The abbreviation a query word typed in lower case stands for (fl is FL, moe MoE,
        llms LLMs: a text must write an abbreviation as it is written, a user need not),
        or None; never one that is also an English word (clip, zero: ``LOWER_CASE_WORDS``)."""
        if not word.islower() or not word.isascii() or word.removesuffix("s") in LOWER_CASE_WORDS:
            return None
        found = self._get("abbreviations", word)
        if found is None and word.endswith("s") and (one := self._get("abbreviations", word[:-1])):
            return one.decode() + "s"  # (llms: LLMs, as a text's plural matches)
        return found.decode() if found is not None else None

    def words(self) -> set[str]:
        """Every word of the concepts' English names and abbreviations, in lower case (the
        words of machine learning, whether or not a paper of the library has them)."""
        return set(self._sections["english"].decode("utf-8").split())

    def spans(self, text: str) -> list[tuple[int, int, str]]:
        """(start, end, concept id) for each term of a concept found in *text*, longest
        first where they overlap; terms inside an exclusion do not count."""
        from ...tags.taxonomy import word_set
        from .concept import spelt

        lowered = text.lower()
        candidates = self._others_in(lowered)
        words = word_set(lowered)
        # A name whose words the text does not all hold is not in it ("learning" alone
        # would make "deep learning" and dozens more candidates of "federated learning").
        for needle in words:
            for cid, needs in self._named_with(needle):
                if words.issuperset(needs):
                    candidates.add(cid)
        found = []
        for cid in sorted(candidates):
            spec = self.spec(cid)
            if spec is None:
                continue
            en, zh, exclude = spec  # (the names as compiled)
            tag = Tag(cid, spelt(en), spelt(zh), spelt(exclude))
            found += [(start, end, cid) for start, end in tag.spans(text)]
        found.sort(key=lambda s: (s[0], -(s[1] - s[0]), s[2]))
        return found

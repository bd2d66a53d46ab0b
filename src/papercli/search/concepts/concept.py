"""A concept of the glossary: its names in both languages, the taxonomy's other signs of
it, its exclusions, and the tags that find it in a paper (``tag``) and in a query
(``name_tag``).

In: a concept's entry (the glossary's YAML, the taxonomy, or the index's saved copy).
Out: ``Concept``, and ``spelt``: terms in the one spelling texts are matched in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from ...tags.taxonomy import Tag
from ...text import has_cjk


@dataclass
class Concept:
    id: str
    en: list[str]  # names: English terms and abbreviations
    zh: list[str]  # names: Chinese terms
    exclude: list[str]
    source: str
    signs: list[str] = field(default_factory=list)  # the taxonomy's other aliases
    broader: list[str] = field(default_factory=list)  # concepts this one is a kind of
    senses: list[str] = field(default_factory=list)  # words of two senses, naming it in a query

    @property
    def tag(self) -> Tag:
        """What finds the concept in a paper: its names and signs (in the one spelling the
        texts are matched in: a user's ``β-VAE`` is ``beta-VAE``)."""
        signs = [s for s in self.signs if s not in self.en and s not in self.zh]
        return Tag(
            self.id,
            spelt(self.en + [s for s in signs if not has_cjk(s)]),
            spelt(self.zh + [s for s in signs if has_cjk(s)]),
            spelt(self.exclude),
        )

    @property
    def name_tag(self) -> Tag:
        """What finds the concept in a query: its ``names`` only."""
        en, zh = self.names
        return Tag(self.id, spelt(en), spelt(zh), spelt(self.exclude))

    @property
    def names(self) -> tuple[list[str], list[str]]:
        """The English and Chinese words that name the concept in a query: its names, its id
        read as words where the id is one of them with the words that complete it
        (``id_names``, worked out once: the index's compiled glossary and its needles both
        ask), and the words of two senses it is one of, which name it in a query only (推理
        names model inference; in a paper its compounds do: 推理时间, 推理延迟)."""
        zh = [s for s in self.senses if has_cjk(s)]
        return self.en + self.id_names + [s for s in self.senses if s not in zh], self.zh + zh

    @cached_property
    def id_names(self) -> list[str]:
        """The concept's id read as words where it holds one of its English names whole,
        with that name as each of its spellings without a hyphen or space
        (non-convex-optimization: "non-convex optimization", "nonconvex optimization";
        time-series-forecasting: "time series forecasting"). A name is the shortest words
        that say the concept in a text; a reader types the whole term, whose other words
        were asked for apart ("nonconvex" found 2 papers, "nonconvex optimization" none
        of them). Not for abbreviations (roc-auc)."""
        ids = self.id.split("-")
        out = []
        for name in self.en:
            if sum(c.isupper() for c in name) >= 2:
                continue
            words = re.split(r"[\s-]+", name.lower())
            for i in range(len(ids) - len(words) + 1):
                if ids[i : i + len(words)] == words and len(words) < len(ids):
                    joined = "".join(words)
                    for written in self.en:
                        if re.sub(r"[\s-]+", "", written.lower()) == joined:
                            out.append(" ".join([*ids[:i], written, *ids[i + len(words) :]]))
                    break
        known = {_spaced(name) for name in self.en}
        return [n for n in dict.fromkeys(out) if _spaced(n) not in known]

    def label(self, language: str) -> str:
        """The concept's first term in *language* ("en" or "zh"), for the snippet's arrow."""
        terms = self.zh if language == "zh" else self.en
        return terms[0] if terms else self.id


def spelt(terms: list[str]) -> list[str]:
    """*terms* in the one spelling (``text.variants.normalize``), each once."""
    from ...text.variants import normalize

    return list(dict.fromkeys(normalize(t) for t in terms))


def _spaced(term: str) -> str:
    """*term* in lower case, a space for each hyphen and no final s: the forms a name
    matches anyway (a hyphen or a space, a plural)."""
    return re.sub(r"[\s-]+", " ", term.lower()).removesuffix("s")

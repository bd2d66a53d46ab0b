"""Topic tags from a bilingual taxonomy: which tags a paper's text earns, and alias lookup.

The taxonomy is a YAML file shipped in the package (``taxonomy.yaml``); a file of the same
name in the user's config folder replaces it. Each tag is lower-case kebab-case:

    federated-learning:
      en: [federated learning, FL]      # whole words, case-insensitive; a word written
                                        # with 2+ capitals (FL, LLM) must match as written;
                                        # a final s/es and space/hyphen variants also match
      zh: [联邦学习]                    # substrings (Chinese has no spaces)
      exclude: [推理时]                 # a match inside one of these does not count
                                        # (words as in aliases: ReaSoning only as written)
      passing: [FL baseline]            # nor inside one of these: the topic named in
                                        # passing (a baseline, a result claim); unlike an
                                        # exclusion, still the concept for search's bridge

Matching runs over the title, short name, abstract and Chinese summary, and over the
headings a digest page put the paper under (``tagging.heading_tags``); a topic a paper
names only as what it is compared with earns no tag (``tagging.only_as_baseline``).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from itertools import accumulate
from pathlib import Path

from ..errors import PapersError, TaxonomyError
from ..text import fold_key
from .patterns import (
    PLAIN_WORD_RE,
    near,
    needle_starts,
    phrase_needle,
    phrase_pattern,
    prepare,
    windowed,
    word_pattern,
    word_set,
)

TAG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
PACKAGE_FILE = Path(__file__).with_name("taxonomy.yaml")


@dataclass
class Tag:
    name: str
    en: list[str] = field(default_factory=list)
    zh: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)  # other senses of the words
    passing: list[str] = field(default_factory=list)  # the topic named in passing

    @cached_property
    def needles(self) -> list[tuple[str, bool, frozenset[str]]]:
        """(needle, is_word, words) per alias, checked before its pattern runs: the needle
        is a lower-cased substring that any match contains (the alias's longest word),
        looked for among the text's words when it is a plain word, else in the whole text;
        *words* are the alias's plain words, all of which the text must hold ("deep
        learning" is not looked for in a text without "deep")."""
        out = []
        for alias in self.en:
            words = [w.lower() for w in re.split(r"[\s-]+", alias.strip()) if w]
            needle = max(words, key=len)
            plain = frozenset(w for w in words if PLAIN_WORD_RE.fullmatch(w))
            out.append((needle, bool(PLAIN_WORD_RE.fullmatch(needle)), plain))
        return out + [(a.lower(), False, frozenset()) for a in self.zh]

    def pattern(self, i: int) -> tuple[int, re.Pattern]:
        """(reach, pattern) of alias *i* (``en`` then ``zh``), compiled when first needed:
        most aliases of a large glossary never pass their needle test, and compiling all
        2,800 of the glossary's took ~0.7 s. In a text whose words are separated by single
        spaces or hyphens, a match lies within *reach* characters of its needle."""
        compiled = self.__dict__.setdefault("_patterns", {})
        if i not in compiled:
            if i < len(self.en):
                alias = self.en[i]
                words = [w for w in re.split(r"[\s-]+", alias.strip()) if w]
                body = r"[\s-]+".join(word_pattern(w) for w in words)
                pattern = re.compile(rf"(?<![A-Za-z0-9]){body}(?i:s|es)?(?![A-Za-z0-9])")
                compiled[i] = (len(alias) + 2, pattern)  # (+ a plural's "es")
            else:
                alias = self.zh[i - len(self.en)]
                compiled[i] = (len(alias), re.compile(re.escape(alias)))
        return compiled[i]

    def spans(
        self, text: str, lowered: str | None = None, words: set[str] | None = None
    ) -> Iterator[tuple[int, int]]:
        """(start, end) of every alias match in *text* outside the exclusions; only the
        aliases whose needle and words the text holds are compiled and run. (*lowered*,
        *words*: the text's, when the caller has them for many tags.)"""
        lowered = text.lower() if lowered is None else lowered
        words = word_set(lowered) if words is None else words
        excluded = None
        for i, (needle, is_word, required) in enumerate(self.needles):
            if needle not in (words if is_word else lowered) or not required <= words:
                continue
            for m in self.pattern(i)[1].finditer(text):
                if excluded is None:
                    excluded = self._excluded(text, lowered) if self._exclusions else []
                if not any(s <= m.start() and m.end() <= e for s, e in excluded):
                    yield m.start(), m.end()

    def _excluded(self, text: str, lowered: str | None = None) -> list[tuple[int, int]]:
        """(start, end) of each excluded phrase in *text*. Only the phrases the lower-cased
        text holds are searched for (a regular expression a phrase, or one for all of them,
        took 3.6 of the 70 s of ingesting 10,000 papers; a substring test is a C loop).
        The phrases are ASCII or Chinese, whose case-blind matches lower-casing finds."""
        lowered = text.lower() if lowered is None else lowered
        return [
            (m.start(), m.end())
            for needle, pattern in self._exclusions
            if needle in lowered
            for m in pattern.finditer(text)
        ]

    def other_sense(self, text: str) -> bool:
        """Whether *text* holds one of the ``exclude`` phrases (the words in another sense)
        and no alias match outside them."""
        lowered = text.lower()
        return (
            any(
                needle in lowered and pattern.search(text)
                for needle, pattern in self._exclusions[: len(self.exclude)]
            )
            and next(self.spans(text, lowered), None) is None
        )

    @cached_property
    def _exclusions(self) -> list[tuple[str, re.Pattern]]:
        """Each phrase of ``exclude`` and ``passing`` with its needle and its pattern
        (compiled once): its words match as an alias's do, so an acronym's letters spelt
        out (STARS: "… for Diverse ReaSoning") are excluded without "reasoning"."""
        return [(phrase_needle(p), phrase_pattern(p)) for p in self.exclude + self.passing]

    def matches(self, text: str, *prepared, **named) -> str | None:
        """``first_match``, as written in *text* (None: none)."""
        m = self.first_match(text, *prepared, **named)
        return m.group() if m else None

    def first_match(
        self,
        text: str,
        lowered: str | None = None,
        words: set[str] | None = None,
        windows: bool | None = None,
    ) -> re.Match | None:
        """The first alias match found in *text* outside the exclusions (None: none).
        *lowered*, *words* (see ``word_set``) and *windows* (see ``near``) let a caller
        checking many tags compute them once."""
        lowered = text.lower() if lowered is None else lowered
        words = word_set(lowered) if words is None else words
        windows = windowed(text, lowered) if windows is None else windows
        excluded = None  # computed only once an alias matches: most tags never do
        for i, (needle, is_word, required) in enumerate(self.needles):
            if needle not in (words if is_word else lowered) or not required <= words:
                continue
            reach, pattern = self.pattern(i)
            for m in (
                near(pattern, needle, text, lowered, reach) if windows else pattern.finditer(text)
            ):
                if not self._exclusions:
                    return m
                if excluded is None:
                    excluded = self._excluded(text, lowered)
                if not any(start <= m.start() and m.end() <= end for start, end in excluded):
                    return m
        return None


class Taxonomy:
    def __init__(self, tags: list[Tag], source: str) -> None:
        self.tags = {t.name: t for t in tags}
        self.source = source
        self._aliases: dict[str, str] = {}
        for tag in tags:
            for alias in [tag.name, *tag.en, *tag.zh]:
                self._aliases.setdefault(fold_key(alias), tag.name)

    def aliases(self, name: str) -> list[str]:
        """The English and Chinese aliases of a tag ([] for a user's own tag)."""
        tag = self.tags.get(name)
        return [*tag.en, *tag.zh] if tag else []

    def resolve(self, name: str) -> str | None:
        """The tag an alias names, in either language and either Chinese script: 联邦学习
        and 聯邦學習 → federated-learning."""
        if name in self.tags:
            return name
        found = self._aliases.get(fold_key(name))
        if found is None and not name.isascii():
            from ..text.variants import normalize

            found = self._aliases.get(fold_key(normalize(name)))
        return found

    @cached_property
    def _needles(self) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
        """needle -> tags whose aliases contain it, split into plain words (looked up in a
        text's word set) and other needles (substrings: Chinese, punctuated)."""
        words: dict[str, set[str]] = {}
        others: dict[str, set[str]] = {}
        for name, tag in self.tags.items():
            for needle, is_word, _words in tag.needles:
                (words if is_word else others).setdefault(needle, set()).add(name)
        return words, others

    @cached_property
    def _candidates(self) -> tuple[dict, dict]:
        """What ``tag_text`` looks up: word needle -> [(tag, the alias's words)], and for
        the other needles, their first two characters -> [(needle, tag)] (a text is not
        searched once per Chinese alias: 1,100 of them in the glossary)."""
        words: dict[str, list[tuple[str, frozenset[str]]]] = {}
        others: dict[str, list[tuple[str, str]]] = {}
        for name, tag in self.tags.items():
            for needle, is_word, required in tag.needles:
                if is_word:
                    words.setdefault(needle, []).append((name, required))
                else:
                    others.setdefault(needle[:2], []).append((needle, name))
        return words, others

    def tag_text(self, *texts: str | None) -> list[str]:
        """Every tag whose aliases occur in the given texts, in taxonomy order."""
        return [name for name, _tag, _match in self._found(texts)]

    def terms_in(self, *texts: str | None) -> dict[str, str]:
        """Each tag whose aliases occur in the given texts (in taxonomy order) -> the words
        of the first text that matched (``联邦``, ``Federated Learning``): the texts come in
        order of preference."""
        present = [t for t in texts if t]
        found = self._found(texts)  # (matched in the texts joined: one may span two)
        if not found:
            return {}
        starts = list(accumulate((len(t) + 1 for t in present[:-1]), initial=0))
        prepared: dict[int, tuple] = {}  # (each text's lower case, words and windowing: once)
        out = {}
        for name, tag, m in found:
            # The joined match lies in text k: only the texts before it can hold an earlier
            # one; in text k itself, the tag's first match is this one (its aliases that come
            # first match nowhere). Matching the long texts again was ~1/3 of the work.
            k = bisect_right(starts, m.start()) - 1
            if m.end() > starts[k] + len(present[k]):  # (spans two texts: try every text)
                k = len(present)
            words = None
            for j in range(k):
                if j not in prepared:
                    prepared[j] = prepare(present[j])
                if words := tag.matches(*prepared[j]):
                    break
            out[name] = words or m.group()
        return out

    def _found(self, texts) -> list[tuple[str, Tag, re.Match]]:
        """The tags whose aliases occur in *texts*, in taxonomy order, each with its first
        match in the texts joined. Only tags with a needle in the text run their patterns:
        most of them never do."""
        joined = "\n".join(t for t in texts if t)
        lowered = joined.lower()
        words = word_set(lowered)
        windows = windowed(joined, lowered)
        word_needles, other_needles = self._candidates
        candidates: set[str] = set()
        for needle in word_needles.keys() & words:
            candidates.update(name for name, required in word_needles[needle] if required <= words)
        for start in other_needles.keys() & needle_starts(lowered, self._ascii_keys):
            candidates.update(name for needle, name in other_needles[start] if needle in lowered)
        out = []
        for name in sorted(candidates, key=self._order.__getitem__):
            m = self.tags[name].first_match(joined, lowered, words, windows)
            if m:
                out.append((name, self.tags[name], m))
        return out

    @cached_property
    def _ascii_keys(self) -> list[str]:
        return [key for key in self._candidates[1] if len(key) == 2 and key[0].isascii()]

    @cached_property
    def _order(self) -> dict[str, int]:
        return {name: i for i, name in enumerate(self.tags)}


def parse_taxonomy(data, source: str) -> Taxonomy:
    if not isinstance(data, dict) or not isinstance(data.get("tags"), dict):
        raise TaxonomyError(f"{source}: expected a mapping with a 'tags' mapping")
    tags = []
    for name, spec in data["tags"].items():
        where = f"{source}: tag {name!r}"
        if not isinstance(name, str) or not TAG_RE.match(name):
            raise TaxonomyError(f"{where}: tags are lower-case kebab-case")
        lists = term_lists(spec, ("en", "zh", "exclude", "passing"), ("note",), where)
        tags.append(Tag(name, **lists))
    return Taxonomy(tags, source)


def term_lists(spec, lists: tuple[str, ...], others: tuple[str, ...], where: str) -> dict:
    """The lists of terms an entry of the taxonomy (or the glossary) gives, checked: only
    the keys *lists* and *others* allowed, each list of text with letters or digits."""
    spec = spec or {}
    if not isinstance(spec, dict) or set(spec) - {*lists, *others}:
        raise TaxonomyError(f"{where}: only {', '.join([*lists, *others])} are allowed")
    out = {}
    for key in lists:
        value = spec.get(key) or []
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise TaxonomyError(f"{where}: {key} must be a list of text")
        if any(not re.search(r"\w", v) for v in value):
            raise TaxonomyError(f"{where}: {key} has an alias without letters or digits")
        out[key] = value
    return out


def load_taxonomy(path: Path | None = None) -> Taxonomy:
    """*path* (the ``taxonomy`` setting, when one is made); else the config folder's
    ``taxonomy.yaml`` if present; else the bundled one."""
    if path is None:
        path = user_taxonomy_path()
        if not path.is_file():
            path = PACKAGE_FILE
    return _load(path)


@lru_cache(maxsize=4)
def _load(path: Path) -> Taxonomy:
    from ..store.yamlio import load_yaml

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise TaxonomyError(f"{path}: cannot read the taxonomy ({exc.strerror})") from None
    try:
        data = load_yaml(text, str(path))
    except PapersError as exc:
        raise TaxonomyError(str(exc)) from None
    return parse_taxonomy(data, str(path))


def user_taxonomy_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_config_dir("papers", appauthor=False)) / "taxonomy.yaml"

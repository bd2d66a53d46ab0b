"""Two terms that share their last word, written once with it ("sample and time
complexity", 样本和时间复杂度): what the glossary finds of them (``Glossary.find``)."""

from __future__ import annotations

import re

from ...text import CJK_RE, has_cjk


class Coordination:
    """Two terms that share their last word, written once with it, as both languages do:
    "sample and time complexity" speaks of sample complexity, 样本和时间复杂度 of 样本复杂度.
    The modifier before the conjunction and the head after the other modifier make a term
    (English: a word and one or two; Chinese: 4 to 8 characters), found where the term
    itself is not. The conjunctions are few, and a text is looked at only around them."""

    _ZH = re.compile(r"[和与及或、]")
    _EN_WORD = re.compile(r"[a-z][a-z0-9-]*")

    def __init__(self, concepts) -> None:
        self.zh: dict[str, list[str]] = {}  # a Chinese term -> the concepts it finds
        self.en: dict[str, list[str]] = {}  # an English term of 2-3 words, lower case -> …
        for concept in concepts:
            tag = concept.tag
            for term in tag.zh:
                if 4 <= len(term) <= 8 and term.isalpha() and has_cjk(term):
                    self.zh.setdefault(term, []).append(concept.id)
            for term in tag.en:
                if 2 <= term.count(" ") + 1 <= 3 and term.replace(" ", "").isalpha():
                    self.en.setdefault(term.lower(), []).append(concept.id)
        self.modifiers = {t[:n] for t in self.zh for n in range(2, len(t) - 1)}
        self.firsts = {t.split(" ", 1)[0] for t in self.en}

    def find(self, text: str) -> dict[str, str]:
        """The concepts a coordination in *text* speaks of -> its words (as written)."""
        out: dict[str, str] = {}
        for m in self._ZH.finditer(text):
            i = m.start()
            for n in (4, 3, 2):
                if i >= n and text[i - n : i] in self.modifiers:
                    self._zh_heads(text, i, text[i - n : i], out)
        if " and " in text or " or " in text:
            words = list(self._EN_WORD.finditer(text.lower()))
            for k, w in enumerate(words[1:-2], start=1):
                if w.group() in ("and", "or") and words[k - 1].group() in self.firsts:
                    self._en_heads(text, words, k, out)
        return out

    def _zh_heads(self, text: str, i: int, modifier: str, out: dict[str, str]) -> None:
        for start in range(i + 2, min(i + 6, len(text))):  # (the other modifier: 1-4 chars)
            if not CJK_RE.match(text, start - 1) or text[start - 1] in "和与及或、":
                return
            for n in range(2, 7):
                for cid in self.zh.get(modifier + text[start : start + n], ()):
                    out.setdefault(cid, text[i - len(modifier) : start + n])

    def _en_heads(self, text: str, words: list, k: int, out: dict[str, str]) -> None:
        first = words[k - 1]
        for head in (k + 2, k + 3):  # (the other modifier: one word or two)
            for last in (head, head + 1):  # (the head: one word or two)
                if last >= len(words) or words[last].start() - words[last - 1].end() > 1:
                    break  # (words apart: not one phrase)
                term = " ".join([first.group(), *(w.group() for w in words[head : last + 1])])
                for cid in self.en.get(term) or self.en.get(term.removesuffix("s"), ()):
                    out.setdefault(cid, text[first.start() : words[last].end()])

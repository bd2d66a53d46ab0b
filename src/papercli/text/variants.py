"""One spelling for what is written several ways: applied to the text indexed and to the
query alike, so that either way finds the other.

- Unicode NFKC: full-width Latin letters and digits as Chinese input methods type them
  (``ＧＲＰＯ``, ``ＬＬＭ２``) are ASCII, ligatures are letters.
- Traditional Chinese as Simplified (``聯邦學習`` → ``联邦学习``), by OpenCC's ``t2s``
  conversion (phrase-aware). OpenCC costs ~30 ms to load, so it is loaded only for a text
  holding a character it would change; ``traditional.txt`` lists those characters
  (generated from OpenCC by ``python -m papercli.text.variants``; a test keeps it in step).
- British spellings as American (``optimisation`` → ``optimization``, ``modelling``,
  ``behaviour``): breame's list of 1,730 pairs, then -ise/-isation/-iser forms it lacks
  (``tokenisation``, ``optimiser``) unless the word is one spelt -ise in American English
  too (``supervise``, ``noise``, ``promise``).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache, lru_cache
from pathlib import Path

TRADITIONAL_FILE = Path(__file__).with_name("traditional.txt")

_ISE_RE = re.compile(r"^([a-z]{3,})is(e|es|ed|ing|er|ers|ation|ations|able)$")
# Words spelt -ise in American English as well (their -ise is not a suffix).
_ISE_WORDS = ("advertise advise apprise appraise arise bruise chastise circumcise comprise "
              "compromise concise cruise demise despise devise disguise enterprise excise "
              "exercise expertise franchise guise improvise incise merchandise mortise noise "
              "otherwise paradise poise porpoise praise precise premise promise raise reprise "
              "revise rise supervise surmise surprise televise tortoise treatise turquoise "
              "valise vise wise").split()  # fmt: skip


def normalize(text: str) -> str:
    """*text* with full-width forms folded (NFKC) and Traditional Chinese as Simplified."""
    if text.isascii():
        return text
    text = unicodedata.normalize("NFKC", text)
    if not traditional_chars().isdisjoint(text):
        text = _t2s().convert(text)
    return text


@cache
def traditional_chars() -> frozenset[str]:
    """The characters OpenCC's t2s conversion changes (read from ``traditional.txt``)."""
    try:
        return frozenset(TRADITIONAL_FILE.read_text("utf-8").strip())
    except OSError:  # (a broken install: convert every text with CJK in it)
        return frozenset(chr(c) for c in range(0x3400, 0xA000))


@cache
def _t2s():
    import opencc

    return opencc.OpenCC("t2s")


@lru_cache(maxsize=65536)
def american(word: str) -> str:
    """The American spelling of a lower-case English *word* (itself when it has none)."""
    from breame.spelling import BRITISH_ENGLISH_SPELLINGS

    found = BRITISH_ENGLISH_SPELLINGS.get(word)
    if found:
        return found
    m = _ISE_RE.match(word)
    if m and not any((m[1] + "ise").endswith(w) for w in _ISE_WORDS):
        return f"{m[1]}iz{m[2]}"
    return word


def generate_traditional() -> str:
    """Every CJK character (the unified blocks) that OpenCC's t2s changes, in order."""
    converter = _t2s()
    chars = [chr(c) for c in (*range(0x3400, 0x4DC0), *range(0x4E00, 0xA000))]
    return "".join(c for c in chars if converter.convert(c) != c)


if __name__ == "__main__":  # regenerate traditional.txt from the installed OpenCC
    TRADITIONAL_FILE.write_text(generate_traditional() + "\n", encoding="utf-8")

"""One spelling for what is written several ways: applied to the text indexed and to the
query alike, so that either way finds the other.

- Unicode NFKC: full-width Latin letters and digits as Chinese input methods type them
  (``ＧＲＰＯ``, ``ＬＬＭ２``) are ASCII, ligatures are letters.
- Traditional Chinese as Simplified (``聯邦學習`` → ``联邦学习``), character by character by
  OpenCC's own ``t2s`` table: ``traditional.txt`` holds the 3,761 characters OpenCC changes
  and, on its second line, what each becomes (generated from OpenCC by ``python -m
  papercli.text.variants``; a test keeps it in step). Loading OpenCC itself would cost a
  query more than the whole bridge may add; the table costs a fraction of that.
  What OpenCC's phrases would add (乾隆 keeps its 乾) does not matter for matching: the
  index and the query are converted alike. All 1,322 Chinese names of the glossary, written
  in Traditional by OpenCC's ``s2t``, come back the same either way.
- Greek letters by name (``β-VAE`` is ``beta-VAE``, ``μP`` is ``muP``).
- Underscores inside words dropped: a subscript (``ℓ_1``, as LaTeX's ``$\\ell_1$`` reads)
  is the ``L1`` or ``l1`` people type.
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
_ISE_WORDS = (
    "advertise advise apprise appraise arise bruise chastise circumcise comprise "
    "compromise concise cruise demise despise devise disguise enterprise excise "
    "exercise expertise franchise guise improvise incise merchandise mortise noise "
    "otherwise paradise poise porpoise praise precise premise promise raise reprise "
    "revise rise supervise surmise surprise televise tortoise treatise turquoise "
    "valise vise wise"
).split()


# An underscore inside a word: a subscript as LaTeX reads (ℓ_1, x_t) or an identifier.
_SUBSCRIPT_RE = re.compile(r"(?<=[^\W_])_+(?=[^\W_])")


# Greek letters by name, as they are typed without a Greek keyboard (β-VAE is beta-VAE,
# μP is muP, ε-greedy is epsilon-greedy); in alphabet order, from α (U+03B1) and Α (U+0391).
_GREEK_RE = re.compile("[\u0391-\u03a9\u03b1-\u03c9]")
GREEK = (
    "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi "
    "rho sigma tau upsilon phi chi psi omega"
).split()


def normalize(text: str) -> str:
    """*text* with full-width forms folded (NFKC), Traditional Chinese as Simplified, Greek
    letters by name, and underscores inside words dropped (``ℓ_1`` is ``l1``, as ``L1``
    and ``$\\ell_1$`` are)."""
    if "_" in text:
        text = _SUBSCRIPT_RE.sub("", text)
    if text.isascii():
        return text
    text = unicodedata.normalize("NFKC", text)  # (ϵ, ϑ, µ: ε, θ, μ)
    if not traditional_chars().isdisjoint(text):
        text = text.translate(_t2s_table())
    # (checked first: 0.4 µs a 134-character summary, the translation 7.3)
    return text.translate(_greek_table()) if _GREEK_RE.search(text) else text


@cache
def _greek_table() -> dict[int, str]:
    table = {0x3C2: "sigma"}  # (final sigma, which sits just before σ)
    for i, name in enumerate(GREEK):
        skip = i >= GREEK.index("sigma")  # (no capital at U+03A2, the final sigma's place)
        table[0x3B1 + i + skip] = table[0x391 + i + skip] = name
    return table


@cache
def _pairs() -> tuple[str, str]:
    """(the characters OpenCC's t2s changes, what each becomes), from ``traditional.txt``."""
    try:
        traditional, simplified = TRADITIONAL_FILE.read_text("utf-8").split()
    except (OSError, ValueError):  # (a broken install: no conversion)
        return "", ""
    return (traditional, simplified) if len(traditional) == len(simplified) else ("", "")


@cache
def traditional_chars() -> frozenset[str]:
    return frozenset(_pairs()[0])


@cache
def _t2s_table() -> dict[int, int]:
    return str.maketrans(*_pairs())


def normalize_with_origins(text: str) -> tuple[str, list[int]]:
    """``normalize(text)``, and for each of its characters the index in *text* of the
    character it comes from (so that what is found in the one spelling can be marked in
    the text as written). Character by character: for the rare text a snippet finds its
    words in only once it is normalized."""
    dropped = {i for m in _SUBSCRIPT_RE.finditer(text) for i in range(*m.span())}
    out, origins = [], []
    for i, ch in enumerate(text):
        if i in dropped:
            continue
        piece = ch if ch.isascii() else normalize(ch)
        out.append(piece)
        origins += [i] * len(piece)
    return "".join(out), origins


@lru_cache(maxsize=65536)
def american_as_typed(word: str) -> str:
    """A query's *word* spelt the American way (optimisation → optimization); as typed
    otherwise (LLM keeps its capitals: an abbreviation matches as written)."""
    if not (word.isascii() and word.isalpha()):
        return word
    spelt = american(word.lower())
    return word if spelt == word.lower() else spelt


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
    """Every CJK character (the unified blocks) that OpenCC's t2s changes, in order, on one
    line; what each becomes on the next. (OpenCC is a test dependency: only this needs it.)"""
    import opencc

    converter = opencc.OpenCC("t2s")
    chars = [chr(c) for c in (*range(0x3400, 0x4DC0), *range(0x4E00, 0xA000))]
    pairs = [(c, converter.convert(c)) for c in chars]
    pairs = [(c, s) for c, s in pairs if s != c and len(s) == 1]
    return "".join(c for c, _ in pairs) + "\n" + "".join(s for _, s in pairs)


if __name__ == "__main__":  # regenerate traditional.txt from the installed OpenCC
    TRADITIONAL_FILE.write_text(generate_traditional() + "\n", encoding="utf-8")

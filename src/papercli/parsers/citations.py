"""The citation keys a draft cites: ``papers export --cited-in FILE…``.

In: a draft's text and its kind, from the file name's ending. Out: each key once, in the
order first cited, with the line it is first cited on; ``*`` for "every record"
(``\\nocite{*}``, pandoc's ``nocite: '@*'``).

    .aux          \\citation{a,b} (BibTeX), \\abx@aux@cite{0}{a} (biblatex)
    .bcf          biber's control file: <bcf:citekey …>a</bcf:citekey>
    .tex .ltx     \\cite, \\citep, \\citet, \\parencite, \\textcite, \\autocite, … with
                  optional arguments and starred forms, \\cites{a}{b}, \\nocite
    .md .qmd .Rmd pandoc citations: [@a; @b, p. 3], @a, -@a, @{a.b}

Comments and verbatim text are skipped: a key shown in a listing is not cited.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from ..errors import UsageError


@dataclass(frozen=True)
class Citation:
    key: str
    line: int  # where it is first cited (1-based)


KINDS = {
    ".aux": "aux",
    ".bcf": "bcf",
    ".tex": "tex",
    ".ltx": "tex",
    ".md": "markdown",
    ".markdown": "markdown",
    ".qmd": "markdown",
    ".rmd": "markdown",
}
KIND_NAMES = ".aux, .bcf, .tex, .md, .qmd or .Rmd"


def kind_of(name: str) -> str:
    """The kind of draft a file name says (its ending), or a ``UsageError``."""
    dot = name.rfind(".")
    kind = KINDS.get(name[dot:].lower()) if dot > 0 else None
    if kind is None:
        raise UsageError(f"{name}: not a draft papers reads cited keys from ({KIND_NAMES})")
    return kind


def cited_keys(text: str, kind: str) -> list[Citation]:
    """Each key *text* cites, once, in the order first cited."""
    found = {"aux": _aux, "bcf": _bcf, "tex": _tex, "markdown": _markdown}[kind](text)
    first: dict[str, int] = {}
    for key, offset in found:
        key = key.strip()
        if key and key not in first:
            first[key] = text.count("\n", 0, offset) + 1
    return [Citation(k, line) for k, line in first.items()]


# -- LaTeX's auxiliary files --------------------------------------------------------------

_AUX_RE = re.compile(r"\\citation\{([^}]*)\}|\\abx@aux@cite(?:\{[^}]*\})?\{([^}]*)\}")


def _aux(text: str):
    for m in _AUX_RE.finditer(text):
        keys = m.group(1) if m.group(1) is not None else m.group(2)
        yield from _split(keys, m.start())


_BCF_RE = re.compile(r"<bcf:citekey\b[^>]*>([^<]*)</bcf:citekey>")


def _bcf(text: str):
    for m in _BCF_RE.finditer(text):
        yield html.unescape(m.group(1)), m.start()


def _split(keys: str, offset: int):
    for key in keys.split(","):
        yield key, offset


# -- LaTeX sources ------------------------------------------------------------------------

# \cite, \citep, \citet*, \parencite, \textcite, \autocite, \footcite, \citeauthor, \nocite,
# \Cite…, and the multi-cite forms (\cites, \parencites, …): a command whose name holds
# "cite", then optional [..] / (..) arguments and one or more {keys} groups.
_CITE_CMD_RE = re.compile(r"\\([A-Za-z]*[Cc]ite[A-Za-z]*)\*?")
_VERBATIM_RE = re.compile(
    r"\\begin\{(verbatim\*?|Verbatim|lstlisting|minted|comment|filecontents\*?)\}"
    r".*?\\end\{\1\}",
    re.S,
)
_VERB_RE = re.compile(r"\\verb\*?([^A-Za-z\s])(?:(?!\1).)*\1")
_COMMENT_RE = re.compile(r"(?<!\\)%[^\n]*")
_NOT_CITATIONS = {"citestyle", "citesetup", "citationstyle", "excite", "recite"}


def _blank(m: re.Match) -> str:
    """The match replaced by spaces, its line breaks kept: offsets and lines stay true."""
    return re.sub(r"[^\n]", " ", m.group(0))


def _tex(text: str):
    text = _VERBATIM_RE.sub(_blank, text)
    text = _VERB_RE.sub(_blank, text)
    text = _COMMENT_RE.sub(_blank, text)
    for m in _CITE_CMD_RE.finditer(text):
        if m.group(1).lower() in _NOT_CITATIONS:
            continue
        for key, _offset in _cite_groups(text, m.end()):
            yield key, m.start()  # (the line of the command, where a reader looks)


def _cite_groups(text: str, i: int):
    """The keys of the {…} groups after a cite command, skipping [..] and (..) arguments
    and spaces between them (``\\cites[p. 1]{a}[p. 2]{b}``)."""
    n = len(text)
    while True:
        while i < n and text[i] in " \t\n":
            i += 1
        if i < n and text[i] in "[(":
            close = _closing(text, i)
            if close < 0:
                return
            i = close + 1
            continue
        if i < n and text[i] == "{":
            close = _closing(text, i)
            if close < 0:
                return
            yield from _split(text[i + 1 : close], i)
            i = close + 1
            continue
        return


def _closing(text: str, i: int) -> int:
    """Where the bracket opened at *i* closes (nesting counted), or -1."""
    opening = text[i]
    closing = {"[": "]", "(": ")", "{": "}"}[opening]
    depth = 0
    for k in range(i, min(len(text), i + 2000)):
        if text[k] == opening:
            depth += 1
        elif text[k] == closing:
            depth -= 1
            if depth == 0:
                return k
    return -1


# -- pandoc Markdown (Quarto, R Markdown) --------------------------------------------------

_FENCE_RE = re.compile(r"^(```+|~~~+)[^\n]*\n.*?^\1[ \t]*$", re.S | re.M)
_CODE_SPAN_RE = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
_HTML_COMMENT_RE = re.compile(r"<!--.*?-->", re.S)
# pandoc: @ not after a word character; a key starts with a letter, digit or _ and may hold
# :.#$%&-+?<>~/ inside (not at its end); or any text in braces, @{…}.
_PANDOC_KEY_RE = re.compile(
    r"(?<![\w@])-?@(?:\{([^{}\n]+)\}|([A-Za-z0-9_](?:[\w]|[:.#$%&\-+?<>~/](?=[\w]))*))"
)
_FRONT_MATTER_RE = re.compile(r"\A---[ \t]*\n.*?\n(?:---|\.\.\.)[ \t]*\n", re.S)
_NOCITE_ALL_RE = re.compile(r"^nocite:[^\n]*@\*", re.M)


def _markdown(text: str):
    front = _FRONT_MATTER_RE.match(text)
    if front and _NOCITE_ALL_RE.search(front.group(0)):
        yield "*", _NOCITE_ALL_RE.search(front.group(0)).start()
    if front:  # (only its nocite: list cites; the rest is metadata, e.g. an author's email)
        head = front.group(0)
        nocite = re.search(r"^nocite:(.*?)(?=^\w|\Z)", head, re.M | re.S)
        if nocite:
            for m in _PANDOC_KEY_RE.finditer(nocite.group(1)):
                yield m.group(1) or m.group(2), nocite.start(1) + m.start()
        text = _FRONT_MATTER_RE.sub(_blank, text, count=1)
    for pattern in (_FENCE_RE, _HTML_COMMENT_RE, _CODE_SPAN_RE):
        text = pattern.sub(_blank, text)
    for m in _PANDOC_KEY_RE.finditer(text):
        yield m.group(1) or m.group(2), m.start()

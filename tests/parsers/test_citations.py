"""The keys a draft cites (``export --cited-in``): every citation form of LaTeX, biber's
and BibTeX's auxiliary files, and pandoc Markdown; never a key in a comment or verbatim."""

from __future__ import annotations

import pytest

from papercli.errors import UsageError
from papercli.parsers.citations import cited_keys, kind_of

TEX = r"""\documentclass{article}
\usepackage{natbib}
\begin{document}
As \citet{a2026} and \citep[see][p.~3]{b2026, c2026} show, % \cite{commented}
\autocite*{d2026}. \cites[p. 1]{e2026}[p. 2]{f2026} 100\% sure \parencite{g:h.i}.
\textcite
  [p. 4]{j2026} \footcite{k2026} \citeauthor*{a2026} \Cite{l2026} \nocite{m2026}
\verb|\cite{verb}| \lstinline|x|
\begin{verbatim}
\cite{inverbatim}
\end{verbatim}
\begin{lstlisting}
\citep{inlisting}
\end{lstlisting}
\citestyle{plainnat}
\end{document}
"""


def keys(text, kind):
    return [(c.key, c.line) for c in cited_keys(text, kind)]


def test_latex_citations_in_every_form_once_each_in_order():
    assert keys(TEX, "tex") == [
        ("a2026", 4),
        ("b2026", 4),
        ("c2026", 4),
        ("d2026", 5),
        ("e2026", 5),
        ("f2026", 5),
        ("g:h.i", 5),
        ("j2026", 6),
        ("k2026", 7),
        ("l2026", 7),
        ("m2026", 7),
    ]


def test_nocite_star_cites_every_record():
    assert keys("\\nocite{*}\\cite{a}\n", "tex") == [("*", 1), ("a", 1)]
    assert keys("\\citation{*}\n\\citation{a,b}\n", "aux") == [("*", 1), ("a", 2), ("b", 2)]


def test_aux_files_of_bibtex_and_biblatex():
    aux = "\\relax\n\\citation{a,b}\n\\abx@aux@cite{0}{c}\n\\abx@aux@segm{0}{0}{c}\n\\abx@aux@cite{d}\n"
    assert keys(aux, "aux") == [("a", 2), ("b", 2), ("c", 3), ("d", 5)]


def test_bcf_citekeys():
    bcf = (
        '<bcf:section number="0">\n'
        '  <bcf:citekey order="1" intorder="1">a&amp;b</bcf:citekey>\n'
        '  <bcf:citekey order="2" intorder="1">c</bcf:citekey>\n'
        "</bcf:section>\n"
    )
    assert keys(bcf, "bcf") == [("a&b", 2), ("c", 3)]


def test_pandoc_citations_skip_code_comments_and_emails():
    md = """---
title: Draft
author: me@example.org
nocite: |
  @n1, @n2
---
Blah [@a2026; @b2026, p. 3] and @c2026 says; -@d2026 too.
Mail foo@bar.com. `@incode` and @{e.2026:x}.

```python
@infence
```
<!-- @incomment -->
Ends a sentence with @f2026.
"""
    assert [k for k, _line in keys(md, "markdown")] == [
        "n1",
        "n2",
        "a2026",
        "b2026",
        "c2026",
        "d2026",
        "e.2026:x",
        "f2026",
    ]
    assert keys("---\nnocite: '@*'\n---\ntext\n", "markdown") == [("*", 2)]


def test_the_kind_comes_from_the_ending_and_others_are_refused():
    assert [kind_of(n) for n in ("a.aux", "a.bcf", "a.tex", "a.md", "a.qmd", "a.Rmd")] == [
        "aux",
        "bcf",
        "tex",
        "markdown",
        "markdown",
        "markdown",
    ]
    with pytest.raises(UsageError, match=r"^draft.docx: not a draft papers reads cited keys"):
        kind_of("draft.docx")

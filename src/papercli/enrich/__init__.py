"""Filling in what the documents do not say, from the venue's own list of accepted papers,
else from arXiv and Crossref.

    openreview.py  the venue's accepted papers, downloaded through OpenReview's API v2
    cache.py       that download, kept in the library with its date
    match.py       which candidate a record is: its abstract, else its title, else a fuzzy
                   score with a clear margin (a near tie is reported, never guessed)
    services.py    arXiv and Crossref for the records OpenReview cannot serve: by link,
                   else by search, the results matched as a venue's list is
    replies.py     their answers, kept in the library with their date, by question
    changes.py     what a match adds to a record: empty fields filled, disagreements kept
                   as conflicts, provenance in ``sources``
    run.py         ``papers enrich``: download and ask, match, then write everything or
                   nothing

Only ``papers enrich`` imports this package (``papers add`` reads the venue lists, and
matches as ``match`` does).
"""

"""Filling in what the documents do not say, from the venue's own list of accepted papers.

    openreview.py  the venue's accepted papers, downloaded through OpenReview's API v2
    cache.py       that download, kept in the library with its date
    match.py       which accepted paper a record is: its abstract, else its title, else a
                   fuzzy score with a clear margin (a near tie is reported, never guessed)
    changes.py     what a match adds to a record: empty fields filled, disagreements kept
                   as conflicts, provenance in ``sources``
    run.py         ``papers enrich``: download, match, then write everything or nothing

Only ``papers enrich`` imports this package (and the HTTP client).
"""

"""The services papers asks over HTTP for what a paper is: one client each, shared by
``papers add`` and ``papers enrich``.

    service.py   one service: its base address, one connection, its pace, 429s, and every
                 failure as one line (``ServiceError``)
    found.py     a paper as one service gives it, and the source that cites the service
    arxiv.py     arXiv's API: ids and searches, read from its Atom feed
    crossref.py  Crossref's REST API: a DOI's work, and bibliographic searches

Only ``papers add`` and ``papers enrich`` import this package; httpx is imported when the
first request is made.
"""

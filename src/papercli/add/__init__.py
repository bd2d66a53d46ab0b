"""``papers add``: papers named by an arXiv id, an OpenReview forum, a DOI or a pasted title,
looked up in the services that know them and written to the library as one transaction.

    items.py     what an item the user gave is (arXiv id, forum, DOI, or free text)
    service.py   one service over HTTP: its base address, pace, 429s, one-line errors
    found.py     a paper as one service gives it, and the entry and source it becomes
    arxiv.py     arXiv's API: ids and title searches, read from its Atom feed
    crossref.py  Crossref's REST API: a DOI's work, and bibliographic searches
    forums.py    OpenReview: a forum's note, and the venue lists ``papers enrich`` cached
    lookup.py    a title among the services' candidates, scored as enrich scores
    resolve.py   each item to the parts of one paper, or to the candidates to choose from
    write.py     the papers into the library: found, merged or created, all or nothing

Only ``papers add`` imports this package (and the HTTP client).
"""

"""``papers add``: papers named by an arXiv id, an OpenReview forum, a DOI or a pasted title,
looked up in the services that know them and written to the library as one transaction.

    items.py     what an item the user gave is (arXiv id, forum, DOI, or free text)
    forums.py    OpenReview: a forum's note, and the venue lists ``papers enrich`` cached
    lookup.py    a title among the services' candidates, scored as enrich scores
    resolve.py   each item to the parts of one paper, or to the candidates to choose from
    write.py     the papers into the library: found, merged or created, all or nothing

The services' clients are in ``remote``. Only ``papers add`` imports this package.
"""

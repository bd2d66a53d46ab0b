"""The index and the questions asked of it.

In: records (each indexed as it is saved). Out: hits, each with its stored record, score
and a snippet showing why it matched.

    analysis.py    the bilingual analyzer (tokenizers and filters composed with |)
    schema.py      the index's fields, and the document indexed for a record
    index.py       opening the index and keeping it in step with the records
    sync.py        keeping the index in step with the records (the freshness rule)
    writer.py      writing changes to the index (and the spelling vocabulary)
    order.py       the order a listing reads its hits in
    vocabulary.py  the words of the library, for "Did you mean …?"
    querylang.py   the query language: checks, year ranges, tag aliases
    bridge.py      the glossary's bridge in a query; Chinese words run together, cut
    pasted.py      what a pasted text names whole: an id, a link, a title, a reference
    query.py       search, similar papers, listing, counts, selection for export
    snippets.py    why a paper matched: passages with the matched words marked
"""

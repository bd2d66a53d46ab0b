"""The questions the commands ask of the index, as plain functions over a ``PaperIndex``:
the CLI only parses options and prints.

In: the query as typed, filters, ids, and the open index. Out: hits (with snippets),
counts, ids and records for an export, and what to say when nothing matched.

    filters.py   tags, a venue, years: a listing's or a search's filters
    search.py    a search: best first, passing mentions last, a pasted reference's papers
    suggest.py   when nothing matched: "Did you mean …?", a word to leave out, absent concepts
    listing.py   the papers the filters keep, similar papers, tag and stats counts
    lookup.py    one paper by id, citation key, link or pasted title
    select.py    the papers an export writes: their ids, then their records
"""

"""The index: records in, Whoosh documents on disk, hits out; derived from the records,
never the source of truth.

In: records (each indexed as it is saved, or found changed by a sync) and the glossary.
Out: ``PaperIndex``: a searcher, and the hits of a Whoosh query, each read with its
stored record, best first or by title.

    schema.py       the index's fields, and the document indexed for a record
    state.py        what the index was last synced with (state.json, stamps.json)
    vocabulary.py   the library's English words as written, for "Did you mean …?"
    folder.py       the index's folder: opened, checked, made afresh, read
    writer.py       writing a batch of changes (and the vocabulary) with their state
    sync.py         keeping the index in step with papers/ (the freshness rule)
    paper_index.py  PaperIndex: the folder opened, kept fresh, and queried
"""

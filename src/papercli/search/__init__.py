"""The index and the questions asked of it.

In: records (each indexed as it is saved) and the text of a query. Out: hits, each with
its stored record, score and a snippet showing why it matched.

    record ──► concepts/ ──► index/ ──► .index/ (Whoosh, derived from the records)
                                           │
    query text ──► querying/ ──► Whoosh query ──► index/ ──► results/ ──► Hit
                       ▲                                                   │
                       └───────────── questions/ (what the commands ask) ◄─┘

    analysis.py  the bilingual analyzer (tokenizers and filters composed with |), shared
                 by the index and the query; pickled into each index's schema by its
                 dotted names, so it stays here
    concepts/    the glossary (one concept in both languages), passing mentions, the
                 common words and their renderings: what a record speaks of, and what
                 a query is bridged with
    index/       record → Whoosh document → the index on disk, kept in step with the
                 records; a Whoosh query → ranked stored records
    querying/    the text typed → checked, rewritten, bridged to the glossary → a
                 Whoosh query; what a pasted text names whole
    results/     stored records → Hits with snippets (the matched words marked); the
                 literal scan when the index finds nothing
    questions/   the plain functions the commands call: search, suggestions when nothing
                 matched, listings, lookup of one paper, selection for export
"""

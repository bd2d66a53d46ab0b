"""What a search gives back: hits, and why each matched.

In: the stored fields of the papers a query matched, the query's words, the concepts that
bridged it; or, when the index finds nothing, the query as typed. Out: ``Hit`` objects,
each with its stored record, score and a snippet with the matched words marked.

    hits.py          a hit: a paper's stored record, its score, its snippet
    marking.py       where a query's words stand in a text, and the marks around them
    passage.py       the passage a snippet shows: the most matches in so many cells
    snippets.py      why a paper matched: its passage marked, or how the glossary bridged
    literal_scan.py  the papers that hold a query's words as plain text (as grep -i)
"""

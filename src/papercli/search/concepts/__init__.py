"""The glossary: one concept in both languages, and the common words a query asks for in
both.

In: the taxonomy, the bundled ``glossary.yaml`` and the user's; a paper's texts. Out: the
concepts a paper speaks of and those it names only in passing (indexed with it); the
compiled glossary a query is bridged with; a common word's renderings.

    glossary.yaml       the bundled concepts: English terms, abbreviations, Chinese terms
    concept.py          one concept: its names, signs and exclusions, as tags
    glossary.py         the glossary's files, and the concepts a paper speaks of
    coordination.py     two terms written once with their shared last word
    passing.py          the concepts a paper names only in passing (a list, a baseline, …)
    query_glossary.py   the glossary compiled for queries, saved beside the index
    common_words.py     the common words of ML texts, each with its rendering
    renderings.py       a common word's renderings in the other language, in any form
    categories.py       a library's categories (digest headings) read as concepts
"""

"""From the text a user types to the Whoosh query run on the index.

In: the query as typed, and what the index knows (its glossary, its vocabulary, its
categories, the words it holds). Out: a Whoosh query, or a one-line ``UsageError``
saying what is wrong; and the concepts the query's words named (for the snippets).

    syntax.py          the query language: fields, operators, years; its checks
    typed_words.py     how a plain word reads: signs, punctuation, spellings, a year or venue
    rewrite.py         the query checked and rewritten into Whoosh's syntax
    bridge.py          the words that name a concept, bridged to it; Chinese runs cut
    build.py           the Whoosh query built from the rewritten text without the parser
    parse.py           the text as a Whoosh query, with what the index knows
    pasted.py          what a pasted text names whole: an id, a link, a title, a reference
"""

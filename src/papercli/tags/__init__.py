"""Topic tags: a bilingual taxonomy and the tags it gives each record.

In: a record's title, short name, abstract and Chinese summary, the headings its digest
page put it under (its categories), and the user's own tag edits. Out: the record's ``tags``.

    taxonomy.py    taxonomy.yaml read and checked; each tag's matching rules and aliases
    patterns.py    how a term or an exclusion is found in a text, and the shortcuts
    tagging.py     automatic tags plus the user's edits; ``tag`` and ``retag``
"""

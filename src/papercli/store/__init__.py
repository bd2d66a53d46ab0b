"""The library on disk: records in, records out, nothing half-written.

In: entries from ``parsers`` (and edits). Out: ``papers/<id>.yaml`` files, read back as
``Record`` objects, with the document copies that cite them.

    record.py       the record: fields, order, validation, derived labels
    ids.py          ids and citation keys made from untrusted text
    merge.py        identity keys and the merge rule: one record per paper
    yamlio.py       YAML read with a safe loader only, written in one stable style
    files.py        atomic writes and safe file names
    transaction.py  all-or-nothing writes of many files (the journal)
    library.py      the folder: records, document copies, the write lock
    doctor.py       checking and repairing a library
    editing.py      editing one record safely
"""

"""papers: a local, searchable literature index for paper digests in English and Chinese."""

__version__ = "0.1.0"

"""Registers the shared fixtures (defined in ``testing.py``, with the helpers, and the local
OpenReview, arXiv and Crossref servers in ``enrich/openreview_server.py`` and
``add/services.py``)."""

from add.services import arxiv_api, crossref_api  # noqa: F401  (fixtures)
from enrich.openreview_server import openreview  # noqa: F401  (fixture)
from testing import (  # noqa: F401  (fixtures)
    abstracts,
    browse_template,
    bundled_copy,
    digest,
    isolated_env,
    seeded_library,
    seeded_template,
    tmp_library,
)

"""Registers the shared fixtures (defined in ``testing.py``, with the helpers)."""

from testing import (  # noqa: F401  (fixtures)
    abstracts,
    bundled_copy,
    digest,
    isolated_env,
    seeded_library,
    seeded_template,
    tmp_library,
)

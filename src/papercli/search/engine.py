"""Import Whoosh without the two imports it does not need (half its start-up cost).

``whoosh.compat`` imports ``urllib.request`` for ``urlretrieve`` (papers never downloads
anything; ~35 ms, pulling in http.client and email), ``whoosh.reading`` imports the
``cached_property`` package, which imports asyncio (~25 ms), and ``whoosh.query.terms``
imports ``whoosh.lang.morph_en``, whose word-variation tables compile into one huge
regular expression (~25 ms) that only Whoosh's ``Variations`` query uses. Importing this
module before Whoosh installs stand-ins, only if the real modules are not loaded yet:

- ``cached_property``: ``functools.cached_property``, which behaves the same for the plain
  (non-async) properties Whoosh defines;
- ``urllib.request``: a module that imports the real one the first time anything is asked
  of it, and then steps aside, so code that does use it still works;
- ``whoosh.lang.morph_en``: a ``variations`` that imports the real module when called.

Measured: ``import whoosh.index, whoosh.query, whoosh.highlight`` 119–179 ms without,
47–73 ms with (cold processes, this machine).
"""

from __future__ import annotations

import functools
import importlib
import sys
import types


def _real_urllib_request():
    sys.modules.pop("urllib.request", None)
    real = importlib.import_module("urllib.request")
    sys.modules["urllib"].request = real
    return real


class _LazyUrllibRequest(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):  # the import system probing (__path__, __spec__ …)
            raise AttributeError(name)
        return getattr(_real_urllib_request(), name)


def _urlretrieve(*args, **kwargs):
    return _real_urllib_request().urlretrieve(*args, **kwargs)


def _variations(word):
    sys.modules.pop("whoosh.lang.morph_en", None)
    real = importlib.import_module("whoosh.lang.morph_en")
    return real.variations(word)


def install() -> None:
    if "whoosh" in sys.modules:
        return
    if "whoosh.lang.morph_en" not in sys.modules:
        shim = types.ModuleType("whoosh.lang.morph_en")
        shim.variations = _variations
        sys.modules["whoosh.lang.morph_en"] = shim
    if "cached_property" not in sys.modules:
        shim = types.ModuleType("cached_property")
        shim.cached_property = functools.cached_property
        sys.modules["cached_property"] = shim
    if "urllib.request" not in sys.modules:
        import urllib

        lazy = _LazyUrllibRequest("urllib.request")
        lazy.urlretrieve = _urlretrieve
        sys.modules["urllib.request"] = lazy
        urllib.request = lazy


install()

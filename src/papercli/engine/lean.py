"""The ``papers`` program imports Whoosh without the modules it imports and never
uses here. Only the command line calls ``load()`` (when a command starts): library code
imports Whoosh as it is and never touches ``sys.modules``.

Each of these costs a command's start-up and serves papers nothing: ``whoosh.compat``
imports ``urllib.request`` for ``urlretrieve`` (with http.client and email: papers never
downloads through Whoosh), ``whoosh.reading`` imports the ``cached_property`` package,
which imports asyncio, and ``whoosh.query.terms`` imports ``whoosh.lang.morph_en``, whose
word-variation tables compile into one huge regular expression that only Whoosh's
``Variations`` query uses. Its hash tables take ``md5`` (and its automata ``sha1``) from
``hashlib``, which loads OpenSSL; Python's own ``_md5`` and ``_sha1`` give the same
digests without it.

``load()`` imports Whoosh's modules once with stand-ins for those in ``sys.modules``
*only while Whoosh's own modules execute*, and removes them before returning. What stays
is in Whoosh's own namespace: ``whoosh.compat.urlretrieve`` and
``whoosh.query.terms.variations`` import the real module on first call, and
``whoosh.reading.cached_property`` is ``functools.cached_property`` (which behaves the
same for the plain properties Whoosh defines), and Whoosh's ``md5`` and ``sha1`` are
Python's own (the same digests; a Python built without them gets ``hashlib``). Any
other code that imports ``urllib.request``, ``hashlib`` or ``whoosh.lang.morph_en`` gets
the real module, as if this module did not exist. If Whoosh was imported before, nothing
is done. (The import takes about a third of its plain time: BENCHMARKS.md's floors.)
"""

from __future__ import annotations

import functools
import importlib
import sys
import types

from . import check_version

# Whoosh's modules that import one of them; everything else in Whoosh imports these (the
# hash tables' module is imported when an index is opened: here, so that it gets md5).
_IMPORTERS = ("whoosh.compat", "whoosh.reading", "whoosh.query", "whoosh.filedb.filetables")


def _urlretrieve(*args, **kwargs):
    return importlib.import_module("urllib.request").urlretrieve(*args, **kwargs)


def _variations(word: str):
    return _morph_en().variations(word)


@functools.cache
def _morph_en():
    return importlib.import_module("whoosh.lang.morph_en")


def _stand_ins() -> dict[str, types.ModuleType]:
    cached = types.ModuleType("cached_property")
    cached.cached_property = functools.cached_property
    request = types.ModuleType("urllib.request")
    request.urlretrieve = _urlretrieve
    morph = types.ModuleType("whoosh.lang.morph_en")
    morph.variations = _variations
    out = {"cached_property": cached, "urllib.request": request, "whoosh.lang.morph_en": morph}
    try:
        from _md5 import md5
        from _sha1 import sha1
    except ImportError:  # (some builds leave them out: hashlib it is)
        return out
    hashes = types.ModuleType("hashlib")
    hashes.md5, hashes.sha1 = md5, sha1
    return {**out, "hashlib": hashes}


def load() -> None:
    """Import Whoosh (see the module's docstring); cheap once it is imported. Raises
    ``EngineVersionError`` for a Whoosh of another release."""
    check_version()
    if all(name in sys.modules for name in _IMPORTERS):
        return
    if any(name in sys.modules for name in _IMPORTERS):  # someone else started: plain import
        for name in _IMPORTERS:
            importlib.import_module(name)
        return
    planted = {n: m for n, m in _stand_ins().items() if n not in sys.modules}
    sys.modules.update(planted)
    try:
        for name in _IMPORTERS:
            importlib.import_module(name)
    finally:
        for name, module in planted.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]

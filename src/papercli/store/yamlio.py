"""YAML in and out: records and settings are read with a safe loader only (LibYAML's C
loader where present) and written in one stable style, so an unchanged record is
byte-identical when written again."""

from __future__ import annotations

import functools
import re

from ..errors import RecordError
from ..text import BIDI_CONTROLS

_BIDI_RE = re.compile(f"[{BIDI_CONTROLS}]")


@functools.cache
def _yaml():
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):
        """Text holding an invisible bidirectional control is written double-quoted, with
        the control as an escape (``\\u202E``): YAML would write it as it is, and a record
        shown with ``cat`` would then read reordered."""

    def represent_str(dumper, data: str):
        style = '"' if _BIDI_RE.search(data) else None
        return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)

    Dumper.add_representer(str, represent_str)
    return yaml, loader, Dumper


def dump_yaml(data: dict) -> str:
    yaml, _loader, dumper = _yaml()
    text = yaml.dump(
        data,
        Dumper=dumper,
        allow_unicode=True,
        sort_keys=False,
        default_flow_style=False,
        width=100,
    )
    return _BIDI_RE.sub(lambda m: f"\\u{ord(m.group()):04X}", text)


MAX_BYTES = 16 << 20  # a record is a few KiB; one cited by 50,000 entries, ~6 MiB
# Where an anchor (&a) or an alias (*a) could begin: after a space, a bracket, a comma or a
# dash. Text without one cannot hold either, and skips the walk over its nodes.
_MAY_ALIAS_RE = re.compile(r"(?:^|[\s\[{,:-])[&*][^\s\]},]", re.M)
MAX_DEPTH = 16  # a record nests three levels deep (sources -> source -> fields)
CHECK_ALL_BELOW = 1 << 16  # bytes: every record is walked below this size (0.1 ms)


def load_yaml(text: str, where: str, max_bytes: int = MAX_BYTES):
    """The data in *text*, or a ``RecordError`` naming *where* and the line.

    Anchors and aliases are refused: a hand-edited record of 700 bytes can otherwise expand
    into gigabytes (``a: &a [*b, *b, …]``); no record needs them. Size and nesting are
    bounded too. The checks run on the node graph LibYAML builds (aliases there are
    shared nodes, not copies), before anything is constructed."""
    yaml, loader_class, _dumper = _yaml()
    if len(text) > max_bytes:
        raise RecordError(f"{where}: {len(text):,} characters, more than {max_bytes:,} allowed")
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        if len(text) < CHECK_ALL_BELOW or _MAY_ALIAS_RE.search(text):
            _check(node, where)  # (a huge record papers wrote itself has no anchor: skipped)
        return loader.construct_document(node)
    except RecursionError:
        raise RecordError(f"{where}: nested or repeated beyond any record") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "invalid YAML"
        raise RecordError(f"{where}{line}: {problem}") from None
    finally:
        loader.dispose()


def _check(root, where: str) -> None:
    """Refuse a node reached twice (an alias), or deeper than ``MAX_DEPTH``."""
    seen: set[int] = set()
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        line = node.start_mark.line + 1
        if id(node) in seen:
            raise RecordError(
                f"{where} line {line}: YAML anchors and aliases (&, *) are not allowed here"
            )
        seen.add(id(node))
        if depth > MAX_DEPTH:
            raise RecordError(f"{where} line {line}: nested or repeated beyond any record")
        if isinstance(node.value, list):
            for item in node.value:
                children = item if isinstance(item, tuple) else (item,)  # (key, value) pairs
                stack.extend((child, depth + 1) for child in children)

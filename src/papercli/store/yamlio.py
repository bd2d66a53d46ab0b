"""YAML in and out: records and settings are read with a safe loader only (LibYAML's C
loader where present) and written in one stable style, so an unchanged record is
byte-identical when written again."""

from __future__ import annotations

from ..errors import RecordError


def _yaml():
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return yaml, loader, dumper


def dump_yaml(data: dict) -> str:
    yaml, _loader, dumper = _yaml()
    return yaml.dump(
        data,
        Dumper=dumper,
        allow_unicode=True,
        sort_keys=False,
        default_flow_style=False,
        width=100,
    )


def load_yaml(text: str, where: str):
    yaml, loader, _dumper = _yaml()
    try:
        return yaml.load(text, Loader=loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "invalid YAML"
        raise RecordError(f"{where}{line}: {problem}") from None

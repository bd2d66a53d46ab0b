"""The package's shape: no module imports itself back through others, and none is long.

Imports inside functions and those for type checking only count: a cycle deferred into a
function still ties the modules together, so neither can be read, tested or moved without
the other."""

from __future__ import annotations

import ast
from pathlib import Path

import papercli

SRC = Path(papercli.__file__).parent
LONGEST = 400  # lines a module may have


def _name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_name(path): path for path in sorted(SRC.rglob("*.py"))}


def _imports(name: str, path: Path) -> set[str]:
    """The papercli modules *name* imports anywhere in its text, functions included."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # `from package import module` imports the module; otherwise a name of base
            found |= {
                f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names
            }
    return {module for module in found if module in MODULES and module != name}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                group.append(other)
                if other == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)


def test_no_module_imports_itself_back():
    graph = {name: _imports(name, path) for name, path in MODULES.items()}
    cycles = _cycles(graph)
    assert cycles == [], "modules that import each other: " + "; ".join(map(" ".join, cycles))


def test_no_module_is_over_400_lines():
    long = {
        name: count
        for name, path in MODULES.items()
        if (count := len(path.read_text("utf-8").splitlines())) > LONGEST
    }
    assert long == {}

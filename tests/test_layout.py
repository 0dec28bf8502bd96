"""The package's layers: no import cycle, and no lower layer importing a higher one.

Layers, bottom up (README "Architecture"): ``errors`` → ``store`` → ``background`` →
``agent`` → the faces (``cli``, ``testing``, ``base_store``, ``ui``) → the package's ``__init__``. A module may
import its own layer and the ones below. LangGraph itself is imported only above ``store``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "langgraph_memory"

LAYERS = {
    "errors": 0,
    "store": 1,
    "background": 2,
    "agent": 3,
    "cli": 4,
    "base_store": 4,
    "auth": 4,
    "testing": 4,
    "ui": 4,
    "__init__": 5,
}
# Deliberate lazy imports of a higher layer, each with its reason.
ALLOWED_UPWARD: set[tuple[str, str]] = {
    # MemoryStore.as_base_store() returns the BaseStore face over its own engine; the face
    # imports LangGraph, so the store imports it only when asked.
    ("langgraph_memory.store.memory_store", "langgraph_memory.base_store"),
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _resolve(name: str) -> str | None:
    """The package module an imported name lives in (``a.b.C`` → ``a.b``)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str) -> dict[str, set[str]]:
    """Package modules imported by ``module``, and the third-party roots it imports."""
    path = MODULES[module]
    is_package = path.name == "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    ours: set[str] = set()
    others: set[str] = set()
    # Imports under `if TYPE_CHECKING:` never run: they are annotations, not edges.
    typing_only = {id(n) for block in ast.walk(tree) if isinstance(block, ast.If)
                   and isinstance(block.test, ast.Name) and block.test.id == "TYPE_CHECKING"
                   for stmt in block.body for n in ast.walk(stmt)}
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".") if is_package else module.split(".")[:-1]
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            # `from pkg import mod` imports the module pkg.mod when there is one
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]
        else:
            continue
        for name in names:
            if name.split(".")[0] == "langgraph_memory":
                target = _resolve(name)
                if target and target != module:
                    ours.add(target)
            else:
                others.add(name.split(".")[0])
    return {"ours": ours, "others": others}


GRAPH = {m: _imports(m) for m in MODULES}


def _layer(module: str) -> int:
    parts = module.split(".")
    if len(parts) == 1:
        return LAYERS["__init__"]
    return LAYERS[parts[1]]


def test_every_module_has_a_layer():
    assert {m.split(".")[1] for m in MODULES if "." in m} <= set(LAYERS)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_lower_layer_imports_a_higher_one(module):
    upward = {
        target for target in GRAPH[module]["ours"]
        if _layer(target) > _layer(module) and (module, target) not in ALLOWED_UPWARD
    }
    assert not upward, f"{module} (layer {_layer(module)}) imports higher layers: {sorted(upward)}"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _layer(m) <= LAYERS["store"]))
def test_the_storage_layer_does_not_import_langgraph(module):
    assert "langgraph" not in GRAPH[module]["others"]


def test_no_import_cycle():
    # A package's __init__ that re-exports its submodules is not a cycle with them: an
    # import of `pkg.sub` is an edge to `pkg.sub` only.
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        stack.append(module)
        for target in sorted(GRAPH[module]["ours"]):
            if state.get(target) == 1:
                cycle = stack[stack.index(target):] + [target]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if target not in state:
                visit(target)
        stack.pop()
        state[module] = 2

    for module in sorted(MODULES):
        if module not in state:
            visit(module)


def test_no_module_is_much_over_400_lines():
    long = {m: n for m, p in MODULES.items() if (n := len(p.read_text(encoding="utf-8").splitlines())) > 460}
    assert not long, f"modules past ~400 lines hold two ideas: {long}"

"""Issue #29 bounds every module of the package at 450 lines (a module past ~400 usually
holds two ideas): a merge that pushes one past it fails here rather than in a review."""

from __future__ import annotations

from pathlib import Path

import langgraph_memory

MAX_LINES = 450


def test_every_module_of_the_package_is_at_most_450_lines() -> None:
    root = Path(langgraph_memory.__file__).parent
    modules = sorted(root.rglob("*.py"))
    assert len(modules) > 50  # the package itself, not an empty or wrong directory
    too_long = {str(m.relative_to(root)): n for m in modules if (n := len(m.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not too_long, f"modules past {MAX_LINES} lines: {too_long}"

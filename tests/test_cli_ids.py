"""The CLI takes what ``list`` prints: an id or any unique prefix of it (an ambiguous one
lists the candidates), and it starts without loading what a command does not need."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from langgraph_memory import MemoryStore
from langgraph_memory.cli import main

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[1]
NS = ("memories", "alice")
# 17 records: two of them must share their first hex digit (16 possible), so an ambiguous
# prefix always exists without choosing ids by hand.
FACTS = [f"Alice visited city number {i} in 2025" for i in range(17)]


def run(argv, **kwargs):
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err, **kwargs)
    return code, out.getvalue(), err.getvalue()


def shortest_unique_prefix(target: str, ids: list[str]) -> str:
    others = [i for i in ids if i != target]
    return next(target[:n] for n in range(1, 37) if not any(o.startswith(target[:n]) for o in others))


@pytest.fixture
def filled(make_store):
    store = make_store()
    ids = [r.memory.id for r in store.remember_many([{"content": c} for c in FACTS], namespace=NS, dedup=False)]
    return store, ids


def test_show_accepts_any_unique_prefix(filled):
    store, ids = filled
    for memory_id in ids:
        for prefix in {shortest_unique_prefix(memory_id, ids), memory_id[:8], memory_id[:13].upper()}:
            code, out, err = run(["show", prefix, "--json"], store=store)
            assert code == 0, err
            assert json.loads(out)["id"] == memory_id


def test_an_ambiguous_prefix_lists_the_candidates(filled):
    store, ids = filled
    first = sorted({i[0] for i in ids}, key=lambda c: -sum(i.startswith(c) for i in ids))[0]
    sharing = [i for i in ids if i.startswith(first)]
    assert len(sharing) >= 2
    for command in (["show", first], ["delete", first, "--yes"]):
        code, out, err = run(command, store=store)
        assert code == 1 and out == ""
        line = err.strip()
        assert "\n" not in line and "matches several memories" in line
        assert all(i in line for i in sharing[:10])
    assert store.count(namespace=NS) == len(ids)  # nothing deleted


def test_unknown_prefix_and_non_ids_are_one_line_errors(filled):
    store, ids = filled
    unused = next(c for c in "0123456789abcdef" if not any(i.startswith(c) for i in ids)) if len(
        {i[0] for i in ids}) < 16 else None
    if unused is not None:
        code, _, err = run(["show", unused], store=store)
        assert code == 1 and f"no memory id starts with '{unused}'" in err
    code, _, err = run(["show", "alice"], store=store)
    assert code == 1 and "is not a memory id" in err and "first characters" in err


def test_delete_by_prefix_removes_the_memory_and_its_older_versions(make_store):
    store = make_store()
    old = store.remember("Alice broke her shoulder", namespace=NS).memory
    new = store.remember("Alice broke her shoulder skiing on 10 January 2026", namespace=NS)
    assert new.action == "updated"
    code, _, err = run(["delete", old.id[:12], "--yes"], store=store)
    assert code == 1 and "older version" in err and new.memory.id in err
    code, out, err = run(["delete", new.memory.id[:12], "--yes", "--reason", "asked"], store=store)
    assert code == 0, err
    assert "forgot" in out and new.memory.id in out and "restore" in out
    assert store.count(namespace=NS) == 0 and store.count(namespace=NS, include_superseded=True) == 2
    code, out, err = run(["restore", new.memory.id[:12]], store=store)
    assert code == 0 and "restored" in out and "forgotten before" in out, err
    assert store.get(new.memory.id, namespace=NS) is not None
    code, out, err = run(["delete", new.memory.id[:12], "--yes", "--hard"], store=store)
    assert code == 0, err
    assert "for good" in out and new.memory.id in out
    assert store.count(namespace=NS, include_superseded=True) == 0


def test_delete_without_confirmation_deletes_nothing(filled, monkeypatch):
    store, ids = filled
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, _, err = run(["delete", ids[0]], store=store)
    assert code == 1 and "nothing deleted" in err and "--yes" in err
    assert store.count(namespace=NS) == len(ids)


PROBE = """
import json, sys
from langgraph_memory.cli import main
code = main(sys.argv[1:], stdout=open("/dev/null", "w"))
heavy = ("qdrant_client", "langchain_qdrant", "torch", "sentence_transformers", "transformers",
         "langgraph", "langchain_core", "numpy")
print(json.dumps({"code": code, "loaded": sorted({m.split(".")[0] for m in sys.modules} & set(heavy))}))
"""


def probe(*argv: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True,
                          timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_the_cli_loads_only_what_a_command_needs(tmp_path, embeddings):
    # --help and a bad command line: argparse only.
    assert probe("--help") == {"code": 0, "loaded": []}
    assert probe("list")["loaded"] == []
    # Reading an embedded store: no qdrant-client, no langchain-qdrant, no model, no LangChain,
    # no LangGraph.
    with MemoryStore.open(tmp_path / "s", embeddings=embeddings) as store:
        store.remember("Alice likes tea", namespace=NS)
    for command in (["list"], ["stats"], ["show", "0"]):
        result = probe("--path", str(tmp_path / "s"), *command)
        assert result["loaded"] == [], (command, result)

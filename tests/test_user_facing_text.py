"""What a newcomer reads: nothing on stderr when a store opens, a Studio graph that imports
without loading the model, and reasons in words (dedup verdicts, what the pre-hook left out)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from langgraph_memory import EmbeddingsUnavailableError, LazyEmbeddings, MemoryStore
from langgraph_memory.agent.injection import DROP_REASONS, Injection

ROOT = Path(__file__).resolve().parents[1]
NS = ("memories", "mickael")


def python(code: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    environ.update(PYTHONPATH=str(ROOT), **env)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          env=environ, cwd=tmp_path)


@pytest.mark.integration
def test_opening_a_store_and_remembering_prints_nothing(tmp_path, embeddings):
    # The default embedder, loaded for real: no "Loading weights" bar, no warning. The
    # one-time ONNX conversion announces itself once per machine: done here beforehand.
    embeddings.embed_query("warm the converted model's cache")
    proc = python(
        "from langgraph_memory import MemoryStore\n"
        "with MemoryStore.open('store') as s:\n"
        "    s.remember('Mickael broke his shoulder', namespace=('memories', 'mickael'))\n"
        "from transformers.utils import logging\n"
        "print(logging.is_progress_bar_enabled())\n",
        tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert proc.stdout.strip() == "True"  # transformers' own setting is back as it was


@pytest.mark.integration
def test_the_studio_graph_imports_without_loading_the_model(tmp_path):
    proc = python(
        "import importlib.util, json, sys\n"
        f"spec = importlib.util.spec_from_file_location('studio_agent', {str(ROOT / 'examples' / 'studio_agent.py')!r})\n"
        "agent = importlib.util.module_from_spec(spec); spec.loader.exec_module(agent)\n"
        "print(json.dumps({'loaded': agent.store.embeddings.loaded, 'dim': agent.store.dim,\n"
        "                  'torch': 'torch' in sys.modules, 'graph': type(agent.graph).__name__}))\n"
        "agent.store.close()\n",
        tmp_path, LANGGRAPH_MEMORY_PATH=str(tmp_path / "studio"),
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"loaded": False, "dim": 384, "torch": False, "graph": "CompiledStateGraph"}
    # The new store recorded the size it was promised; the real model agrees on first use.
    with MemoryStore.open(tmp_path / "studio", embeddings=LazyEmbeddings(_offline, "all-MiniLM-L6-v2")) as store:
        assert store.dim == 384 and not store.embeddings.loaded
        store.remember("Lina lives in Lyon", namespace=NS)
        assert store.embeddings.loaded


def _offline():
    from langgraph_memory import offline_embeddings

    return offline_embeddings()


def test_a_lazy_embedder_of_another_size_than_declared_fails_clearly(tmp_path):
    from langchain_core.embeddings import FakeEmbeddings

    lazy = LazyEmbeddings(lambda: FakeEmbeddings(size=8), "fake", dim=16)
    with pytest.raises(EmbeddingsUnavailableError, match="8-dimensional vector, not the 16 declared"):
        lazy.embed_query("hello")
    with pytest.raises(TypeError):
        LazyEmbeddings(lambda: FakeEmbeddings(size=8), "fake", dim=0)


@pytest.mark.integration
def test_dedup_reasons_use_the_words_of_the_memories(make_store):
    store = make_store()
    store.remember("Mickael s'est cassé l'épaule le 10 janvier 2026", namespace=NS, subjects=["mickael"])
    store.remember("David, le frère de Mickael, habite à Ordizan", namespace=NS, subjects=["david", "mickael"])
    moved = store.remember("David, le frère de Mickael, a déménagé à Toulouse", namespace=NS,
                           subjects=["david", "mickael"])
    arm = store.remember("Mickael s'est cassé le bras en 2019", namespace=NS, subjects=["mickael"])
    assert moved.verdict.decision == "correction"
    assert moved.verdict.reason.startswith("residence: Ordizan -> Toulouse (cosine ")
    assert arm.action == "inserted" and arm.verdict.reason.startswith("new facts: 2019, bras (cosine ")


@pytest.mark.parametrize("new, old, reason", [
    ("Sophie est mariée depuis juin", "Sophie est célibataire", "relationship: célibataire -> mariée"),
    ("Nora's yoga class moved to 7pm", "Nora's yoga class is at 6pm", "switch: 6pm -> 7pm"),
    ("Léa travaille le lundi de 9h à 17h", "Léa travaille le lundi", "adds 9h, 17h"),
    ("tilly is training for a 5 km race", "Tilly is training for a 10 km race", "new facts: 5 km"),
    ("Nina is vegan", "Nina is allergic to gluten", "new facts: vegan"),
    ("Lena stopped tennis and started padel", "Lena plays tennis on weekends", "ends: tennis for padel"),
    ("Anouk est allergique aux crevettes et aux arachides", "Anouk est allergique aux crevettes", "adds arachides"),
])
def test_dedup_reasons_show_values_slots_and_stems_as_the_user_wrote_them(new, old, reason):
    from langgraph_memory.store._dedup import DedupPolicy
    from langgraph_memory.store._reasons import in_words

    verdict = DedupPolicy().decide(new, old, 0.8)
    assert in_words(verdict, new, old).reason == f"{reason} (cosine 0.80)"


@settings(max_examples=200, deadline=None)
@given(new=st.text(max_size=120), old=st.text(max_size=120), cosine=st.floats(0.0, 1.0))
def test_any_reason_is_rendered_in_one_line_with_its_decision(new, old, cosine):
    from langgraph_memory.store._dedup import DedupPolicy
    from langgraph_memory.store._reasons import in_words

    verdict = DedupPolicy().decide(new, old, cosine)
    shown = in_words(verdict, new, old)
    assert shown.decision == verdict.decision and shown.reason.endswith(f"(cosine {cosine:.2f})")
    assert all(slot in new + old for slot in re.findall(r"<\w+>", shown.reason))  # no slot names left
    assert "\n" not in shown.reason or "\n" in new + old


def test_what_the_prehook_left_out_reads_as_words():
    injection = Injection(query="épaule", dropped=Counter(floor=1, in_window=13))
    assert injection.dropped_in_words() == f"13 {DROP_REASONS['in_window']}; 1 {DROP_REASONS['floor']}"
    assert "already in the model's view" in injection.dropped_in_words()
    assert Injection(query=None).dropped_in_words() == "nothing left out"

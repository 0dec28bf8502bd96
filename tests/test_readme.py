"""Every Python block of the README runs as pasted, in an empty folder, offline.

A block that needs ``OPENAI_API_KEY`` says so in the README and checks the key itself: run
here without one, it must stop with that message (exit 1), never with a traceback."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"^```python\n(.*?)^```", README, flags=re.S | re.M)
NEEDS_KEY = "*Needs `OPENAI_API_KEY`"

pytestmark = pytest.mark.integration


def run_block(code: str, where: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    env.update(PYTHONPATH=str(ROOT), HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    return subprocess.run([sys.executable, "-c", code], cwd=where, env=env, capture_output=True, text=True,
                          timeout=600)


def test_the_readme_has_its_examples():
    assert len(BLOCKS) == 4  # offline agent, OpenAI agent, the store, the server's store API
    # The one block needing a key is announced to readers right before it.
    assert README.count(NEEDS_KEY) == 1
    announced = README.split(NEEDS_KEY, 1)[1].split("```python\n", 1)[1]
    assert announced.startswith(BLOCKS[1])


@pytest.mark.parametrize("index", range(4))
def test_every_readme_block_runs_as_pasted_in_an_empty_folder(index, tmp_path):
    proc = run_block(BLOCKS[index], tmp_path)
    if index == 1:  # needs the key: says so and stops
        assert proc.returncode == 1, proc.stderr
        assert proc.stderr.strip() == "This example needs OPENAI_API_KEY; the offline example above runs without it."
        assert list(tmp_path.iterdir()) == []  # stopped before opening anything
        return
    assert proc.returncode == 0, proc.stderr
    if index == 0:
        assert proc.stdout.startswith("Stored (id: ") and "Alice broke her shoulder on 10 January" in proc.stdout
        assert (tmp_path / "memory" / "langgraph_memory.json").is_file()
    if index == 2:
        lines = proc.stdout.splitlines()
        assert lines[0] == "updated"
        assert lines[1] == str(["Alice broke her shoulder", "Alice broke her shoulder skiing on 10 January 2026"])
        assert lines[2] == "Alice broke her shoulder skiing on 10 January 2026"
    if index == 3:  # bob is refused alice's memories, alice reaches hers
        assert proc.stdout.split() == ["False", "True"]


def test_the_readme_install_commands_are_the_ci_commands():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert 'pip install torch==2.13.0 && pip install -e ".[local,dev]" && python -m pytest -q' in README
    assert '"torch==2.13.0"' in ci and '-e ".[local,dev]"' in ci and "python -m pytest -q" in ci

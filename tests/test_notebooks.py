"""The notebooks run offline, top to bottom, and show what they say they show."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def _execute(name: str) -> list[str]:
    """Run a notebook in a fresh ``python3`` kernel; returns each code cell's text output."""
    import nbformat
    from nbclient import NotebookClient

    book = nbformat.read(NOTEBOOKS / name, as_version=4)
    assert all(not cell.get("outputs") for cell in book.cells if cell.cell_type == "code"), \
        f"{name} is committed with outputs"
    # Raises CellExecutionError, with the cell and its traceback, on the first failing cell.
    NotebookClient(book, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    texts = []
    for cell in book.cells:
        if cell.cell_type != "code":
            continue
        assert all(o["output_type"] != "error" for o in cell.outputs)
        # No progress bar, no warning (e.g. TqdmWarning: IProgress not found): a reader sees
        # only what the cell means to show.
        noise = [o["text"] for o in cell.outputs if o["output_type"] == "stream" and o["name"] == "stderr"]
        assert not noise, f"{name}: {noise}"
        parts = [o.get("text", "") if o["output_type"] == "stream" else o.get("data", {}).get("text/plain", "")
                 for o in cell.outputs]
        texts.append("".join(parts))
    return texts


def test_quickstart_notebook() -> None:
    out = "\n".join(_execute("quickstart.ipynb"))
    # Dedup decided each case, and said why.
    assert "updated   refinement  \"Mickael s'est cassé l'épaule le 10 janvier 2026\"" in out
    assert "why: adds" in out and "replaces: \"Mickael s'est cassé l'épaule\"" in out
    assert "updated   correction  'David, le frère de Mickael, a déménagé à Toulouse'" in out
    assert "duplicate duplicate" in out
    assert "inserted  different   \"Mickael s'est cassé le bras en 2019\"" in out and "why: new facts:" in out
    # Reasons in the memories' words, not the policy's stems.
    assert "why: residence: Ordizan -> Toulouse" in out and "2019, bras" in out and "toulous " not in out
    # History keeps both versions of the shoulder.
    assert "(\"Mickael s'est cassé l'épaule\", " in out
    # The pre-hook's choice, with channel and reason; nothing twice on the next turn.
    assert "identity  \"dev s'appelle en réalité Mickael\"" in out and "why: identity" in out
    assert "why: similar (score" in out
    assert "0 new memories; left out:" in out and "already in the model's view" in out
    assert "<memories>" in out and "</memories>" in out


def test_agent_notebook() -> None:
    cells = _execute("agent.ipynb")
    out = "\n".join(cells)
    # The middleware stored a memory, then injected it in another thread, with its reason.
    assert "tool  Stored (id:" in out
    assert "similar  \"Mickael s'est cassé l'épaule le 10 janvier 2026\"  why: similar (score" in out
    assert "## Known facts" in out and "'injected': {" in out
    # The hand-written graph: a correction replaced Ordizan, and only Toulouse is in view.
    assert "as a correction of" in out
    view = next(c for c in cells if "Toulouse'  why:" in c)
    assert "Ordizan" not in view
    # Another user sees none of Mickael's memories.
    assert cells[-2].strip() == "[]"

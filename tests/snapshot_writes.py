"""The writes the snapshot tests interleave with their reads (``test_snapshot_reads``,
``test_snapshot_caches``)."""

from __future__ import annotations

from typing import Any


def rewrite(engine: Any, op: str, arg: Any, value: Any, ids: list[str], names: Any) -> bool:
    """Step ``op`` if it changes or deletes a point already written: a payload change
    (``set``), the post-hook's access counts on it and the next point (``access``: one
    ``set_payloads``, which brings the snapshots up to date itself), a move to namespace
    ``names[value]`` (``move``), a delete by id; ``arg`` picks the point among ``ids``.
    ``False`` for any other step (the caller's own)."""
    if op in ("set", "move", "access"):
        try:  # the engine refuses a point deleted before: the write is logged all the same
            if op == "access":
                engine.set_payloads([([ids[(arg + n) % len(ids)]], value) for n in range(2)])
            else:
                engine.set_payload([ids[arg % len(ids)]], value if op == "set" else {"namespace": names[value]})
        except Exception as exc:
            assert "No point" in str(exc)
        return True
    if op == "delete":
        engine.delete([ids[arg % len(ids)]])
        return True
    return False

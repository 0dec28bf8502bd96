"""``benchmarks/edge_payload_repro.py`` runs end to end on a few repetitions and prints every row."""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import edge_payload_repro  # noqa: E402


def test_every_type_and_every_shard_is_timed(capsys):
    assert edge_payload_repro.main(["--number", "20", "--points", "5"]) == 0
    out = capsys.readouterr().out
    for name in ["empty payload (absolute)", *edge_payload_repro.ONE_FIELD]:
        assert re.search(rf"^- {re.escape(name)}: -?[0-9.]+ µs$", out, re.M), name
    for shard in ("no payload index", "12 payload indexes"):
        for payload in ("empty payload", "the 12 fields"):
            assert re.search(rf"^- {shard}, {payload}: [0-9.]+ µs$", out, re.M), (shard, payload)

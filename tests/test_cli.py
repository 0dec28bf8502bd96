"""The ``langgraph-memory`` CLI: every command, the export/import round trip, and its errors.

Commands run in-process through ``main(argv, store=...)`` on both backends (the session's
embedder is reused); ``--path`` runs open the embedded store like an operator would; one
subprocess proves the installed console script works.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from qdrant_client import QdrantClient

from langgraph_memory import MemoryStore
from langgraph_memory.cli import build_parser, main
from langgraph_memory.store.records import utcnow

pytestmark = pytest.mark.integration

ALICE = ("memories", "alice")
BOB = ("memories", "bob")


def run(argv, **kwargs):
    """``(exit status, stdout, stderr)`` of one CLI call."""
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err, **kwargs)
    return code, out.getvalue(), err.getvalue()


def assert_one_line_error(code, err, *fragments):
    assert code != 0
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("langgraph-memory: error:"), err
    for fragment in fragments:
        assert fragment in lines[0], err


@pytest.fixture(autouse=True)
def _no_store_env(monkeypatch):
    # A developer's own store must never be picked up (or erased) by the tests.
    for name in ("LANGGRAPH_MEMORY_PATH", "QDRANT_URL", "QDRANT_API_KEY", "LANGGRAPH_MEMORY_COLLECTION"):
        monkeypatch.delenv(name, raising=False)


def seed(store):
    """A small store with history, an expired memory and one expiring soon.

    The history chain is linked by hand, so the test does not depend on the dedup policy.
    """
    # Two batched calls: one embedding round each, as seeding runs for most tests.
    old, new, nurse = (r.memory for r in store.remember_many(
        [
            {"content": "Alice broke her shoulder", "subjects": ["ski"]},
            {"content": "Alice broke her shoulder skiing on 10 January 2026", "subjects": ["ski"]},
            {"content": "Alice works as a nurse", "memory_type": "identity"},
        ],
        namespace=ALICE, dedup=False,
    ))
    joke, tea, gone = (r.memory for r in store.remember_many(
        [
            {"content": "I can tell jokes", "kind": "self", "category": "capability"},
            {"content": "Bob likes green tea", "ttl": "1d"},
            {"content": "Bob is at the dentist today", "ttl": "1h"},
        ],
        namespace=BOB, dedup=False,
    ))
    store._backend.set_payload([old.id], {"status": "superseded", "superseded_by": new.id})
    store._backend.set_payload([new.id], {"supersedes": [old.id]})
    store._backend.set_payload([gone.id], {"expires_at": utcnow().timestamp() - 60})
    return {"old": old.id, "new": new.id, "nurse": nurse.id, "joke": joke.id, "tea": tea.id, "gone": gone.id}


@pytest.fixture
def seeded(make_store):
    """``(store, ids)`` on the parametrized backend (Edge and qdrant-client local mode)."""
    store = make_store()
    return store, seed(store)


@pytest.fixture
def edge_path(tmp_path, embeddings):
    """A seeded embedded store on disk, closed so the CLI can open it by ``--path``."""
    path = tmp_path / "src"
    with MemoryStore.open(path, embeddings=embeddings) as store:
        ids = seed(store)
    return path, ids


def snapshot(store):
    """Every record with payload and vectors, by id."""
    return {
        p.id: (p.payload, p.dense, p.sparse)
        for p in store.iter_points(include_superseded=True, with_vectors=True)
    }


# Engines keep dense vectors as float32 and a Qdrant server re-normalises cosine vectors on
# insert: a round trip is exact to float32 precision, not bit for bit (README, export).
FLOAT32_TOLERANCE = 1e-6


def assert_same_records(actual, expected):
    """Ids, payloads and sparse vectors equal; dense vectors equal to float32 precision."""
    assert actual.keys() == expected.keys()
    for record_id, (payload, dense, sparse) in expected.items():
        got_payload, got_dense, got_sparse = actual[record_id]
        assert got_payload == payload and got_sparse == sparse
        assert len(got_dense) == len(dense)
        assert max(abs(a - b) for a, b in zip(got_dense, dense)) <= FLOAT32_TOLERANCE


# -- help and entry point -----------------------------------------------------------------

HELP_PHRASES = {
    "list": "List memories",
    "search": "Search the live memories",
    "show": "every version of its fact",
    "stats": "Count records per namespace, kind and type",
    "export": "JSON Lines",
    "import": "nothing is imported",
    "reembed": "the old directory is kept",
    "purge-expired": "TTL has passed",
    "delete": "its older versions and links",
    "restore": "forgotten (deleted) or archived memory",
    "erase": "Asks for confirmation",
    "digest": "the messages read are removed",
    "garden": "old archives are purged",
    "ui": "Serve the memory browser",
}


def test_every_command_is_documented_in_help(capsys):
    assert main(["--help"]) == 0
    top = capsys.readouterr().out
    assert "memories/alice" in top and "--path" in top and "--url" in top
    commands = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert set(commands) == set(HELP_PHRASES)
    for name, phrase in HELP_PHRASES.items():
        assert name in top
        assert main([name, "--help"]) == 0
        text = " ".join(capsys.readouterr().out.split())
        assert phrase in text, name
        assert "--json" in text, name


def test_console_script_runs():
    script = Path(sys.executable).with_name("langgraph-memory")
    proc = subprocess.run([str(script), "--help"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "purge-expired" in proc.stdout and "export" in proc.stdout
    proc = subprocess.run([str(script), "list"], capture_output=True, text=True, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "1"})
    assert proc.returncode == 1
    assert proc.stderr.strip().count("\n") == 0 and "--path" in proc.stderr


# -- list, search, show, stats -------------------------------------------------------------


def test_list_shows_live_memories_in_an_aligned_table(seeded):
    store, ids = seeded
    code, out, _ = run(["list"], store=store)
    assert code == 0
    lines = out.splitlines()
    header = lines[0]
    assert header.split()[:3] == ["ID", "NAMESPACE", "KIND"]
    shown = {line.split()[0] for line in lines[1:]}
    assert shown == {ids["new"], ids["nurse"], ids["joke"], ids["tea"]}
    col = header.index("NAMESPACE")
    content_col = header.index("CONTENT")
    for line in lines[1:]:
        assert line[col:].startswith("memories/")
        assert line[content_col - 2 : content_col] == "  " and line[content_col] != " "


def test_list_filters_and_all(seeded):
    store, ids = seeded
    as_ids = lambda out: [m["id"] for m in json.loads(out)]  # noqa: E731
    code, out, _ = run(["list", "memories/alice", "--json"], store=store)
    assert code == 0 and set(as_ids(out)) == {ids["new"], ids["nurse"]}
    assert json.loads(out)[0]["namespace"] == "memories/alice"
    _, out, _ = run(["list", "--kind", "self", "--json"], store=store)
    assert as_ids(out) == [ids["joke"]]
    _, out, _ = run(["list", "--type", "identity", "--json"], store=store)
    assert as_ids(out) == [ids["nurse"]]
    _, out, _ = run(["list", "--subject", "SKI", "--json"], store=store)
    assert as_ids(out) == [ids["new"]]
    _, out, _ = run(["list", "--category", "capability", "--json"], store=store)
    assert as_ids(out) == [ids["joke"]]
    _, out, _ = run(["list", "--all", "--json"], store=store)
    assert set(as_ids(out)) == set(ids.values())
    _, out, _ = run(["list", "--all"], store=store)
    assert "superseded" in out and "expired" in out
    _, out, _ = run(["list", "--limit", "2", "--json"], store=store)
    assert len(as_ids(out)) == 2
    code, _, err = run(["list", "--kind", "planet"], store=store)
    assert_one_line_error(code, err, "planet")


def test_search_ranks_within_one_namespace(seeded):
    store, ids = seeded
    code, out, _ = run(["search", "memories/alice", "shoulder injury skiing"], store=store)
    assert code == 0
    assert out.splitlines()[0].split()[:2] == ["SCORE", "ID"]
    assert out.splitlines()[1].split()[1] == ids["new"]
    _, out, _ = run(["search", "memories/alice", "what is her job", "--json", "--type", "identity"], store=store)
    hits = json.loads(out)
    assert [h["id"] for h in hits] == [ids["nurse"]] and hits[0]["score"] > 0
    _, out, _ = run(["search", "memories/alice", "green tea", "--json"], store=store)
    assert ids["tea"] not in {h["id"] for h in json.loads(out)}  # Bob's memory stays Bob's


def test_show_finds_a_record_in_any_namespace_with_its_history(seeded):
    store, ids = seeded
    code, out, _ = run(["show", ids["old"]], store=store)
    assert code == 0
    assert "memories/alice" in out and "superseded" in out
    history = out.split("history (2 versions")[1]
    assert history.index(ids["old"]) < history.index(ids["new"])
    code, out, _ = run(["show", ids["new"], "--json"], store=store)
    data = json.loads(out)
    assert data["id"] == ids["new"] and data["namespace"] == "memories/alice"
    assert [m["id"] for m in data["history"]] == [ids["old"], ids["new"]]
    assert data["supersedes"] == [ids["old"]]
    _, out, _ = run(["show", ids["joke"], "--json"], store=store)
    assert json.loads(out)["namespace"] == "memories/bob" and len(json.loads(out)["history"]) == 1


def test_show_unknown_or_malformed_id_is_one_line(seeded):
    store, _ = seeded
    code, _, err = run(["show", "3fa85f64-5717-4562-b3fc-2c963f66afa6"], store=store)
    assert_one_line_error(code, err, "no memory with id 3fa85f64-5717-4562-b3fc-2c963f66afa6")
    code, _, err = run(["show", "not-an-id"], store=store)
    assert_one_line_error(code, err, "not-an-id")


def test_stats_counts_per_namespace_kind_and_type(seeded):
    store, _ = seeded
    code, out, _ = run(["stats", "--json"], store=store)
    assert code == 0
    data = json.loads(out)
    assert (data["records"], data["live"], data["superseded"], data["expired"], data["expiring_soon"]) == (6, 4, 1, 1, 1)
    assert data["namespaces"]["memories/alice"] == {"live": 2, "superseded": 1, "expired": 0, "expiring_soon": 0}
    assert data["namespaces"]["memories/bob"] == {"live": 2, "superseded": 0, "expired": 1, "expiring_soon": 1}
    assert data["kinds"] == {"fact": 3, "self": 1}
    assert data["types"] == {"fact": 3, "identity": 1}
    _, out, _ = run(["stats", "memories/bob", "--soon", "1h", "--json"], store=store)
    data = json.loads(out)
    assert list(data["namespaces"]) == ["memories/bob"] and data["expiring_soon"] == 0
    code, out, _ = run(["stats"], store=store)
    assert code == 0 and "memories/alice" in out and "identity" in out
    assert out.splitlines()[0].startswith("6 records: 4 live, 1 superseded, 1 expired")


# -- purge-expired and erase ---------------------------------------------------------------


def test_purge_expired(seeded):
    store, ids = seeded
    code, out, _ = run(["purge-expired", "--json"], store=store)
    assert code == 0 and json.loads(out) == {"purged": 1}
    assert store._backend.retrieve([ids["gone"]]) == []
    assert store.count(include_superseded=True) == 5
    code, out, _ = run(["purge-expired"], store=store)
    assert code == 0 and "purged 0" in out


def test_erase_with_yes(seeded):
    store, _ = seeded
    code, out, err = run(["erase", "memories/alice", "--yes", "--json"], store=store)
    assert code == 0 and json.loads(out) == {"erased": 3, "namespace": "memories/alice", "live": 2, "history": 1, "other": 0}
    assert "Erase all" not in err
    assert store.count(namespace=ALICE, include_superseded=True) == 0
    assert store.count(namespace=BOB, include_superseded=True) == 3


@pytest.mark.parametrize("answer, erased", [("y\n", True), ("yes\n", True), ("n\n", False), ("\n", False), ("", False)])
def test_erase_asks_first(seeded, monkeypatch, answer, erased):
    store, _ = seeded
    monkeypatch.setattr(sys, "stdin", io.StringIO(answer))
    code, out, err = run(["erase", "memories/alice"], store=store)
    assert err.startswith("Erase all memories of memories/alice? [y/N]")
    assert store.count(namespace=ALICE, include_superseded=True) == (0 if erased else 3)
    assert store.count(namespace=BOB, include_superseded=True) == 3
    if erased:
        assert code == 0 and "erased 3 records of memories/alice" in out
    else:
        assert code == 1 and "nothing erased" in err.splitlines()[-1]


# -- export and import ---------------------------------------------------------------------


def test_round_trip_is_exact_into_both_backends(seeded, tmp_path, embeddings):
    source, ids = seeded
    export = tmp_path / "memories.jsonl"
    code, out, _ = run(["export", str(export)], store=source)
    assert code == 0 and "exported 6 records (5 live)" in out
    header = json.loads(export.read_text().splitlines()[0])
    assert header["langgraph_memory_export"] == 1 and header["dim"] == source.dim and header["count"] == 6
    expected = snapshot(source)
    assert len(expected) == 6 and all(dense and len(dense) == source.dim for _, dense, _ in expected.values())

    target_path = tmp_path / "fresh-edge"
    code, out, _ = run(["--path", str(target_path), "import", str(export)], embeddings=embeddings)
    assert code == 0 and "imported 6 records" in out
    server = MemoryStore(client=QdrantClient(":memory:"), embeddings=embeddings)
    code, _, _ = run(["import", str(export), "--json"], store=server)
    assert code == 0
    with MemoryStore.open(target_path, embeddings=embeddings) as edge:
        for target in (edge, server):
            assert_same_records(snapshot(target), expected)
            assert [m.id for m in target.history(ids["new"], namespace=ALICE)] == [ids["old"], ids["new"]]
            assert target.get(ids["old"], namespace=ALICE) is None  # superseded stays history
            assert target.get(ids["gone"], namespace=BOB) is None  # expired stays hidden
    server.close()


def test_export_to_stdout_and_import_from_stdin(seeded, monkeypatch, embeddings):
    source, _ = seeded
    code, out, err = run(["export", "-", "--namespace", "memories/bob"], store=source)
    assert code == 0 and "exported 3 records" in err
    lines = out.splitlines()
    assert len(lines) == 4 and {json.loads(line)["payload"]["namespace"] for line in lines[1:]} == {"memories/bob"}
    target = MemoryStore(client=QdrantClient(":memory:"), embeddings=embeddings)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(out.encode())))
    code, out, _ = run(["import", "-", "--json"], store=target)
    assert code == 0 and json.loads(out)["imported"] == 3
    bobs = {k: v for k, v in snapshot(source).items() if v[0]["namespace"] == "memories/bob"}
    assert_same_records(snapshot(target), bobs)
    target.close()


def _export_lines(store, tmp_path):
    path = tmp_path / "good.jsonl"
    assert run(["export", str(path)], store=store)[0] == 0
    return path.read_text().splitlines()


def _bad_json(lines):
    lines[2] = lines[2][:-5]


def _short_vector(lines):
    record = json.loads(lines[1])
    record["dense"] = record["dense"][:-1]
    lines[1] = json.dumps(record)


def _edit(n, fn):
    def apply(lines):
        record = json.loads(lines[n - 1])
        fn(record)
        lines[n - 1] = json.dumps(record)
    return apply


MALFORMED = {
    "bad JSON at line 3": (_bad_json, 3, "not valid JSON"),
    "wrong vector size at line 2": (_short_vector, 2, "dimensions"),
    "no header": (lambda lines: lines.pop(0), 1, "header"),
    "other dimension in header": (_edit(1, lambda r: r.update(dim=768)), 1, "768"),
    "duplicate id": (lambda lines: lines.append(lines[2]), 8, "already appears on line 3"),
    "truncated": (lambda lines: lines.pop(), 6, "announces 6 records"),
    "id not a UUID": (_edit(4, lambda r: r.update(id="42")), 4, "not a UUID"),
    "missing content": (_edit(5, lambda r: r["payload"].pop("content")), 5, "payload.content"),
    "unknown status": (_edit(2, lambda r: r["payload"].update(status="zombie")), 2, "payload.status"),
    "sparse lengths differ": (_edit(3, lambda r: r["sparse"]["values"].append(1.0)), 3, "sparse"),
    "missing vector key": (_edit(6, lambda r: r.pop("dense")), 6, "missing key(s) dense"),
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_malformed_line_reports_its_number_and_imports_nothing(seeded, tmp_path, embeddings, case):
    source, _ = seeded
    corrupt, line, phrase = MALFORMED[case]
    lines = _export_lines(source, tmp_path)
    corrupt(lines)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    target = MemoryStore(client=QdrantClient(":memory:"), embeddings=embeddings)
    code, out, err = run(["import", str(bad)], store=target)
    assert_one_line_error(code, err, f"line {line}:", phrase)
    assert out == ""
    assert target.count(include_superseded=True) == 0
    target.close()


def test_malformed_file_leaves_a_fresh_edge_store_empty(edge_path, tmp_path, embeddings):
    path, _ = edge_path
    export = tmp_path / "x.jsonl"
    assert run(["--path", str(path), "export", str(export)], embeddings=embeddings)[0] == 0
    lines = export.read_text().splitlines()
    _short_vector(lines)
    export.write_text("\n".join(lines) + "\n")
    target = tmp_path / "fresh"
    code, _, err = run(["--path", str(target), "import", str(export)], embeddings=embeddings)
    assert_one_line_error(code, err, "line 2:", "383 dimensions")
    code, out, _ = run(["--path", str(target), "stats", "--json"], embeddings=embeddings)
    assert code == 0 and json.loads(out)["records"] == 0


def test_import_dry_run_and_progress(seeded, tmp_path, embeddings):
    source, _ = seeded
    export = tmp_path / "x.jsonl"
    code, _, err = run(["export", str(export), "--progress"], store=source)
    assert code == 0 and "100%" in err and "export" in err
    target = MemoryStore(client=QdrantClient(":memory:"), embeddings=embeddings)
    code, out, _ = run(["import", str(export), "--dry-run"], store=target)
    assert code == 0 and "would import 6 records" in out
    assert target.count(include_superseded=True) == 0
    code, _, err = run(["import", str(export)], store=target)  # stderr is no terminal: no bar
    assert code == 0 and err == "" and target.count(include_superseded=True) == 6
    code, _, err = run(["import", str(export), "--progress"], store=target)  # same ids: replaced
    assert code == 0 and "validate" in err and "import" in err and "100%" in err
    assert target.count(include_superseded=True) == 6
    target.close()


# -- opening stores and errors -------------------------------------------------------------


def test_path_option_and_environment(edge_path, monkeypatch, embeddings):
    path, ids = edge_path
    code, out, _ = run(["list", "--path", str(path), "--json"], embeddings=embeddings)  # option after command
    assert code == 0 and len(json.loads(out)) == 4
    monkeypatch.setenv("LANGGRAPH_MEMORY_PATH", str(path))
    code, out, _ = run(["show", ids["tea"]], embeddings=embeddings)
    assert code == 0 and "Bob likes green tea" in out


def test_errors_are_one_line_and_non_zero(edge_path, tmp_path, embeddings):
    path, _ = edge_path
    code, _, err = run(["list"], embeddings=embeddings)
    assert_one_line_error(code, err, "--path", "--url")
    code, _, err = run(["--path", str(path), "--url", "http://localhost:6333", "list"], embeddings=embeddings)
    assert_one_line_error(code, err, "not both")
    code, _, err = run(["--path", str(tmp_path / "nowhere"), "stats"], embeddings=embeddings)
    assert_one_line_error(code, err, "no memory store")
    assert not (tmp_path / "nowhere").exists()  # reading never creates a store
    code, _, err = run(["--path", str(path), "import", str(tmp_path / "missing.jsonl")], embeddings=embeddings)
    assert_one_line_error(code, err, "no such file")
    code, _, err = run(["--path", str(path), "search", "memories//alice", "x"], embeddings=embeddings)
    assert_one_line_error(code, err, "empty part")
    code, _, err = run(["--path", str(path), "frobnicate"])
    assert code == 2 and err.strip().count("\n") == 0 and "frobnicate" in err
    with MemoryStore.open(path, embeddings=embeddings):  # held open elsewhere
        code, _, err = run(["--path", str(path), "list"], embeddings=embeddings)
        assert_one_line_error(code, err, "already open")


def test_unreachable_server_is_one_line(embeddings):
    code, _, err = run(["--url", "http://127.0.0.1:9", "stats"], embeddings=embeddings)
    assert_one_line_error(code, err, "cannot reach Qdrant at http://127.0.0.1:9")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_tables_fit_a_terminal_and_pipes_get_full_text(seeded, monkeypatch):
    store, ids = seeded
    for columns in (100, 80):
        monkeypatch.setenv("COLUMNS", str(columns))
        tty = _Terminal()
        assert main(["list"], store=store, stdout=tty, stderr=io.StringIO()) == 0
        lines = tty.getvalue().splitlines()
        assert max(len(line) for line in lines) <= columns
        assert lines[0].split()[:2] == ["ID", "NAMESPACE"] and lines[0].split()[-1] == "CONTENT"
        assert "UPDATED" not in lines[0]  # the first optional column made room
        assert {line.split()[0] for line in lines[1:]} == {ids["new"], ids["nurse"], ids["joke"], ids["tea"]}
    code, out, _ = run(["list"], store=store)
    assert "UPDATED" in out.splitlines()[0]
    assert "Alice broke her shoulder skiing on 10 January 2026" in out


def test_commands_that_do_not_embed_never_load_the_model(tmp_path, embeddings, monkeypatch):
    path = tmp_path / "store"
    with MemoryStore.open(path, embeddings=embeddings) as store:
        store.remember("Alice plays the cello", namespace=("memories", "alice"))

    def no_model():
        raise AssertionError("the embedding model was loaded")

    monkeypatch.setattr("langgraph_memory.store.embeddings.offline_embeddings", no_model)
    code, out, err = run(["--path", str(path), "list"])
    assert code == 0, err
    assert "Alice plays the cello" in out
    code, out, err = run(["--path", str(path), "stats"])
    assert code == 0, err
    # search needs the model: the loader runs, here failing loudly in one line.
    code, out, err = run(["--path", str(path), "search", "memories/alice", "cello"])
    assert code == 1
    assert err.strip() == "langgraph-memory: error: AssertionError: the embedding model was loaded"

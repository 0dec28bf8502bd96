"""Typed links between memories: link / links, supersede records ``updates``, one namespace
only, export and import, removal with the memory. Real engines, real offline embedder."""

from __future__ import annotations

import io
import uuid

import pytest

from langgraph_memory import InvalidMemoryError, Link

pytestmark = pytest.mark.integration

A = ("memories", "alice")
B = ("memories", "bob")


def test_link_is_read_from_both_ends(store):
    job = store.remember("Tom started a new job at the bakery", namespace=A).memory
    moved = store.remember("Tom moved to Lyon", namespace=A).memory
    link = store.link(moved.id, job.id, "caused_by", namespace=A)
    assert isinstance(link, Link)
    assert (link.source_id, link.target_id, link.relation) == (moved.id, job.id, "caused_by")
    assert store.links(moved.id, namespace=A) == [link]
    assert store.links(job.id, namespace=A) == [link]
    # Linking again is a no-op returning the same link.
    assert store.link(moved.id, job.id, "caused_by", namespace=A) == link
    assert len(store.links(job.id, namespace=A)) == 1
    # The memory's own record carries it (what search reads).
    assert [e["relation"] for e in store.get(job.id, namespace=A).links] == ["caused_by"]


@pytest.mark.parametrize("relation", ["related_to", "updates", "contradicts", "caused_by", "result_of", "part_of"])
def test_every_relation_is_accepted(fake_stores, relation):
    store = fake_stores["edge"]
    ns = ("memories", f"rel-{relation}")
    a = store.remember("first thing", namespace=ns, dedup=False).memory
    b = store.remember("second thing", namespace=ns, dedup=False).memory
    assert store.link(a.id, b.id, relation, namespace=ns).relation == relation


def test_bad_links_are_typed_errors_and_store_nothing(store):
    a = store.remember("Alice plays the cello", namespace=A).memory
    b = store.remember("Alice joined an orchestra", namespace=A).memory
    theirs = store.remember("Bob keeps bees", namespace=B).memory
    with pytest.raises(InvalidMemoryError) as unknown:
        store.link(a.id, b.id, "loves", namespace=A)
    assert unknown.value.field == "relation"
    with pytest.raises(InvalidMemoryError) as crossed:
        store.link(a.id, theirs.id, "related_to", namespace=A)
    assert crossed.value.field == "target_id"
    # Bob's id reads exactly as an unknown id would.
    nobody = str(uuid.uuid4())
    with pytest.raises(InvalidMemoryError) as unknown_id:
        store.link(a.id, nobody, "related_to", namespace=A)
    assert str(unknown_id.value).replace(nobody, "X") == str(crossed.value).replace(theirs.id, "X")
    with pytest.raises(InvalidMemoryError):
        store.link(a.id, a.id, "related_to", namespace=A)
    with pytest.raises(InvalidMemoryError):
        store.link("not-an-id", b.id, "related_to", namespace=A)
    assert store.links(a.id, namespace=A) == [] and store.links(theirs.id, namespace=B) == []
    assert store.get(a.id, namespace=A).links == ()
    # Bob cannot read Alice's links with her id either.
    store.link(a.id, b.id, "related_to", namespace=A)
    assert store.links(a.id, namespace=B) == []


def test_supersede_records_updates_and_carries_links(store):
    knee = store.remember("Mickael s'est cassé l'épaule", namespace=A).memory
    ski = store.remember("Mickael fait du ski tous les hivers", namespace=A).memory
    store.link(knee.id, ski.id, "caused_by", namespace=A)
    dated = store.remember("Mickael s'est cassé l'épaule le 10 janvier 2026", namespace=A)
    assert dated.action == "updated"
    new = dated.memory.id
    relations = {(l.source_id, l.relation, l.target_id) for l in store.links(new, namespace=A)}
    assert (new, "updates", knee.id) in relations
    assert (new, "caused_by", ski.id) in relations
    # The other end now names the fact as it stands.
    assert {(l.source_id, l.relation) for l in store.links(ski.id, namespace=A)} == {(new, "caused_by")}
    # The retired version keeps its history, with who updated it.
    assert (new, "updates", knee.id) in {(l.source_id, l.relation, l.target_id) for l in store.links(knee.id, namespace=A)}


def test_links_survive_export_and_import(make_store, tmp_path):
    from langgraph_memory.store._transfer import export_jsonl, import_jsonl

    source = make_store(tmp_path / "a")
    a = source.remember("Alice plays the cello", namespace=A).memory
    b = source.remember("Alice joined an orchestra", namespace=A).memory
    link = source.link(b.id, a.id, "result_of", namespace=A)
    out = io.StringIO()
    export_jsonl(source, out, namespace=A)
    path = tmp_path / "export.jsonl"
    path.write_text(out.getvalue())
    target = make_store(tmp_path / "b")
    import_jsonl(target, path)
    assert target.links(a.id, namespace=A) == [link]
    assert target.links(b.id, namespace=A) == [link]


def test_import_refuses_malformed_links(store, tmp_path):
    from langgraph_memory.store._transfer import ImportFormatError, export_jsonl, import_jsonl

    a = store.remember("Alice plays the cello", namespace=A).memory
    b = store.remember("Alice joined an orchestra", namespace=A).memory
    store.link(b.id, a.id, "related_to", namespace=A)
    out = io.StringIO()
    export_jsonl(store, out, namespace=A)
    bad = out.getvalue().replace('"related_to"', '"loves"')
    path = tmp_path / "bad.jsonl"
    path.write_text(bad)
    with pytest.raises(ImportFormatError):
        import_jsonl(store, path, dry_run=True)


async def test_async_twins(store):
    a = (await store.aremember("Alice plays the cello", namespace=A)).memory
    b = (await store.aremember("Alice joined an orchestra", namespace=A)).memory
    link = await store.alink(b.id, a.id, "part_of", namespace=A)
    assert await store.alinks(a.id, namespace=A) == [link]


def test_store_memory_tool_links_and_records_its_source(make_store, tmp_path):
    from langchain_core.messages import AIMessage, ToolMessage

    from agent_harness import build_agent, config, run
    from langgraph_memory.testing import ScriptedChatModel, tool_call

    store = make_store()
    user = "links-tool"
    ns = ("memories", user)
    job = store.remember("Tom started a new job at the bakery", namespace=ns).memory
    theirs = store.remember("Bob keeps bees", namespace=B).memory
    model = ScriptedChatModel(responses=[]).say(
        AIMessage("", tool_calls=[
            tool_call("store_memory", {"content": "Tom moved to Lyon", "related_to": [job.id], "source": "email"}),
            tool_call("store_memory", {"content": "Tom sold his car", "related_to": [theirs.id]}),
        ]),
        "Noted.",
    )
    out = run(build_agent("graph", store, model), "sync", "Tom moved.", config(user))
    results = [m for m in out["messages"] if isinstance(m, ToolMessage)]
    assert [m.status for m in results] == ["success", "error"]
    assert f"Linked to {job.id}" in results[0].content
    assert "Nothing was stored" in results[1].content
    moved = store.search("Tom moved to Lyon", namespace=ns, limit=1)[0].memory
    assert moved.source == "email"
    assert [(l.source_id, l.relation, l.target_id) for l in store.links(job.id, namespace=ns)] == [
        (moved.id, "related_to", job.id)]
    # Bob's id was out of reach: the second fact was not stored, Bob's memory has no link.
    assert not [h for h in store.search("Tom sold his car", namespace=ns) if "car" in h.memory.content]
    assert store.links(theirs.id, namespace=B) == []


def test_digest_links_facts_drawn_from_the_same_messages(store):
    from langgraph_memory import digest
    from langgraph_memory.testing import ScriptedChatModel, digest_reply

    rooms = ("rooms", "agent")
    store.observe_many([{"text": t, "author": "david"} for t in ("je pars en Grèce demain", "une semaine")],
                       namespace=rooms, room="lobby")
    trip = {"content": "David part en Grèce le 18/01/2026", "subjects": ["david", "grèce"], "memory_type": "event"}
    length = {"content": "Le voyage de David dure une semaine", "subjects": ["david"], "memory_type": "event"}
    other = {"content": "Sarah works at the hospital in Lyon", "subjects": ["sarah"]}
    model = ScriptedChatModel(responses=[]).say(digest_reply(trip, length, other))
    report = digest(store, namespace=rooms, room="lobby", model=model)
    trip_id, length_id, other_id = report.memory_ids
    assert [(l.source_id, l.relation, l.target_id) for l in store.links(trip_id, namespace=rooms)] == [
        (length_id, "related_to", trip_id)]
    assert store.links(other_id, namespace=rooms) == []  # shares no subject with them

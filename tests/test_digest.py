"""The digest: room messages become facts through remember, then leave the room; it is safe
against failures, concurrent messages and a kill mid-run."""

from __future__ import annotations

import threading
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langgraph.checkpoint.memory import InMemorySaver

from langgraph_memory import DigestError, MemoryStore, build_memory_graph, digest
from langgraph_memory.background.digest import DigestBusyError, digest_key
from langgraph_memory.background.jobs import JobState
from langgraph_memory.cli import main
from langgraph_memory.testing import ScriptedChatModel, digest_reply

ROOMS = ("rooms", "agent")
PARIS = ZoneInfo("Europe/Paris")


@pytest.fixture(autouse=True)
def paris_time(monkeypatch):
    """These stories happen in Paris; the default zone is the machine's (test_timezone.py)."""
    monkeypatch.setenv("LANGGRAPH_MEMORY_TIMEZONE", "Europe/Paris")
GREECE = {"content": "David part en Grèce le 18/01/2026 pour une semaine", "subjects": ["david", "grèce"],
          "memory_type": "event", "ttl": "14d"}
JOB = {"content": "Sarah works at the hospital in Lyon from March", "subjects": ["sarah"]}


def scripted(*replies) -> ScriptedChatModel:
    return ScriptedChatModel(responses=[]).say(*replies)


def seed_room(store, *texts, author="david"):
    return store.observe_many([{"text": t, "author": author} for t in texts], namespace=ROOMS, room="lobby")


def test_digest_stores_facts_through_remember_and_empties_the_room(store):
    seed_room(store, "je pars en Grèce demain", "une semaine", "lol")
    model = scripted(digest_reply(GREECE, JOB))
    report = digest(store, namespace=ROOMS, room="lobby", model=model)
    assert (report.read, report.stored, report.updated, report.duplicate) == (3, 2, 0, 0)
    assert report.duration >= 0
    assert store.count_live(namespace=ROOMS, room="lobby") == 0
    [hit] = store.search("Grèce", namespace=ROOMS, limit=1)
    assert hit.memory.content == GREECE["content"]
    assert hit.memory.expires_at is not None and hit.memory.source == "digest"
    # The model saw the transcript with authors and times, and the instructions.
    [system, human] = model.received[0]
    assert isinstance(system, SystemMessage) and "#lobby" in system.content
    assert '"david": "je pars en Grèce demain"' in human.content
    # The run is recorded in the store.
    jobs = JobState(store)
    assert jobs.get("report", digest_key(ROOMS, "lobby"))["stored"] == 2
    assert jobs.last_run(digest_key(ROOMS, "lobby")) is not None
    # A second digest with the same fact: remember's dedup says duplicate.
    seed_room(store, "je pars en Grèce demain !")
    again = digest(store, namespace=ROOMS, room="lobby", model=scripted(digest_reply(GREECE)))
    assert (again.read, again.stored, again.duplicate) == (1, 0, 1)


@pytest.mark.parametrize("backend", ["edge"])  # the engine is not what this tests
def test_message_observed_during_the_digest_survives(store):
    seed_room(store, "je pars en Grèce demain")

    class ObservingModel(ScriptedChatModel):
        def _generate(self, messages, stop=None, run_manager=None, **kwargs):
            # A message arrives while the model works.
            store.observe("I got the job at the hospital", namespace=ROOMS, room="lobby", author="sarah")
            return super()._generate(messages, stop, run_manager, **kwargs)

    model = ObservingModel(responses=[digest_reply(GREECE)])
    report = digest(store, namespace=ROOMS, room="lobby", model=model)
    assert report.read == 1
    assert [m.content for m in store.live_messages(namespace=ROOMS, room="lobby")] == ["I got the job at the hospital"]


@pytest.mark.parametrize("backend", ["edge"])  # the engine is not what this tests
def test_failed_model_call_removes_nothing(store):
    seed_room(store, "je pars en Grèce demain", "une semaine")
    with pytest.raises(DigestError):
        digest(store, namespace=ROOMS, room="lobby", model=scripted())  # no scripted reply: it raises
    with pytest.raises(DigestError):
        digest(store, namespace=ROOMS, room="lobby", model=scripted(AIMessage("not structured")))
    assert store.count_live(namespace=ROOMS, room="lobby") == 2
    assert store.count(namespace=ROOMS) == 0


@pytest.mark.parametrize("backend", ["edge"])  # the engine is not what this tests
def test_failed_write_removes_nothing_and_the_next_run_finishes(store, monkeypatch):
    seed_room(store, "je pars en Grèce demain", "I got the job", author="david")
    real = MemoryStore.remember
    calls = {"n": 0}

    def flaky(self, *args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 2:
            raise RuntimeError("engine down")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(MemoryStore, "remember", flaky)
    with pytest.raises(DigestError):
        digest(store, namespace=ROOMS, room="lobby", model=scripted(digest_reply(GREECE, JOB)))
    assert store.count_live(namespace=ROOMS, room="lobby") == 2
    monkeypatch.setattr(MemoryStore, "remember", real)
    # The next run finishes from the journal: no second model call (this model has no reply).
    report = digest(store, namespace=ROOMS, room="lobby", model=scripted())
    assert report.resumed and report.read == 2
    assert store.count(namespace=ROOMS) == 2
    assert store.count_live(namespace=ROOMS, room="lobby") == 0


class Killed(BaseException):
    """Stands for the process dying: not an Exception, nothing catches it."""


def test_digest_killed_mid_run_and_restarted_stores_no_fact_twice(store, monkeypatch):
    seed_room(store, "je pars en Grèce demain", "I got the job")
    journal_put = JobState.put

    def die_after_the_first_fact(self, record, key, data, **fields):
        # The first fact is written; the process dies before its progress is journaled.
        if record == "journal" and data.get("done") == 1:
            raise Killed()
        return journal_put(self, record, key, data, **fields)

    monkeypatch.setattr(JobState, "put", die_after_the_first_fact)
    with pytest.raises(Killed):
        digest(store, namespace=ROOMS, room="lobby", model=scripted(digest_reply(GREECE, JOB)))
    monkeypatch.setattr(JobState, "put", journal_put)
    assert store.count(namespace=ROOMS) == 1 and store.count_live(namespace=ROOMS, room="lobby") == 2
    report = digest(store, namespace=ROOMS, room="lobby", model=scripted())
    assert report.resumed and report.duplicate == 1 and report.stored == 1
    contents = sorted(m.content for m in store.recent(namespace=ROOMS, since=None))
    assert contents == sorted([GREECE["content"], JOB["content"]])
    assert store.count_live(namespace=ROOMS, room="lobby") == 0


@pytest.mark.parametrize("backend", ["edge"])
def test_one_digest_of_a_room_at_a_time(store):
    seed_room(store, "je pars en Grèce demain")
    entered, release = threading.Event(), threading.Event()

    class SlowModel(ScriptedChatModel):
        def _generate(self, messages, stop=None, run_manager=None, **kwargs):
            entered.set()
            release.wait(10)
            return super()._generate(messages, stop, run_manager, **kwargs)

    results = []
    first = threading.Thread(target=lambda: results.append(
        digest(store, namespace=ROOMS, room="lobby", model=SlowModel(responses=[digest_reply(GREECE)]))))
    first.start()
    entered.wait(10)
    with pytest.raises(DigestBusyError):
        digest(store, namespace=ROOMS, room="lobby", model=scripted(digest_reply(GREECE)))
    # Another process holding the room's lease is refused too (a lease in the store).
    release.set()
    first.join(10)
    assert results[0].stored == 1
    JobState(store).claim(digest_key(ROOMS, "lobby") + ":run", "other-process", seconds=60,
                          now=datetime.now(PARIS))
    with pytest.raises(DigestBusyError):
        digest(store, namespace=ROOMS, room="lobby", model=scripted(digest_reply(GREECE)))


@pytest.mark.parametrize("backend", ["edge"])
def test_david_greece_end_to_end(store):
    """The issue's scenario: observed at 10:00, injected at 10:05 for another user, then
    digested into a fact that replaces the excerpt."""
    store.observe("je pars en Grèce demain", namespace=ROOMS, room="lobby", author="david",
                  at=datetime(2026, 1, 17, 10, 0, tzinfo=PARIS))
    model = scripted("David part en Grèce demain.", "David est en Grèce.")
    graph = build_memory_graph(model, store, checkpointer=InMemorySaver())
    run = {"configurable": {"thread_id": "mickael-1"}}
    context = {"user_id": "mickael", "rooms": ["lobby"]}
    graph.invoke({"messages": [HumanMessage("Que fait David demain ?")]}, run, context=context)
    first = model.received[-1][0].content
    assert "• david (17/01 10:00): \"je pars en Grèce demain\"" in first

    report = digest(store, namespace=ROOMS, room="lobby", model=scripted(digest_reply(GREECE)))
    assert (report.read, report.stored) == (1, 1)
    assert store.count_live(namespace=ROOMS, room="lobby") == 0

    graph.invoke({"messages": [HumanMessage("Et David, il part où demain ?")]}, run, context=context)
    second = model.received[-1][0].content
    assert GREECE["content"] in second
    assert "je pars en Grèce demain" not in second and "Live room context" not in second


@pytest.mark.parametrize("backend", ["edge"])
def test_cli_digest(store, tmp_path, monkeypatch, capsys):
    seed_room(store, "je pars en Grèce demain")
    (tmp_path / "digest_model.py").write_text(
        "from langgraph_memory.testing import ScriptedChatModel, digest_reply\n"
        f"model = ScriptedChatModel(responses=[digest_reply({GREECE!r})])\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import io

    out, err = io.StringIO(), io.StringIO()
    code = main(["digest", "lobby", "--namespace", "rooms/agent", "--model", "digest_model:model", "--json"],
                store=store, stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    assert '"stored": 1' in out.getvalue()
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    err = io.StringIO()
    assert main(["digest", "lobby"], store=store, stdout=io.StringIO(), stderr=err) == 1
    assert "needs a chat model" in err.getvalue()

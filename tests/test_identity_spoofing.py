"""No two identities look alike: a user id, agent id, room, thread or channel holding a
character a reader cannot see or tell apart (zero-width, bidi controls, line separators,
other format characters, odd spaces) or not in Unicode NFC is refused where it enters,
with a typed error, and nothing is read or stored. Namespaces stored before the rule still
read. A run names at most MAX_ROOMS rooms."""

from __future__ import annotations

import asyncio
import unicodedata
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from langgraph_memory import InvalidIdentityError, InvalidMemoryError, MemoryStore, build_memory_graph, namespace_label
from langgraph_memory.agent.rooms import rooms_from_runtime
from langgraph_memory.agent.scope import namespace_value, resolve_namespace, runtime_channel, runtime_thread
from langgraph_memory.store._rooms import MAX_ROOMS
from agent_harness import ToolRecordingModel

BIDI = ["\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"]
ZERO_WIDTH = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"]
SEPARATORS = ["\u2028", "\u2029"]
OTHER_FORMAT = ["\u00ad", "\u061c", "\u180e", "\U000e0041"]  # soft hyphen, Arabic mark, Mongolian separator, tag A
BLANK_LOOKING = ["\u3164", "\u115f", "\u034f", "\u00a0", "\u3000", "\t", "\n"]
UNSEEN = BIDI + ZERO_WIDTH + SEPARATORS + OTHER_FORMAT + BLANK_LOOKING
NFD_E = "e\u0301"  # "é" as e + combining acute: looks like the one code point U+00E9


@pytest.mark.parametrize("char", UNSEEN, ids=[f"U+{ord(c):04X}" for c in UNSEEN])
@pytest.mark.parametrize("where", ["end", "middle", "start"])
def test_an_identity_holding_an_unseen_character_is_refused(char: str, where: str) -> None:
    value = {"end": f"alice{char}", "middle": f"al{char}ice", "start": f"{char}alice"}[where]
    with pytest.raises(InvalidIdentityError, match=f"U\\+{ord(char):04X}"):
        namespace_label(value)
    # Wherever it enters: the authenticated identity, the client's user id, an agent id.
    with pytest.raises(InvalidIdentityError):
        resolve_namespace(("memories", "{user_id}"), config={"configurable": {"langgraph_auth_user_id": value}})
    with pytest.raises(InvalidIdentityError):
        resolve_namespace(("memories", "{user_id}"), context={"user_id": value})
    with pytest.raises(InvalidIdentityError):
        resolve_namespace(("agent", "{agent_id}"), config={"configurable": {"agent_id": value}})
    with pytest.raises(InvalidIdentityError):
        runtime_channel(None, {"channel_id": value})
    with pytest.raises(InvalidIdentityError):
        runtime_thread({"configurable": {"thread_id": value}})
    if where == "middle" or unicodedata.category(char) != "Zs":  # spaces around a room name are trimmed
        with pytest.raises(InvalidMemoryError, match="rooms"):
            rooms_from_runtime(None, {"rooms": ["lobby", value]})
    else:
        assert rooms_from_runtime(None, {"rooms": ["lobby", value]}) == ("lobby", "alice")


def test_an_identity_not_in_nfc_is_refused_and_its_nfc_form_is_its_own() -> None:
    nfd, nfc = f"ren{NFD_E}", "ren\u00e9"
    assert unicodedata.normalize("NFC", nfd) == nfc and nfd != nfc
    with pytest.raises(InvalidIdentityError, match="NFC"):
        namespace_label(nfd)
    assert namespace_label(nfc) == nfc and namespace_value(nfc) == nfc  # not normalised: refused
    with pytest.raises(InvalidMemoryError, match="NFC"):
        rooms_from_runtime({"configurable": {"rooms": f"caf{NFD_E}"}}, None)
    assert rooms_from_runtime({"configurable": {"rooms": "caf\u00e9"}}, None) == ("caf\u00e9",)


@pytest.mark.parametrize("value", [" alice", "alice ", "alice  "])
def test_an_identity_with_spaces_around_it_is_refused(value: str) -> None:
    with pytest.raises(InvalidIdentityError, match="space"):
        namespace_label(value)


@pytest.mark.parametrize("value", ["alice", "alice smith", "alice@example.com", "Zo\u00e9", "\u674e\u96f7",
                                   "\u0645\u062d\u0645\u062f", "pet-\u2764\ufe0f", "50%"])
def test_ordinary_identities_keep_their_label(value: str) -> None:
    label = namespace_label(value)
    assert namespace_value(label) == value
    assert label == value.replace("%", "%25").replace(".", "%2E")


_UNSAFE = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})


def _skeleton(text: str) -> str:
    """What a reader sees: NFC, without invisible characters, with every space one space."""
    seen = "".join(" " if c.isspace() else c for c in text if unicodedata.category(c) not in _UNSAFE
                   and c not in "\u034f\u115f\u1160\u3164\uffa0")
    return unicodedata.normalize("NFC", seen).strip()


SPOOFS = st.text(alphabet=st.sampled_from(["a", "l", "i", "c", "e", "\u00e9", "\u0301", " ", ".", "%", *UNSEEN]),
                 max_size=8)
IDS = st.one_of(SPOOFS, st.text(max_size=16))


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(a=IDS, b=IDS)
def test_two_accepted_identities_never_look_alike(a: str, b: str) -> None:
    try:
        la, lb = namespace_label(a), namespace_label(b)
    except InvalidIdentityError:
        return
    assert _skeleton(a) == a and _skeleton(b) == b  # what is accepted is what is seen
    assert (_skeleton(a) == _skeleton(b)) == (a == b) == (la == lb)
    assert namespace_value(la) == a and namespace_value(lb) == b


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(value=IDS, where=st.sampled_from(["context", "configurable", "auth"]))
def test_a_runtime_identity_resolves_to_its_label_or_a_typed_error(value: str, where: str) -> None:
    config = {"configurable": {"user_id": value} if where == "configurable" else {}}
    if where == "auth":
        config["configurable"]["langgraph_auth_user_id"] = value
    context = {"user_id": value} if where == "context" else None
    try:
        namespace = resolve_namespace(("memories", "{user_id}"), config=config, context=context)
    except InvalidIdentityError:
        return
    except Exception as exc:  # the only other outcome: no identity at all (blank)
        assert type(exc).__name__ == "MemoryScopeError" and not value.strip(), exc
        return
    if where == "auth" and not value.strip():  # a blank auth id is no auth: the client's (absent) id
        return
    assert namespace == ("memories", namespace_label(value))
    assert _skeleton(value) == value


# -- the whole run: refused before anything is read, stored or sent to the model ----------


def _invoke(agent: Any, mode: str, cfg: dict[str, Any], context: Any = None) -> Any:
    state = {"messages": [HumanMessage("My sister Lina lives in Lyon. Where does she live?")]}
    if mode == "sync":
        return agent.invoke(state, cfg, context=context)
    return asyncio.run(agent.ainvoke(state, cfg, context=context))


SPOOFED_RUNS = {
    "auth user": ({"langgraph_auth_user_id": "alice\u200b", "user_id": "alice\u200b"}, None),
    "client user": ({"user_id": "alice\u202eecila"}, None),
    "nfd user": ({"user_id": f"ren{NFD_E}"}, None),
    "agent id": ({"user_id": "mallory", "agent_id": "pet\u2060"}, None),
    "thread": ({"user_id": "mallory", "thread_id": "t\u2028injected"}, None),
    "channel": ({"user_id": "mallory"}, {"channel_id": "general\u200d"}),
    "room": ({"user_id": "mallory", "rooms": ["lobby\ufeff"]}, None),
    "too many rooms": ({"user_id": "mallory"}, {"rooms": [f"r{i}" for i in range(MAX_ROOMS + 1)]}),
}


@pytest.mark.integration
@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("case", list(SPOOFED_RUNS))
def test_a_spoofed_run_fails_with_a_typed_error_and_leaves_nothing(tmp_path, embeddings, mode, case):
    configurable, context = SPOOFED_RUNS[case]
    store = MemoryStore.open(tmp_path / "store", embeddings=embeddings)
    try:
        model = ToolRecordingModel(responses=[])
        agent = build_memory_graph(model, store, checkpointer=InMemorySaver(), retry_interval=3600,
                                   background_stats=False)
        cfg = {"configurable": {"thread_id": "t1", **configurable}}
        with pytest.raises((InvalidIdentityError, InvalidMemoryError)):
            _invoke(agent, mode, cfg, context)
        store.flush()
        assert model.received == []  # the model never saw the run
        assert agent.memory_gate.up  # the caller's error: memory stays on for everyone else
        assert store.count(include_superseded=True) == 0  # nothing stored anywhere
        assert store.as_base_store().list_namespaces() == []
        model.say("Lyon.")
        out = _invoke(agent, mode, {"configurable": {"thread_id": "t2", "user_id": "bob"}})
        assert out["messages"][-1].text == "Lyon."
    finally:
        store.close()


# -- rooms: at most MAX_ROOMS per read ----------------------------------------------------


@pytest.mark.parametrize("where", ["context", "configurable"])
def test_a_run_names_at_most_max_rooms(where: str) -> None:
    def named(rooms: list[str]) -> tuple[str, ...]:
        if where == "context":
            return rooms_from_runtime(None, {"rooms": rooms})
        return rooms_from_runtime({"configurable": {"rooms": rooms}}, None)

    assert MAX_ROOMS == 64
    full = [f"room-{i}" for i in range(MAX_ROOMS)]
    assert named(full) == tuple(full)
    with pytest.raises(InvalidMemoryError, match=f"at most {MAX_ROOMS}"):
        named([*full, "one-more"])
    with pytest.raises(InvalidMemoryError, match=f"at most {MAX_ROOMS}"):
        named(["lobby"] * 1_000_000)  # refused by count, before a million names are checked


def test_store_reads_name_at_most_max_rooms(fake_stores) -> None:
    store = fake_stores["edge"]
    ns = ("rooms", "cap-test")
    store.observe("The boiler is fixed", namespace=ns, room="room-0", author="dan")
    rooms = [f"room-{i}" for i in range(MAX_ROOMS)]
    assert store.visible_rooms(rooms, "dan", namespace=ns) == tuple(rooms)
    vectors = store.embed_query("boiler")
    assert [m.room for m in store.search_live(vectors, namespace=ns, rooms=rooms, min_score=-1.0)] == ["room-0"]
    too_many = [*rooms, "room-64"]
    with pytest.raises(InvalidMemoryError, match="rooms"):
        store.search_live(vectors, namespace=ns, rooms=too_many)
    with pytest.raises(InvalidMemoryError, match="rooms"):
        store.visible_rooms(too_many, "dan", namespace=ns)


@settings(max_examples=200, deadline=None)
@given(count=st.integers(min_value=0, max_value=3 * MAX_ROOMS), name=st.text(max_size=6))
def test_rooms_from_the_runtime_are_at_most_max_rooms_names_or_a_typed_error(count: int, name: str) -> None:
    unseen = any(unicodedata.category(c) in _UNSAFE for c in name) or _skeleton(name) != name.strip()
    try:
        rooms = rooms_from_runtime(None, {"rooms": [name] * count})
    except InvalidMemoryError:
        assert count > MAX_ROOMS or count and (not name.strip() or unseen)
        return
    assert len(rooms) == count <= MAX_ROOMS
    assert not count or (not unseen and rooms == (name.strip(),) * count)


def test_room_names_that_look_alike_are_refused_at_the_store(fake_stores) -> None:
    store = fake_stores["edge"]
    ns = ("rooms", "lookalike-test")
    for room in ("lobby\u200b", f"caf{NFD_E}", "lob\u202eby", "lobby\u00a0b"):
        with pytest.raises(InvalidMemoryError, match="room"):
            store.set_room_members(room, ["alice"], namespace=ns)
        with pytest.raises(InvalidMemoryError, match="room"):
            store.observe("hello", namespace=ns, room=room, author="alice")
    assert store.count_live(namespace=ns) == 0 and store.room_members("lobby", namespace=ns) is None
    # Authors are display names, not identifiers: one written with a separate accent is kept.
    store.observe("hello there", namespace=ns, room="lobby", author=f"Ren{NFD_E}")
    assert store.count_live(namespace=ns, room="lobby") == 1


@pytest.mark.parametrize("channel", ["family\u200b", "fam\u202eily", f"caf{NFD_E}", "family\u00a0room"])
def test_a_channel_that_looks_like_another_is_refused_by_remember(fake_stores, channel: str) -> None:
    store = fake_stores["edge"]
    ns = ("memories", "channel-lookalike")
    with pytest.raises(InvalidMemoryError, match="channel"):
        store.remember("Nina likes oolong", namespace=ns, channel=channel)
    assert store.count(namespace=ns) == 0
    kept = store.remember("Nina likes oolong", namespace=ns, channel="family room").memory
    try:
        assert kept.channel == "family room"
    finally:
        store.erase(ns)


def test_a_channel_with_spaces_around_is_the_channel_its_memories_are_stored_under(store) -> None:
    # ``remember`` stores a channel trimmed: the run's own reads must name it the same way,
    # or the identity channel (whose filter takes the run's channel as given) misses them.
    from langgraph_memory.store._search import identity_plan

    context = {"channel_id": " general "}
    channel = runtime_channel(None, context)
    assert channel == "general"
    ns = ("memories", "ines")
    kept = store.remember("I am a nurse", namespace=ns, kind="self", category="context", channel=channel).memory
    [found] = store._read(identity_plan(ns, 10, channel))
    assert [m.id for m in found] == [kept.id]

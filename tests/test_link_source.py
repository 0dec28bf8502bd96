"""The fourth source: search and the pre-hook follow links from their best hits (one hop,
bounded fan-out), and each such result says which link brought it. Real engines, real
offline embedder."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from langgraph_memory.agent.injection import InjectionConfig, select_memories

pytestmark = pytest.mark.integration

QUERY = "Which bakery hired Tom?"
HIRED = "Tom got hired at the Poilâne bakery"
# Far from the query in words and in meaning: only the link ties it to the hit.
LEASE = "He signed a lease on a flat near Montparnasse"
FILLER = [
    "Alice plays the cello in an orchestra", "Bob keeps bees in his garden", "Sarah runs marathons",
    "The car needs new tyres before winter", "Mickael broke his shoulder skiing", "Julie studies law in Lille",
    "The wifi password is on the fridge", "David is going to Greece next week", "Emma adopted a grey cat",
    "The book club meets every other Thursday", "Nina prefers tea to coffee", "The boiler was serviced in May",
    "Paul is allergic to peanuts", "Lea learns Japanese on weekends", "The kids start school on the 4th",
    "Hugo repairs old radios", "Zoe's birthday is on 12 March", "The dentist appointment moved to Friday",
    "Marc sold his motorbike", "Ines volunteers at the food bank",
]


def _fill(store, ns):
    # Learned a month ago: the pre-hook's recent channel does not bring them in.
    then = datetime.now(timezone.utc) - timedelta(days=30)
    store.remember_many(FILLER, namespace=ns, dedup=False, created_at=then)
    hired = store.remember(HIRED, namespace=ns, created_at=then).memory
    lease = store.remember(LEASE, namespace=ns, created_at=then).memory
    return hired, lease


@pytest.mark.parametrize("linked", [True, False], ids=["linked", "control"])
def test_a_memory_linked_to_the_top_hit_is_searched_and_injected_with_its_reason(store, linked):
    ns = ("memories", "tom-friend")
    hired, lease = _fill(store, ns)
    if linked:
        store.link(lease.id, hired.id, "result_of", namespace=ns)
    hits = store.search(QUERY, namespace=ns, limit=3)
    assert hits[0].memory.id == hired.id
    by_id = {h.memory.id: h for h in hits}
    injection = select_memories(store, namespace=ns, query=QUERY)
    chosen = {c.memory.id: c for c in injection.chosen}
    assert hired.id in chosen
    if not linked:
        assert lease.id not in by_id and lease.id not in chosen
        # Its own scores are far below the pre-hook's floors: it is not merely cut.
        [own] = [h for h in store.search(QUERY, namespace=ns, limit=50) if h.memory.id == lease.id]
        assert own.dense_score < InjectionConfig().similar_min_cosine
        return
    hit = by_id[lease.id]
    assert hit.via is not None and (hit.via.source_id, hit.via.relation, hit.via.target_id) == (
        lease.id, "result_of", hired.id)
    assert hit.score < hits[0].score and hit.dense_score is None
    reason = chosen[lease.id].reason
    assert reason.startswith("linked (") and f"this result_of {hired.id}" in reason
    # Off by request, the link source adds nothing.
    assert lease.id not in {h.memory.id for h in store.search(QUERY, namespace=ns, limit=3, follow_links=False)}
    off = select_memories(store, namespace=ns, query=QUERY, config=InjectionConfig(similar_links=False))
    assert lease.id not in {c.memory.id for c in off.chosen}


def test_links_are_followed_within_the_search_filter_and_fan_out_is_bounded(store):
    from langgraph_memory.store._linked import LINK_FANOUT

    ns = ("memories", "hub")
    hub = store.remember(HIRED, namespace=ns).memory
    spokes = [store.remember(t, namespace=ns, dedup=False).memory for t in FILLER[:6]]
    for s in spokes:
        store.link(hub.id, s.id, "related_to", namespace=ns)
    goal = store.remember("Find Tom a housewarming gift", namespace=ns, kind="goal").memory
    store.link(goal.id, hub.id, "caused_by", namespace=ns)
    hits = store.search(QUERY, namespace=ns, limit=3, mode="dense", kinds="fact")
    via = [h for h in hits if h.via is not None]
    assert len(via) <= LINK_FANOUT and goal.id not in {h.memory.id for h in hits}  # kinds filter holds
    # A forgotten memory is not reached by its links either.
    store.delete(goal.id, namespace=ns)
    assert goal.id not in {h.memory.id for h in store.search(QUERY, namespace=ns, limit=20)}


def test_no_engine_round_more_when_no_hit_has_links(store):
    """The link source reads the links the hits already carry: with none, the pre-hook makes
    exactly the engine calls it made without the source; a linked memory the search did not
    find costs a single fetch more."""
    ns = ("memories", "rounds")
    hired, lease = _fill(store, ns)
    calls = []
    real = store._backend.query_batch

    def counting(queries, **options):
        calls.append(len(queries))
        return real(queries, **options)

    store._backend.query_batch = counting
    try:
        def rounds(**config):
            calls.clear()
            select_memories(store, namespace=ns, query=QUERY, config=InjectionConfig(**config))
            return len(calls)

        # Read once first: a namespace read often enough is held whole (a snapshot scores a
        # search's candidates without a round), and both turns compared must find it so.
        rounds(similar_links=False)
        assert rounds(similar_links=True) == rounds(similar_links=False)
        store.link(lease.id, hired.id, "result_of", namespace=ns)

        def search_rounds(follow):
            calls.clear()
            hits = store.search(QUERY, namespace=ns, limit=3, follow_links=follow)
            return len(calls), lease.id in {h.memory.id for h in hits}

        # The linked memory is not among the three best: reaching it costs one fetch.
        (off, found_off), (on, found_on) = search_rounds(False), search_rounds(True)
        assert (on, found_on, found_off) == (off + 1, True, False)
    finally:
        store._backend.query_batch = real

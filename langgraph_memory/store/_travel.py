"""How one gets somewhere, for the dedup policy: a closed lexicon of ways of travelling in English and French, so
that a change of the way ("takes the tram to the office" -> "cycles to the office these days", "prend le métro pour
aller au bureau" -> "va au bureau à vélo dorénavant") is read as one value for another, and a thing taken along
("takes her lunch to the office") is not.

Pure Python (stdlib only).
"""

from __future__ import annotations

from langgraph_memory.store._wordforms import _stem

# Ways of travelling, said as a vehicle or as the verb of going that way.
_MODES = {_stem(w) for w in (
    "car cars bus buses tram trams train trains metro subway tube underground ferry taxi cab uber bike bikes "
    "bicycle scooter motorbike motorcycle coach carpool carpooling foot walk walks walking walked cycle cycles "
    "cycling cycled drive drives driving drove ride rides riding rode bikes biking biked run runs running ran "
    "voiture bagnole bus autobus tram tramway train metro rer velo trottinette moto scooter taxi covoiturage pied "
    "marche marcher pedale conduit conduire roule rouler"
).split()}
# Verbs that carry a way of travelling without being one: "takes the bus", "prend le métro", "va à vélo".
_CARRIERS = {_stem(w) for w in (
    "take takes took taking taken go goes went going gets get got use uses used commute commutes commuting travel "
    "travels travelling prend prends prenait prennent pris va vais vont allons aller allait utilise se rend rendre "
    "pour"
).split()}


def _ways(words: set[str]) -> tuple[set[str], set[str]]:
    """The ways of travelling among ``words``, and the words left beside them (carrier verbs set aside)."""
    ways = words & _MODES
    return ways, words - ways - _CARRIERS


def mode_clash(old_only: set[str], new_only: set[str]) -> bool:
    """Whether one side swaps a way of travelling and the other a thing that is none: "takes the tram" / "takes her
    lunch" is another fact."""
    (old_ways, _), (new_ways, _) = _ways(old_only), _ways(new_only)
    return bool(old_ways) != bool(new_ways)


def way_changed(n_update: bool, shared: set[str], old_only: set[str], new_only: set[str]) -> str | None:
    """After a change cue, one way of travelling for another, everything else said alike and somewhere shared (the
    frame): "takes the tram to the office" -> "cycles to the office these days"."""
    (old_ways, old_rest), (new_ways, new_rest) = _ways(old_only), _ways(new_only)
    if not n_update or not old_ways or not new_ways or old_rest or new_rest or not shared or old_ways == new_ways:
        return None
    return f"travels another way: {', '.join(sorted(old_ways))} -> {', '.join(sorted(new_ways))}"

"""Leave-out set E (i25-slot1), written BEFORE that round touched the policy, and measured by figures only.

Its merges are corrections of a slot that holds one value at a time (a possessive or definite singular head
noun: "our dentist", "la voiture de Gaëlle", "favourite colour"; a relation: "lives in", "works at", "is married
to", "is called"; a day or time slot) said WITHOUT any change word ("now", "actually", "switched",
"désormais"...): the new value stands where the old one stood. Its hard negatives share that shape but the slot
accumulates or differs: an accumulation marker ("also", "too", "another", "a second", "aussi", "en plus",
"autre"), a plural head, a habit that can hold two values, a family that accumulates (likes, languages), or
another slot with a value of the same kind. Same format as ``tests/dedup_leaveout_pairs.py``. Never tuned on:
``benchmarks/dedup_pairs.py`` prints its figures, never its pairs.
"""

from __future__ import annotations

try:
    from dedup_leaveout_pairs import LeaveOutPair
except ImportError:  # pragma: no cover - imported as tests.dedup_leaveout_e_pairs
    from tests.dedup_leaveout_pairs import LeaveOutPair

C, W = True, False

PAIRS_E: list[LeaveOutPair] = [
    # ------------------------------------------------------------------ English, merges (no change word)
    LeaveOutPair("Our dentist is Dr Okafor", "our dentist is dr lindqvist", "correction", "en", C,
                 "possessive head, name"),
    LeaveOutPair("Bettina works at Siemens", "bettina works for Bosch", "correction", "en", C,
                 "works at / for"),
    LeaveOutPair("Kwame lives in Accra", "kwame lives in Kumasi", "correction", "en", C, "lives in"),
    LeaveOutPair("Her landlord is called Mr Pike", "her landlord is named Mr Hollis", "correction", "en", C,
                 "is called / named"),
    LeaveOutPair("Ingrid is married to Sven", "ingrid is married to Lars", "correction", "en", C,
                 "is married to"),
    LeaveOutPair("Tobias's favourite colour is green", "tobias's favourite colour is orange", "correction", "en", C,
                 "favourite, lower-case value"),
    LeaveOutPair("Jonas's boss is Karen", "jonas's boss is Mehmet", "correction", "en", C, "possessive head"),
    LeaveOutPair("Leila's flat is on Rue Oberkampf", "leila's flat is on boulevard voltaire", "correction", "en", C,
                 "possessive head, street"),
    LeaveOutPair("Marco's football practice is on Tuesdays at 6", "marco's football practice is on tuesdays at 7",
                 "correction", "en", C, "time slot"),
    LeaveOutPair("Abebe's mobile number ends in 4411", "abebe's mobile number ends in 9020", "correction", "en", C,
                 "possessive head, number"),
    LeaveOutPair("Yara's birthday is on March 3", "yara's birthday is march 13th", "correction", "en", C,
                 "birthday date"),
    LeaveOutPair("The kids' pediatrician is Dr Haddad", "the kids' pediatrician is dr brennan", "correction", "en",
                 W, "definite head, name"),
    # ------------------------------------------------------------------ French, merges (no change word)
    LeaveOutPair("Notre médecin traitant est le docteur Lemaire", "notre médecin traitant c'est le docteur Bernard",
                 "correction", "fr", C, "tête possessive, nom"),
    LeaveOutPair("La voiture de Gaëlle est une Twingo", "la voiture de gaëlle c'est une Clio", "correction", "fr", C,
                 "possession"),
    LeaveOutPair("Hugues travaille chez Airbus", "hugues bosse chez Thales", "correction", "fr", C,
                 "travaille chez"),
    LeaveOutPair("Maëlle habite à Brest", "maëlle vit à Quimper", "correction", "fr", C, "habite / vit"),
    LeaveOutPair("Le chat de Solène s'appelle Pistache", "le chat de solène s'appelle Noisette", "correction", "fr",
                 C, "s'appelle"),
    LeaveOutPair("Le plat préféré de Basile, c'est la raclette", "le plat préféré de basile c'est le couscous",
                 "correction", "fr", C, "préféré, minuscule"),
    LeaveOutPair("Clémence est mariée avec Thomas", "clémence est mariée à Julien", "correction", "fr", C,
                 "mariée avec / à"),
    LeaveOutPair("Le cours de danse de Lou est le mercredi à 14h", "le cours de danse de lou c'est le mercredi à 15h",
                 "correction", "fr", C, "créneau horaire"),
    LeaveOutPair("Mon conseiller à la banque est M. Girard", "mon conseiller à la banque c'est M. Roux",
                 "correction", "fr", C, "tête possessive, titre"),
    LeaveOutPair("L'anniversaire de Noé est le 8 mai", "l'anniversaire de noé c'est le 18 mai", "correction", "fr",
                 C, "date d'anniversaire"),
    LeaveOutPair("La chambre de Pierre à l'hôpital est la 212", "la chambre de pierre à l'hôpital c'est la 214",
                 "correction", "fr", C, "numéro"),
    LeaveOutPair("Le pédiatre des enfants est le Dr Marchal", "Le pédiatre des enfants est la docteure Faure",
                 "correction", "fr", W, "tête définie, nom"),
    # ------------------------------------------------------------------ English, hard negatives
    LeaveOutPair("Priscilla has a Golf", "priscilla also has a clio", "different", "en", C, "also"),
    LeaveOutPair("Kwame has a flat in Accra", "kwame has a flat in Kumasi too", "different", "en", C, "too"),
    LeaveOutPair("Tobias likes green", "tobias likes orange", "different", "en", C, "likes accumulate"),
    LeaveOutPair("Our dentist is Dr Okafor", "our optician is dr lindqvist", "different", "en", C,
                 "another slot, name"),
    LeaveOutPair("Leila's flat is on Rue Oberkampf", "leila's office is on boulevard voltaire", "different", "en", C,
                 "another slot, street"),
    LeaveOutPair("Marco's football practice is on Tuesdays at 6", "marco's swimming practice is on tuesdays at 7",
                 "different", "en", C, "another slot, time"),
    LeaveOutPair("Yara's birthday is on March 3", "yara's wedding anniversary is on march 13", "different", "en", C,
                 "another slot, date"),
    LeaveOutPair("Gus owns a bakery in Leith", "gus opened a second bakery in Portobello", "different", "en", C,
                 "a second"),
    LeaveOutPair("Jonas plays the violin", "jonas plays the cello as well", "different", "en", C, "as well"),
    LeaveOutPair("Ingrid's son is called Erik", "ingrid's other son is called Nils", "different", "en", C,
                 "other"),
    LeaveOutPair("Chen's neighbours are the Parkers", "chen's neighbours are the Lius", "different", "en", C,
                 "plural head"),
    LeaveOutPair("Nadia swims on Mondays at 7", "nadia swims on thursdays at 7", "different", "en", W,
                 "a habit holds two days"),
    # ------------------------------------------------------------------ French, hard negatives
    LeaveOutPair("Gaëlle a une Twingo", "gaëlle a aussi une Clio", "different", "fr", C, "aussi"),
    LeaveOutPair("Maëlle a un appartement à Brest", "maëlle a en plus une maison à Quimper", "different", "fr", C,
                 "en plus"),
    LeaveOutPair("Le chat de Solène s'appelle Pistache", "le chien de solène s'appelle Noisette", "different", "fr",
                 C, "autre tête, nom"),
    LeaveOutPair("Le plat préféré de Basile, c'est la raclette", "le dessert préféré de basile c'est le clafoutis",
                 "different", "fr", C, "autre préférence"),
    LeaveOutPair("Basile aime la raclette", "basile aime le couscous", "different", "fr", C, "aimer s'accumule"),
    LeaveOutPair("Clémence a un frère, Thomas", "clémence a un autre frère, Julien", "different", "fr", C, "autre"),
    LeaveOutPair("Le cours de danse de Lou est le mercredi à 14h", "le cours de piano de lou est le mercredi à 16h",
                 "different", "fr", C, "autre cours, heure"),
    LeaveOutPair("Fatou parle wolof", "fatou parle portugais", "different", "fr", C, "langues s'accumulent"),
    LeaveOutPair("L'anniversaire de Noé est le 8 mai", "la fête de l'école de noé est le 18 mai", "different", "fr",
                 C, "autre date"),
    LeaveOutPair("Mon conseiller à la banque est M. Girard", "mon notaire c'est M. Roux", "different", "fr", C,
                 "autre rôle, titre"),
    LeaveOutPair("Les voisins de Régis sont les Martin", "les voisins de régis sont les Dubois", "different", "fr", C,
                 "tête au pluriel"),
    LeaveOutPair("Armelle fait du yoga le lundi", "armelle fait du pilates le lundi", "different", "fr", W,
                 "deux activités le même jour"),
]

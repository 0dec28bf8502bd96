"""Hand-written labelled pairs for the dedup policy (French and English).

Each pair is ``(old, new, expected, lang)`` where ``old`` is the memory already
stored and ``new`` is the one being remembered. Labels follow ``DedupVerdict``:

* ``duplicate``  -- new says nothing old does not (rephrasing, same info);
* ``refinement`` -- new says old's fact and more;
* ``correction`` -- same subject and slot, new value;
* ``different``  -- another fact, here always about the SAME person (hard negatives).
"""

from __future__ import annotations

from typing import NamedTuple


class DedupPair(NamedTuple):
    old: str
    new: str
    expected: str
    lang: str


# Seed examples from the design discussion (asserted individually by the tests).
SEED_REFINEMENT = DedupPair(
    "Mickael s'est cassé l'épaule", "Mickael s'est cassé l'épaule le 10 janvier 2026", "refinement", "fr"
)
SEED_DIFFERENT = DedupPair("Mickael habite à Paris", "Mickael a un fils", "different", "fr")

# Round 1: written first; the policy was developed against it.
ROUND_1: list[DedupPair] = [
    # --- refinements: same fact plus detail ---
    SEED_REFINEMENT,
    DedupPair("Sarah has a dog", "Sarah has a dog named Biscuit", "refinement", "en"),
    DedupPair("Julie travaille chez Airbus", "Julie travaille chez Airbus comme ingénieure à Toulouse", "refinement", "fr"),
    DedupPair("Tom is allergic to peanuts", "Tom is severely allergic to peanuts and carries an EpiPen", "refinement", "en"),
    DedupPair("David a une fille", "David a une fille de 8 ans qui s'appelle Léa", "refinement", "fr"),
    DedupPair("Anna plays the piano", "Anna plays the piano every Sunday at church", "refinement", "en"),
    DedupPair("Le rendez-vous chez le dentiste est mardi", "Le rendez-vous chez le dentiste est mardi à 14h", "refinement", "fr"),
    DedupPair("Mark is learning Spanish", "Mark is learning Spanish for his trip to Mexico in March", "refinement", "en"),
    DedupPair("Claire aime le chocolat", "Claire aime le chocolat noir, surtout avec des noisettes", "refinement", "fr"),
    DedupPair("Paul had knee surgery", "Paul had knee surgery on March 3 at Saint-Luc hospital", "refinement", "en"),
    DedupPair("Mickael est végétarien", "Mickael est végétarien depuis 2019", "refinement", "fr"),
    DedupPair("Emma is pregnant", "Emma is pregnant, due in August", "refinement", "en"),
    DedupPair("Sophie prend des cours de yoga", "Sophie prend des cours de yoga le jeudi soir avec son amie Inès", "refinement", "fr"),
    DedupPair("The user prefers short answers", "The user prefers short answers with bullet points", "refinement", "en"),
    # --- corrections: same slot, new value ---
    DedupPair("David habite à Ordizan", "David a déménagé à Toulouse", "correction", "fr"),
    DedupPair("David lives in Ordizan", "David moved to Toulouse", "correction", "en"),
    DedupPair("Julie travaille chez Airbus", "Julie travaille maintenant chez Thales", "correction", "fr"),
    DedupPair("Tom works at Google", "Tom now works at Microsoft", "correction", "en"),
    DedupPair("Mickael a 34 ans", "Mickael a 35 ans", "correction", "fr"),
    DedupPair("Sarah is 29 years old", "Sarah is actually 31", "correction", "en"),
    DedupPair("Paul est marié avec Anne", "Paul est divorcé", "correction", "fr"),
    DedupPair("Emma's favourite colour is blue", "Emma's favorite colour is now green", "correction", "en"),
    DedupPair("Le chien de Claire s'appelle Rex", "En fait, le chien de Claire s'appelle Max", "correction", "fr"),
    DedupPair("Anna lives in Berlin", "Anna is now living in Munich", "correction", "en"),
    DedupPair("Sophie est célibataire", "Sophie est mariée depuis juin", "correction", "fr"),
    DedupPair("Mark drives a Renault", "Mark no longer drives a Renault, he bought a Tesla", "correction", "en"),
    DedupPair("Le plat préféré de Léa est la pizza", "Le plat préféré de Léa est désormais les sushis", "correction", "fr"),
    DedupPair("The user's name is Jon", "Actually the user is called John", "correction", "en"),
    DedupPair("Mickael est malade", "Mickael n'est plus malade", "correction", "fr"),
    # --- duplicates: rephrasings carrying the same information ---
    DedupPair("Mickael s'est cassé l'épaule", "Mickaël s'est cassé l'épaule.", "duplicate", "fr"),
    DedupPair("David lives in Ordizan", "David is living in Ordizan", "duplicate", "en"),
    DedupPair("Julie travaille chez Airbus", "Julie bosse chez Airbus", "duplicate", "fr"),
    DedupPair("Tom is allergic to peanuts", "Tom has a peanut allergy", "duplicate", "en"),
    DedupPair("Sarah a un chien", "Sarah possède un chien", "duplicate", "fr"),
    DedupPair("Emma is pregnant, due in August", "Emma is pregnant and due in August", "duplicate", "en"),
    DedupPair("Paul a 40 ans", "Paul est âgé de 40 ans", "duplicate", "fr"),
    DedupPair("Anna plays the piano every Sunday", "Every Sunday, Anna plays the piano", "duplicate", "en"),
    DedupPair("Le rendez-vous chez le dentiste est mardi à 14h", "Rendez-vous dentiste mardi 14h", "duplicate", "fr"),
    DedupPair("Mark's birthday is on May 12", "Mark's birthday: 12 May", "duplicate", "en"),
    DedupPair("Léa est allergique aux chats", "Léa a une allergie aux chats", "duplicate", "fr"),
    DedupPair("The user prefers short answers", "The user likes short answers", "duplicate", "en"),
    DedupPair("Claire habite à Lyon", "Claire vit à Lyon", "duplicate", "fr"),
    DedupPair("Sophie's husband is called Marc", "Sophie is married to Marc", "duplicate", "en"),
    # --- different facts about the same person (hard negatives) ---
    SEED_DIFFERENT,
    DedupPair("Mickael est malade", "Mickael s'est cassé l'épaule", "different", "fr"),
    DedupPair("David lives in Ordizan", "David has two daughters", "different", "en"),
    DedupPair("Tom works at Google", "Tom plays tennis on weekends", "different", "en"),
    DedupPair("Julie travaille chez Airbus", "Julie aime le jazz", "different", "fr"),
    DedupPair("Sarah has a dog", "Sarah has a sister", "different", "en"),
    DedupPair("Paul a 40 ans", "Paul a 2 enfants", "different", "fr"),
    DedupPair("Emma is pregnant", "Emma is a nurse", "different", "en"),
    DedupPair("Claire aime le chocolat", "Claire aime la randonnée", "different", "fr"),
    DedupPair("Anna is allergic to peanuts", "Anna is allergic to penicillin", "different", "en"),
    DedupPair("Mickael s'est cassé l'épaule", "Mickael s'est cassé le poignet", "different", "fr"),
    DedupPair("Mark is learning Spanish", "Mark is learning to drive", "different", "en"),
    DedupPair("David habite à Ordizan", "David travaille à Toulouse", "different", "fr"),
    DedupPair("Tom's wife is called Julia", "Tom's son is called Leo", "different", "en"),
    DedupPair("Sophie a deux chats", "Sophie a deux frères", "different", "fr"),
    DedupPair("Mark lives in Berlin", "Mark was born in Munich", "different", "en"),
]

# Round 2: written after round 1 passed, run once as a held-out check (first run: 12/17 merges,
# 2 false merges); general fixes followed (names vs lexicon words, time words, cue-less bare swaps).
ROUND_2: list[DedupPair] = [
    DedupPair("Lucas joue au foot", "Lucas joue au foot dans le club de Tarbes le samedi", "refinement", "fr"),
    DedupPair("Nina is vegan", "Nina has been vegan since 2021 for ethical reasons", "refinement", "en"),
    DedupPair("Hugo a eu un accident de vélo", "Hugo a eu un accident de vélo en rentrant du travail, sans gravité", "refinement", "fr"),
    DedupPair("The user's sister lives in Canada", "The user's sister lives in Montreal, Canada", "refinement", "en"),
    DedupPair("Marie est enceinte", "Marie est enceinte de jumeaux", "refinement", "fr"),
    DedupPair("Lucas habite à Tarbes", "Lucas vit désormais à Pau", "correction", "fr"),
    DedupPair("Nina works as a teacher", "Nina is now a nurse", "correction", "en"),
    DedupPair("Hugo's phone number ends in 5678", "Hugo's new phone number ends in 4321", "correction", "en"),
    DedupPair("Marie a 41 ans", "Marie vient d'avoir 42 ans", "correction", "fr"),
    DedupPair("The user is married", "The user got divorced last year", "correction", "en"),
    DedupPair("Le fils de Paul s'appelle Tom", "Le fils de Paul s'appelle en fait Thomas", "correction", "fr"),
    DedupPair("Lucas joue au foot", "Lucas fait du football", "duplicate", "fr"),
    DedupPair("Nina is vegan", "Nina follows a vegan diet", "duplicate", "en"),
    DedupPair("The user lives in Canada", "The user is based in Canada", "duplicate", "en"),
    DedupPair("Hugo travaille comme boulanger", "Hugo est boulanger", "duplicate", "fr"),
    DedupPair("Marie's birthday is on 3 June", "Marie was born on June 3", "duplicate", "en"),
    DedupPair("Paul déteste les araignées", "Paul a horreur des araignées", "duplicate", "fr"),
    DedupPair("Lucas habite à Tarbes", "Lucas est né à Pau", "different", "fr"),
    DedupPair("Nina is vegan", "Nina is allergic to gluten", "different", "en"),
    DedupPair("Hugo travaille comme boulanger", "Hugo travaille le dimanche", "different", "fr"),
    DedupPair("Marie a un chat", "Marie a un chien", "different", "fr"),
    DedupPair("The user's sister lives in Canada", "The user's brother lives in Spain", "different", "en"),
    DedupPair("Paul runs every morning", "Paul runs marathons", "different", "en"),
    DedupPair("Le fils de Paul s'appelle Tom", "La fille de Paul s'appelle Emma", "different", "fr"),
    DedupPair("Nina works at the hospital", "Nina works at night", "different", "en"),
]

# Round 3: written after round 2's fixes, run once (first run: 13/14 merges, 1 false merge, the
# "Omar's brother" pair, which led to the relatives rule).
ROUND_3: list[DedupPair] = [
    DedupPair("Jeanne fait du piano", "Jeanne fait du piano depuis ses six ans au conservatoire de Pau", "refinement", "fr"),
    DedupPair("Omar has diabetes", "Omar has type 1 diabetes and uses an insulin pump", "refinement", "en"),
    DedupPair("The user drinks coffee", "The user drinks coffee without sugar, two cups a day", "refinement", "en"),
    DedupPair("Inès cherche un appartement", "Inès cherche un appartement à Bordeaux avec deux chambres", "refinement", "fr"),
    DedupPair("Omar lives in Lyon", "Omar has moved to Marseille", "correction", "en"),
    DedupPair("Jeanne est infirmière à Pau", "Jeanne est maintenant infirmière à Bayonne", "correction", "fr"),
    DedupPair("The user's manager is Karen", "The user's manager is now Pedro", "correction", "en"),
    DedupPair("Inès a 27 ans", "Inès a eu 28 ans hier", "correction", "fr"),
    DedupPair("Omar is engaged to Lina", "Omar and Lina got married in May", "correction", "en"),
    DedupPair("Jeanne est infirmière", "Jeanne travaille comme infirmière", "duplicate", "fr"),
    DedupPair("Omar speaks Arabic", "Omar can speak Arabic", "duplicate", "en"),
    DedupPair("The user dislikes spiders", "The user doesn't like spiders", "duplicate", "en"),
    DedupPair("Inès est née le 4 juillet 1998", "Inès est née le 04/07/1998", "duplicate", "fr"),
    DedupPair("Omar works from home on Fridays", "On Fridays, Omar works from home", "duplicate", "en"),
    DedupPair("Jeanne est infirmière à Pau", "Jeanne a deux enfants", "different", "fr"),
    DedupPair("Omar lives in Lyon", "Omar's brother lives in Lyon", "different", "en"),
    DedupPair("The user drinks coffee", "The user drinks green tea in the evening", "different", "en"),
    DedupPair("Inès cherche un appartement", "Inès cherche un travail", "different", "fr"),
    DedupPair("Omar is engaged to Lina", "Omar works with Lina", "different", "en"),
    DedupPair("Jeanne est infirmière", "Jeanne est fatiguée", "different", "fr"),
    DedupPair("The user's manager is Karen", "The user's sister is called Karen", "different", "en"),
]

# Round 4: found in review of the store (the same fact about another person was taken for a
# correction and hid the first person's fact); written after the fix, so not blind.
ROUND_4 = [
    DedupPair("Alice works at Google", "Bob works at Google", "different", "en"),
    DedupPair("Alice has a cat named Miso", "Bob has a cat named Miso", "different", "en"),
    DedupPair("Léa habite à Lyon", "Hugo habite à Lyon", "different", "fr"),
    DedupPair("Nora a 34 ans", "Paul a 34 ans", "different", "fr"),
]

ROUNDS = {"round 1": ROUND_1, "round 2": ROUND_2, "round 3": ROUND_3, "round 4": ROUND_4}
PAIRS: list[DedupPair] = [*ROUND_1, *ROUND_2, *ROUND_3, *ROUND_4]
CATEGORIES = ("refinement", "correction", "duplicate", "different")

"""Held-out dedup pairs for issue 25 (French and English). NOBODY TUNES ON THESE.

Written on 2026-11-24 by a helper that wrote no policy code, before the issue-25 policy changes, and
kept from the people tuning the policy. Use them only to measure (``python benchmarks/blind_eval.py``);
never read them to fix a miss, never copy a sentence from here into a tuning set. A pair that
informed a fix is no longer blind: move it to ``tests/dedup_pairs.py`` and say so.

Each pair is ``(old, new, expected, lang, conversational, kind)``: ``old`` is the memory already
stored, ``new`` the one being remembered; ``expected`` follows ``DedupVerdict`` as in
``tests/dedup_pairs.py`` (``duplicate`` / ``refinement`` / ``correction`` / ``different``);
``conversational`` marks a ``new`` said the way people talk (lowercase, fillers, typos, dropped
words); ``kind`` names what the pair tests. Every ``different`` pair is about the SAME person and
the same family of slot (two allergies, two pets, a past and a present job...), and both facts
must stay: a merge there loses something the user said.
"""

from __future__ import annotations

from typing import NamedTuple


class BlindPair(NamedTuple):
    old: str
    new: str
    expected: str
    lang: str
    conversational: bool
    kind: str


C, W = True, False  # conversational / written

PAIRS: list[BlindPair] = [
    # ------------------------------------------------------------------ English, merges
    BlindPair("Gaëtan takes oat milk in his coffee", "oh btw gaetan switched to almond milk for his coffee",
              "correction", "en", C, "change verb"),
    BlindPair("Ingrid plays tennis on weekends", "ingrid quit tennis and took up padel instead",
              "correction", "en", C, "stop one start another"),
    BlindPair("Ravi's guitar lesson is on Wednesdays", "actually ravi's guitar lesson got moved to thursdays",
              "correction", "en", C, "value in slot: day"),
    BlindPair("Wendy's train leaves at 7:40", "scratch that, wendy's train leaves at 8:15 now",
              "correction", "en", C, "value in slot: time"),
    BlindPair("Desmond rides a blue Vespa", "desmond sold the vespa, he's got an electric bike now",
              "correction", "en", C, "value in slot: possession"),
    BlindPair("Siobhan is a nurse at the children's hospital",
              "siobhan left nursing, she teaches biology at a high school these days",
              "correction", "en", C, "value in slot: job"),
    BlindPair("Mateo's favourite band is Muse", "mateo says his fav band at the moment is Arctic Monkeys",
              "correction", "en", C, "value in slot: favourite"),
    BlindPair("Decision: keep the invoices in Google Drive", "we moved the invoices from google drive over to dropbox",
              "correction", "en", C, "changed decision"),
    BlindPair("Joaquim smokes", "joaquim doesnt smoke anymore, he quit in the spring",
              "correction", "en", C, "negation flip"),
    BlindPair("Kwame lives in Accra", "kwame finally relocated to Lagos for the new job",
              "correction", "en", C, "change verb: relocated, finally"),
    BlindPair("Otto doesn't eat pork", "otto does not eat pork", "duplicate", "en", C, "contraction"),
    BlindPair("Elif has three cats", "elif's got 3 cats", "duplicate", "en", C, "digits vs words"),
    BlindPair("Kenji lives on the 4th floor", "kenji lives on the fourth floor", "duplicate", "en", C,
              "ordinal digits vs words"),
    BlindPair("Rosalind's tortoise is called Sheldon", "rosalind has a tortoise named Sheldon",
              "duplicate", "en", C, "is called vs named"),
    BlindPair("Thibault is training for a marathon",
              "oh and thibault's marathon is the chicago one, end of september",
              "refinement", "en", C, "refinement said casually"),
    BlindPair("Anouk is allergic to shellfish", "anouk is alergic to shellfish, shrimp especially, she ended up in the ER once",
              "refinement", "en", C, "refinement with typo"),
    BlindPair("Idris goes running Tuesdays", "Idris goes running on Tuesdays", "duplicate", "en", W,
              "preposition inserted"),
    BlindPair("Lukas is 1.85 m tall", "Lukas is 185 cm tall", "duplicate", "en", W, "units"),
    BlindPair("Margaux's thesis defence is on 2026-03-14", "Margaux defends her thesis on March 14, 2026",
              "duplicate", "en", W, "date formats"),
    BlindPair("Dmitri purchased a used Volvo", "Dmitri bought a second-hand Volvo", "duplicate", "en", W, "synonyms"),
    BlindPair("Amara's manager is Mr. Okafor", "Amara reports to Mr. Okafor", "duplicate", "en", W, "paraphrase"),
    BlindPair("Félix works at the post office", "Félix now works at a bike repair shop", "correction", "en", W,
              "value in slot: job with now"),
    # ------------------------------------------------------------------ English, different facts about one person
    BlindPair("Gaëtan is allergic to penicillin", "oh and gaetan is also allergic to latex",
              "different", "en", C, "two allergies"),
    BlindPair("Ulrich is allergic to cats", "Ulrich is allergic to birch pollen", "different", "en", W,
              "two allergies, no marker"),
    BlindPair("Elif has a parrot named Kiwi", "elif also has a hamster called Noodle", "different", "en", C, "two pets"),
    BlindPair("Kenji has a golden retriever", "Kenji has a rabbit named Pepper", "different", "en", W,
              "two pets, no marker"),
    BlindPair("Amara used to work as a cashier at a supermarket", "amara works as a paralegal now",
              "different", "en", C, "past job vs present job"),
    BlindPair("Thibault visited Lisbon last summer", "thibault went to prague in october", "different", "en", C,
              "two cities visited"),
    BlindPair("Ravi speaks Tamil", "ravi speaks german too", "different", "en", C, "two languages"),
    BlindPair("Mireille's son is called Jules", "Mireille's daughter is called Apolline", "different", "en", W,
              "two children"),
    BlindPair("Wendy lives in Bristol", "wendy finally got her driving licence", "different", "en", C,
              "change word on another fact"),
    BlindPair("Desmond uses a MacBook for work", "desmond switched his phone plan to a cheaper one",
              "different", "en", C, "change verb on another object"),
    BlindPair("Ingrid has choir practice on Mondays", "ingrid has pottery class on thursdays", "different", "en", C,
              "two weekly activities, two days"),
    BlindPair("Otto's alarm is set for 6:30", "Otto's lunch break is at 12:30", "different", "en", W, "two times"),
    BlindPair("Mateo's favourite film is Alien", "mateo's favourite food is ramen", "different", "en", C,
              "two favourites"),
    BlindPair("Decision: write the backend in Go", "Decision: deploy the frontend on Netlify", "different", "en", W,
              "two decisions"),
    BlindPair("Bérénice loves horror films", "bérénice can't stand musicals", "different", "en", C,
              "negation on another object"),
    BlindPair("Lukas runs 10 km every Sunday", "Lukas cycles 40 km every Saturday", "different", "en", W,
              "two distances, two days"),
    BlindPair("Idris quit his job at the bakery", "idris started a cooking course", "different", "en", C,
              "stop and start, unrelated"),
    BlindPair("Siobhan owns a red Fiat", "siobhan bought a kayak last week", "different", "en", C, "two possessions"),
    BlindPair("Kwame ran the Paris half marathon in 2023", "Kwame ran the Chicago marathon in 2025", "different", "en", W,
              "two past races"),
    BlindPair("Rosalind has two brothers", "Rosalind has two sisters", "different", "en", W, "one word, other relatives"),
    BlindPair("Félix's wife is a dentist", "Félix's sister is a dentist", "different", "en", W,
              "same value, another relative"),
    BlindPair("Anouk takes metformin", "anouk also takes vitamin d in winter", "different", "en", C, "two medications"),
    # ------------------------------------------------------------------ French, merges
    BlindPair("Noémie travaille à la mairie de Brest", "noémie bosse désormais à la préfecture",
              "correction", "fr", C, "désormais, job"),
    BlindPair("Yannick fait du vélo le samedi matin", "yannick fait du vélo le dimanche matin maintenant",
              "correction", "fr", C, "maintenant, day"),
    BlindPair("Solène part en vacances en Crète", "finalement solène part en sardaigne", "correction", "fr", C,
              "finalement"),
    BlindPair("Aurélien habite à Grenoble", "aurélien a démenagé à annecy le mois dernier", "correction", "fr", C,
              "a déménagé, typo"),
    BlindPair("Capucine fait de la natation", "capucine a arrêté la natation et commence l'escalade",
              "correction", "fr", C, "a arrêté ... et commence"),
    BlindPair("Décision : utiliser Trello pour suivre les tâches", "on va utiliser Notion à la place de Trello",
              "correction", "fr", C, "changed decision"),
    BlindPair("Le cours de piano de Gwenaëlle est à 17h", "le cours de piano de gwenaëlle est à 18h30",
              "correction", "fr", C, "value in slot: time, no marker"),
    BlindPair("Fatou roule en Twingo", "fatou a vendu sa twingo, elle roule en 208 maintenant",
              "correction", "fr", C, "value in slot: possession"),
    BlindPair("Le livre préféré d'Ophélie est Le Petit Prince",
              "en ce moment le livre préféré d'ophélie c'est L'Étranger", "correction", "fr", C,
              "value in slot: favourite"),
    BlindPair("Perrine est serveuse dans une brasserie", "perrine a changé de boulot, elle est caissière au supermarché",
              "correction", "fr", C, "value in slot: job"),
    BlindPair("Valentin fume", "valentin fume plus depuis septembre", "correction", "fr", C, "negation flip, no ne"),
    BlindPair("On a choisi Slack pour la messagerie de l'équipe", "bon finalement on passe de Slack à Mattermost",
              "correction", "fr", C, "changed decision: passer de X à Y"),
    BlindPair("Agathe habite au 3e étage", "agathe habite au troisième étage", "duplicate", "fr", C,
              "ordinal digits vs words"),
    BlindPair("Le chat de Maëlys s'appelle Pistache", "maëlys a un chat nommé Pistache", "duplicate", "fr", C,
              "s'appelle vs nommé"),
    BlindPair("Lucien ne boit pas de café", "lucien boit pas de café", "duplicate", "fr", C, "dropped ne"),
    BlindPair("Armelle a deux enfants", "armelle a 2 gosses", "duplicate", "fr", C, "digits vs words, slang"),
    BlindPair("Quentin apprend le portugais",
              "ah et quentin apprend le portugais parce qu'il part vivre à Porto l'an prochain",
              "refinement", "fr", C, "refinement said casually"),
    BlindPair("Gaspard joue au foot le mercredi", "Gaspard joue au foot tous les mercredis", "duplicate", "fr", W,
              "weekly day, two forms"),
    BlindPair("Héloïse part au Pérou en avril", "Héloïse part pour le Pérou en avril", "duplicate", "fr", W,
              "preposition changed"),
    BlindPair("Le vol de Jocelyne part à 14h", "Le vol de Jocelyne décolle à 14 heures", "duplicate", "fr", W,
              "time format, synonym"),
    BlindPair("L'anniversaire de Firmin est le 2 février", "Anniversaire de Firmin : 02/02", "duplicate", "fr", W,
              "date formats"),
    BlindPair("Romane a un rendez-vous chez l'ophtalmo", "Romane a rendez-vous chez l'ophtalmo jeudi à 9h15",
              "refinement", "fr", W, "refinement"),
    BlindPair("Clémence est au chômage", "Clémence a retrouvé un poste de comptable", "correction", "fr", W,
              "status change without marker"),
    # ------------------------------------------------------------------ French, different facts about one person
    BlindPair("Noémie est allergique aux arachides", "noémie est aussi allergique au pollen de bouleau",
              "different", "fr", C, "two allergies"),
    BlindPair("Yannick a un chien qui s'appelle Gribouille", "yannick a un lapin qui s'appelle Caramel",
              "different", "fr", C, "two pets"),
    BlindPair("Solène a été institutrice pendant dix ans", "solène est libraire maintenant", "different", "fr", C,
              "past job vs present job"),
    BlindPair("Aurélien a visité Rome en 2024", "aurélien est allé à Vienne cet été", "different", "fr", C,
              "two cities visited"),
    BlindPair("Capucine habite à Angers", "le frère de capucine a déménagé à Tours", "different", "fr", C,
              "a déménagé, another person"),
    BlindPair("Gwenaëlle travaille chez Michelin", "gwenaëlle fait désormais du yoga le matin", "different", "fr", C,
              "désormais on another fact"),
    BlindPair("Fatou a arrêté le sucre", "fatou a commencé un traitement contre l'asthme", "different", "fr", C,
              "stop and start, unrelated"),
    BlindPair("Le film préféré d'Ophélie est Amélie", "la série préférée d'ophélie c'est Dix pour cent",
              "different", "fr", C, "two favourites"),
    BlindPair("Perrine a sa chorale le lundi soir", "Perrine a son cours de poterie le jeudi soir", "different", "fr", W,
              "two weekly activities, two days"),
    BlindPair("Agathe a deux frères", "Agathe a deux sœurs", "different", "fr", W, "one word, other relatives"),
    BlindPair("Décision : écrire les tests avec pytest", "on va utiliser Docker pour le déploiement",
              "different", "fr", C, "two decisions"),
    BlindPair("Maëlys a une trottinette électrique", "Maëlys s'est acheté un vélo cargo", "different", "fr", W,
              "two possessions"),
    BlindPair("Timothée a fait ses études à Montpellier", "timothée vit à Dijon maintenant", "different", "fr", C,
              "past city vs present city"),
    BlindPair("Clémence adore les huîtres", "clémence supporte pas les moules", "different", "fr", C,
              "negation on another object"),
    BlindPair("Gaspard mesure 1,80 m", "Gaspard pèse 75 kg", "different", "fr", W, "two measurements"),
    BlindPair("La femme de Lucien est infirmière", "La fille de Lucien est infirmière", "different", "fr", W,
              "same value, another relative"),
    BlindPair("Armelle prend du Levothyrox", "armelle prend aussi de la vitamine D l'hiver", "different", "fr", C,
              "two medications"),
    BlindPair("Quentin se lève à 6h", "Quentin se couche à 23h", "different", "fr", W, "two times"),
    BlindPair("Romane parle couramment l'italien", "romane apprend le russe depuis peu", "different", "fr", C,
              "two languages"),
]

LABELS = ("duplicate", "refinement", "correction", "different")

"""Leave-out dedup pairs written by the i25-dedup2 round BEFORE its policy changes (French and English).

Never tuned on: written before any code of that round changed, measured before and after, and kept out of
every tuning loop since (a miss here is reported, never fixed sentence by sentence). Same format as
``tests/dedup_blind_pairs.py``: ``(old, new, expected, lang, conversational, kind)``. Every ``different``
pair is about the same person and the same family of slot; both facts must stay.
"""

from __future__ import annotations

from typing import NamedTuple


class LeaveOutPair(NamedTuple):
    old: str
    new: str
    expected: str
    lang: str
    conversational: bool
    kind: str


C, W = True, False

PAIRS: list[LeaveOutPair] = [
    # ------------------------------------------------------------------ English, merges
    LeaveOutPair("Noor lives in Leeds", "noor relocated to bristol last spring", "correction", "en", C, "move verb"),
    LeaveOutPair("Dmitri works as a barista at Bean Hub", "dmitri got a new job, he's a courier now",
                 "correction", "en", C, "job change with time word"),
    LeaveOutPair("The book club meets on Thursdays", "book club is on tuesdays now", "correction", "en", C,
                 "day of a recurring thing"),
    LeaveOutPair("Hugo's swimming class starts at 6pm", "hugo's swim class starts at 7pm from next week",
                 "correction", "en", C, "time of a recurring thing"),
    LeaveOutPair("Priya drives a Fiat Panda", "priya sold the panda and bought a mini", "correction", "en", C,
                 "possession replaced"),
    LeaveOutPair("Ben's favourite band is Muse", "ben says his fave band these days is Arctic Monkeys",
                 "correction", "en", C, "favourite"),
    LeaveOutPair("The team uses Jira for tickets", "we moved our tickets from Jira to Linear", "correction", "en", W,
                 "decision, from X to Y"),
    LeaveOutPair("Decision: deploy the backend on AWS", "Decision: deploy the backend on GCP instead of AWS",
                 "correction", "en", W, "decision instead of"),
    LeaveOutPair("Lucia is a vegetarian", "lucia isn't vegetarian anymore", "correction", "en", C,
                 "status ended"),
    LeaveOutPair("Oscar lives on the 4th floor", "Oscar lives on the fourth floor", "duplicate", "en", W,
                 "ordinal digits/words"),
    LeaveOutPair("Mia has three cats", "Mia has 3 cats", "duplicate", "en", W, "number digits/words"),
    LeaveOutPair("Kenji's daughter is named Aiko", "Kenji's daughter is called Aiko", "duplicate", "en", W,
                 "naming paraphrase"),
    LeaveOutPair("Aiko is the name of Kenji's daughter", "kenji's daughter's called aiko", "duplicate", "en", C,
                 "naming paraphrase, contraction"),
    LeaveOutPair("Sam doesn't eat pork", "Sam does not eat pork", "duplicate", "en", W, "contraction"),
    LeaveOutPair("Rosa runs 5 km every morning", "rosa runs five kilometres every morning", "duplicate", "en", C,
                 "units and numbers"),
    LeaveOutPair("Felix plays guitar", "Felix plays guitar in a jazz band on Fridays", "refinement", "en", W,
                 "detail added"),
    # ------------------------------------------------------------------ French, merges
    LeaveOutPair("Inès habite à Nantes", "ines a déménagé à rennes le mois dernier", "correction", "fr", C,
                 "a déménagé"),
    LeaveOutPair("Bastien travaille chez Orange", "bastien bosse désormais chez Free", "correction", "fr", C,
                 "désormais, job"),
    LeaveOutPair("Le cours de piano de Chloé est le mercredi", "le cours de piano de chloé c'est maintenant le samedi",
                 "correction", "fr", C, "jour d'une activité"),
    LeaveOutPair("La réunion d'équipe est à 9h", "finalement la réunion d'équipe est à 10h", "correction", "fr", C,
                 "finalement, heure"),
    LeaveOutPair("Décision : héberger le site chez OVH", "on va héberger le site chez Scaleway à la place d'OVH",
                 "correction", "fr", C, "à la place de"),
    LeaveOutPair("Margot fume", "margot a arrêté de fumer", "correction", "fr", C, "arrêt"),
    LeaveOutPair("Le dessert préféré de Jules est la tarte aux pommes",
                 "le dessert préféré de jules maintenant c'est le tiramisu", "correction", "fr", C, "préféré"),
    LeaveOutPair("Yanis a une Clio", "yanis a vendu sa clio et roule en Zoé maintenant", "correction", "fr", C,
                 "possession remplacée"),
    LeaveOutPair("Élodie est en couple avec Karim", "élodie n'est plus avec karim", "correction", "fr", C,
                 "statut terminé"),
    LeaveOutPair("Nathan habite au 3e étage", "Nathan habite au troisième étage", "duplicate", "fr", W,
                 "ordinal"),
    LeaveOutPair("Le chat de Lou s'appelle Pixel", "Le chat de Lou se nomme Pixel", "duplicate", "fr", W,
                 "nommage"),
    LeaveOutPair("Hélène ne boit pas d'alcool", "hélène boit pas d'alcool", "duplicate", "fr", C, "ne omis"),
    LeaveOutPair("Raphaël a deux enfants", "Raphaël a 2 enfants", "duplicate", "fr", W, "nombre"),
    LeaveOutPair("Sarah court 10 km le dimanche", "Sarah court dix kilomètres le dimanche", "duplicate", "fr", W,
                 "unités"),
    LeaveOutPair("Camille fait de la danse", "Camille fait de la danse contemporaine depuis 2020", "refinement",
                 "fr", W, "détail ajouté"),
    LeaveOutPair("Théo va à la salle de sport", "théo va à la salle le lundi et le jeudi", "refinement", "fr", C,
                 "détail ajouté"),
    # ------------------------------------------------------------------ English, different
    LeaveOutPair("Noor is allergic to shellfish", "noor is also allergic to penicillin", "different", "en", C,
                 "two allergies"),
    LeaveOutPair("Priya has a parrot named Kiwi", "priya just got a hamster", "different", "en", C, "two pets"),
    LeaveOutPair("Ben visited Lisbon in May", "ben visited Porto in June", "different", "en", C, "two cities visited"),
    LeaveOutPair("Dmitri worked at Bean Hub in 2022", "Dmitri works at a bike shop", "different", "en", W,
                 "past and present job"),
    LeaveOutPair("Hugo plays football on Saturdays", "Hugo plays chess on Saturdays", "different", "en", W,
                 "two activities same day"),
    LeaveOutPair("Lucia likes Thai food", "Lucia likes Mexican food", "different", "en", W, "two likes"),
    LeaveOutPair("The team uses Jira for tickets", "The team uses Slack for chat", "different", "en", W,
                 "two tools"),
    LeaveOutPair("Mia has three cats", "Mia has two dogs", "different", "en", W, "two kinds of pets"),
    LeaveOutPair("Oscar's son lives in Madrid", "Oscar lives in Valencia", "different", "en", W,
                 "relative vs self"),
    LeaveOutPair("Sam's dentist appointment is on Monday", "sam's haircut is on friday", "different", "en", C,
                 "two appointments"),
    LeaveOutPair("Rosa speaks Italian", "rosa is learning german now", "different", "en", C,
                 "two languages, time word"),
    LeaveOutPair("Felix owns a Yamaha keyboard", "felix now also owns a Fender guitar", "different", "en", C,
                 "two possessions"),
    LeaveOutPair("Kenji goes to the gym at 7am", "kenji walks the dog at 7pm", "different", "en", C,
                 "two routines"),
    LeaveOutPair("Decision: use Redis for caching", "Decision: use Postgres for the job queue", "different", "en", W,
                 "two decisions"),
    LeaveOutPair("Ben moved to Glasgow in 2019", "ben's sister moved to Dundee", "different", "en", C,
                 "relative moved"),
    LeaveOutPair("Priya's first car was a Fiat", "priya's second car is a Mini", "different", "en", C,
                 "ordinal distinguishes"),
    # ------------------------------------------------------------------ French, different
    LeaveOutPair("Inès est allergique au pollen", "ines est allergique aux arachides aussi", "different", "fr", C,
                 "deux allergies"),
    LeaveOutPair("Yanis a un chien", "yanis a aussi un lapin", "different", "fr", C, "deux animaux"),
    LeaveOutPair("Bastien est allé à Rome en avril", "bastien est allé à Berlin en octobre", "different", "fr", C,
                 "deux villes visitées"),
    LeaveOutPair("Margot a travaillé chez Decathlon", "Margot travaille à la mairie", "different", "fr", W,
                 "ancien et nouveau travail"),
    LeaveOutPair("Chloé fait du piano le mercredi", "Chloé fait de l'escalade le mercredi", "different", "fr", W,
                 "deux activités même jour"),
    LeaveOutPair("Jules aime le jazz", "jules aime le rap", "different", "fr", C, "deux goûts"),
    LeaveOutPair("Le frère de Nathan habite à Lille", "Nathan habite à Reims", "different", "fr", W,
                 "parent vs soi"),
    LeaveOutPair("Décision : utiliser Redis pour le cache", "Décision : utiliser RabbitMQ pour les messages",
                 "different", "fr", W, "deux décisions"),
    LeaveOutPair("Hélène a rendez-vous chez le médecin lundi", "hélène a rendez-vous chez le coiffeur vendredi",
                 "different", "fr", C, "deux rendez-vous"),
    LeaveOutPair("Raphaël parle espagnol", "raphaël apprend le portugais maintenant", "different", "fr", C,
                 "deux langues"),
    LeaveOutPair("Camille a une Peugeot", "camille a aussi un scooter", "different", "fr", C, "deux possessions"),
    LeaveOutPair("Théo se lève à 6h", "théo se couche à 23h", "different", "fr", C, "deux heures"),
    LeaveOutPair("Élodie a deux chats", "élodie a trois poules", "different", "fr", C, "deux animaux, nombres"),
    LeaveOutPair("Lou habite au 2e étage", "la mère de lou habite au 5e étage", "different", "fr", C,
                 "parent, ordinal"),
    LeaveOutPair("Sarah a arrêté le tennis", "sarah a commencé la natation", "different", "fr", C,
                 "arrêt et début indépendants"),
    LeaveOutPair("Inès a un vélo rouge", "ines a une voiture rouge", "different", "fr", C, "deux possessions"),
]
LABELS = ("duplicate", "refinement", "correction", "different")

"""Leave-out set H (i25-spoken), written BEFORE that round touched the policy, and measured by figures only.

Its merges are corrections and changed decisions said the way people speak, in English and French: a change said
with a verb of moving, switching, replacing, quitting, dropping, trading, upgrading, migrating, converting, taking
up, giving up or going back to; with a time word only ("since September", "depuis", "ces temps-ci", "from now on",
"dorénavant"); or with no marker at all; a value changed inside one slot (a day, a time, a vehicle, a provider, a
doctor, a hobby, an employer, a school, a status); decisions written ("Decision: ...") and said ("we're moving X to
Y", "on passe Z sur Y"). Its hard negatives are the same kinds where both facts hold: a change verb about another
object, a second hobby beside the first, a decision about another component, a visit rather than a move, a
relative's change, "also", a past fact beside a present one. Same format as ``tests/dedup_leaveout_pairs.py``.
Never tuned on: ``benchmarks/dedup_pairs.py`` prints its figures, never its pairs.
"""

from __future__ import annotations

try:
    from dedup_leaveout_pairs import LeaveOutPair
except ImportError:  # pragma: no cover - imported as tests.dedup_leaveout_h_pairs
    from tests.dedup_leaveout_pairs import LeaveOutPair

C, W = True, False

PAIRS_H: list[LeaveOutPair] = [
    # ------------------------------------------------------------------ English, merges
    LeaveOutPair("We live in Glasgow", "we've moved up to aberdeen", "correction", "en", C, "move, we"),
    LeaveOutPair("Our broadband is with Virgin Media", "we switched the broadband over to BT last month",
                 "correction", "en", C, "switch over to, provider"),
    LeaveOutPair("Joel's laptop is a Dell XPS", "joel replaced his dell with a macbook air", "correction", "en", C,
                 "replace with"),
    LeaveOutPair("Hana works at Deloitte", "hana quit deloitte, she's freelancing now", "correction", "en", C,
                 "quit employer"),
    LeaveOutPair("Marco plays the cello", "marco dropped the cello and took up the drums", "correction", "en", C,
                 "drop / take up"),
    LeaveOutPair("Priya drives a Nissan Leaf", "priya traded the leaf in for a kia niro", "correction", "en", C,
                 "trade in for"),
    LeaveOutPair("Tom's phone is an iPhone 12", "tom upgraded to an iphone 15 last week", "correction", "en", C,
                 "upgrade"),
    LeaveOutPair("Decision: host the docs on Netlify", "Decision: move the docs hosting from Netlify to Vercel",
                 "correction", "en", W, "written decision, move from to"),
    LeaveOutPair("Decision: the ingestion service is written in Python",
                 "so we're converting the ingestion service to rust", "correction", "en", C,
                 "spoken decision, convert"),
    LeaveOutPair("Lucy goes running every morning", "lucy gave up running, she swims in the mornings now",
                 "correction", "en", C, "give up"),
    LeaveOutPair("Ben uses Linux on his laptop", "ben went back to windows on his laptop", "correction", "en", C,
                 "go back to"),
    LeaveOutPair("The standup is at 9:30", "from now on the standup's at 10", "correction", "en", C,
                 "time word only"),
    # ------------------------------------------------------------------ English, hard negatives
    LeaveOutPair("Our broadband is with Virgin Media", "we also got a mobile plan with BT", "different", "en", C,
                 "also, another service"),
    LeaveOutPair("Joel's laptop is a Dell XPS", "joel replaced the battery in his dell", "different", "en", C,
                 "replace another object"),
    LeaveOutPair("Hana works at Deloitte", "hana quit smoking in january", "different", "en", C,
                 "quit another thing"),
    LeaveOutPair("Marco plays the cello", "marco took up the drums last month", "different", "en", C,
                 "second hobby"),
    LeaveOutPair("Priya drives a Nissan Leaf", "priya's husband traded his car in for a kia niro", "different",
                 "en", C, "relative's change"),
    LeaveOutPair("Tom's phone is an iPhone 15", "tom's phone used to be an iphone 12", "different", "en", C,
                 "past beside present"),
    LeaveOutPair("Decision: host the docs on Netlify", "we're moving the blog from netlify to vercel", "different",
                 "en", C, "decision about another component"),
    LeaveOutPair("We live in Glasgow", "we're in aberdeen for the weekend", "different", "en", C, "visit"),
    LeaveOutPair("Lucy goes running every morning", "lucy gave up coffee in the mornings", "different", "en", C,
                 "give up another thing"),
    LeaveOutPair("Ben uses Linux on his laptop", "ben went back to windows on his gaming pc", "different", "en", C,
                 "another device"),
    LeaveOutPair("The standup is at 9:30", "from now on the retro's at 10", "different", "en", C,
                 "another meeting"),
    LeaveOutPair("I work at Shopify", "i switched teams at shopify, i'm on payments now", "different", "en", C,
                 "switch inside the same employer"),
    # ------------------------------------------------------------------ French, merges
    LeaveOutPair("Karim habite à Nantes", "karim a déménagé sur bordeaux le mois dernier", "correction", "fr", C,
                 "déménager sur"),
    LeaveOutPair("Notre fournisseur d'électricité est EDF", "on est passés chez engie pour l'électricité",
                 "correction", "fr", C, "passer chez, fournisseur"),
    LeaveOutPair("Julie fait du tennis", "julie a lâché le tennis, elle s'est mise à l'escalade", "correction", "fr",
                 C, "lâcher / se mettre à"),
    LeaveOutPair("Décision : la base de données sera PostgreSQL", "on passe la base de données sur mongodb",
                 "correction", "fr", C, "décision dite, passer sur"),
    LeaveOutPair("Décision : déployer sur AWS", "Décision : quitter AWS pour Scaleway", "correction", "fr", W,
                 "décision écrite, quitter pour"),
    LeaveOutPair("Le cours de piano d'Emma est le mercredi",
                 "depuis la rentrée le cours de piano d'emma c'est le jeudi", "correction", "fr", C,
                 "mot de temps seul, jour"),
    LeaveOutPair("Thomas conduit une Peugeot 208", "thomas a revendu sa 208, il roule en zoé", "correction", "fr", C,
                 "revendre, véhicule"),
    LeaveOutPair("Mon médecin traitant est le docteur Martin",
                 "j'ai changé de médecin traitant, c'est le docteur benoît maintenant", "correction", "fr", C,
                 "changer de médecin"),
    LeaveOutPair("Léa travaille chez Airbus", "léa a démissionné, elle bosse chez safran depuis juin",
                 "correction", "fr", C, "démissionner, employeur"),
    LeaveOutPair("Inès est au lycée Victor Hugo", "inès a changé de lycée, elle est à jean moulin", "correction",
                 "fr", C, "changer d'école"),
    LeaveOutPair("J'ai un forfait mobile chez Free", "j'ai résilié free, je suis chez bouygues maintenant",
                 "correction", "fr", C, "résilier, opérateur"),
    LeaveOutPair("Sophie se lève à 7h", "sophie se lève à 6h30 ces temps-ci", "correction", "fr", C,
                 "ces temps-ci, heure"),
    # ------------------------------------------------------------------ French, hard negatives
    LeaveOutPair("Karim habite à Nantes", "karim est à bordeaux pour le week-end", "different", "fr", C, "visite"),
    LeaveOutPair("Notre fournisseur d'électricité est EDF", "on est passés chez free pour internet", "different",
                 "fr", C, "autre service"),
    LeaveOutPair("Julie fait du tennis", "julie s'est mise à la poterie le dimanche", "different", "fr", C,
                 "deuxième loisir"),
    LeaveOutPair("Décision : la base de données sera PostgreSQL", "on passe le cache sur redis", "different", "fr",
                 C, "autre composant"),
    LeaveOutPair("Décision : déployer sur AWS", "Décision : quitter Heroku pour Scaleway", "different", "fr", W,
                 "autre chose quittée"),
    LeaveOutPair("Le cours de piano d'Emma est le mercredi",
                 "depuis la rentrée le cours de danse d'emma c'est le jeudi", "different", "fr", C, "autre cours"),
    LeaveOutPair("Thomas conduit une Peugeot 208", "le frère de thomas a revendu sa 208", "different", "fr", C,
                 "un proche"),
    LeaveOutPair("Mon médecin traitant est le docteur Martin", "j'ai changé de dentiste, c'est le docteur benoît",
                 "different", "fr", C, "autre praticien"),
    LeaveOutPair("Léa travaille chez Airbus", "léa a travaillé chez safran avant", "different", "fr", C,
                 "passé et présent"),
    LeaveOutPair("Inès est au lycée Victor Hugo", "le petit frère d'inès a changé d'école", "different", "fr", C,
                 "un proche"),
    LeaveOutPair("J'ai un forfait mobile chez Free", "ma mère a résilié son forfait free", "different", "fr", C,
                 "un proche"),
    LeaveOutPair("Sophie se lève à 7h", "sophie se lève aussi à 7h le dimanche", "different", "fr", W,
                 "aussi, autre jour"),
]

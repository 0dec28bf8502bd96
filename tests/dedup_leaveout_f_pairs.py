"""Leave-out set F (i25-verbs), written BEFORE that round touched the policy, and measured by figures only.

Its merges are one single-value slot said through another verb or noun on each side ("drives a Skoda" / "his car
is a Mazda now", "lives in Bristol" / "her flat is in Bath", "works at Deloitte" / "her employer is PwC",
"enseigne l'histoire" / "sa matière c'est la géo"), a date or time said with and without its introducer ("is on
May 4" / "is May 14th", "at 6" / "7 o'clock", "à 20h" / "21 heures"), and a street name capitalised on one side
and in lower case on the other. Its hard negatives use the same aliases where both values are legitimately held:
another owner ("his wife's car"), a second home or job ("holiday flat", "second job", "aussi"), plural
possessions or owners, another slot of the same kind (GP / dentist, recital / dance recital, personal / work
phone). Same format as ``tests/dedup_leaveout_pairs.py``. Never tuned on: ``benchmarks/dedup_pairs.py`` prints
its figures, never its pairs.
"""

from __future__ import annotations

try:
    from dedup_leaveout_pairs import LeaveOutPair
except ImportError:  # pragma: no cover - imported as tests.dedup_leaveout_f_pairs
    from tests.dedup_leaveout_pairs import LeaveOutPair

C, W = True, False

PAIRS_F: list[LeaveOutPair] = [
    # ------------------------------------------------------------------ English, merges
    LeaveOutPair("Tomasz drives a Skoda Octavia", "tomasz's car is a Mazda 3 now", "correction", "en", C,
                 "drives / car"),
    LeaveOutPair("Ingrid's car is a Volvo", "ingrid drives a Tesla these days", "correction", "en", C,
                 "car / drives"),
    LeaveOutPair("Devon lives in Bristol", "devon's flat is in Bath now", "correction", "en", C, "lives in / flat"),
    LeaveOutPair("Priscilla's home is in Leeds", "priscilla lives in York", "correction", "en", C,
                 "home / lives in"),
    LeaveOutPair("Marisol works at Deloitte", "marisol's employer is PwC", "correction", "en", C,
                 "works at / employer"),
    LeaveOutPair("Kenji's job is at Rakuten", "kenji works for Sony now", "correction", "en", C, "job / works for"),
    LeaveOutPair("Olu teaches chemistry", "olu's subject is biology this year", "correction", "en", C,
                 "teaches / subject"),
    LeaveOutPair("Hamid's GP is Dr Patel", "hamid's doctor is dr rahman", "correction", "en", C, "GP / doctor"),
    LeaveOutPair("Pete's phone number is 07700 900123", "pete's mobile is 07700 900456", "correction", "en", C,
                 "phone number / mobile"),
    LeaveOutPair("The school trip is on May 4", "the school trip is May 14th", "correction", "en", C,
                 "date without on"),
    LeaveOutPair("Saanvi's piano recital is at 6", "saanvi's piano recital is 7 o'clock", "correction", "en", C,
                 "at 6 / 7 o'clock"),
    LeaveOutPair("Cosmo's office is on Baker Street", "cosmo's office is on oxford road now", "correction", "en", C,
                 "street name / lower case"),
    # ------------------------------------------------------------------ French, merges
    LeaveOutPair("Lucien conduit une Clio", "la voiture de lucien, c'est une Twingo maintenant", "correction", "fr",
                 C, "conduit / voiture"),
    LeaveOutPair("La voiture d'Odile est une Peugeot 208", "odile roule en Toyota Yaris désormais", "correction",
                 "fr", C, "voiture / roule en"),
    LeaveOutPair("Aurélie habite à Nantes", "l'appart d'aurélie est à Rennes", "correction", "fr", C,
                 "habite / appart"),
    LeaveOutPair("Le domicile de Mathis est à Grenoble", "mathis vit à Chambéry", "correction", "fr", W,
                 "domicile / vit"),
    LeaveOutPair("Inès travaille chez Decathlon", "l'employeur d'inès, c'est Leroy Merlin", "correction", "fr", C,
                 "travaille chez / employeur"),
    LeaveOutPair("Le boulot de Karim, c'est chez Airbus", "karim bosse chez Thales maintenant", "correction", "fr",
                 C, "boulot / bosse chez"),
    LeaveOutPair("Romain enseigne l'histoire", "la matière de romain, c'est la géo cette année", "correction", "fr",
                 C, "enseigne / matière"),
    LeaveOutPair("Le médecin traitant de Josiane est le Dr Lemoine", "le médecin de josiane c'est le docteur Vidal",
                 "correction", "fr", C, "médecin traitant / médecin"),
    LeaveOutPair("Le numéro de Sylvie est le 06 12 34 56 78", "le portable de sylvie c'est le 06 98 76 54 32",
                 "correction", "fr", C, "numéro / portable"),
    LeaveOutPair("Le vide-grenier du quartier est le samedi 5 octobre", "le vide-grenier du quartier, c'est le 12 "
                 "octobre", "correction", "fr", C, "date avec et sans jour"),
    LeaveOutPair("Le dîner chez les Morel est à 20h", "le dîner chez les morel c'est 21 heures", "correction", "fr",
                 C, "à 20h / 21 heures"),
    LeaveOutPair("Le cabinet de Faustine est rue de Rivoli", "le cabinet de faustine est avenue de l'opéra "
                 "maintenant", "correction", "fr", C, "rue en capitales / en minuscules"),
    # ------------------------------------------------------------------ English, hard negatives
    LeaveOutPair("Tomasz drives a Skoda", "tomasz's wife's car is a Kia", "different", "en", C, "another owner"),
    LeaveOutPair("Marisol works at Deloitte", "marisol's second job is at a bakery on weekends", "different", "en",
                 C, "second job"),
    LeaveOutPair("Devon lives in Bristol", "devon's holiday flat is in Cornwall", "different", "en", C,
                 "holiday flat"),
    LeaveOutPair("Ingrid drives a Volvo", "ingrid drives a delivery van for work", "different", "en", C,
                 "a work vehicle besides"),
    LeaveOutPair("Kenji works for Sony", "kenji's brother's employer is Nintendo", "different", "en", C,
                 "another owner"),
    LeaveOutPair("Olu teaches chemistry", "olu teaches physics too", "different", "en", C, "too"),
    LeaveOutPair("Hamid's GP is Dr Patel", "hamid's dentist is dr rahman", "different", "en", C, "another role"),
    LeaveOutPair("Ravi drives a Honda", "ravi's daughters drive Fiats", "different", "en", C, "plural owners"),
    LeaveOutPair("Saanvi's piano recital is at 6", "saanvi's dance recital is 7 o'clock", "different", "en", C,
                 "another event"),
    LeaveOutPair("The school trip is on May 4", "the school fair is May 14th", "different", "en", C,
                 "another event"),
    LeaveOutPair("Pete's mobile is 07700 900123", "pete's work phone is 0161 496 0000", "different", "en", C,
                 "another phone"),
    LeaveOutPair("Lena lives in Madrid", "lena's parents' house is in Seville", "different", "en", C,
                 "another owner, plural"),
    # ------------------------------------------------------------------ French, hard negatives
    LeaveOutPair("Lucien conduit une Clio", "la voiture de la femme de lucien est une Twingo", "different", "fr", C,
                 "autre propriétaire"),
    LeaveOutPair("Inès travaille chez Decathlon", "inès a aussi un petit boulot chez Leroy Merlin le samedi",
                 "different", "fr", C, "aussi"),
    LeaveOutPair("Aurélie habite à Nantes", "la maison de campagne d'aurélie est à Pornic", "different", "fr", C,
                 "résidence secondaire"),
    LeaveOutPair("Odile roule en Peugeot", "les enfants d'odile roulent en Renault", "different", "fr", C,
                 "propriétaires au pluriel"),
    LeaveOutPair("Romain enseigne l'histoire", "romain enseigne aussi le latin", "different", "fr", C, "aussi"),
    LeaveOutPair("Karim bosse chez Airbus", "la copine de karim bosse chez Thales", "different", "fr", C,
                 "autre propriétaire"),
    LeaveOutPair("Le dentiste de Josiane est le Dr Lemoine", "le kiné de josiane, c'est le docteur Vidal",
                 "different", "fr", C, "autre rôle"),
    LeaveOutPair("La copine de Hugo s'appelle Jade", "la sœur de hugo s'appelle Manon", "different", "fr", C,
                 "autre personne"),
    LeaveOutPair("Le portable de Sylvie est le 06 12 34 56 78", "le numéro du bureau de sylvie c'est le 01 44 55 66 "
                 "77", "different", "fr", C, "autre numéro"),
    LeaveOutPair("Le vide-grenier est le 5 octobre", "la brocante de la ville, c'est le 12 octobre", "different",
                 "fr", C, "autre événement"),
    LeaveOutPair("Le dîner chez les Morel est à 20h", "l'apéro chez les morel c'est 19 heures", "different", "fr", C,
                 "autre moment"),
    LeaveOutPair("Mathis vit à Grenoble", "mathis a une autre maison à Annecy", "different", "fr", W, "autre"),
]

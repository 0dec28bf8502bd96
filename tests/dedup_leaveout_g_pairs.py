"""Leave-out set G (i25-forms), written BEFORE that round touched the policy, and measured by figures only.

Its merges are duplicates whose two sides differ only in form: digits and number words (French compounds too),
ordinals and cardinals, units and their abbreviations, date shapes (numeric, written, with or without a weekday or
an ordinal suffix, French and English orders), clock times (12h / 24h, "half past", "et demie", "midi"), naming
verbs ("is called", "named", "goes by", "s'appelle", "se nomme", "a un X qui s'appelle"), the first person against
the stored third person of the same user, contractions and the French dropped "ne", an article or preposition
inserted, an abbreviation and its expansion, another word order, a synonym of the slot noun. Its hard negatives
use the same kinds where the form hides another value: a count against an ordinal, a house number against a
floor, km against miles, a duration against a clock time, another animal or relative with the same name or value,
a first name against a surname. Same format as ``tests/dedup_leaveout_pairs.py``. Never tuned on:
``benchmarks/dedup_pairs.py`` prints its figures, never its pairs.
"""

from __future__ import annotations

try:
    from dedup_leaveout_pairs import LeaveOutPair
except ImportError:  # pragma: no cover - imported as tests.dedup_leaveout_g_pairs
    from tests.dedup_leaveout_pairs import LeaveOutPair

C, W = True, False

PAIRS_G: list[LeaveOutPair] = [
    # ------------------------------------------------------------------ English, duplicates in another form
    LeaveOutPair("Hugo's daughter is 7 years old", "hugo's daughter is seven", "duplicate", "en", C,
                 "digits / number word"),
    LeaveOutPair("Nadia lives on the fourth floor", "nadia lives on floor 4", "duplicate", "en", C,
                 "ordinal / cardinal"),
    LeaveOutPair("The commute to Renfrew takes 45 minutes", "the commute to renfrew takes 45 mins", "duplicate",
                 "en", C, "unit abbreviation"),
    LeaveOutPair("Ravi cycles twenty-two miles every Sunday", "ravi cycles 22 mi every sunday", "duplicate", "en", C,
                 "compound number word, unit abbreviation"),
    LeaveOutPair("Amara's birthday is on 14/03", "amara's birthday is on March 14th", "duplicate", "en", C,
                 "numeric / written date"),
    LeaveOutPair("Jonah's exam is on Thursday the 5th of June", "jonah's exam is on June 5", "duplicate", "en", C,
                 "weekday and ordinal suffix"),
    LeaveOutPair("The pharmacy on Dane Road closes at 7pm", "the pharmacy on dane road closes at seven in the "
                 "evening", "duplicate", "en", C, "clock in words"),
    LeaveOutPair("Lucia's train leaves at half past five in the afternoon", "lucia's train leaves at 17:30",
                 "duplicate", "en", C, "half past / 24h"),
    LeaveOutPair("Farid has a cat called Biscuit", "farid's cat is named Biscuit", "duplicate", "en", C,
                 "called / named"),
    LeaveOutPair("Rosalind goes by Roz", "rosalind is called Roz", "duplicate", "en", C, "goes by / is called"),
    LeaveOutPair("User is allergic to penicillin", "I'm allergic to penicillin", "duplicate", "en", C,
                 "first person / stored third person"),
    LeaveOutPair("The user's favourite band is Radiohead", "my favourite band is Radiohead", "duplicate", "en", C,
                 "my / the user's"),
    LeaveOutPair("Ezra doesn't eat pork", "ezra does not eat pork", "duplicate", "en", C, "contraction"),
    LeaveOutPair("Yusuf lives on Elm St", "yusuf lives on Elm Street", "duplicate", "en", C,
                 "abbreviation / expansion"),
    LeaveOutPair("The user's surname is Okafor", "my last name is Okafor", "duplicate", "en", C,
                 "slot noun synonym, first person"),
    # ------------------------------------------------------------------ French, duplicates in another form
    LeaveOutPair("Le père de Salomé a soixante-douze ans", "le père de salomé a 72 ans", "duplicate", "fr", C,
                 "nombre composé"),
    LeaveOutPair("Le bureau de Margaux est au 21e étage", "le bureau de margaux est au vingt et unième étage",
                 "duplicate", "fr", C, "ordinal composé"),
    LeaveOutPair("L'anniversaire de Capucine est le 1er mai", "l'anniversaire de capucine, c'est le 01/05",
                 "duplicate", "fr", C, "date écrite / numérique"),
    LeaveOutPair("Le cours de Maëlle commence à midi", "le cours de maëlle commence à 12h", "duplicate", "fr", C,
                 "midi / 12h"),
    LeaveOutPair("Clémence a un chat qui s'appelle Moka", "le chat de clémence se nomme Moka", "duplicate", "fr", C,
                 "a un X qui s'appelle / se nomme"),
    LeaveOutPair("L'utilisateur travaille chez Michelin", "je travaille chez Michelin", "duplicate", "fr", C,
                 "première personne / l'utilisateur"),
    LeaveOutPair("Solène ne boit pas de café", "solène boit pas de café", "duplicate", "fr", C, "ne omis"),
    LeaveOutPair("Margot court vingt-cinq kilomètres par semaine", "margot court 25 km par semaine", "duplicate",
                 "fr", C, "nombre en lettres, unité abrégée"),
    LeaveOutPair("Le rendez-vous d'Anatole est à quatorze heures trente", "le rdv d'anatole est à 14h30",
                 "duplicate", "fr", C, "heure en lettres, abréviation"),
    # ------------------------------------------------------------------ English, hard negatives
    LeaveOutPair("Hugo's daughter is seven", "hugo's niece is 7", "different", "en", C, "another relative"),
    LeaveOutPair("Nadia's building has four floors", "nadia lives on the fourth floor", "different", "en", C,
                 "count / ordinal"),
    LeaveOutPair("Amir lives at number 12", "amir lives on the twelfth floor", "different", "en", C,
                 "house number / floor"),
    LeaveOutPair("Ravi did a 10 km race in April", "ravi did a ten mile race in April", "different", "en", C,
                 "km / miles"),
    LeaveOutPair("Mina's Sunday run takes 40 min", "mina's sunday run is 40 km", "different", "en", C,
                 "duration / distance"),
    LeaveOutPair("Lou's piano recital is on the 3rd", "it is lou's 3rd piano recital", "different", "en", C,
                 "date / ordinal count"),
    LeaveOutPair("There's a bus to the airport at 5", "there's a bus to the airport at 5:30", "different", "en", C,
                 "5 / 5:30"),
    LeaveOutPair("Amara was born on 12/03/1990", "amara's daughter was born on 12 March 2019", "different", "en", C,
                 "another relative, another year"),
    LeaveOutPair("Farid has a cat called Biscuit", "farid's dog is named Biscuit", "different", "en", C,
                 "another animal, same name"),
    LeaveOutPair("Rosalind goes by Roz", "rosalind's daughter goes by Roz", "different", "en", C,
                 "another relative"),
    LeaveOutPair("User is allergic to penicillin", "my son is allergic to penicillin", "different", "en", C,
                 "another relative, first person"),
    LeaveOutPair("Ezra doesn't eat pork", "ezra does not eat beef", "different", "en", C, "another food"),
    LeaveOutPair("Kwame works for Ayo", "kwame works with Ayo", "different", "en", C, "another preposition"),
    LeaveOutPair("Ines studied at the Massachusetts Institute of Technology", "ines works at MIT", "different", "en",
                 C, "expansion / abbreviation, another verb"),
    LeaveOutPair("The user's surname is Okafor", "my middle name is Okafor", "different", "en", C,
                 "another name slot"),
    # ------------------------------------------------------------------ French, hard negatives
    LeaveOutPair("Le père de Salomé a soixante-douze ans", "la mère de salomé a 72 ans", "different", "fr", C,
                 "autre parent"),
    LeaveOutPair("Le bureau de Margaux est au 21e étage", "margaux habite au vingt et unième étage", "different",
                 "fr", C, "bureau / domicile"),
    LeaveOutPair("Bastien a trois enfants", "bastien est le troisième enfant de sa famille", "different", "fr", C,
                 "nombre / rang"),
    LeaveOutPair("Le vol de Noé dure 3h", "le vol de noé part à 3h", "different", "fr", C, "durée / heure"),
    LeaveOutPair("Clémence a un chat qui s'appelle Moka", "clémence a un lapin qui se nomme Moka", "different", "fr",
                 C, "autre animal, même nom"),
    LeaveOutPair("L'utilisateur travaille chez Michelin", "mon père travaille chez Michelin", "different", "fr", C,
                 "autre personne, première personne"),
    LeaveOutPair("Solène boit pas de café", "solène boit pas de thé", "different", "fr", C, "autre boisson"),
    LeaveOutPair("Margot court vingt-cinq kilomètres par semaine", "margot court 25 minutes par jour", "different",
                 "fr", C, "distance / durée"),
    LeaveOutPair("L'anniversaire de Capucine est le 12/03", "l'anniversaire du frère de capucine, c'est le 12 mars",
                 "different", "fr", C, "autre parent, date numérique / écrite"),
]

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

# Round 5 (issue #18): pairs written as people talk -- correction markers ("actually", "no longer",
# "non en fait", "n'est plus", "finalement"), pronouns, changed jobs / partners / health / plans, and
# different facts about one person that carry the same markers. Written before the policy and the
# candidate search changed, and run blind once: merges 39/54 (72%), false merges 0/32, exact 78% (most misses:
# the seed correction under the 0.45 floor, changed jobs, fillers such as "oh sorry", ages said "is 45").
SEED_000_CORRECTION = DedupPair(
    "David habite à Ordizan", "Non en fait David a déménagé à Toulouse", "correction", "fr"
)
ROUND_5: list[DedupPair] = [
    # --- corrections, said conversationally ---
    SEED_000_CORRECTION,
    DedupPair("David lives in Ordizan", "Actually he moved to Toulouse last month", "correction", "en"),
    DedupPair("Karim travaille chez Renault", "Karim a changé de boulot, il est chez Stellantis maintenant", "correction", "fr"),
    DedupPair("Priya works at Deloitte", "Priya changed jobs, she's at KPMG now", "correction", "en"),
    DedupPair("Élodie est avec Julien", "Élodie n'est plus avec Julien, elle sort avec Bastien", "correction", "fr"),
    DedupPair("Ben is dating Chloe", "Ben isn't dating Chloe anymore", "correction", "en"),
    DedupPair("Martine a la grippe", "Martine n'a plus la grippe, elle va mieux", "correction", "fr"),
    DedupPair("Leo has a cold", "Leo doesn't have a cold anymore", "correction", "en"),
    DedupPair("Manon veut partir au Japon cet été", "Finalement Manon part au Portugal cet été", "correction", "fr"),
    DedupPair("Sam is planning a trip to Italy in July", "Sam's trip in July is actually to Greece", "correction", "en"),
    DedupPair("Thomas habite à Nantes", "Thomas n'habite plus à Nantes, il vit à Rennes", "correction", "fr"),
    DedupPair("Grace lives in Boston", "Grace doesn't live in Boston anymore, she moved to Denver", "correction", "en"),
    DedupPair("Le mari de Sandrine s'appelle Éric", "En fait c'est Frédéric, le mari de Sandrine", "correction", "fr"),
    DedupPair("Kevin's wife is called Laura", "Oh sorry, Kevin's wife is called Lauren", "correction", "en"),
    DedupPair("Yasmine est prof de maths", "Yasmine n'est plus prof, elle est devenue avocate", "correction", "fr"),
    DedupPair("Dan is a software engineer", "Dan quit engineering and became a chef", "correction", "en"),
    DedupPair("Chloé a 12 ans", "Non, Chloé a 13 ans maintenant", "correction", "fr"),
    DedupPair("Ryan is 45", "Ryan turned 46 last week", "correction", "en"),
    DedupPair("Hélène se marie en juin", "Finalement Hélène se marie en septembre", "correction", "fr"),
    DedupPair("Olivia plans to move to London", "Olivia is not moving to London anymore", "correction", "en"),
    DedupPair("Antoine habite à Bordeaux", "Il a déménagé à Lille", "correction", "fr"),
    DedupPair("Mia works at the bakery", "She doesn't work at the bakery anymore", "correction", "en"),
    DedupPair("Nicolas est en couple avec Sarah", "Nicolas est célibataire maintenant", "correction", "fr"),
    DedupPair("Jake is married to Emily", "Jake and Emily got divorced, he's single now", "correction", "en"),
    DedupPair("La voiture d'Arthur est une Clio", "En fait c'est une Peugeot, la voiture d'Arthur", "correction", "fr"),
    DedupPair("Noah's favourite band is Coldplay", "Actually Noah's favorite band is Radiohead these days", "correction", "en"),
    DedupPair("Zoé travaille à la mairie", "Zoé a changé de travail, elle bosse à la poste maintenant", "correction", "fr"),
    DedupPair("Lily is a nurse", "Lily is not a nurse anymore, she teaches yoga now", "correction", "en"),
    DedupPair("Baptiste est malade", "Baptiste va mieux, il n'est plus malade", "correction", "fr"),
    DedupPair("Hannah lives in Leeds", "She relocated to York in the spring", "correction", "en"),
    # --- refinements ---
    DedupPair("Karim travaille chez Renault", "Karim travaille chez Renault, au service marketing depuis 3 ans", "refinement", "fr"),
    DedupPair("Priya has a cat", "Oh and Priya has a cat called Pixel, a Maine Coon", "refinement", "en"),
    DedupPair("Manon part au Japon", "Manon part au Japon en avril avec sa sœur", "refinement", "fr"),
    DedupPair("Grace goes running", "Grace goes running every morning before work, usually 5k", "refinement", "en"),
    DedupPair("Thomas a mal au dos", "Thomas a mal au dos depuis son accident de ski en février", "refinement", "fr"),
    DedupPair("Dan is vegetarian", "Dan is vegetarian, he stopped eating meat in 2020", "refinement", "en"),
    DedupPair("Élodie cherche du travail", "Élodie cherche du travail dans le graphisme, à Lyon si possible", "refinement", "fr"),
    DedupPair("Ryan has two kids", "Ryan has two kids, a boy of 7 and a girl of 4", "refinement", "en"),
    DedupPair("Hélène se marie", "Hélène se marie le 14 septembre à Biarritz", "refinement", "fr"),
    DedupPair("Mia is training for a marathon", "Mia is training for the Paris marathon in April", "refinement", "en"),
    DedupPair("Yasmine fait de la natation", "Yasmine fait de la natation trois fois par semaine à la piscine", "refinement", "fr"),
    DedupPair("Olivia is moving to London", "Olivia is moving to London in September for her new job", "refinement", "en"),
    # --- duplicates ---
    DedupPair("David habite à Ordizan", "David vit à Ordizan, je crois que je te l'avais dit", "duplicate", "fr"),
    DedupPair("Priya works at Deloitte", "Priya's job is at Deloitte", "duplicate", "en"),
    DedupPair("Karim travaille chez Renault", "Karim bosse toujours chez Renault", "duplicate", "fr"),
    DedupPair("Grace lives in Boston", "Grace still lives in Boston", "duplicate", "en"),
    DedupPair("Chloé a 12 ans", "Chloé, elle a 12 ans", "duplicate", "fr"),
    DedupPair("Ryan is 45", "Ryan is 45 years old", "duplicate", "en"),
    DedupPair("Manon veut partir au Japon cet été", "Cet été Manon voudrait partir au Japon", "duplicate", "fr"),
    DedupPair("Leo has a cold", "Leo's got a cold", "duplicate", "en"),
    DedupPair("Zoé travaille à la mairie", "Zoé bosse à la mairie", "duplicate", "fr"),
    DedupPair("Dan is a software engineer", "Dan works as a software engineer", "duplicate", "en"),
    DedupPair("Thomas habite à Nantes", "Thomas est installé à Nantes", "duplicate", "fr"),
    DedupPair("Ben is dating Chloe", "Ben is still dating Chloe", "duplicate", "en"),
    # --- different facts about the same person, often with the same markers ---
    DedupPair("David habite à Ordizan", "David a un chien qui s'appelle Filou", "different", "fr"),
    DedupPair("David lives in Ordizan", "He works at the post office", "different", "en"),
    DedupPair("Karim travaille chez Renault", "Karim a déménagé à Versailles", "different", "fr"),
    DedupPair("Priya works at Deloitte", "Priya moved to Camden last spring", "different", "en"),
    DedupPair("Thomas habite à Nantes", "Thomas travaille à Rennes", "different", "fr"),
    DedupPair("Grace lives in Boston", "Actually Grace has a twin sister", "different", "en"),
    DedupPair("Élodie est avec Julien", "En fait Élodie a deux chats", "different", "fr"),
    DedupPair("Ben is dating Chloe", "Ben is allergic to cats", "different", "en"),
    DedupPair("Martine a la grippe", "Martine a rendez-vous chez le médecin jeudi", "different", "fr"),
    DedupPair("Leo has a cold", "Leo has a job interview on Monday", "different", "en"),
    DedupPair("Manon veut partir au Japon cet été", "Manon apprend le japonais", "different", "fr"),
    DedupPair("Sam is planning a trip to Italy in July", "Sam is learning Italian", "different", "en"),
    DedupPair("Yasmine est prof de maths", "Yasmine est mariée avec Karim", "different", "fr"),
    DedupPair("Dan is a software engineer", "Dan is a huge Arsenal fan", "different", "en"),
    DedupPair("Chloé a 12 ans", "Chloé est en cinquième", "different", "fr"),
    DedupPair("Ryan is 45", "Ryan has 3 dogs", "different", "en"),
    DedupPair("Hélène se marie en septembre", "Hélène a acheté une maison en septembre", "different", "fr"),
    DedupPair("Olivia plans to move to London", "Olivia plans to visit her grandmother", "different", "en"),
    DedupPair("Antoine habite à Bordeaux", "Il aime le rugby", "different", "fr"),
    DedupPair("Mia works at the bakery", "She now takes the bus to work", "different", "en"),
    DedupPair("Nicolas est en couple avec Sarah", "Nicolas et Sarah ont adopté un chat", "different", "fr"),
    DedupPair("Jake is married to Emily", "Jake and Emily moved to Denver", "different", "en"),
    DedupPair("Arthur conduit une Clio", "Arthur n'aime pas conduire la nuit", "different", "fr"),
    DedupPair("Noah's favourite band is Coldplay", "Noah doesn't like jazz", "different", "en"),
    DedupPair("Zoé travaille à la mairie", "Zoé n'est plus végétarienne", "different", "fr"),
    DedupPair("Lily is a nurse", "Lily no longer smokes", "different", "en"),
    DedupPair("Baptiste est malade", "Baptiste a un nouveau vélo", "different", "fr"),
    DedupPair("Hannah lives in Leeds", "Hannah's brother moved to York", "different", "en"),
    DedupPair("Le mari de Sandrine s'appelle Éric", "Le frère de Sandrine s'appelle Marc", "different", "fr"),
    DedupPair("Kevin works at the bank", "Kevin's wife works at the hospital", "different", "en"),
    DedupPair("Mickael habite à Paris", "Mickael a une fille de 5 ans", "different", "fr"),
    DedupPair("Mickael lives in Paris", "Mickael has a son", "different", "en"),
]

# Round 6 (issue #25) -- a TUNING round, not a held-out one: written by the helper changing the policy,
# before the change, for the kinds the issue lists (the held-out check is a separate blind set this
# round never saw). Kinds: corrections said with a change verb or a time word ("now", "moved",
# "finally", "switched", stopping one thing and starting another; "désormais", "est passé à",
# "a arrêté ... pour"), with or without a marker; a value changed inside one slot (a day, a time, a
# possession, a job, a favourite, a floor); changed decisions (seed 001 section 3.3); paraphrases in form
# only (ordinal vs cardinal, number words vs digits, "is called X" vs "named X", an inserted
# preposition); and hard negatives of each kind (same marker or slot, another fact).
SEED_001_DECISION = DedupPair(
    "Decision: use PostgreSQL for the database layer", "Decision: use MySQL for the database layer instead",
    "correction", "en",
)
ROUND_6: list[DedupPair] = [
    # --- corrections: change verbs and time words, or none ---
    SEED_001_DECISION,
    DedupPair("On utilise PostgreSQL pour la base de données", "On va utiliser MySQL à la place de PostgreSQL", "correction", "fr"),
    DedupPair("The API is hosted on Heroku", "We switched the API hosting from Heroku to Fly.io", "correction", "en"),
    DedupPair("Omar drives a Toyota", "Omar switched to a Honda", "correction", "en"),
    DedupPair("Lena plays tennis on weekends", "Lena stopped tennis and started padel", "correction", "en"),
    DedupPair("Raj works night shifts", "Raj moved to day shifts", "correction", "en"),
    DedupPair("Tom uses Windows", "Tom now uses Linux", "correction", "en"),
    DedupPair("Sofia lives in Madrid", "Sofia has since moved to Valencia", "correction", "en"),
    DedupPair("Eva's team meeting is on Monday", "Eva's team meeting moved to Wednesday", "correction", "en"),
    DedupPair("Carlos gets up at 7am", "Carlos gets up at 6am these days", "correction", "en"),
    DedupPair("Mei's favourite food is sushi", "Mei's favourite food is ramen now", "correction", "en"),
    DedupPair("Jonas owns a Vespa", "Jonas sold his Vespa and bought a Yamaha", "correction", "en"),
    DedupPair("Ana is a cashier at Lidl", "Ana finally became a manager at Lidl", "correction", "en"),
    DedupPair("Ivan commutes by car", "Ivan commutes by bike now", "correction", "en"),
    DedupPair("Nora's yoga class is at 6pm", "Nora's yoga class moved to 7pm", "correction", "en"),
    DedupPair("Hugo drinks coffee every morning", "Hugo quit coffee and drinks green tea now", "correction", "en"),
    DedupPair("Kai's dentist appointment is on Tuesday", "Kai's dentist appointment is on Friday", "correction", "en"),
    DedupPair("Ali lives on the third floor", "Ali lives on the fourth floor", "correction", "en"),
    DedupPair("Léa travaille le lundi", "Léa travaille le mercredi maintenant", "correction", "fr"),
    DedupPair("Marc conduit une Renault", "Marc est passé à une Tesla", "correction", "fr"),
    DedupPair("Sophie fait du piano", "Sophie a arrêté le piano et s'est mise à la guitare", "correction", "fr"),
    DedupPair("Julien habite à Lyon", "Julien vit désormais à Grenoble", "correction", "fr"),
    DedupPair("Le cours de danse de Camille est le jeudi", "Le cours de danse de Camille a été déplacé au vendredi", "correction", "fr"),
    DedupPair("Paul se lève à 7h", "Paul se lève à 6h maintenant", "correction", "fr"),
    DedupPair("Le plat préféré d'Aïcha est la raclette", "Le plat préféré d'Aïcha, c'est la fondue maintenant", "correction", "fr"),
    DedupPair("Louis est serveur", "Louis est finalement devenu cuisinier", "correction", "fr"),
    DedupPair("Emma va au travail en voiture", "Emma va au travail à vélo désormais", "correction", "fr"),
    DedupPair("Gaspard a une Clio", "Gaspard a vendu sa Clio et a acheté une 308", "correction", "fr"),
    DedupPair("Nathalie travaille chez Orange", "Nathalie est passée chez SFR", "correction", "fr"),
    DedupPair("La réunion d'équipe de Rémi est le mardi à 10h", "La réunion d'équipe de Rémi a lieu le mardi à 14h maintenant", "correction", "fr"),
    DedupPair("Mathis joue au basket", "Mathis a laissé tomber le basket pour le handball", "correction", "fr"),
    DedupPair("Le rendez-vous de Chloé chez le dentiste est le 3 mars", "Le rendez-vous de Chloé chez le dentiste est le 5 mars", "correction", "fr"),
    DedupPair("Pierre habite au deuxième étage", "Pierre habite au troisième étage", "correction", "fr"),
    # --- duplicates: the same fact in another form ---
    DedupPair("Ali lives on the third floor", "Ali lives on floor 3", "duplicate", "en"),
    DedupPair("Sarah's dog is called Rex", "Sarah has a dog named Rex", "duplicate", "en"),
    DedupPair("Ben works Mondays", "Ben works on Mondays", "duplicate", "en"),
    DedupPair("Zara is in her second year at university", "Zara is in year 2 at university", "duplicate", "en"),
    DedupPair("Oscar finished first in the race", "Oscar finished 1st in the race", "duplicate", "en"),
    DedupPair("Mila's son is named Adam", "Mila's son is called Adam", "duplicate", "en"),
    DedupPair("Greta runs every Sunday", "Greta runs on Sundays", "duplicate", "en"),
    DedupPair("Liam's boat is named Seagull", "Liam's boat is called the Seagull", "duplicate", "en"),
    DedupPair("Kenji turned forty", "Kenji turned 40", "duplicate", "en"),
    DedupPair("Le chat de Lucie s'appelle Minou", "Lucie a un chat nommé Minou", "duplicate", "fr"),
    DedupPair("Pierre habite au deuxième étage", "Pierre habite au 2e étage", "duplicate", "fr"),
    DedupPair("Anaïs est en troisième année de médecine", "Anaïs est en 3e année de médecine", "duplicate", "fr"),
    DedupPair("Le fils de Rachid s'appelle Sami", "Le fils de Rachid se prénomme Sami", "duplicate", "fr"),
    DedupPair("Théo joue au foot le samedi", "Théo joue au foot tous les samedis", "duplicate", "fr"),
    DedupPair("Fatima a deux enfants", "Fatima a 2 enfants", "duplicate", "fr"),
    # --- refinements ---
    DedupPair("Sarah has a dog", "Sarah has a dog named Rex", "refinement", "en"),
    DedupPair("Omar drives a Toyota", "Omar drives a red Toyota Corolla", "refinement", "en"),
    DedupPair("Léa travaille le lundi", "Léa travaille le lundi de 9h à 17h", "refinement", "fr"),
    # --- different facts, with the same markers, verbs or slots ---
    DedupPair("Omar drives a Toyota", "Omar now parks at the station", "different", "en"),
    DedupPair("Lena plays tennis on weekends", "Lena started a pottery class", "different", "en"),
    DedupPair("Tom uses Windows", "Tom now has a new laptop", "different", "en"),
    DedupPair("Sofia lives in Madrid", "Sofia moved her office to the second floor", "different", "en"),
    DedupPair("Eva's team meeting is on Monday", "Eva's dentist appointment is on Wednesday", "different", "en"),
    DedupPair("Carlos gets up at 7am", "Carlos goes to bed at 11pm", "different", "en"),
    DedupPair("Mei's favourite food is sushi", "Mei's favourite film is Spirited Away", "different", "en"),
    DedupPair("Jonas owns a Vespa", "Jonas bought a helmet", "different", "en"),
    DedupPair("Ana is a cashier at Lidl", "Ana finally passed her driving test", "different", "en"),
    DedupPair("Decision: use PostgreSQL for the database layer", "Decision: use Redis for caching", "different", "en"),
    DedupPair("The API is hosted on Heroku", "The frontend is hosted on Vercel", "different", "en"),
    DedupPair("Hugo drinks coffee every morning", "Hugo stopped eating sugar", "different", "en"),
    DedupPair("Ali lives on the third floor", "Ali's office is on the third floor", "different", "en"),
    DedupPair("Sarah's dog is called Rex", "Sarah's cat is named Felix", "different", "en"),
    DedupPair("Kenji turned forty", "Kenji's son turned 10", "different", "en"),
    DedupPair("Ben works Mondays", "Ben swims on Mondays", "different", "en"),
    DedupPair("Léa travaille le lundi", "Léa fait du sport le mercredi", "different", "fr"),
    DedupPair("Marc conduit une Renault", "Marc est passé au bureau ce matin", "different", "fr"),
    DedupPair("Sophie fait du piano", "Sophie s'est mise au yoga", "different", "fr"),
    DedupPair("Julien habite à Lyon", "Julien travaille désormais à Grenoble", "different", "fr"),
    DedupPair("Paul se lève à 7h", "Paul déjeune à 13h maintenant", "different", "fr"),
    DedupPair("Le plat préféré d'Aïcha est la raclette", "Le film préféré d'Aïcha est Amélie", "different", "fr"),
    DedupPair("Louis est serveur", "Louis est finalement parti en vacances", "different", "fr"),
    DedupPair("On utilise PostgreSQL pour la base de données", "On va utiliser Redis pour le cache", "different", "fr"),
    DedupPair("Gaspard a une Clio", "Gaspard a vendu son vélo", "different", "fr"),
    DedupPair("Nathalie travaille chez Orange", "Nathalie est passée chez le coiffeur", "different", "fr"),
    DedupPair("Mathis joue au basket", "Mathis regarde le handball à la télé", "different", "fr"),
    DedupPair("Emma va au travail en voiture", "Emma va à la piscine à vélo", "different", "fr"),
    DedupPair("Fatima a deux enfants", "Fatima a deux chats", "different", "fr"),
]

# Round 6b -- also TUNING: probes of the rules round 6 led to, written right after the change to look for
# false merges and misses in their neighbourhood (first run: 2 false merges, both fixed -- a possessed spouse
# is another person, "est passé à" + a city is a visit -- and 4 misses left as they are: keeping both is safe).
ROUND_6B: list[DedupPair] = [
    DedupPair('Omar drives a Toyota', 'Omar moved to Berlin', 'different', 'en'),
    DedupPair('Marc habite à Lyon', 'Marc est passé à Paris', 'different', 'fr'),
    DedupPair('Ben swims on Mondays', 'Ben swims on Fridays', 'different', 'en'),
    DedupPair('Ben plays guitar', 'Ben now also plays drums', 'different', 'en'),
    DedupPair('The API is hosted on Heroku', 'We switched the frontend from Heroku to Vercel', 'different', 'en'),
    DedupPair("Omar's meeting is on Monday", "Omar's dentist appointment is on Friday", 'different', 'en'),
    DedupPair("Alice's flight is at 7am", "Bob's flight is at 9am", 'different', 'en'),
    DedupPair('Tom is 30', "Tom's son is 5", 'different', 'en'),
    DedupPair('Sarah has two dogs', 'Sarah has two cats', 'different', 'en'),
    DedupPair("Paul's office is on the 3rd floor", "Paul's gym is on the 5th floor", 'different', 'en'),
    DedupPair('Léa travaille le lundi', 'Léa travaille aussi le mardi', 'different', 'fr'),
    DedupPair('Kai has a car', 'Kai sold his old bike', 'different', 'en'),
    DedupPair('Emma works at the bakery', 'Emma stopped by the bakery', 'different', 'en'),
    DedupPair('Marie habite à Lyon', 'Marie a arrêté de fumer', 'different', 'fr'),
    DedupPair('Emma works at the bakery', 'Emma stopped working at the bakery', 'correction', 'en'),
    DedupPair('Emma works at the bakery', 'Emma quit her job', 'correction', 'en'),
    DedupPair('Marie fume', 'Marie a arrêté de fumer', 'correction', 'fr'),
    DedupPair("Kai's car is a Golf", 'Kai sold his car', 'correction', 'en'),
    DedupPair('Tom uses Windows', 'Tom switched from Windows to Linux', 'correction', 'en'),
    DedupPair('Lucas drinks coffee', 'Lucas stopped drinking coffee', 'correction', 'en'),
    DedupPair("Nina's piano lesson is on Thursday", "Nina's guitar lesson is on Friday", 'different', 'en'),
    DedupPair("Zoe's birthday is on 3 May", "Zoe's wedding is on 5 May", 'different', 'en'),
    DedupPair("Hugo's son is 8", "Hugo's son is 9 now", 'correction', 'en'),
    DedupPair('Hugo has two sons', 'Hugo now has three sons', 'correction', 'en'),
    DedupPair('Hugo has two sons', 'Hugo has two daughters', 'different', 'en'),
    DedupPair('Jade joue du violon', 'Jade a vendu sa voiture', 'different', 'fr'),
    DedupPair('Jade joue du violon', 'Jade a arrêté le violon', 'correction', 'fr'),
    DedupPair('Sam uses Notion for notes', 'Sam uses Obsidian for notes instead of Notion', 'correction', 'en'),
    DedupPair('Sam uses Notion for notes', 'Sam uses Obsidian for tasks', 'different', 'en'),
    DedupPair('The team uses Slack', 'The team also uses Zoom', 'different', 'en'),
    DedupPair('Rita lives in Rome', 'Rita moved her café to Milan', 'different', 'en'),
    DedupPair("Rita's café opens at 8am", "Rita's café opens at 7am now", 'correction', 'en'),
    DedupPair("Rita's café opens at 8am", "Rita's bakery opens at 7am", 'different', 'en'),
    DedupPair("Le fils de Rita s'appelle Léo", "Le neveu de Rita s'appelle Tom", 'different', 'fr'),
    DedupPair('Léo a 3 chats', 'Léo a trois chats', 'duplicate', 'fr'),
    DedupPair('Léo a 3 chats', 'Léo a quatre chiens', 'different', 'fr'),
    DedupPair('Mon frère habite à Nice', 'Ma sœur habite à Nice', 'different', 'fr'),
    DedupPair('Alex gave up meat', 'Alex is vegetarian', 'different', 'en'),
    DedupPair('Alex eats meat', 'Alex gave up meat', 'correction', 'en'),
    DedupPair('Inès conduit une Peugeot', 'Inès est passée à une Toyota', 'correction', 'fr'),
    DedupPair('Inès conduit une Peugeot', 'Inès est passée à Lyon', 'different', 'fr'),
    DedupPair('Le cours de yoga de Lina est à 18h', 'Le cours de yoga de Lina est passé à 19h', 'correction', 'fr'),
    DedupPair('La réunion de Marc est le lundi', 'La réunion de Marc a été déplacée au jeudi', 'correction', 'fr'),
    DedupPair('La réunion de Marc est le lundi', 'Le déjeuner de Marc est le jeudi', 'different', 'fr'),
    DedupPair('Bruno fait de la boxe', 'Bruno a arrêté la boxe pour le judo', 'correction', 'fr'),
    DedupPair('Bruno fait de la boxe', 'Bruno a commencé le judo', 'different', 'fr'),
    DedupPair('Bruno fait de la boxe', 'Bruno fait aussi du judo', 'different', 'fr'),
    DedupPair('Yuki works at Sony', 'Yuki switched to Nintendo', 'correction', 'en'),
    DedupPair('Yuki works at Sony', 'Yuki now works at Nintendo', 'correction', 'en'),
    DedupPair('Yuki works at Sony', "Yuki's husband works at Nintendo", 'different', 'en'),
    DedupPair('Yuki works at Sony', 'Yuki switched to decaf coffee', 'different', 'en'),
    DedupPair('Yuki has a PlayStation', 'Yuki sold her PlayStation and got a Switch', 'correction', 'en'),
    DedupPair('Yuki has a PlayStation', 'Yuki bought a Switch', 'different', 'en'),
    DedupPair("Dan's favourite colour is blue", "Dan's favourite colour is now green", 'correction', 'en'),
    DedupPair("Dan's favourite colour is blue", "Dan's favourite season is autumn", 'different', 'en'),
    DedupPair('Le film préféré de Nour est Titanic', "Le film préféré de Nour, c'est Inception maintenant", 'correction', 'fr'),
    DedupPair('Nour part en vacances en juillet', 'Finalement Nour part en vacances en août', 'correction', 'fr'),
    DedupPair('Nour part en vacances en juillet', 'Nour a un examen en août', 'different', 'fr'),
    DedupPair("Eli's flight is on the 12th", "Eli's flight is on the 14th", 'correction', 'en'),
    DedupPair("Eli's flight is on the 12th", "Eli's flight is on the twelfth", 'duplicate', 'en'),
    DedupPair('Eli lives at number 7', 'Eli lives at number seven', 'duplicate', 'en'),
    DedupPair("Eli's son is called Max", 'Eli has a son named Max', 'duplicate', 'en'),
    DedupPair("Eli's son is called Max", 'Eli has a daughter named Mia', 'different', 'en'),
    DedupPair("Le chien de Noé s'appelle Rex", 'Noé a un chien nommé Rex', 'duplicate', 'fr'),
    DedupPair("Le chien de Noé s'appelle Rex", 'Noé a un chat nommé Rex', 'different', 'fr'),
    DedupPair('Ravi walks to work', 'Ravi walks to the office', 'duplicate', 'en'),
    DedupPair('Ravi takes the train to work', 'Ravi drives to work now', 'correction', 'en'),
    DedupPair('Ravi takes the train to work', 'Ravi drives to the gym', 'different', 'en'),
    DedupPair('Ravi is learning Spanish', 'Ravi gave up Spanish and is learning Italian', 'correction', 'en'),
    DedupPair('Ravi is learning Spanish', "Ravi's daughter is learning Italian", 'different', 'en'),
]

ROUNDS = {"round 1": ROUND_1, "round 2": ROUND_2, "round 3": ROUND_3, "round 4": ROUND_4, "round 5": ROUND_5,
          "round 6 (tuning)": ROUND_6, "round 6b (tuning)": ROUND_6B}
PAIRS: list[DedupPair] = [*ROUND_1, *ROUND_2, *ROUND_3, *ROUND_4, *ROUND_5, *ROUND_6, *ROUND_6B]
CATEGORIES = ("refinement", "correction", "duplicate", "different")

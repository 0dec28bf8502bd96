"""Closed lexicons of the verbs a change is said with, in English and French, with all their inflections.

Written from the two languages, not from example sentences: each verb of ending, switching, returning or
starting is listed once by its dictionary form and conjugated here (English: base, third person, past,
participle, gerund; French: the present, the participles, the imperfect, the future and the infinitive of a
first-group verb, and the irregular ones spelled out). Everything is accent-folded, as ``_wordforms._plain``
matches words. ``_changes`` reads a statement's change structure with these.

Pure Python (stdlib only).
"""

from __future__ import annotations

import re

from langgraph_memory.store._wordforms import _fold

_VOWELS = "aeiou"


def _en(base: str, past: str = "", participle: str = "", double: bool = False) -> set[str]:
    """An English verb's forms: "drop" -> drop, drops, dropped, dropping; irregular past and participle given,
    ``double`` when a final consonant doubles though the spelling does not show it ("quit" -> "quitting")."""
    if double:
        ing, ed = base + base[-1] + "ing", base + base[-1] + "ed"
    elif base.endswith("e"):
        ing, ed = base[:-1] + "ing", base + "d"
    elif base.endswith("y") and base[-2:-1] not in _VOWELS:
        ing, ed = base + "ing", base[:-1] + "ied"
    elif len(base) >= 3 and base[-1] not in _VOWELS + "wxy" and base[-2] in _VOWELS and base[-3] not in _VOWELS \
            and len(base) <= 4:  # one syllable ending consonant-vowel-consonant: drop, swap, quit, stop
        ing, ed = base + base[-1] + "ing", base + base[-1] + "ed"
    else:
        ing, ed = base + "ing", base + "ed"
    third = base[:-1] + "ies" if base.endswith("y") and base[-2:-1] not in _VOWELS else \
        base + "es" if base.endswith(("s", "x", "ch", "sh", "o")) else base + "s"
    return {base, third, ing, past or ed, participle or past or ed}


def _fr_er(infinitive: str) -> set[str]:
    """A French first-group verb's forms (accent-folded): "arrêter" -> arrete, arretes, arretons, arrete(e)(s),
    arretait, arretera, arreter..."""
    stem = _fold(infinitive)[:-2]
    soft = stem + "e" if stem.endswith("g") else stem  # "changeons", "déménageait"
    return {stem + "e", stem + "es", soft + "ons", stem + "ez", stem + "ent", stem + "er", stem + "ee", stem + "ees",
            soft + "ais", soft + "ait", soft + "aient", soft + "ant", stem + "era", stem + "erai", stem + "eront",
            stem + "erons"}


def _words(text: str) -> set[str]:
    return {_fold(w) for w in text.split()}


# Verbs that end what follows them: "dropped the cello", "a résilié son forfait", "ditched Slack".
STOP_EN: set[str] = set().union(
    *(_en(v) for v in "stop drop abandon replace trade swap exchange cancel ditch dump axe shelve "
                      "uninstall unsubscribe delete resign".split()),
    _en("scrap", double=True), _en("cancel", double=True), _en("sell", "sold"), _en("lose", "lost"), _en("fire"),
    _en("sack"), _en("leave", "left"), _en("quit", "quit", double=True),
)
STOP_FR: set[str] = set().union(
    *(_fr_er(v) for v in "arrêter stopper abandonner lâcher remplacer quitter échanger troquer démissionner résilier "
                         "plaquer larguer désinstaller supprimer virer licencier débarrasser".split()),
    _words("perdre perd perds perdons perdez perdent perdu perdue perdus perdues perdait "
           "rompre rompt romps rompons rompez rompent rompu rompue rompus rompait"),
    _words("vendre vend vends vendons vendez vendent vendu vendue vendus vendues vendait vendaient vendra "
           "revendre revend revends revendons revendez revendent revendu revendue revendus revendues revendait"),
)
# A stop verb with its particle: "gave up the violin", "dropped out of the choir", "laissé tomber le basket",
# "got rid of", "traded in", "resigned from", "sold off", "walked away from", "packed in".
STOP_PARTICLES: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(_en("give", "gave", "given"), ("up", "away")),
    **dict.fromkeys(_en("drop"), ("out",)),
    **dict.fromkeys(_en("get", "got", "gotten"), ("rid",)),
    **dict.fromkeys(_en("trade"), ("in",)),
    **dict.fromkeys(_en("resign"), ("from",)),
    **dict.fromkeys(_en("sell", "sold"), ("off",)),
    **dict.fromkeys(_en("pack"), ("in", "up")),
    **dict.fromkeys(_en("walk"), ("away",)),
    **dict.fromkeys(_fr_er("laisser"), ("tomber",)),
    **dict.fromkeys(_en("lay", "laid"), ("off",)),
    **dict.fromkeys(_en("split", "split", double=True), ("up",)),
    **dict.fromkeys(_en("break", "broke", "broken"), ("up",)),
}
# Verbs of a couple parting, which end the partner named beside the subject: "gus and lee split up", "jade et hugo se
# sont séparés".
BREAKUP = _en("split", "split", double=True) | _en("break", "broke", "broken") | _fr_er("séparer") | _words(
    "rompu rompent")
# Particles a phrasal change verb leaves after its object or before the next preposition: "swapped ansible out
# for terraform", "traded the leaf in for a niro", "moved the backups over to backblaze": part of the verb.
PARTICLES = _words("out in off over away back up")
# What came instead, after a stop verb's object: "for", "with", "pour", "par", "contre" ("a troqué sa mégane
# contre un scooter").
INSTEAD_OF_IT = _words("for with pour par contre")
# Verbs of switching: they give the new value after "to" / "à" / "sur" / "vers" ("switched to soy milk", "a basculé
# vers Loki"), or move an object there ("we're converting the service to rust", "on migre les sauvegardes vers
# pcloud").
SWITCH_EN: set[str] = set().union(*(_en(v) for v in "switch change migrate convert upgrade downgrade "
                                                    "port".split()),
                                  _en("transfer", double=True), _en("rewrite", "rewrote", "rewritten"))
SWITCH_FR: set[str] = set().union(*(_fr_er(v) for v in "déplacer migrer basculer changer".split()),
                                  _words("convertir convertit convertis convertissons convertissez convertissent "
                                         "converti convertie convertis converties convertissait "
                                         "reecrire reecrit reecrite reecrits reecrites reecris reecrivons "
                                         "reecrivez reecrivent reecrivait"))
# Verbs of going back to an earlier value: "went back to windows", "is back on Android", "reverted to", "on est
# revenus à Jira", "est retournée sur Mac", "repassé à Windows". Their new value follows "to" / "à" / "sur".
RETURN_EN: set[str] = _en("revert")
BACK_EN: set[str] = _en("go", "went", "gone") | _en("switch") | _en("change")
RETURN_FR: set[str] = _fr_er("retourner") | _fr_er("repasser") | _words(
    "revenir revient reviens revenons revenez reviennent revenu revenue revenus revenues revenait revenaient "
    "reviendra")
# A verb of moving gives a new value for a time ("moved to 7pm") and, with an object before "to", for that object
# ("moved the backups over to backblaze"); "moved to antwerp" is the residence slot's business.
MOVE_EN: set[str] = _en("move") | _en("relocate") | _en("push") | _en("postpone") | _en("reschedule") | \
    _en("delay") | _en("bump")
MOVE_FR: set[str] = _fr_er("déménager") | _fr_er("décaler") | _fr_er("reporter") | _fr_er("avancer")
# Verbs of starting the replacement: "took up the drums", "s'est mise au saxophone", "picked up the guitar".
START_EN: set[str] = set().union(*(_en(v) for v in "start adopt join open buy".split()), _en("begin", "began", "begun"),
                                 _en("take", "took", "taken"), _en("pick"), _en("get", "got", "gotten"),
                                 _en("buy", "bought"))
START_FR: set[str] = _fr_er("commencer") | _fr_er("acheter") | _fr_er("adopter") | _words(
    "rejoint rejoins rejoindre ouvert ouvre pris prise prend prends prenons prennent mis mise mises met mets "
    "mettons mettent mettre repris reprise reprend reprends reprenons reprennent reprendre")

# Whoever provides what one uses: one at a time for a given service.
PROVIDERS = _words("provider supplier carrier insurer operator bank host fournisseur operateur assureur banque "
                   "mutuelle hebergeur")
# Whom one visits, said bare after "chez": "passé chez mamie" is a visit, "passé chez boursorama" a new provider.
VISITED = _words("moi toi lui elle nous vous eux elles soi maman papa mamie mamy papi papy meme pepe tata tonton "
                 "tatie parrain marraine pote potes amis amies copains copines voisins medecin docteur dentiste")
# Time words of change said in several words: what "now" / "maintenant" says, and read as that cue ("from now on the
# standup's at 10", "ces temps-ci", "à partir de maintenant", "de nos jours").
_NOW_EN = re.compile(r"\b(?:from now on|from here on(?: in)?|going forward|as of (?:now|today)|of late|"
                     r"starting (?:now|today))\b", re.IGNORECASE)
_NOW_FR = re.compile(r"\b(?:ces temps[- ]ci|ces derniers temps|ces dernières semaines|à présent|de nos jours|"
                     r"à partir de maintenant|à partir d['’]aujourd['’]hui|dorénavant)(?!\w)", re.IGNORECASE)


# Being with someone, said in several words, is one status of the relationship slot ("est en couple depuis l'été"
# replaces "est célibataire"; without it new read as saying less than old).
_PARTNERED = re.compile(r"\b(?:en couple|in a relationship)\b", re.IGNORECASE)


def spoken_cues(text: str) -> str:
    """``text`` with each several-word time word of change said as the one-word cue it means, and a relationship
    said in several words as one status."""
    return _PARTNERED.sub("attached", _NOW_FR.sub("maintenant", _NOW_EN.sub("now", text)))

"""Cue families of preference capture beyond the plain verbs (prefer, avoid, plan), English
and French: idioms of taste, restrictions said as an identity, an availability or a
limit, polite or elliptical directives, and plans said without "I will".

Each family is a kind of phrasing, not a list of sentences: the subject is part of the
cue where a third party could take its place ("I'm into", "je suis dingue de", "I'm
diabetic"), so "my brother is into bouldering" or "elle est diabétique" never match;
idioms whose object pronoun is the user ("X gets on my nerves", "ça me saoule", "X
makes me sick") are owned through that pronoun. :data:`ELLIPTIC` lists the openings that
make a sentence the user's own with no subject at all ("Not a fan of…", "Rien ne vaut…",
"Hors de question de…", "Gonna…").
"""

from __future__ import annotations

import re

__all__ = ["TASTE", "RULE", "PLAN", "ELLIPTIC", "DISCOURSE", "HYPOTHETICAL", "PAST", "PAST_PLAN", "FUTURE", "SUBJECT_IDIOM",
           "ELLIPTIC_TIMED", "REPORTED", "SELF_RULE"]

_FLAGS = re.IGNORECASE | re.UNICODE
_I_AM = r"(?:i'm|i am|i've always been|i've been|i was always)"
_JE_SUIS = r"(?:je suis|j'suis|chuis)"
_ADVERBS = (r"(?:(?:really|so|totally|completely|absolutely|a bit|quite|not|not really|not very|very|such|more|much|"
            r"rather|pretty|kind of|kinda|just|always|also|honestly|strictly|definitely|vraiment|tellement|complètement|carrément|"
            r"grave|très|trop|assez|un peu|plutôt|toujours|aussi|plus)\s+)*")
# Verbs after "must" / "gotta" / "should" that say a feeling or a remark, not a plan:
# "must feel great", "gotta tell you", "gotta go!", "I must say".
_NOT_A_PLAN = (r"|be|say|admit|confess|agree|thank|apologi[sz]e|point out|feel|sound|look|seem|mean|tell|keep|"
               r"go(?=\s*(?:[.!,;]|$)))\b")
_PRONOUN_OBJECT = r"(?!\s*(?:him|her|them|you|us|it|lui|leur)\b)"

# Tastes: "I'm a sucker for", "crazy about", "into", "not big on", "more of a cat person",
# "soft spot for", "can't get enough of", "X gets on my nerves", "bore me", "my idea of
# hell", "right up my alley", "does nothing for me"; "je raffole", "je suis dingue de",
# "j'ai un faible pour", "je craque pour", "ça me saoule", "m'ennuie", "me lasse", "je ne
# me lasse pas de", "rien ne vaut", "je suis plus X que Y", "je trouve X plus Y que Z".
TASTE = (
    rf"{_I_AM}\s+{_ADVERBS}(?:a (?:real |total |huge |big )?sucker for|all about|done with|tired of|sick of|fed up with|"
    r"bored (?:of|with)|team\b|crazy about|mad about|nuts about|wild about|"
    rf"passionate about|keen on|big on|obsessed with|hooked on|into|partial to|fond of|a (?:huge |big )?fan of|"
    rf"(?:more|not much|not really much) of an? \w+(?:\s+\w+)? (?:person|guy|girl|type|fan)|more of an? \w+ than\b|"
    r"an? \w+ (?:person|guy|girl))\b|\bi go (?:crazy|nuts|wild|mad) (?:for|over)\b|creeps? me out|"
    r"(?:j'ai|je n'ai) (?:jamais|pas|toujours) (?:vraiment )?(?:accroché|aimé|adoré|supporté|apprécié|kiffé)|"
    r"je me régale\w*|rien de (?:tel|mieux|plus \w+) qu|(?:has|have) grown on me|grows? on me|je ne jure que par|"
    rf"{_JE_SUIS}\s+(?:pas\s+)?(?:du tout\s+|trop\s+|très\s+|vraiment\s+)?branchée?\b|je ne suis pas (?:\w+ )?branchée?\b|"
    r"i(?:'ve| have)\s+(?:got\s+)?(?:a\s+)?(?:real\s+|big\s+|huge\s+|soft\s+)?(?:soft spot|weakness|thing) for\b|"
    r"can'?t get enough of\b|can'?t beat\b|(?:i'm|i am|we're|we are) back on\b|(?:j'ai|on a) repris (?:le|la|les|du|de la|l')\b|"
    r"\b(?:stress(?:es)?|wears?|freaks?|grosses?|bums?) me out\b|"
    r"\b(?:relax(?:es)?|calms?|recharges?|energi[sz]es?|soothes?) me\b|appeals? to me|speaks? to me|"
    r"(?:works?|clicks?|clicked) for me|resonates? with me|\bin my book\b|\bi could (?:happily )?live on\b|"
    r"j'accroche\b|je n'accroche (?:pas|plus)|j'accroche pas|j'ai (?:toujours |jamais )?(?:eu )?du mal avec|"
    r"(?:i have|i've|i've always had|i have always had) (?:a )?hard time with|rien ne m[e']\s*\w+ (?:autant|plus|mieux)|"
    r"nothing \w+s me (?:more|as much|like)|the highlight of my (?:day|week|year)|\bnothing (?:too )?\w+ for me\b|"
    r"(?:better|worse|nicer) than\b[^.!?]*\b(?:in my (?:opinion|view|book)|imo|imho)\b|"
    rf"{_I_AM}\s+(?:a\s+)?(?:big |firm |strong |huge )?believer in\b|for my (?:taste|liking)\b|à mon goût\b|"
    r"me fai\w* (?:pas |jamais |toujours )?rire|makes? me laugh|"

    r"\b(?:in my (?:opinion|view)|imo|imho|à mon avis|selon moi)\b[^.!?]*\b(?:better|worse|meilleure?s?|mieux|pire) (?:than|que)\b|"
    r"\bi (?:really |totally )?dig\b|\bhard pass\b|\bi'?ll pass on\b|je passe mon tour|"
    r"me (?:détend\w*|calme\w*|relaxe\w*|ressource\w*)\b|m'apaise\w*|"
    r"(?:question|côté|niveau|en matière de)\s+\w+,\s*je suis (?:plutôt|plus|très|pas trop|pas très)\s+\w+|"
    r"\bi (?:tend to|usually|generally) (?:go for|pick|choose|opt for|prefer)\b|j'ai tendance à (?:prendre|choisir|préférer)|"
    r"me fai\w* (?:toujours |beaucoup |vraiment |un )?(?:du bien|bien)\b|(?:does|do) me good|"
    r"j'en suis (?:\w+ )?(?:fan|dingue|accro|folle?|fana)\b|"
    r"(?:is|are) (?:much |way |far |a lot )?(?:better|worse|nicer|easier|harder) for me\b|me convien\w* (?:mieux|moins)|"
    r"(?:i've|i have)\s+(?:really\s+|totally\s+|kind of\s+)?gone off\b|je me suis lassée? d|"
    r"makes? me want to (?:scream|cry|die|sleep|leave|puke|run)|leaves? me (?:\w+ )?(?:cold|indifferent)|"
    r"me laisse\w* (?:\w+ )?(?:froid|froide|indifférent\w*)|(?:il )?n?'?y a que ça de vrai|\bmoi,? c'est (?:plutôt|plus)\b|"
    r"(?:ne\s+)?m'int[ée]ress\w*|(?:ne\s+)?me\s+pla[iî]\w*|me passionne\w*|je ne supporte (?:pas|plus)\b|"
    r"(?:could|can) (?:eat|drink|watch|listen to|read|play|live on) \w+(?:\s+\w+)? "
    r"(?:every (?:single )?day|all day|forever|every week)|"
    r"\b(?:give|gives|gave) me the (?:creeps|chills|shivers)|gets? on my nerves|drives? me (?:nuts|crazy|mad|up the wall)|"
    r"bores? me\b|(?:is|are)(?: not| n't|n't)?(?: really)? my idea of\b|right up my (?:alley|street)|"
    r"give me\b[^.!?]*\band i'?m (?:happy|good|set)\b|\b(?:never|always|only)\s+(?!there\b|here\b|been\b|being\b)\w+(?:\s+\w+)?\s+for me\b|"
    r"\b(?:i find|je trouve)\b[^.!?]*\b(?:dull|boring|tedious|relaxing|fun|exciting|overrated|annoying|stressful|"
    r"soothing|delicious|disgusting|fascinating|pointless|ennuyeu\w*|ennui|génia\w*|nul|nulles?|nuls|relaxant\w*|"
    r"reposant\w*|passionnant\w*|barbant\w*|chiant\w*|surfait\w*|stressant\w*|délicieu\w*|dégoûtant\w*|horribles?|"
    r"pénible\w*|insupportable\w*|agaçant\w*|sympa\w*|chouette)\b|"
    rf"{_JE_SUIS}\s+team\b|{_JE_SUIS}\s+(?:un |une )?(?:grand |grande |vrai |vraie |gros |grosse )?(?:amateur|amatrice|adepte|"
    r"inconditionnel\w*)\b|j'ai (?:un |eu un )?(?:vrai |gros )?coup de c(?:œ|oe)ur pour|\bdu genre à\b|"
    r"\b(?:beurk|berk|yuck|miam|yum)\b|"
    r"(?:does|do) (?:nothing|it|wonders) for me|turns? me off|puts? me off|makes? me (?:cringe|happy)|"
    rf"{_JE_SUIS}\s+{_ADVERBS}(?:dingue|fou|folle|fan|accro|passionn[ée]e?|amoureu(?:x|se)|friand|friande|"
    r"gaga|fana|mordu|mordue)\b|j'en raffole|je raffole|"
    r"j'ai\s+(?:un\s+|une\s+)?(?:gros\s+|grand\s+|petit\s+|vrai\s+|véritable\s+)?(?:faible|penchant|passion|horreur)\b|"
    r"je craque\b|je ne me lasse (?:pas|jamais)|"
    r"\b(?:ça|ca|cela)\s+(?:ne\s+)?m(?:e\s+|')(?:saoule|soûle|gave|gonfle|fatigue|ennuie|plaît|plait|branche|botte|"
    r"tente|dit rien|fait (?:flipper|peur|rêver|vibrer|kiffer|craquer))|"
    r"\bm'(?:ennuient?|épuisent?|agacent?|énervent?|insupportent?|enchantent?|passionnent?|ennuie|lassent?|"
    r"saoulent?|dégoûtent?)\b|\bme (?:lassent?|plaisent|gonflent?|saoulent?|fatiguent?|dégoûtent?|"
    r"rendent? (?:dingue|fou|folle))\b|"
    rf"{_JE_SUIS}\s+(?:plus|plutôt|davantage)\s+\w+(?:\s+\w+)?\s+que\b|"
    r"je trouve\b[^.!?]*\b(?:plus|moins|meilleur|meilleure|mieux)\b[^.!?]*\bque\b|"
    # Elliptical tastes, the user's by their place at a sentence's start (see ELLIPTIC).
    rf"nothing (?:beats|tops|compares to){_PRONOUN_OBJECT}|rien ne vaut|rien de tel|not (?:a |the )?(?:big |huge )?fan of|not big on|"
    r"not into|give me\b[^.!?]*\bover\b|(?:for me|pour moi),?\s+(?:it's|it is|c'est)\b[^.!?]*\b(?:over|rather than|plutôt que|plus que)\b|\bover\b[^.!?]*\b(?:for me|any day|every time|anytime)\b|"
    r"\bkeep (?:(?:it|them|things|your|the|my)\s+)?(?:\w+\s+)?(?:short|brief|concise|simple|casual|light)\b"
)

# Restrictions: an identity ("I'm diabetic", "je suis cœliaque"), a food that does not
# agree with the user, a no-go, an availability ("I'm not available on Thursdays", "je
# suis indisponible"), what the user does not have ("never owned a car", "pas le permis"),
# a polite directive ("merci de ne pas", "please don't"), "interdiction de", "zéro sucre".
_IDENTITY = (r"[a-z]+-free|v[ée]g[ée]\b|diabetic|vegetarian|vegan|pescatarian|pescetarian|teetotal|teetotaller|tee-total|celiac|coeliac|"
             r"(?:lactose|gluten)[- ]intolerant|intolerant to|sober|pregnant|epileptic|asthmatic|"
             r"diab[ée]tique|v[ée]g[ée]tarien(?:ne)?|v[ée]gane?|v[ée]g[ée]talien(?:ne)?|c(?:œ|oe)liaque|"
             r"intol[ée]rante?|sobre|pesc[ée]tarien(?:ne)?|enceinte|[ée]pileptique|asthmatique")
_FREE = r"available|free|away|out of town|en déplacement|on call|de garde|d'astreinte|stuck at work|tied up|at work|busy|unavailable|booked(?! to)|dispo|disponible|indisponible|libres?|pris|prises?|occup[ée]e?s?|absente?s?"
_WHEN = (r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|weekday|morning|evening|afternoon|night|"
         r"lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|week-end|matin|soir|après-midi|nuit|before|after|"
         r"until|between|avant|après|jusqu|entre|\d")
_THIRD = r"(?:to|for)\s+(?:him|her|them|you|us|the|his|their|press|visitors|kids|children|guests|eux|lui|elle|elles)\b"
RULE = (
    rf"(?:{_I_AM}|{_JE_SUIS})\s+(?:\w+\s+)?(?:{_IDENTITY})\b|i keep (?:kosher|halal)|je mange (?:halal|casher|kascher)|"
    r"(?:doesn'?t|don'?t|does not|do not) (?:agree|sit well) with me|makes? me (?:sick|ill|bloated|nauseous)|"
    r"me rend(?:ent)? malade|(?:no-go|no go|off-limits|off limits|out of the question|a hard no|deal-?breaker)\b"
    rf"(?!\s+{_THIRD})|(?:hors de question|pas question|interdiction|interdit)\s+(?:de|d'|que)\b|"
    rf"(?:{_I_AM}|{_JE_SUIS})\s+(?:\w+\s+)?(?:not\s+|never\s+|rarely\s+)?(?:{_FREE})\b(?=[^.!?]*\b(?:{_WHEN}))|"
    rf"je ne suis (?:pas|jamais) (?:\w+\s+)?(?:{_FREE})\b|je ne suis (?:\w+\s+)?(?:{_FREE}) qu|"
    r"(?:is|are) a must\b|off the menu\b|(?:trying|try|want|need) to (?:cut down on|cut back on|cut out|limit|reduce|"
    r"quit|give up)\b|j'essaie de (?:limiter|réduire|arrêter|me passer)|(?:i'm|i am) off (?!to\b|work|today|tomorrow|on\b|sick|duty|for\b|now|the\b|"
    r"home|at\b|in\b)\w+|(?:je fais|je suis) (?:un |au )?régime|(?:i'm|i am) on a (?:\w+ )?diet\b|"
    r"make sure (?:there(?:'s| is) )?no\b|make sure (?:you )?(?:never|don'?t|avoid)\b|\bno\s+\w+(?:\s+\w+)?\s+for me\b|non-?starter|"
    r"(?:pas|not)\s+(?:dispo|disponible|available|free)\b|merci d'(?:éviter|arrêter)|\b(?:nothing|rien)\s+(?:over|above|under|more than|longer than|à plus de|"
    r"au-dessus de)\b|(?:have to|need to|must|dois|doit)\s+(?:be|être)\s+(?:home|back|at work|rentrée?|à la maison|"
    r"chez moi)\b|(?:my|mes)\s+(?:evenings|mornings|weekends|afternoons|nights|soirées|matinées|week-ends|après-midis?|"
    rf"nuits)\s+(?:are|sont)\s+(?:\w+\s+)?(?:{_FREE})\b|c'est (?:mon|ma) (?:maximum|max|limite)|(?:is|'s) my (?:max|maximum|limit)\b|"
    r"(?:je ne supporte|i can'?t tolerate|je ne tolère|je ne digère) (?:pas |plus )?(?:le |la |l'|les )?(?:lactose|gluten|"
    r"alcool|alcohol|caféine|caffeine|sucre|sugar|lait|dairy|produits laitiers|épices|fructose)|"
    r"(?:is|are) a (?:hard |big |firm )?no\b(?!-)|(?:i'm|i am) not (?:allowed|supposed|permitted)\b|"
    r"je n'ai pas le droit de|on m'a interdit|me l'a interdit|interdit pour moi|wheelchair|step-free|fauteuil roulant|"
    r"\b(?:told|advised|asked) me to (?:cut|avoid|stop|limit|reduce|watch|quit)\b|m'a (?:interdit|conseillé d'éviter)|"
    r"\bkeep it (?:low|sugar|salt|gluten|dairy|meat)-\w+|\blow-(?:sodium|carb|fat|sugar|salt)\b|"
    r"je fais (?:très )?attention (?:au|à la|aux|à l')|watch(?:ing)? my (?:salt|sugar|weight|carbs|intake|calories)|"
    r"(?:i have|i've got|j'ai) (?:an? |une )?(?:\w+ )?(?:intolerance|allergy|intolérance|allergie)\b|"
    r"(?:i have|i've got|j'ai) (?:\w+ )?(?:celiac|coeliac|diabetes|epilepsy|asthma|la maladie c(?:œ|oe)liaque|du diabète|"
    r"de l'asthme|la phobie|une phobie|a phobia|a fear of)\b|(?:impossible|pas possible|not possible) (?:pour moi|for me)|"
    r"\bje\s+(?!sais|pense|crois|vois|comprends|suis|peux|veux|dois|trouve|connais)\w+\s+(?:pas|plus|jamais)\s+"
    r"(?:de|d'|le|la|les|du|à|avant|après|en)\b|"
    r"(?:i've|i have) never (?:had|owned|held|learned to|learnt to)\b|"
    r"\bmerci de (?:ne|pas|jamais|toujours|m'|me)\b|\bplease (?:don'?t|do not|never|no|avoid|skip)\b|"
    r"\bkeep (?:my|me|our)\s+(?:\w+\s+){0,2}(?:free|clear|open|off)\b|"
    r"\b(?:surtout|jamais) (?:pas|de|d')\b|\b(?:nothing|rien)\s+(?:with|containing|involving|before|after|avant|après|avec)\b|"
    r"\b(?:sans|without)\s+(?!doute|problème|souci|doubt|problem)\w+[^.!?]*\b(?:pour moi|for me)\b|\bzéro\s+\w+|\b(?:never|jamais) (?:before|after|avant|après)\b"
)

# Plans said without "I will": "I should / ought to / must", "je devrais / je dois",
# "faut que je", "j'envisage de", "je pense partir", "my resolution is to", "mon idée,
# c'est de". A plan in the present with a time to come ("next Tuesday I'm meeting…",
# "demain soir je passe…") is in :data:`FUTURE` (the classifier pairs the two).
PLAN = (
    rf"\bi (?:really |definitely |probably )?(?:should|ought to|must|have to|gotta)\s+(?!(?:have|'ve{_NOT_A_PLAN})\w+|"
    r"\bje (?:devrais|dois|devrai)\s+(?!(?:dire|avouer|admettre|reconna[iî]tre|être)\b)\w+|"
    r"(?:il )?faut (?:absolument |vraiment )?que (?:je|j')|\bj'envisage\b|je me suis promis|(?:j'ai|on a|nous avons) prévu|"
    r"\bje pense (?:m'|me |t'|s'|y |en )?(?!que|qu'|à|a\b|pas|vraiment|trop|souvent)\w+(?:er|ir|re)\b|"
    r"\b(?:i'm|i am|we're|we are) (?:booked|due|set|scheduled|supposed|meant) to\b|\bi(?:'ve| have) (?:really )?got to\b|"
    r"\bi(?:'ve)? promised\b|\b(?:the|le) (?:plan|idea|idée|goal|objectif|but)\s*(?:,\s*)?(?:is|c'est|est) (?:to|de|d')|"
    r"\bon my (?:to-?do )?list\b|sur ma liste|(?:i've|i have|i'm|j'ai|je me suis) (?:just )?(?:signed up|enrolled|"
    r"registered|inscrite?|réservé|booked|reserved)\b|j'ai (?:bien |vraiment |très )?envie d(?:e \w+(?:er|ir|re)|'[aeiouyéè]\w*(?:er|ir|re))\b|"
    r"(?:i've got|i have|j'ai)\s+(?:an?\s+|un\s+)?(?:\w+\s+)?(?:appointments?|meetings?|interviews?|exams?|"
    r"rendez-vous|rdv|entretiens?|examens?)\b|\b(?:reminder|note) to (?:self|myself)\b|(?:note|rappel) pour moi|pense-bête|"
    r"\bi (?:mean|aim|hope|expect|promised myself) to\b|(?:i'm|i am) (?:set|bent|keen) on \w+ing\b|il me faut\b|(?:i'm|i am) (?:determined|committed|resolved) to\b|"
    r"je suis (?:bien |fermement )?(?:décidée?|résolue?) à\b|\bje projette\b|je me suis fixée? (?:de|d'|comme)|"
    r"(?:i've|i have) set myself\b|"
    rf"(?<!n't )(?<!not )(?<!\ba )(?:hoping to|hope to|planning to|planning on|planning (?:an?|my|our|some)(?=\s)|must|ought to|need to|have to|gotta|aiming to|"
    rf"intending to|meaning to|wanna)\s+(?!(?:have|love|you|him|her|them|it|me{_NOT_A_PLAN})\w+|"
    r"thinking (?:of|about) \w+ing\b|"
    r"(?:my|mon|ma|our|notre)\s+(?:\w+\s+)?(?:plan|resolution|résolution|idée|idea|projet|intention|aim|but|step|"
    r"priority|priorité|étape)\b"
    r"(?=\s*(?:,\s*)?(?:is to|c'est de|c'est d'|est de|est d'|for (?:this|next))\b)"
)

# Sentence openings that make what follows the user's own without a subject: elliptical
# tastes and refusals, and the subject-drop plans of casual writing ("Gonna…", "Hoping
# to…"), after an optional discourse marker.
DISCOURSE = (r"(?:(?:also|and|oh|so|please|actually|honestly|seriously|btw|by the way|anyway|plus|from now on|"
             r"in future|going forward|et|aussi|surtout|alors|bon|ok|okay|sinon|d'ailleurs|en fait|franchement|"
             r"désormais|dorénavant|maintenant|à l'avenir|par contre|du coup|oh et|ah et|perso|personnellement|pls|plz|stp|svp)"
             r"[\s,]+)*")
ELLIPTIC = re.compile(
    rf"^\s*(?:(?![^,.!?]*\b(?:pour|for) (?:eux|lui|elle|elles|them|him|her)\b)[^,.!?]{{1,25}},\s*)?{DISCOURSE}"
    rf"(?:not (?:a |the )?(?:big |huge )?fan of|not big on|not into|big fan of|huge fan of|"
    rf"nothing beats{_PRONOUN_OBJECT}|(?:you )?can'?t beat|rien ne vaut|rien de tel|rien de mieux|give me\b|for me\b|pour moi\b|"
    r"hors de question|pas question|interdiction|surtout pas|zéro|merci de|merci d'|no\b|pas de|pas d'|nothing|rien|hard pass|"
    r"the (?:plan|idea|goal) is\b|le plan,? c'est|l'idée,? c'est|"
    r"pas plus|no more than|not more than|at most|max\b|maximum\b|au maximum\b|"
    r"(?:gonna|planning to|planning on|planning (?:an?|my|our|some)(?=\s)|hoping to|hope to|thinking of|thinking about|need to|have to|"
    r"gotta|must|ought to|want to|wanna|trying to|aiming to|intending to|meaning to)\s+"
    rf"(?!(?:have|love|you|him|her|them|it{_NOT_A_PLAN})|faut que|"
    rf"(?:\d+|an?|one|two|three|four|five|ten|twenty|thirty|un|une|deux|trois|quatre|cinq|dix|vingt|trente)\s+"
    r"(?:\w+\s+){0,3}(?:max|maximum|tops|au (?:grand )?maximum|at most|au plus)\b)", _FLAGS)
ELLIPTIC_TIMED = re.compile(rf"^\s*(?:[^,.!?]{{1,30}},\s*)?{DISCOURSE}(?:going to|off to|heading to|direction|cap sur|"
                            r"rendez-vous|rdv|appointment)\s+\w+",
                            _FLAGS)
"""A subject-drop plan that needs a time to come to be one: "Going to try yoga next week"
(not "Going to meetings has taught me…")."""
ELLIPTIC_OVER = re.compile(r"\b\w+(?:\s+\w+)?\s+over\s+\w+[^.!?]*\b(?:for me|any day|every time|anytime)\b|"
                           r"y a que ça de vrai", _FLAGS)
"""A comparison the user owns without a verb: "Podcasts over audiobooks for me"."""

# Idioms whose subject is the thing ("Loud bars get on my nerves", "les huîtres me rendent
# malade"): the object is the phrase before the cue.
SUBJECT_IDIOM = re.compile(
    r"nerves|drives? me|bores? me|creeps|chills|shivers|makes? me|puts? me off|turns? me off|idea of|up my|for me\b|"
    r"agree|sit well|rend\w* malade|\bm'\w+|\bme\s+\w+|no-go|no go|off-limits|off limits|out of the question|"
    r"a hard no|deal-?breaker", _FLAGS)
# A plan that was: "I was going to call", "we were planning to", "j'allais", "je devais".
PAST_PLAN = re.compile(r"\b(?:was|were|had been)\s+(?:\w+\s+)?(?:going to|gonna|planning|hoping|meaning|about to)\b|"
                       r"\b(?:j'allais|je devais|on devait|nous devions|j'avais prévu)\b", _FLAGS)
# Someone else's words, reported: "my doctor says I should…", "she told me she hates…",
# "ma mère dit que je devrais…" (an instruction given to the user, "told me to cut out
# salt", stays the user's).
REPORTED = re.compile(
    r"\b(?:says|said|told me(?! to\b)|tells me(?! to\b)|thinks|reckons|keeps saying|dit|disait|m'a dit|me dit|pense que|"
    r"trouve que|répète)\b", _FLAGS)
# A restriction that is the speaker's whoever else the sentence names: "Fridays are a
# no-go, I pick up the kids".
SELF_RULE = re.compile(r"\b(?:no-go|no go|out of the question|deal-?breaker|a hard no|non-?starter)\b(?!\s+(?:to|for)\s+"
                       r"(?:him|her|them|his|their|eux|lui)\b)", _FLAGS)
# "If I were rich I'd…", "si j'avais le temps, je ferais…": a wish, not a plan or a rule.
HYPOTHETICAL = re.compile(
    r"^\s*(?:if|si|suppose|imagine|assuming|even if|même si)\b[^.!?]*\b(?:would|'d|could|might|were|"
    r"\w+(?:rais|rait|rions|riez|raient)|avais|avait|étais|était)\b|"
    # A plan on a condition ("If it rains tomorrow, we'll stay in", "s'il pleut demain…"), or
    # one imagined ("Imagine que je…", "Et si je partais…"): not a plan yet; "if all goes
    # well" / "si tout va bien" and a reminder asked for stay plans.
    r"^\s*(?:if|s'il|si|when it|imagine|imaginons|suppose|supposons|et si|what if)\b"
    r"(?![^.!?]*\b(?:remind me|rappelle-moi|all goes well|tout va bien|possible)\b)", _FLAGS)
# A time gone by: the plan words around it tell what happened, not what will.
PAST = re.compile(r"^\s*(?:petite?|enfant|ado|as a kid),|\b(?:used to|when i was|quand j'étais|as a (?:kid|child|teenager)|back then|à l'époque|autrefois|"
                  r"in my youth|dans ma jeunesse|yesterday|last (?:week|month|year|night|summer|winter|spring|autumn|fall|time|weekend|"
                  r"monday|tuesday|wednesday|thursday|friday|saturday|sunday)|ago|"
                  r"hier|dernier|dernière|l'an dernier|il y a)\b", _FLAGS)

_WEEKDAY = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche"
_MONTH = (r"january|february|march|april|may|june|july|august|september|october|november|december|"
          r"janvier|f[ée]vrier|mars|avril|mai|juin|juillet|ao[ûu]t|septembre|octobre|novembre|d[ée]cembre")
_SEASON = r"spring|summer|autumn|fall|winter|printemps|[ée]t[ée]|automne|hiver"
_COUNT = r"(?:\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|a couple of|a few|un|une|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|quinze|quelques)"
# A time to come: next / this / coming, tomorrow, a weekday (not "on Mondays", "le lundi":
# those recur), in N days, a holiday, the end of a period, a day of a month, a month or a
# season with a preposition.
FUTURE = re.compile(
    rf"\b(?:next|this|coming)\s+(?:week|weekend|month|year|{_SEASON}|{_WEEKDAY})\b|\bcome (?:{_MONTH}|{_SEASON}|{_WEEKDAY})\b|\b(?:tomorrow|demain|tonight|"
    rf"ce soir|après-demain|apres-demain)\b|\b(?:prochain|prochaine)\b|"
    rf"\b(?:ce|cet|cette)\s+(?:week-end|weekend|semaine|mois|année|{_SEASON}|{_WEEKDAY}|matin|après-midi)\b|"
    rf"(?<!\ble )(?<!\bles )(?<!\bevery )(?<!\btous les )\b(?:{_WEEKDAY})\b(?!s)|"
    rf"\b(?:in|within|dans|d'ici)\s+{_COUNT}\s+(?:days?|weeks?|fortnights?|months?|years?|jours?|semaines?|mois|ans?|années?)\b|"
    r"\b(?:in|within|dans|d'ici) (?:a fortnight|une quinzaine)\b|"
    r"\b(?:christmas|xmas|new year|noël|noel|nouvel an|jour de l'an|réveillon|halloween|easter|pâques|thanksgiving|"
    r"the holidays|les fêtes)\b|"
    r"\bend of (?:the |this |next )?(?:week|month|year)|\bfin (?:du mois|de la semaine|de l'année|d'année|de mois)|"
    rf"\b(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)\b|\b(?:le\s+)?(?:1er|\d{{1,2}})\s+(?:{_MONTH})\b|"
    rf"\b(?:{_MONTH})\s+\d{{1,2}}\b|\b(?:first|premier) of (?:{_MONTH})\b|"
    rf"\b(?:in|en|by|before|avant|after|apr[èe]s|d'ici|au|early|late|mid|début|fin|mi)[\s-]+(?:(?:the\s+)?(?:month of|mois de|mois d')\s*)?(?:{_MONTH}|{_SEASON})\b|"
    rf"\bau\s+printemps\b|\bonce the (?:{_SEASON}|holidays?) (?:is|are) over|une fois (?:l'|le |la )(?:{_SEASON})|"
    r"\b(?:next year|l'an prochain|l'année prochaine)\b|\bin 20\d\d\b|\ben 20\d\d\b", _FLAGS)

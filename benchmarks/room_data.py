"""A synthetic group room for the chit-chat measure: 200 messages, 150 of them chit-chat.

Written for this project (no data set): 50 informative messages by six people, 150
chit-chat lines ("ok", "lol", "mdr", emojis, greetings, thanks) interleaved with them, and
20 questions a user might ask the agent about what was said. ``CHITCHAT`` is the set the
measure checks the live block against.
"""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta, timezone

AUTHORS = ("david", "mickael", "sarah", "lea", "tom", "nina")

INFORMATIVE: tuple[tuple[str, str], ...] = (
    ("david", "I'm leaving for Greece tomorrow, one week in Athens"),
    ("david", "my flight to Athens leaves at 7am from Orly"),
    ("david", "I'll be back from Greece next Sunday"),
    ("mickael", "I pushed the new release of the Organizer app tonight"),
    ("mickael", "the database migration to Postgres 17 is done"),
    ("mickael", "I'm fixing the login bug on Android this week"),
    ("sarah", "I got the job at the hospital in Lyon, I start in March"),
    ("sarah", "we are moving to Lyon at the end of February"),
    ("sarah", "my sister is getting married in June in Marseille"),
    ("lea", "I broke my shoulder skiing in Chamonix"),
    ("lea", "the doctor says six weeks with the arm in a sling"),
    ("lea", "I can't drive until the shoulder heals"),
    ("tom", "I adopted a puppy, a border collie called Pixel"),
    ("tom", "Pixel chewed my new running shoes"),
    ("tom", "I'm training for the Paris marathon in April"),
    ("nina", "I'm allergic to peanuts, be careful with the snacks"),
    ("nina", "my birthday party is on Saturday at 8pm at my place"),
    ("nina", "I started learning Japanese for a trip to Tokyo"),
    ("david", "my brother Mickael built this app"),
    ("mickael", "the server bill went up to 40 euros a month"),
    ("sarah", "the new office has a rooftop terrace"),
    ("tom", "my car broke down on the highway, the garage says the gearbox is dead"),
    ("tom", "I'll rent a car until the gearbox is replaced"),
    ("nina", "I'm vegetarian since January"),
    ("lea", "I'm reading a book about the history of Byzantium"),
    ("david", "I booked a hotel near the Acropolis"),
    ("mickael", "I switched the embeddings to a local model to cut costs"),
    ("sarah", "our cat Moustache has to see the vet on Thursday"),
    ("nina", "the concert of the Strokes got cancelled"),
    ("tom", "I got a promotion, I'm team lead now"),
    ("lea", "the physiotherapy sessions start next Monday"),
    ("david", "I lost my passport, I need a new one before the trip"),
    ("mickael", "I'm giving a talk about vector databases in Nantes"),
    ("sarah", "I'm selling my old bike, a blue Peugeot road bike"),
    ("nina", "my laptop screen cracked, I'm using my phone for now"),
    ("tom", "the marathon training plan is four runs a week"),
    ("lea", "I'm working from home until my shoulder is better"),
    ("david", "the weather in Athens is 25 degrees this week"),
    ("mickael", "the app has 300 users now"),
    ("sarah", "I passed my driving test on the second try"),
    ("nina", "I'm organising a board game night on Friday"),
    ("tom", "Pixel has his first vet appointment for vaccines"),
    ("lea", "my insurance covers the ski accident"),
    ("david", "I'm learning to play the guitar"),
    ("mickael", "I'm allergic to cats"),
    ("sarah", "the hospital job is in the pediatric ward"),
    ("nina", "I'm flying to Tokyo in October"),
    ("tom", "I quit smoking three months ago"),
    ("lea", "I'm adopting a rescue cat when my arm heals"),
    ("mickael", "I'll be offline this weekend, camping in the Vosges"),
)

CHITCHAT_LINES: tuple[str, ...] = (
    "ok", "lol", "mdr", "😂", "👍", "haha", "ptdr", "oui", "non", "yes", "ok ok", "lol 😂",
    "salut", "coucou", "hello", "hi all", "bonjour tout le monde", "salut tout le monde",
    "bonne nuit", "good night", "merci", "thanks", "thx", "de rien", "ah ouais", "trop bien",
    "grave", "c'est clair", "ouais", "ahah", "😅", "🙏", "❤️", "🔥", "👋", "bisous", "à plus",
    "see you", "cool", "nice", "top", "génial", "wow", "omg", "mdrrr", "xD", "😭", "+1", "same",
    "bien vu",
)

QUESTIONS: tuple[tuple[str, int], ...] = (
    # (question, index in INFORMATIVE of a message that answers it)
    ("Where is David going on holiday?", 0),
    ("When does David's flight leave?", 1),
    ("What did Mickael release?", 3),
    ("Which database did Mickael migrate to?", 4),
    ("Where did Sarah get a job?", 6),
    ("When is Sarah's sister getting married?", 8),
    ("What happened to Lea's shoulder?", 9),
    ("Can Lea drive right now?", 11),
    ("What is the name of Tom's dog?", 12),
    ("Is Tom running a marathon?", 14),
    ("What food is Nina allergic to?", 15),
    ("When is Nina's birthday party?", 16),
    ("What language is Nina learning?", 17),
    ("What is wrong with Tom's car?", 21),
    ("Does Nina eat meat?", 23),
    ("Where is David staying in Athens?", 25),
    ("When does Sarah's cat see the vet?", 27),
    ("Did Tom get promoted?", 29),
    ("What does David need before his trip?", 31),
    ("How many users does the app have?", 38),
)

START = datetime(2026, 1, 17, 9, 0, tzinfo=timezone.utc)


def room_messages() -> list[dict]:
    """The 200 messages in order, three chit-chat lines around each informative one."""
    chitchat = itertools.cycle(CHITCHAT_LINES)
    authors = itertools.cycle(AUTHORS)
    messages: list[dict] = []
    for author, text in INFORMATIVE:
        for _ in range(3):
            messages.append({"text": next(chitchat), "author": next(authors)})
        messages.append({"text": text, "author": author})
    for i, m in enumerate(messages):
        m["at"] = START + timedelta(minutes=2 * i)
    assert len(messages) == 200 and sum(m["text"] in CHITCHAT_LINES for m in messages) == 150
    return messages


CHITCHAT = frozenset(CHITCHAT_LINES)

"""The README's first command: the offline demo replays the Mickael story end to end."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

DEMO = Path(__file__).resolve().parents[1] / "examples" / "demo.py"


def test_demo_replays_the_story_offline(capsys):
    spec = importlib.util.spec_from_file_location("demo", DEMO)
    demo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(demo)
    assert demo.main([]) == 0
    out = capsys.readouterr().out
    assert "as a refinement of" in out and "as a correction of" in out
    assert "Deleted" in out and "Mickael est guéri" in out
    assert "inject : \"dev s'appelle en réalité Mickael\"  ← identity" in out
    # What survives: the dated shoulder, David in Toulouse; not the replaced or deleted facts.
    summary = out.split("What the store now knows about Mickael:")[1]
    assert "le 10 janvier 2026" in summary and "Toulouse" in summary
    assert "Ordizan" not in summary and "malade" not in summary
    assert "\"Mickael s'est cassé l'épaule\" → \"Mickael s'est cassé l'épaule le 10 janvier 2026\"" in out
    # The Lobby: the live excerpt answers Sarah, the digest makes it a fact, the excerpt is gone.
    lobby = out.split("The Lobby")[1]
    asked, after = lobby.split("digest : ")
    assert "• david (17/01 10:00): je pars en Grèce demain" in asked
    assert after.startswith("#lobby: 5 messages read, 1 fact stored") and "0 live messages left" in after
    assert "David part en Grèce le 18/01/2026" in after and "(no live excerpt)" in after


def test_chat_mode_without_a_key_explains_itself(capsys, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    spec = importlib.util.spec_from_file_location("demo", DEMO)
    demo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(demo)
    assert demo.main(["--chat"]) == 2
    assert "OPENAI_API_KEY" in capsys.readouterr().err

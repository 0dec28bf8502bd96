"""The README's first command: the offline demo replays the Mickael story end to end, and
leaves a store on which the ``langgraph-memory`` commands of docs/cli.md work as written."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import re
import shlex
from pathlib import Path

import pytest

from langgraph_memory.cli import main as cli_main

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "examples" / "demo.py"
CLI_DOC = ROOT / "docs" / "cli.md"


def load_demo():
    spec = importlib.util.spec_from_file_location("demo", DEMO)
    demo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(demo)
    return demo


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory):
    """One replay into ``<tmp>/demo_memory`` (what ``./demo_memory`` is from the repo root):
    ``(the directory it ran in, what it printed)``."""
    where = tmp_path_factory.mktemp("demo")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert load_demo().main(["--path", str(where / "demo_memory")]) == 0
    return where, out.getvalue()


def test_demo_replays_the_story_offline(demo_run):
    _, out = demo_run
    assert "as a refinement of" in out and "as a correction of" in out
    assert "Forgot" in out and "Mickael est guéri" in out
    assert "inject : \"dev s'appelle en réalité Mickael\"  ← identity" in out
    # What survives: the dated shoulder, David in Toulouse; not the replaced or deleted facts.
    summary = out.split("What the store now knows about Mickael:")[1]
    assert "le 10 janvier 2026" in summary and "Toulouse" in summary
    assert "Ordizan" not in summary and "malade" not in summary
    assert "\"Mickael s'est cassé l'épaule\" → \"Mickael s'est cassé l'épaule le 10 janvier 2026\"" in out
    # The Lobby: the live excerpt answers Sarah, the digest makes it a fact, the excerpt is gone.
    lobby = out.split("The Lobby")[1]
    asked, after = lobby.split("digest : ")
    assert "• david (17/01 10:00): \"je pars en Grèce demain\"" in asked
    assert after.startswith("#lobby: 5 messages read, 1 fact stored") and "0 live messages left" in after
    assert "David part en Grèce le 18/01/2026" in after and "(no live excerpt)" in after
    assert "langgraph-memory --path" in out.split("The store stays in")[1]


def readme_cli_commands() -> list[str]:
    """The command lines of docs/cli.md's block that follows "After `python examples/demo.py`"."""
    text = CLI_DOC.read_text(encoding="utf-8")
    after = text.split("After `python examples/demo.py`", 1)[1]
    block = after.split("```bash\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.startswith("langgraph-memory ")]


# What each docs/cli.md command must print (stdout) for the demo's store; a command the page
# gains without an entry here fails the test, so the page and this list move together.
EXPECTED = {
    "list": ["memories/mickael", "Mickael s'est cassé l'épaule le 10 janvier 2026", "a déménagé à Toulouse"],
    "search": ["le 10 janvier 2026"],
    "show": ["history (2 versions", "Mickael s'est cassé l'épaule le 10 janvier 2026", "superseded"],
    "stats": ["memories/mickael", "live"],
    "export": ["exported", "backup.jsonl"],
    "import": ["imported"],
    "purge-expired": ["purged 0 expired memories"],
    "delete": ["forgot", "brings it back within"],
    "garden": ["dry run: ", "would archive"],
    "erase": ["erased", "memories/mickael"],
}


def test_readme_cli_commands_work_after_the_demo(demo_run, monkeypatch):
    where, _ = demo_run
    monkeypatch.chdir(where)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)  # the demo's offline embedder, for search
    commands = readme_cli_commands()
    assert {shlex.split(c, comments=True)[3] for c in commands} == set(EXPECTED), commands
    shoulder = None
    for line in commands:
        argv = shlex.split(line, comments=True)[1:]
        command = argv[2]
        if command in ("show", "delete"):
            # Ids are random: the page's example id stands for the one list printed here.
            assert re.fullmatch(r"[0-9a-f]{8}", argv[3]), line
            argv[3] = shoulder[:8]
        out, err = io.StringIO(), io.StringIO()
        code = cli_main(argv, stdout=out, stderr=err)
        printed = out.getvalue()
        assert code == 0 and err.getvalue() == "", f"{line}\n{err.getvalue()}"
        for fragment in EXPECTED[command]:
            assert fragment in printed, f"{line} printed:\n{printed}"
        if command == "list":
            shoulder = next(row.split()[0] for row in printed.splitlines() if "10 janvier 2026" in row)
    assert (where / "other").is_dir()


def test_chat_mode_without_a_key_explains_itself(capsys, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert load_demo().main(["--chat"]) == 2
    assert "OPENAI_API_KEY" in capsys.readouterr().err


def test_demo_help_speaks_to_a_newcomer(capsys):
    with pytest.raises(SystemExit):
        load_demo().main(["--help"])
    text = capsys.readouterr().out
    assert "demo_memory" in text and "seed" not in text


def readme_offline_snippets() -> list[str]:
    """docs/integration.md's Python blocks that run offline (they use the scripted model);
    the README's own blocks are run by test_readme.py."""
    blocks = (ROOT / "docs" / "integration.md").read_text(encoding="utf-8").split("```python\n")[1:]
    return [b.split("```", 1)[0] for b in blocks if "ScriptedChatModel" in b.split("```", 1)[0]]


def test_readme_offline_agent_snippets_run(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    snippets = readme_offline_snippets()
    assert len(snippets) == 2  # create_agent offline, and the hand-built StateGraph
    scopes = []
    for i, code in enumerate(snippets):
        workdir = tmp_path / str(i)  # each opens ./memory: its own directory
        workdir.mkdir()
        monkeypatch.chdir(workdir)
        scope: dict = {}
        try:
            exec(compile(code, f"docs/integration.md snippet {i}", "exec"), scope)
        finally:
            scope["store"].close()
        scopes.append(scope)
    assert capsys.readouterr().out.startswith("Stored (id: ")
    assert scopes[0]["out"]["messages"][-1].content == "Ouch! Rest well."
    assert scopes[1]["llm"].i == 1  # the hand-built graph called its model once
    assert scopes[1]["graph"].get_state({"configurable": {"thread_id": "t1"}}).values["memory"]["turn"] == 1

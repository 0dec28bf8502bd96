"""``langgraph-memory``: inspect and administer a memory store from a terminal.

The store is the embedded one in ``--path DIR`` (default ``$LANGGRAPH_MEMORY_PATH``) or a
Qdrant server at ``--url URL`` (default ``$QDRANT_URL``, with ``--api-key`` /
``$QDRANT_API_KEY`` and ``--collection``). Namespaces are written as slash-separated text:
``memories/alice`` is ``("memories", "alice")``; a ``/`` inside a part is written ``%2F``.

Commands: list, search, show, stats, export, import, reembed, purge-expired, delete, restore, erase, digest, garden, ui. Each prints an
aligned table, or JSON with ``--json``. Errors print one line on stderr and exit non-zero
(1 for a failed command, 2 for a bad command line).
"""

from __future__ import annotations

import argparse
import importlib
import contextlib
import os
import sys
import warnings
from pathlib import Path
from typing import Any, Sequence, TextIO

# Only argparse at import: --help and a bad command line answer at once; the store (and
# what it imports) loads after the command line is parsed, the embedder only if a command
# embeds.

__all__ = ["main", "build_parser"]

PROG = "langgraph-memory"
ENV_PATH = "LANGGRAPH_MEMORY_PATH"
ENV_URL = "QDRANT_URL"
ENV_API_KEY = "QDRANT_API_KEY"
ENV_COLLECTION = "LANGGRAPH_MEMORY_COLLECTION"


class _Parser(argparse.ArgumentParser):
    """argparse, but a bad command line is one line on stderr, not usage + error."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


# -- command line -------------------------------------------------------------------------

ID_HELP = "memory id, or its first characters (e.g. the 8 that list shows) when no other id starts with them"
NAMESPACE_HELP = "slash-separated namespace, e.g. memories/alice for ('memories', 'alice')"


def _add_store_options(parser: argparse.ArgumentParser, *, sub: bool) -> None:
    # The same options on the main parser and every subcommand, so they may come before or
    # after the command; on subcommands SUPPRESS keeps an absent option from hiding a
    # value given before the command.
    default = argparse.SUPPRESS if sub else None
    group = parser.add_argument_group("store")
    group.add_argument("--path", metavar="DIR", default=default,
                       help=f"embedded store directory (default: ${ENV_PATH})")
    group.add_argument("--url", metavar="URL", default=default,
                       help=f"Qdrant server URL (default: ${ENV_URL})")
    group.add_argument("--api-key", metavar="KEY", default=default,
                       help=f"Qdrant API key for --url (default: ${ENV_API_KEY})")
    group.add_argument("--collection", metavar="NAME", default=default,
                       help=f"collection on the server (default: ${ENV_COLLECTION} or langgraph_memory)")
    group.add_argument("--embedder", metavar="NAME", default=default,
                       help="embedder of a new store: minilm (offline, English), e5 (offline, multilingual), "
                            "openai, or an OpenAI model name (default: the one the store recorded; for a "
                            "new store openai with $OPENAI_API_KEY, else minilm)")
    group.add_argument("--json", action="store_true", default=default,
                       help="print machine-readable JSON instead of a table")


def _add_filters(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--kind", action="append", metavar="KIND", help="fact, self or goal (repeatable)")
    parser.add_argument("--type", dest="memory_type", action="append", metavar="TYPE",
                        help="identity, goal, decision, todo, preference, fact, event or observation (repeatable)")
    parser.add_argument("--category", action="append", metavar="CAT", help="category of self/goal memories (repeatable)")
    parser.add_argument("--subject", action="append", metavar="TAG", help="subject tag (repeatable)")


def build_parser() -> argparse.ArgumentParser:
    """The ``langgraph-memory`` argument parser (also used to render ``--help``)."""
    parser = _Parser(
        prog=PROG,
        description="Inspect and administer a langgraph-memory store (embedded directory or Qdrant server).",
        epilog=(
            "Namespaces are slash-separated: memories/alice means ('memories', 'alice'); write a "
            "'/' inside a part as %2F. Exit status: 0 success, 1 failed command, 2 bad command line."
        ),
    )
    _add_store_options(parser, sub=False)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True, parser_class=_Parser)

    def command(name: str, summary: str, description: str) -> argparse.ArgumentParser:
        p = commands.add_parser(name, help=summary, description=description)
        _add_store_options(p, sub=True)
        return p

    p = command("list", "list memories, newest first",
                "List memories, most recently updated first, across all namespaces or in NAMESPACE and "
                "the namespaces under it. Only live memories unless --all.")
    p.add_argument("namespace", nargs="?", metavar="NAMESPACE", help=NAMESPACE_HELP)
    _add_filters(p)
    p.add_argument("--all", action="store_true", help="include superseded and expired records")
    p.add_argument("--limit", type=int, default=50, help="at most this many (default 50)")
    p.set_defaults(run="cmd_list")

    p = command("search", "search the memories of a namespace",
                "Search the live memories of NAMESPACE for QUERY (hybrid dense + BM25 by default), best first.")
    p.add_argument("namespace", metavar="NAMESPACE", help=NAMESPACE_HELP)
    p.add_argument("query", metavar="QUERY", help="text to search for")
    _add_filters(p)
    p.add_argument("--mode", choices=("hybrid", "dense", "bm25"), default="hybrid", help="ranking (default hybrid)")
    p.add_argument("--limit", type=int, default=10, help="at most this many hits (default 10)")
    p.add_argument("--min-importance", type=float, metavar="X", help="keep memories at least this important")
    p.set_defaults(run="cmd_search")

    p = command("show", "show one memory and its history",
                "Show the record ID (in whichever namespace it lives) and every version of its fact: "
                "the memories it superseded and what superseded it.")
    p.add_argument("id", metavar="ID", help=ID_HELP)
    p.set_defaults(run="cmd_show")

    p = command("stats", "count memories per namespace, kind and type",
                "Count records per namespace, kind and type: live, superseded, expired (not yet purged) "
                "and live ones expiring within --soon.")
    p.add_argument("namespace", nargs="?", metavar="NAMESPACE", help=f"only this namespace and below; {NAMESPACE_HELP}")
    p.add_argument("--soon", default="7d", metavar="TTL", help="window for 'expiring soon' (default 7d)")
    p.set_defaults(run="cmd_stats")

    p = command("export", "write the store to a JSON Lines file",
                "Export every record (live, superseded history, expired) with its vectors to FILE as "
                "JSON Lines: a header line, then one record per line. Import gives back an identical store.")
    p.add_argument("file", metavar="FILE", help="output file, or - for stdout")
    p.add_argument("--namespace", metavar="NAMESPACE", help=f"only this namespace and below; {NAMESPACE_HELP}")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress bar on stderr (default: when stderr is a terminal and the export is large)")
    p.set_defaults(run="cmd_export")

    p = command("import", "load a JSON Lines export into the store",
                "Import an export made by 'export'. Every line is validated first; a malformed line is "
                "reported as 'line N: problem' and nothing is imported. Records keep their ids, payloads, "
                "vectors and history; an id already in the store is replaced. Creates the store if needed.")
    p.add_argument("file", metavar="FILE", help="export file, or - for stdin")
    p.add_argument("--dry-run", action="store_true", help="validate only, write nothing")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress bar on stderr (default: when stderr is a terminal and the file is large)")
    p.set_defaults(run="cmd_import")

    p = command("reembed", "rebuild the store's vectors with another embedder",
                "Re-embed every memory, indexed exchange and room message with --embedder NAME. An embedded "
                "store (--path) is rebuilt beside itself and swapped in; the old directory is kept as "
                "DIR.before-reembed until you delete it. On a server (--url) the store is copied into "
                "--to-collection. Close every other user of the store first.")
    p.add_argument("--to-collection", metavar="NAME", help="on a server: the new collection to write")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress bar on stderr (default: when stderr is a terminal)")
    p.set_defaults(run="_reembed:cmd_reembed")

    p = command("purge-expired", "delete expired memories",
                "Delete memories whose TTL has passed (reads already hide them), in the whole store or in "
                "NAMESPACE and below.")
    p.add_argument("namespace", nargs="?", metavar="NAMESPACE", help=NAMESPACE_HELP)
    p.set_defaults(run="cmd_purge")

    p = command("delete", "forget one memory (restorable), or remove it with --hard",
                "Forget the live memory ID (in whichever namespace it lives), as the delete_memory tool "
                "does: it is no longer read, searched or injected, stays in its history with the reason, "
                "and 'restore' brings it back until the garden purges it (30 days by default, "
                "MEMORY_DECAY_FORGOTTEN_DAYS). --hard removes it at once with its older versions and "
                "links. Asks for confirmation on stdin unless --yes.")
    p.add_argument("id", metavar="ID", help=ID_HELP)
    p.add_argument("--reason", help="why, kept in its history")
    p.add_argument("--hard", action="store_true", help="remove at once, history included (not restorable)")
    p.add_argument("-y", "--yes", action="store_true", help="do not ask for confirmation")
    p.set_defaults(run="cmd_delete")

    p = command("restore", "bring back a forgotten or archived memory",
                "Make the forgotten (deleted) or archived memory ID live again: read, searched and "
                "injected. A forgotten memory past its retention window cannot be restored.")
    p.add_argument("id", metavar="ID", help=ID_HELP)
    p.set_defaults(run="_garden:cmd_restore")

    p = command("erase", "delete every memory of a namespace",
                "Delete every record of NAMESPACE and of the namespaces under it, history included. "
                "Asks for confirmation on stdin unless --yes.")
    p.add_argument("namespace", metavar="NAMESPACE", help=NAMESPACE_HELP)
    p.add_argument("-y", "--yes", action="store_true", help="do not ask for confirmation")
    p.set_defaults(run="cmd_erase")

    p = command("digest", "turn a room's live messages into facts now",
                "Run the digest of ROOM now: its live messages go to a chat model (ChatOpenAI with "
                "OPENAI_API_KEY, or --model MODULE:ATTR), the durable facts it finds are stored in "
                "NAMESPACE, and the messages read are removed.")
    p.add_argument("room", metavar="ROOM", help="the room's name, e.g. lobby")
    p.add_argument("--namespace", default="rooms/agent", metavar="NAMESPACE",
                   help=f"the rooms' namespace (default rooms/agent); {NAMESPACE_HELP}")
    p.add_argument("--model", metavar="MODULE:ATTR", help="a chat model, or a function returning one")
    p.add_argument("--max-messages", type=int, default=1000, help="at most this many messages (default 1000)")
    p.set_defaults(run="_digest:cmd_digest")

    p = command("garden", "fade, archive and purge unused memories",
                "Run one gardening pass over the whole store or NAMESPACE and below: unused memories fade, "
                "those below the minimum vitality or unused for the archive age are archived (hidden, "
                "restorable), old archives are purged. Calibration from the MEMORY_DECAY_* variables.")
    p.add_argument("namespace", nargs="?", metavar="NAMESPACE", help=NAMESPACE_HELP)
    p.add_argument("--dry-run", action="store_true", help="print what a pass would change, change nothing")
    p.set_defaults(run="_garden:cmd_garden")

    p = command("ui", "serve the memory browser",
                "Serve the memory browser (namespaces, memories, history, search, edit, delete, rooms, "
                "gardener) at http://HOST:PORT/ until interrupted. Anyone who can reach the address can read "
                "and change every memory: it listens on 127.0.0.1 unless --host says otherwise.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8765, help="port (default 8765)")
    p.add_argument("--model", metavar="MODULE:ATTR",
                   help="chat model for the rooms' 'digest now' (default: ChatOpenAI when OPENAI_API_KEY is set)")
    p.set_defaults(run="_ui:cmd_ui")
    return parser


# -- opening the store --------------------------------------------------------------------


class _NoStore(Exception):
    """The command line names no store, or two: said before anything heavy is imported."""


def _store_location(args: argparse.Namespace) -> tuple[str | None, str | None]:
    """``(path, url)``, exactly one of them set, from the options or the environment."""
    path = getattr(args, "path", None)
    url = getattr(args, "url", None)
    if path and url:
        raise _NoStore("give either --path (embedded store) or --url (Qdrant server), not both")
    if not path and not url:
        path = os.environ.get(ENV_PATH) or None
        url = None if path else os.environ.get(ENV_URL) or None
    if not path and not url:
        raise _NoStore(
            f"no store given: pass --path DIR (embedded) or --url URL (Qdrant server), "
            f"or set ${ENV_PATH} or ${ENV_URL}"
        )
    return path, url


def _open_store(
    args: argparse.Namespace, location: tuple[str | None, str | None], embeddings: Any, err: TextIO, *, create: bool
) -> Any:
    from langgraph_memory.cli._commands import CliError
    from langgraph_memory.store import MemoryStore

    path, url = location
    if path:
        from langgraph_memory.store.backends._edge_meta import MISSING, not_a_file
        from langgraph_memory.store.backends.edge import META_FILE, SHARD_DIR

        problem = None if create else not_a_file(Path(path) / META_FILE)
        if problem == MISSING and (Path(path) / SHARD_DIR).exists():
            raise CliError(f"the memory store at {path} has lost its {META_FILE} (its shard is there); "
                           "restore it from a backup")
        if problem == MISSING:
            raise CliError(f"no memory store at {path} ({META_FILE} not found)")
        if problem is not None:  # there, but a pipe, a directory, a device, a link to nowhere
            raise CliError(f"no memory store at {path}: its {META_FILE} is {problem}, not a regular file; "
                           "restore it from a backup or an export")
        return MemoryStore.open(path, embeddings=embeddings, _langchain_free=True)
    from qdrant_client import QdrantClient

    collection = getattr(args, "collection", None) or os.environ.get(ENV_COLLECTION) or "langgraph_memory"
    api_key = getattr(args, "api_key", None) or os.environ.get(ENV_API_KEY)
    with warnings.catch_warnings():
        # qdrant-client warns in several lines; one line of ours says the same.
        warnings.simplefilter("ignore")
        client = QdrantClient(url=url, api_key=api_key)
    if api_key and url.startswith("http://"):
        err.write(f"{PROG}: warning: the API key is sent unencrypted to {url}\n")
    try:
        try:
            exists = client.collection_exists(collection)
        except Exception as exc:
            raise CliError(f"cannot reach Qdrant at {url}: {exc}") from exc
        if not create and not exists:
            raise CliError(f"no collection {collection!r} at {url}")
        return MemoryStore(client=client, collection_name=collection, embeddings=embeddings, _langchain_free=True)
    except BaseException:
        client.close()
        raise


def _export_embedder(args: argparse.Namespace) -> str | None:
    """For ``import``: the embedder the export file names, if the package knows it (a new
    store is then made with it, whatever the environment; an existing store of another
    embedder refuses the file)."""
    if args.command != "import" or args.file == "-":
        return None
    import json

    try:
        with open(args.file, encoding="utf-8") as fh:
            header = json.loads(fh.readline())
    except (OSError, ValueError):
        return None  # import reports a missing or malformed file itself
    from langgraph_memory.store._embedder_catalog import known_embedder

    name = header.get("embedder") if isinstance(header, dict) else None
    return name if isinstance(name, str) and known_embedder(name) is not None else None


# -- entry point --------------------------------------------------------------------------


def main(
    argv: Sequence[str] | None = None,
    *,
    embeddings: Any = None,
    store: Any = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the CLI; returns the exit status.

    Args:
        argv: the arguments (default ``sys.argv[1:]``).
        embeddings: the embedder for stores the CLI opens (default: ``--embedder``, else the
            one the store recorded, else for a new store :func:`default_embeddings`; loaded
            only when a command embeds).
        store: an open :class:`MemoryStore` to act on instead of ``--path``/``--url``; it is
            left open (tests and embedding applications use this).
        stdout, stderr: where to write (default ``sys.stdout`` / ``sys.stderr``).
    """
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    parser = build_parser()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, or a bad command line (already reported)
        return exc.code if isinstance(exc.code, int) else 2
    if store is None:
        try:
            location = _store_location(args)
        except _NoStore as exc:
            err.write(f"{PROG}: error: {exc}\n")
            return 1
    from langgraph_memory.cli import _commands
    from langgraph_memory.errors import LangGraphMemoryError

    opened = None
    try:
        if store is None:
            creates = args.command == "import" and not args.dry_run
            # None: the embedder the store recorded (a new one: the default), built only
            # when a command embeds; the others never wait for the model (nor LangChain).
            if args.command == "reembed":
                # --embedder names the new embedder; the store opens with its own. An
                # embedded one is opened by the command, which must close it to swap it.
                embeddings = None
            elif embeddings is None:
                embeddings = getattr(args, "embedder", None) or _export_embedder(args)
            if args.command == "reembed" and location[0]:
                args.path = location[0]
            else:
                opened = store = _open_store(args, location, embeddings, err, create=creates)
        # A command is a function of _commands, or "module:function" in another cli module
        # (one that loads more, e.g. the digest's chat model).
        module, _, name = args.run.rpartition(":")
        commands = importlib.import_module(f"langgraph_memory.cli.{module}") if module else _commands
        return getattr(commands, name)(store, args, out, err)
    except BrokenPipeError:  # piped into `head`: the reader has what it wanted
        if out is sys.stdout:
            # Python would report the pipe again when it flushes stdout at exit.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except (_commands.CliError, LangGraphMemoryError, ValueError, OSError) as exc:
        err.write(f"{PROG}: error: {_one_line(exc)}\n")
        return 1
    except Exception as exc:  # a server or engine failure: still one line, with its type
        err.write(f"{PROG}: error: {type(exc).__name__}: {_one_line(exc)}\n")
        return 1
    except KeyboardInterrupt:
        err.write(f"\n{PROG}: interrupted\n")
        return 130
    finally:
        if opened is not None:
            opened.close()


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


if __name__ == "__main__":
    raise SystemExit(main())

"""``langgraph-memory ui``: serve the memory browser for the store the command line names."""

from __future__ import annotations

import argparse
import ipaddress
import os
from typing import Any, TextIO

from langgraph_memory.cli._commands import CliError

__all__ = ["cmd_ui"]


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def cmd_ui(store: Any, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Serve until interrupted; the store stays open (and locked) meanwhile."""
    if not 1 <= args.port <= 65535:
        raise CliError("--port must be from 1 to 65535")
    try:
        import uvicorn

        from langgraph_memory.ui import memory_browser
    except ImportError as exc:
        raise CliError(f"the memory browser needs the ui extra (pip install 'langgraph-memory[ui]'): {exc}") from exc
    model = None
    if args.model or os.environ.get("OPENAI_API_KEY"):
        from langgraph_memory.cli._digest import load_model

        model = load_model(args.model)
    if not _loopback(args.host):
        err.write(f"warning: listening on {args.host}: anyone who can reach it can read and change every memory\n")
    host = f"[{args.host}]" if ":" in args.host else args.host
    out.write(f"memory browser on http://{host}:{args.port}/ (Ctrl-C to stop)\n")
    out.flush()
    uvicorn.run(memory_browser(store, digest_model=model), host=args.host, port=args.port, log_level="warning")
    return 0

"""``langgraph-memory digest ROOM``: run one room's digest now, by hand."""

from __future__ import annotations

import argparse
import importlib
import os
from typing import Any, TextIO

from langgraph_memory.background.digest import digest
from langgraph_memory.cli._commands import CliError, _emit, parse_namespace, table

__all__ = ["cmd_digest", "load_model"]


def load_model(spec: str | None) -> Any:
    """The digest's chat model: ``MODULE:ATTR`` (a chat model, or a function returning
    one), else ``ChatOpenAI`` (``$OPENAI_MODEL``, default gpt-4o-mini) when
    ``OPENAI_API_KEY`` is set."""
    if spec:
        module, _, attr = spec.partition(":")
        if not module or not attr:
            raise CliError(f"--model expects MODULE:ATTR, got {spec!r}")
        try:
            found = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as exc:
            raise CliError(f"cannot load the model {spec!r}: {exc}") from exc
        return found() if callable(found) and not hasattr(found, "invoke") else found
    if os.environ.get("OPENAI_API_KEY"):
        from langchain_openai import ChatOpenAI

        return ChatOpenAI(model=os.environ.get("OPENAI_MODEL", "gpt-4o-mini"), temperature=0)
    raise CliError("the digest needs a chat model: set OPENAI_API_KEY or pass --model MODULE:ATTR")


def cmd_digest(store: Any, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    namespace = parse_namespace(args.namespace)
    model = load_model(args.model)
    report = digest(store, namespace=namespace, room=args.room, model=model, max_messages=args.max_messages)
    data = report.as_dict()

    def render() -> None:
        out.write(f"digest of #{report.room} ({args.namespace}){' (resumed)' if report.resumed else ''}\n")
        table(["read", "stored", "updated", "duplicate", "rejected", "seconds"],
              [[report.read, report.stored, report.updated, report.duplicate, report.rejected,
                f"{report.duration:.2f}"]], out)

    _emit(args, out, data, render)
    return 0

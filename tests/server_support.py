"""Starting and stopping a real ``langgraph dev`` for the server tests: a free local port,
its own memory store, its own log, stopped by its process group with nothing left behind."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest

ROOT = Path(__file__).resolve().parents[1]
READY_TIMEOUT = 150.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # a process exists but is not ours to signal
        return True
    return True


def stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM the server's process group (a clean shutdown releases the store), then
    SIGKILL whatever did not exit."""
    pgid = proc.pid  # start_new_session=True: the server leads its own group
    if group_alive(pgid):
        os.killpg(pgid, signal.SIGTERM)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(pgid, signal.SIGKILL)
        proc.wait(timeout=10)
    deadline = time.monotonic() + 15
    while group_alive(pgid) and time.monotonic() < deadline:
        time.sleep(0.2)
    if group_alive(pgid):
        os.killpg(pgid, signal.SIGKILL)


def wait_ready(proc: subprocess.Popen[bytes], url: str, log: Path) -> None:
    deadline = time.monotonic() + READY_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"langgraph dev exited with {proc.returncode}:\n{log.read_text(errors='replace')}")
        try:
            with urllib.request.urlopen(f"{url}/ok", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.5)
    pytest.fail(f"langgraph dev not ready after {READY_TIMEOUT:.0f} s:\n{log.read_text(errors='replace')}")


def serve(tmp_path: Path, config: Path | None = None) -> Iterator[dict[str, Any]]:
    port = free_port()
    memory_path = tmp_path / "memory"
    log = tmp_path / "langgraph_dev.log"
    env = {
        **os.environ,
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "LANGGRAPH_NO_VERSION_CHECK": "true",
        "LANGGRAPH_MEMORY_PATH": str(memory_path),
        "LANGSMITH_TRACING": "false",
        "LANGCHAIN_TRACING_V2": "false",
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
    }
    env.pop("OPENAI_API_KEY", None)  # the offline model and embedder
    # --no-reload: the embedded store is opened by one process at a time.
    command = [sys.executable, "-m", "langgraph_cli", "dev", "--host", "127.0.0.1", "--port", str(port),
               "--no-browser", "--no-reload"]
    if config is not None:
        command += ["--config", str(config)]
    with log.open("wb") as out:
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    server = {"url": f"http://127.0.0.1:{port}", "memory_path": memory_path, "log": log, "proc": proc}
    try:
        wait_ready(proc, server["url"], log)
        yield server
    finally:
        stop(proc)
    assert proc.returncode is not None
    assert not group_alive(proc.pid), "langgraph dev left a process behind"

"""The CLI's progress bar, for commands that read or write many records."""

from __future__ import annotations

from typing import TextIO

# Below this many records a progress bar only flickers; --progress forces it anyway.
PROGRESS_MIN_RECORDS = 1000


class ProgressBar:
    """A one-line ``\\r`` bar on a stream; redrawn only when the percentage moves."""

    def __init__(self, stream: TextIO, enabled: bool) -> None:
        self.stream = stream
        self.enabled = enabled
        self._last: tuple[str, int] | None = None

    def __call__(self, phase: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        pct = 100 if total <= 0 else min(100, done * 100 // total)
        if self._last == (phase, pct):
            return
        if self._last is not None and self._last[0] != phase:
            self.stream.write("\n")
        self._last = (phase, pct)
        filled = pct * 30 // 100
        unit = "bytes" if phase == "validate" else "records"
        self.stream.write(f"\r{phase:<8} [{'#' * filled}{'.' * (30 - filled)}] {pct:3d}% {done}/{total} {unit}")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled and self._last is not None:
            self.stream.write("\n")
            self.stream.flush()


def want_progress(flag: bool | None, stream: TextIO, large: bool) -> bool:
    """``--progress`` / ``--no-progress`` when given, else a bar for large work on a terminal."""
    if flag is not None:
        return flag
    return large and bool(getattr(stream, "isatty", lambda: False)())

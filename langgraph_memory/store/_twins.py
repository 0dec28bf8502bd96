"""Async twins of sync store methods."""

from __future__ import annotations

import asyncio
import functools
from typing import Any, Awaitable, Callable, Concatenate, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


def async_twin(fn: Callable[Concatenate[Any, P], R]) -> Callable[Concatenate[Any, P], Awaitable[R]]:
    """The async twin of a store method: same arguments, run in a worker thread so the
    event loop never blocks on embedding or storage."""

    @functools.wraps(fn)
    async def twin(self: Any, *args: P.args, **kwargs: P.kwargs) -> R:
        return await asyncio.to_thread(fn, self, *args, **kwargs)

    twin.__doc__ = f"Async twin of :meth:`{fn.__name__}`.\n\n{fn.__doc__ or ''}"
    twin.__name__ = twin.__qualname__ = f"a{fn.__name__}"
    return twin

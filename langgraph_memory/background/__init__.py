"""Work that never runs on a turn's path: the worker, exchange indexing, room observation
and the digest, the gardener, and their scheduler.

It may import ``store``, never ``agent`` or ``cli``. ``worker`` is the worker;
``exchanges`` queues conversation indexing on it.
"""

"""What LangGraph users wire into a graph: the pre-hook's selection policy (``injection``),
the pre- and post-hook nodes and state (``hooks``), the memory tools, the ``create_agent``
middleware, the reference graph and the prompts.

It may import ``store`` and ``background``, never ``cli``. Importing this package loads
nothing: each module is imported on its own, so the store stays light without LangGraph.
"""

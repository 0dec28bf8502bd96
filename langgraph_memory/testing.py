"""A scripted chat model for tests, notebooks and the offline demo.

No LLM is needed to exercise a memory graph: the model's words are scripted, while the
store, the embeddings and the graph are real. The model also records every list of
messages it receives, so tests can check what was injected.
"""

from __future__ import annotations

from typing import Any, Sequence

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

__all__ = ["ScriptedChatModel", "digest_reply", "tool_call"]


def tool_call(name: str, args: dict[str, Any], call_id: str | None = None) -> dict[str, Any]:
    """A tool call for a scripted ``AIMessage(content="", tool_calls=[...])``."""
    import uuid

    return {"name": name, "args": args, "id": call_id or f"call_{uuid.uuid4().hex[:12]}", "type": "tool_call"}


def digest_reply(*facts: dict[str, Any] | str) -> AIMessage:
    """A scripted digest answer: the ``DigestFacts`` structured output as a tool call.

    Each fact is a dict (``content``, ``subjects``, ``memory_type``, ``ttl``) or a text.
    ``ScriptedChatModel().say(digest_reply("David part en Grèce", ...))`` then serves
    :func:`~langgraph_memory.digest`, whose ``with_structured_output`` reads it.
    """
    items = [f if isinstance(f, dict) else {"content": f} for f in facts]
    return AIMessage(content="", tool_calls=[tool_call("DigestFacts", {"facts": items})])


class ScriptedChatModel(FakeMessagesListChatModel):
    """Answers with ``responses`` in order and records its inputs; running out of scripted
    replies is an error, so a test never silently reuses an old answer.

    ``bind_tools`` returns the model itself, so it works wherever a tool-calling model is
    expected: ``create_agent``, ``create_react_agent``, or a hand-written model node.
    """

    received: list[list[BaseMessage]] = Field(default_factory=list)
    """Every message list the model was called with, in call order."""

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> "ScriptedChatModel":  # type: ignore[override]
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.received.append(list(messages))
        if self.i >= len(self.responses):
            raise IndexError(
                f"ScriptedChatModel was called {len(self.received)} times but has "
                f"{len(self.responses)} scripted replies; add more with .say(...)"
            )
        reply = self.responses[self.i]
        self.i += 1
        return ChatResult(generations=[ChatGeneration(message=reply)])

    def say(self, *messages: AIMessage | str) -> "ScriptedChatModel":
        """Append scripted replies; a string becomes a plain ``AIMessage``."""
        self.responses.extend(m if isinstance(m, AIMessage) else AIMessage(content=m) for m in messages)
        return self

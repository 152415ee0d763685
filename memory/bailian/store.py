"""One traveller's memory in Bailian: the calls `BailianMemory` makes, namespace-scoped.

Every call carries the traveller's `user_id` (`target.user_id(namespace)`), and what
comes back is read by `nodes.read_nodes`, which drops anything of another entity. Search
requests go out with the privacy rules' sensitive spans redacted (`privacy.redact`).
"""

from __future__ import annotations

import concurrent.futures
import logging
from collections.abc import Sequence
from typing import Any

from memory.bailian.client import JSON, BailianClient
from memory.bailian.errors import BailianBadResponse, BailianError, BailianRequestError
from memory.bailian.nodes import Node, Snapshot, read_nodes, read_profile
from memory.bailian.target import user_id
from memory.bailian.visibility import EventState
from memory.privacy import redact
from memory.settings import MemorySettings

log = logging.getLogger(__name__)

PAGE_SIZE = 50
_FINISHED = frozenset({"SUCCEEDED", "FAILED", "UNRECORDED"})


class BailianStore:
    """Thread-safe; owns the client and a few threads to ask two things at once."""

    def __init__(self, client: BailianClient, settings: MemorySettings) -> None:
        self.client = client
        self.settings = settings
        self.profile_schema_id = settings.bailian_profile_schema_id.strip()
        self._pool = concurrent.futures.ThreadPoolExecutor(4, thread_name_prefix="bailian")
        self._profile_warned = False

    # -- writes -------------------------------------------------------------------------

    def add(self, namespace: str, texts: Sequence[str], source: str, *, wait: bool) -> JSON:
        """One add (or add-async) call with each text as a user message."""
        body: dict[str, Any] = {
            "user_id": user_id(namespace),
            "messages": [{"role": "user", "content": text} for text in texts],
            "meta_data": {"source": source},
        }
        if self.profile_schema_id:
            body["profile_schema"] = self.profile_schema_id
        if self.client.target.project_id:
            body["project_id"] = self.client.target.project_id
        return self.client.add(body, wait=wait)

    def event_state(self, event_id: str) -> EventState:
        """ "pending" until every task of an add-async event is finished."""
        events = self.client.event(event_id).get("events")
        if not isinstance(events, list) or not events:
            return "pending"
        states = [str(e.get("status") or "").upper() for e in events if isinstance(e, dict)]
        if not states or any(state not in _FINISHED for state in states):
            return "pending"
        if "FAILED" in states:
            details = [str(e.get("detail") or "")[:120] for e in events if isinstance(e, dict)]
            log.warning("bailian extraction failed for an accepted write: %s", "; ".join(details))
            return "failed"
        return "succeeded"

    def delete(self, node_id: str) -> bool:
        return self.client.delete_node(node_id)

    # -- reads --------------------------------------------------------------------------

    def search(self, namespace: str, query: str, top_k: int) -> list[Node]:
        s = self.settings
        body = {
            "user_id": user_id(namespace),
            # The request is sent, so what the privacy rules find in it is not.
            "messages": [{"role": "user", "content": redact(query)}],
            "top_k": top_k,
            "min_score": s.bailian_min_score,
            "enable_rerank": s.bailian_rerank,
            "enable_rewrite": s.bailian_rewrite,
            "plan_version": "Pro" if s.bailian_rerank else "Lite",
        }
        return read_nodes(self.client.search(body), user_id(namespace))

    def nodes(self, namespace: str) -> list[Node]:
        """Every node of the traveller, newest first (pages of 50, up to the namespace cap)."""
        uid = user_id(namespace)
        found: dict[str, Node] = {}
        pages = self.settings.memory_max_facts_per_namespace // PAGE_SIZE + 1
        for page in range(1, pages + 1):
            answer = self.client.list_nodes(uid, page_num=page, page_size=PAGE_SIZE)
            raw = answer.get("memory_nodes", [])
            if not isinstance(raw, list):
                raise BailianBadResponse("ListMemory answered without a memory_nodes list")
            for node in read_nodes(answer, uid):
                found.setdefault(node.id, node)
            total = answer.get("total")
            if len(raw) < PAGE_SIZE or (isinstance(total, int) and page * PAGE_SIZE >= total):
                break
        return sorted(found.values(), key=lambda n: n.created_at, reverse=True)

    def profile(self, namespace: str) -> dict[str, str]:
        """The traveller's profile attributes ({} without BAILIAN_PROFILE_SCHEMA_ID)."""
        if not self.profile_schema_id:
            return {}
        try:
            answer = self.client.user_profile(self.profile_schema_id, user_id(namespace))
        except BailianRequestError as exc:  # a wrong schema id: say so once, go on without
            if not self._profile_warned:
                self._profile_warned = True
                log.error(
                    "Bailian does not know BAILIAN_PROFILE_SCHEMA_ID (%s); run "
                    "`travel-bot memory bailian-init`. Going on without the profile.",
                    exc,
                )
            return {}
        return read_profile(answer)

    def search_with_profile(
        self, namespace: str, query: str, top_k: int
    ) -> tuple[list[Node], dict[str, str]]:
        """`search` and `profile` at once (two round trips in the time of one)."""
        profile = self._pool.submit(self.profile, namespace)
        nodes = self.search(namespace, query, top_k)
        return nodes, profile.result()

    def snapshot(self, namespace: str) -> Snapshot:
        """Every node and the profile, asked at once."""
        profile = self._pool.submit(self.profile, namespace)
        nodes = self.nodes(namespace)
        return Snapshot(tuple(nodes), profile.result())

    def ping(self) -> bool:
        try:
            self.client.list_profile_schemas(page_num=1, page_size=1)
        except BailianError:
            return False
        return True

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        self.client.close()


__all__ = ["PAGE_SIZE", "BailianStore"]

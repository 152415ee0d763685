"""A small synchronous client of Bailian's memory API (长期记忆 API), over httpx.

Calls and fields are those of the API reference (docs/bailian.md has the contract and the
links): `POST add`, `POST add-async`, `GET events/{id}`, `POST memory_nodes/search`,
`GET memory_nodes`, `DELETE memory_nodes/{id}`, and the profile-schema calls. Answers
are returned as the JSON objects the service sent; `memory.bailian.nodes` reads them.

Behaviour on failure, as the error-code page recommends
(https://help.aliyun.com/zh/model-studio/long-term-memory-api-reference, "错误码"):

- 429 and 5xx are retried, at most `max_retries` times, after 1 s, 2 s, 4 s
  (`backoff` doubled) or after the `Retry-After` the service sent; a Retry-After longer
  than `max_retry_wait` is not waited for (the call fails at once, so a traveller's turn
  never hangs on it). Other 4xx are never retried.
- A request that never reached the service (connection refused, DNS, connect timeout)
  is retried; a read timeout only for reads: `add` has no idempotency key, so a write
  that may have arrived is not sent twice.
- 401/403 (a wrong key, another workspace's or region's key) is logged once, clearly,
  then calls fail fast for `auth_retry_after` seconds instead of asking again.
- Request bodies are never logged (they are the travellers' preferences).
"""

from __future__ import annotations

import email.utils
import logging
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

import httpx

from memory.bailian.errors import (
    BailianAuthError,
    BailianBadResponse,
    BailianError,
    BailianRateLimited,
    BailianRequestError,
    BailianServerError,
    BailianUnreachable,
)
from memory.bailian.limiter import Kind, RateLimiter
from memory.bailian.target import BailianTarget

log = logging.getLogger(__name__)

JSON = dict[str, Any]
_RETRIED = frozenset({429, 500, 502, 503, 504})
_USER_AGENT = "travel-memory-bot (memory.bailian)"


class BailianClient:
    """Thread-safe; one per process (it keeps a connection pool)."""

    def __init__(
        self,
        *,
        base_url: str,
        api_key: str,
        target: BailianTarget,
        limiter: RateLimiter,
        timeout: float = 10.0,
        max_retries: int = 3,
        backoff: float = 1.0,
        max_retry_wait: float = 10.0,
        auth_retry_after: float = 30.0,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = base_url.rstrip("/") + "/"
        self.target = target
        self.limiter = limiter
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff = backoff
        self.max_retry_wait = max_retry_wait
        self.auth_retry_after = auth_retry_after
        self._sleep = sleep
        self._auth_failed_at: float | None = None
        self._auth_logged = False
        self._lock = threading.Lock()
        self._http = httpx.Client(
            base_url=self.base_url,
            timeout=httpx.Timeout(timeout, connect=min(timeout, 5.0)),
            headers={
                "Authorization": f"Bearer {api_key}",
                "Content-Type": "application/json",
                "User-Agent": _USER_AGENT,
            },
            transport=transport,
        )

    # -- memory nodes -------------------------------------------------------------------

    def add(self, body: Mapping[str, Any], *, wait: bool) -> JSON:
        """`POST add` (synchronous extraction) or, with `wait=False`, `POST add-async`."""
        path = "add" if wait else "add-async"
        return self.call("POST", path, kind="add", body={**body, **self.target.scope()})

    def event(self, event_id: str) -> JSON:
        return self.call("GET", f"events/{_segment(event_id)}", idempotent=True)

    def search(self, body: Mapping[str, Any]) -> JSON:
        body = {**body, **self.target.scope()}
        if self.target.project_id:
            body["project_ids"] = [self.target.project_id]
        return self.call("POST", "memory_nodes/search", kind="search", body=body, idempotent=True)

    def list_nodes(self, user_id: str, *, page_num: int, page_size: int) -> JSON:
        params: dict[str, Any] = {"user_id": user_id, "page_num": page_num, "page_size": page_size}
        params.update(self._project())
        params.update(self.target.scope())
        return self.call("GET", "memory_nodes", params=params, idempotent=True)

    def delete_node(self, node_id: str) -> bool:
        """Delete one node; False when the service no longer knows it (404)."""
        try:
            self.call(
                "DELETE",
                f"memory_nodes/{_segment(node_id)}",
                params=self.target.scope(),
                idempotent=True,
            )
        except BailianRequestError as exc:
            if exc.status == 404:
                return False
            raise
        return True

    # -- profiles -----------------------------------------------------------------------

    def user_profile(self, schema_id: str, user_id: str) -> JSON:
        return self.call(
            "GET",
            f"profile_schemas/{_segment(schema_id)}/user_profile",
            params={"user_id": user_id, **self.target.scope()},
            idempotent=True,
        )

    def list_profile_schemas(self, *, page_num: int, page_size: int) -> JSON:
        params = {"page_num": page_num, "page_size": page_size, **self.target.scope()}
        return self.call("GET", "profile_schemas", params=params, idempotent=True)

    def get_profile_schema(self, schema_id: str) -> JSON:
        path = f"profile_schemas/{_segment(schema_id)}"
        return self.call("GET", path, params=self.target.scope(), idempotent=True)

    def create_profile_schema(self, body: Mapping[str, Any]) -> JSON:
        return self.call("POST", "profile_schemas", body={**body, **self.target.scope()})

    # -- plumbing -----------------------------------------------------------------------

    def _project(self) -> dict[str, str]:
        return {"project_id": self.target.project_id} if self.target.project_id else {}

    def call(
        self,
        method: str,
        path: str,
        *,
        kind: Kind = "other",
        body: Mapping[str, Any] | None = None,
        params: Mapping[str, Any] | None = None,
        idempotent: bool = False,
    ) -> JSON:
        """One API call with the retries described in the module docstring."""
        self._check_auth()
        attempt = 0
        while True:
            if not self.limiter.acquire(kind, max_wait=self.timeout):
                raise BailianRateLimited(f"{method} {path}: over this process's rate limit")
            try:
                response = self._http.request(method, path, json=body, params=params)
            except httpx.TransportError as exc:
                sent = not isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout)
                if attempt >= self.max_retries or (sent and not idempotent):
                    raise BailianUnreachable(
                        f"{method} {path}: no answer from Bailian ({type(exc).__name__})"
                    ) from exc
                self._sleep(self.backoff * 2**attempt)
                attempt += 1
                continue
            if response.status_code < 300:
                self._auth_ok()
                return _json(response, method, path)
            error = _error(response, method, path)
            if response.status_code in (401, 403):
                self._auth_failed(error)
                raise error
            if response.status_code not in _RETRIED or attempt >= self.max_retries:
                raise error
            wait = _retry_after(response)
            if wait is None:
                wait = self.backoff * 2**attempt
            elif wait > self.max_retry_wait:
                raise type(error)(
                    f"{error} (Retry-After {wait:.0f} s is longer than we wait)",
                    status=error.status,
                    code=error.code,
                    request_id=error.request_id,
                ) from None
            log.info("bailian %s %s: HTTP %d, retrying in %.1f s", method, path, error.status, wait)
            self._sleep(wait)
            attempt += 1

    def _check_auth(self) -> None:
        with self._lock:
            failed = self._auth_failed_at
        if failed is not None and time.monotonic() - failed < self.auth_retry_after:
            raise BailianAuthError("Bailian refused the API key (not asked again yet)", status=401)

    def _auth_failed(self, error: BailianError) -> None:
        with self._lock:
            self._auth_failed_at = time.monotonic()
            first, self._auth_logged = not self._auth_logged, True
        if first:
            log.error(
                "Bailian refused the API key (HTTP %d %s): check DASHSCOPE_API_KEY, and that "
                "BAILIAN_BASE_URL is the endpoint of the key's workspace (memory is on the "
                "China site only); recall answers 'unavailable' until it is fixed",
                error.status,
                error.code or "no code",
            )

    def _auth_ok(self) -> None:
        if self._auth_failed_at is not None:
            with self._lock:
                self._auth_failed_at, self._auth_logged = None, False

    def close(self) -> None:
        self._http.close()


def _segment(value: str) -> str:
    """An id as one path segment (ids are hex; anything else is refused, never re-routed)."""
    if not value or any(ch in value for ch in "/?#%\\") or value in (".", ".."):
        raise BailianRequestError(f"not an id: {value!r}", status=400)
    return value


def _json(response: httpx.Response, method: str, path: str) -> JSON:
    try:
        data = response.json()
    except ValueError as exc:
        raise BailianBadResponse(
            f"{method} {path}: the answer is not JSON", status=response.status_code
        ) from exc
    if not isinstance(data, dict):
        raise BailianBadResponse(
            f"{method} {path}: the answer is not a JSON object", status=response.status_code
        )
    return data


def _error(response: httpx.Response, method: str, path: str) -> BailianError:
    status = response.status_code
    try:
        data = response.json()
    except ValueError:
        data = None
    data = data if isinstance(data, dict) else {}
    code = str(data.get("code") or "")
    request_id = str(data.get("request_id") or response.headers.get("x-request-id") or "")
    message = f"{method} {path}: HTTP {status}" + (f" {code}" if code else "")
    if data.get("message"):
        message += f": {str(data['message'])[:200]}"
    kind: type[BailianError]
    if status in (401, 403):
        kind = BailianAuthError
    elif status == 429:
        kind = BailianRateLimited
    elif status >= 500:
        kind = BailianServerError
    else:
        kind = BailianRequestError
    return kind(message, status=status, code=code, request_id=request_id)


def _retry_after(response: httpx.Response) -> float | None:
    """The `Retry-After` header in seconds (a number or an HTTP date), None without one."""
    value = response.headers.get("retry-after", "").strip()
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        moment = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, moment.timestamp() - time.time())


__all__ = ["JSON", "BailianClient"]

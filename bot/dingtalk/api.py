"""DingTalk's OpenAPI and a message's session webhook, over httpx.

`dingtalk-stream` makes none of the calls a reply needs beyond the session webhook, so
they live here:

- `OpenAPI.token()`: the app's access token (`POST /v1.0/oauth2/accessToken`), cached
  until shortly before it expires and fetched again after a 401;
- `OpenAPI.send_to_users(...)` / `send_to_group(...)`: the robot's one-to-one
  (`/v1.0/robot/oToMessages/batchSend`) and group (`/v1.0/robot/groupMessages/send`)
  sends; `msgParam` is a JSON *string*, as DingTalk wants it;
- `OpenAPI.post_webhook(url, payload)`: a reply through a message's `sessionWebhook`,
  which needs no token and answers `{"errcode": 0}` when it took the message (an expired
  one answers errcode 300001, "session 不存在"). Only a session webhook DingTalk could
  have handed out is ever posted to (`webhook_allowed`): `/robot/sendBySession` on
  DingTalk's documented origins (`https://oapi.dingtalk.com`, the session webhooks'
  host, and `https://api.dingtalk.com`, the OpenAPI's) or on the origin of
  `DINGTALK_API_URL` (scheme, host and port exactly; its path prefix too), no user
  info, no redirect followed. Anything else a callback names (another host, an
  internal address, a custom robot's `/robot/send`) is never requested;
- AI cards (`bot.dingtalk.ai_card`): `create_and_deliver_card(body)` (a card instance
  from a template, delivered to a chat: `POST /v1.0/card/instances/createAndDeliver`;
  a delivery DingTalk reports as failed raises too; like a message, never sent again once
  it may have reached DingTalk), `stream_card(...)` (a card field's
  text as it is written: `PUT /v1.0/card/streaming`) and `update_card(...)` (the
  instance's data, e.g. its `flowStatus`: `PUT /v1.0/card/instances`).

Every failure raises `DingTalkError` whose `reason` is fit for the log (DingTalk's error
code or the HTTP status, never the message). A rate limit (HTTP 403 with a
`...QpsLimit...` code, HTTP 429, or a staff id in `flowControlledStaffIdList`) is waited
out and retried; so are network errors and 5xx answers, a few times, within a patience.
DingTalk's message sends take no idempotency key (a resent request is a second message),
so a send that failed after it may have reached DingTalk (a read error or timeout, a
connection closed after the request: `bot.retry.never_sent` is False) is never sent
again: it raises `DingTalkError` with `maybe_sent` set. An HTTP 500 or 504 (`MAYBE_DONE`)
may have posted too, yet is read so only for the sends that ask (`maybe_done=True`: an
approval's telling or an approver's card, where a second copy misleads and the flows
say "unconfirmed" instead); a chat reply's 500/504 is retried within the patience, as
a lost answer is worse than a duplicate. A session webhook that could not be reached at
all (refused, connect timeout) is tried once more after a short pause; one that answers
an HTTP error raises without `maybe_sent`, so the reply goes again by the OpenAPI.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import httpx

from bot.retry import never_sent, once_more_if_never_sent, retry_after

log = logging.getLogger(__name__)

DEFAULT_API_URL = "https://api.dingtalk.com"
# DingTalk's own origins: the session webhooks' host and the OpenAPI's.
DINGTALK_ORIGINS = ("https://oapi.dingtalk.com", "https://api.dingtalk.com")
WEBHOOK_PATH = "/robot/sendBySession"
TOKEN_MARGIN_SECONDS = 300  # fetch a new token this long before the old one expires
MAX_ATTEMPTS = 4
RATE_LIMIT_WAIT = 1.0  # DingTalk's QPS limits are per second
PATIENCE = 8.0  # the longest a call waits out rate limits and outages in total
WEBHOOK_TIMEOUT = 5.0
# A server error or a gateway's time-out after the request reached DingTalk: it may have
# acted before failing (a 502 or 503 says it did not get that far).
MAYBE_DONE = frozenset({500, 504})


class DingTalkError(Exception):
    """A call DingTalk refused, or one that could not be made; `maybe_sent`: it failed
    after the request may have reached DingTalk, so it may have been acted on; `errcode`:
    the code DingTalk answered with, when it named one."""

    def __init__(
        self,
        reason: str,
        *,
        status: int | None = None,
        maybe_sent: bool = False,
        errcode: str | None = None,
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status
        self.maybe_sent = maybe_sent
        self.errcode = errcode


class OpenAPI:
    """The robot's calls to DingTalk's OpenAPI; thread-safe."""

    def __init__(
        self,
        *,
        client_id: str,
        client_secret: str,
        robot_code: str = "",
        base_url: str = DEFAULT_API_URL,
        timeout: float = 10.0,
        patience: float = PATIENCE,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.client_id = client_id
        self.robot_code = robot_code or client_id
        self.base_url = base_url.rstrip("/")
        self.patience = patience
        self._secret = client_secret
        self._sleep = sleep
        self._http = httpx.Client(timeout=timeout)
        self._lock = threading.Lock()
        self._token: tuple[str, float] | None = None  # (token, monotonic time it goes stale)

    def close(self) -> None:
        self._http.close()

    # -- the access token ---------------------------------------------------------------------

    def token(self) -> str:
        """The access token, fetched when there is none or it is about to expire."""
        with self._lock:
            if self._token is not None and time.monotonic() < self._token[1]:
                return self._token[0]
            body = {"appKey": self.client_id, "appSecret": self._secret}
            try:
                response = self._http.post(f"{self.base_url}/v1.0/oauth2/accessToken", json=body)
            except httpx.HTTPError as exc:
                raise DingTalkError(f"token: {type(exc).__name__}") from exc
            data = _json(response)
            token, expires = data.get("accessToken"), data.get("expireIn")
            if response.status_code != 200 or not isinstance(token, str) or not token:
                raise DingTalkError(
                    f"token: {_error_code(response, data)}", status=response.status_code
                )
            lifetime = float(expires) if isinstance(expires, int | float) else 7200.0
            stale_at = time.monotonic() + max(60.0, lifetime - TOKEN_MARGIN_SECONDS)
            self._token = (token, stale_at)
            return token

    def invalidate_token(self, token: str) -> None:
        """Forget `token` (DingTalk refused it); the next call fetches a new one."""
        with self._lock:
            if self._token is not None and self._token[0] == token:
                self._token = None

    # -- robot messages -----------------------------------------------------------------------

    def send_to_users(
        self,
        user_ids: Sequence[str],
        msg_key: str,
        msg_param: Mapping[str, Any],
        *,
        maybe_done: bool = False,
    ) -> None:
        """The robot's one-to-one message to each staff id (at most 20); `maybe_done`: a
        500/504 raises `maybe_sent` instead of being retried (see the module docstring)."""
        body = {
            "robotCode": self.robot_code,
            "userIds": list(user_ids),
            "msgKey": msg_key,
            "msgParam": json.dumps(msg_param, ensure_ascii=False),
        }
        path, to = "/v1.0/robot/oToMessages/batchSend", list(user_ids)
        self._call(path, body, recipients=to, resend=False, maybe_done=maybe_done)

    def send_to_group(
        self,
        conversation_id: str,
        msg_key: str,
        msg_param: Mapping[str, Any],
        *,
        maybe_done: bool = False,
    ) -> None:
        """The robot's message in a group it is a member of (`openConversationId`);
        `maybe_done` as for `send_to_users`."""
        body = {
            "robotCode": self.robot_code,
            "openConversationId": conversation_id,
            "msgKey": msg_key,
            "msgParam": json.dumps(msg_param, ensure_ascii=False),
        }
        self._call("/v1.0/robot/groupMessages/send", body, resend=False, maybe_done=maybe_done)

    def webhook_allowed(self, url: str) -> bool:
        """Whether `url` is a session webhook DingTalk could have handed out (see the
        module docstring): only such a URL is ever posted to."""
        return _webhook_url(url, self.base_url) is not None

    def post_webhook(self, url: str, payload: Mapping[str, Any]) -> None:
        """A reply through a message's session webhook; `DingTalkError` unless it took it
        (or when `url` is not DingTalk's: nothing is sent then). A webhook that could not
        be reached is tried once more; one that may have taken the reply without
        answering raises with `maybe_sent`."""
        target = _webhook_url(url, self.base_url)
        if target is None:
            raise DingTalkError("webhook: not on a DingTalk origin")
        try:
            response = once_more_if_never_sent(
                lambda: self._http.post(target, json=dict(payload), timeout=WEBHOOK_TIMEOUT),
                what="DingTalk session webhook",
                sleep=self._sleep,
            )
        except httpx.HTTPError as exc:
            reason = f"webhook: {type(exc).__name__}"
            raise DingTalkError(reason, maybe_sent=not never_sent(exc)) from exc
        data = _json(response)
        errcode = data.get("errcode", 0)
        if response.status_code != 200 or errcode not in (0, "0", None):
            reason = (
                f"errcode {errcode}" if errcode not in (0, None) else f"HTTP {response.status_code}"
            )
            raise DingTalkError(
                f"webhook: {reason}",
                status=response.status_code,
                errcode=str(errcode) if errcode not in (0, None) else None,
            )

    # -- AI cards -------------------------------------------------------------------------------

    def create_and_deliver_card(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """Create a card instance and deliver it; DingTalk's `result`. A card in the chat
        is a message: never sent again once it may have reached DingTalk (its
        documentation names no answer to an `outTrackId` used twice), `maybe_sent`."""
        data = self._call("/v1.0/card/instances/createAndDeliver", body, resend=False)
        result = data.get("result") if isinstance(data.get("result"), dict) else {}
        delivered = result.get("deliverResults") if isinstance(result, dict) else None
        for outcome in delivered or []:
            if isinstance(outcome, dict) and outcome.get("success") is False:
                raise DingTalkError(f"card delivery: {outcome.get('errorMsg') or 'failed'}")
        return result if isinstance(result, dict) else {}

    def stream_card(
        self,
        out_track_id: str,
        key: str,
        content: str,
        *,
        guid: str,
        full: bool = True,
        finalize: bool = False,
        error: bool = False,
    ) -> None:
        """Show `content` in the card field `key` (the whole text when `full`); `finalize`
        ends the field's streaming (the AI card turns from "typing" to done)."""
        body = {
            "outTrackId": out_track_id,
            "guid": guid,
            "key": key,
            "content": content,
            "isFull": full,
            "isFinalize": finalize,
            "isError": error,
        }
        self._call("/v1.0/card/streaming", body, method="PUT")

    def update_card(self, out_track_id: str, params: Mapping[str, str]) -> None:
        """Change a card instance's data (`cardParamMap`: strings only)."""
        body = {"outTrackId": out_track_id, "cardData": {"cardParamMap": dict(params)}}
        self._call("/v1.0/card/instances", body, method="PUT")

    # -- one call, with its retries -----------------------------------------------------------

    def _call(
        self,
        path: str,
        body: Mapping[str, Any],
        *,
        recipients: Sequence[str] = (),
        method: str = "POST",
        resend: bool = True,
        maybe_done: bool = False,
    ) -> dict[str, Any]:
        """One call with its retries; `resend=False` for a call DingTalk does not
        deduplicate (a message): never sent again once it may have reached DingTalk;
        `maybe_done`: a 500/504 counts as such (else it is retried)."""
        waited = 0.0
        refreshed = False
        reason = "no attempt"
        for attempt in range(1, MAX_ATTEMPTS + 1):
            delay: float
            token = ""
            try:
                token = self.token()
                headers = {"x-acs-dingtalk-access-token": token}
                response = self._http.request(
                    method, f"{self.base_url}{path}", json=dict(body), headers=headers
                )
            except DingTalkError as exc:  # no token: DingTalk's token service failed
                if exc.status is not None and 400 <= exc.status < 500:
                    raise  # refused credentials do not mend by waiting
                reason, delay = exc.reason, 0.5 * attempt
            except httpx.HTTPError as exc:
                if not resend and not never_sent(exc):
                    reason = f"{path}: {type(exc).__name__}"
                    raise DingTalkError(reason, maybe_sent=True) from exc
                reason, delay = type(exc).__name__, 0.5 * attempt
            else:
                data = _json(response)
                code = _error_code(response, data)
                status = response.status_code
                if status == 200:
                    limited = [
                        u for u in data.get("flowControlledStaffIdList") or [] if u in recipients
                    ]
                    invalid = [u for u in data.get("invalidStaffIdList") or [] if u in recipients]
                    if invalid:
                        raise DingTalkError(f"{path}: invalid staff id", status=status)
                    if not limited:
                        return data
                    reason, delay = "flow controlled", RATE_LIMIT_WAIT
                elif status == 401 or "InvalidAuthentication" in code:
                    self.invalidate_token(token)
                    if refreshed:
                        raise DingTalkError(f"{path}: {code}", status=status)
                    refreshed, reason, delay = True, code, 0.0
                elif status == 429 or (status == 403 and "QpsLimit" in code):
                    asked = retry_after(response.headers)
                    reason, delay = code, RATE_LIMIT_WAIT if asked is None else min(asked, 5.0)
                elif status in MAYBE_DONE and maybe_done:  # it reached DingTalk, may be sent
                    raise DingTalkError(f"{path}: {code}", status=status, maybe_sent=True)
                elif status >= 500:
                    reason, delay = code, 0.5 * attempt
                else:
                    raise DingTalkError(f"{path}: {code}", status=status)
            if attempt == MAX_ATTEMPTS or waited + delay > self.patience:
                break
            log.info("DingTalk %s: %s; retrying in %.1f s", path, reason, delay)
            if delay:
                self._sleep(delay)
                waited += delay
        raise DingTalkError(f"{path}: {reason}")


def _webhook_url(url: str, api_url: str) -> httpx.URL | None:
    """`url` parsed as httpx will send it, when it is a session webhook on DingTalk's
    origins or `api_url`'s (path `[api_url's path]/robot/sendBySession`); else None."""
    try:
        target = httpx.URL(url)
        api = httpx.URL(api_url)
    except (httpx.InvalidURL, TypeError, ValueError):
        return None
    if target.userinfo or target.scheme not in ("https", "http"):
        return None
    origin = _origin(target)
    if origin == _origin(api) and target.path == api.path.rstrip("/") + WEBHOOK_PATH:
        return target
    if target.path == WEBHOOK_PATH and any(
        origin == _origin(httpx.URL(o)) for o in DINGTALK_ORIGINS
    ):
        return target
    return None


def _origin(url: httpx.URL) -> tuple[str, str, int]:
    default = 443 if url.scheme == "https" else 80
    return (url.scheme, url.host, url.port or default)


def _json(response: httpx.Response) -> dict[str, Any]:
    try:
        data = response.json()
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _error_code(response: httpx.Response, data: Mapping[str, Any]) -> str:
    """DingTalk's error code (e.g. `Forbidden.AccessDenied.QpsLimitForApi`), else the status."""
    code = data.get("code")
    return str(code) if isinstance(code, str) and code else f"HTTP {response.status_code}"


__all__ = ["DEFAULT_API_URL", "DINGTALK_ORIGINS", "WEBHOOK_PATH", "DingTalkError", "OpenAPI"]

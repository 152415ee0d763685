"""Who is asking: a link token (`Authorization: Bearer T`) or the page's session cookie.

- **Exchange.** `GET /prefs?token=T` trades a valid link token (`bot.prefs.links`) for a
  session, once: the token's id is claimed in Redis for as long as the token lives
  (`bot.conversation.claims`, which falls back to an in-process table when Redis is
  down), so a link opened a second time, by anyone, is refused; and so is the same link
  as a bearer token afterwards (it is spent).
- **Revocation.** Erasing all of a person's memory revokes every link and session issued
  to them until then (`bot.prefs.revocations`); `standing` says whether a link or a
  session is still good: "valid", "revoked" (refused like a tampered one), or "unknown"
  (Redis did not answer: the person may still read, never change anything).
- **Sessions** are signed cookies (HttpOnly, SameSite=Strict, Secure behind HTTPS) that
  name the person's namespace, the page's language, a random session id and an expiry
  (`PREFS_SESSION_MINUTES`); nothing is kept on the server, so any `serve` process
  answers any request.
- **CSRF.** A request that changes something on the strength of the cookie must carry
  the session's synchronizer token (a form field `csrf_token`, or the `X-CSRF-Token`
  header for the JSON API): an HMAC of the session id with a key of its own, which only
  the page itself shows. A bearer token is no ambient credential and needs none.

Every failure answers the same (`None`): tampered, expired, another secret's, replayed,
spent, revoked.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal, cast

from bot.prefs.links import LinkClaims, Signer, namespace_problem, read_token
from bot.prefs.revocations import Standing, now_ms
from memory.lang import Lang

if TYPE_CHECKING:
    from bot.conversation.claims import Claims
    from bot.prefs.revocations import Revocations

COOKIE = "travel_prefs_session"
SESSION_PURPOSE = "prefs-session"
CSRF_PURPOSE = "prefs-csrf"
CSRF_HEADER = "x-csrf-token"
CSRF_FIELD = "csrf_token"


@dataclass(frozen=True, slots=True)
class Session:
    namespace: str
    lang: Lang
    sid: str
    expires_at: int  # Unix seconds
    issued_at: int = 0  # Unix milliseconds: when the link it was opened with was issued

    def seconds_left(self, now: float | None = None) -> int:
        return max(0, self.expires_at - int(time.time() if now is None else now))


@dataclass(frozen=True, slots=True)
class Caller:
    """Whose preferences a request may read and change, and how it proved it."""

    namespace: str
    lang: Lang | None
    session: Session | None = None  # None: a bearer token
    checked: bool = True  # False: not known to be unrevoked (Redis down): reading only

    @property
    def needs_csrf(self) -> bool:
        return self.session is not None


Exchange = LinkClaims | Literal["invalid", "replayed"]


class Sessions:
    """Link exchange, session cookies and CSRF tokens, all keyed on `PREFS_LINK_SECRET`."""

    def __init__(
        self,
        *,
        secret: str,
        claims: Claims,
        minutes: int = 60,
        revocations: Revocations | None = None,
    ) -> None:
        self._secret = secret
        self._claims = claims
        self._revocations = revocations
        self._signer = Signer(secret, SESSION_PURPOSE)
        self._csrf_key = hmac.new(secret.encode(), CSRF_PURPOSE.encode(), hashlib.sha256).digest()
        self.seconds = minutes * 60

    # -- link tokens --------------------------------------------------------------------

    def link(self, token: str) -> LinkClaims | None:
        """What a link token says, when it is signed and unexpired (nothing else checked)."""
        return read_token(self._secret, token)

    def exchange(self, token: str) -> Exchange:
        """Spend a link token on a session: its claims, or why not (blocking: Redis)."""
        link = read_token(self._secret, token)
        if link is None or self.standing(link.namespace, link.issued_at) == "revoked":
            return "invalid"
        ttl = link.seconds_left() + 1
        if not self._claims.claim(_spent(link), ttl_seconds=ttl):
            return "replayed"
        return link

    def bearer_standing(self, link: LinkClaims) -> Standing:
        """A link used as a bearer token: "revoked" once it was opened on the page (spent)
        or the person's memory was erased since it was issued (blocking: Redis)."""
        spent = self._claims.held(_spent(link))
        if spent:
            return "revoked"
        standing = self.standing(link.namespace, link.issued_at)
        return "unknown" if spent is None and standing == "valid" else standing

    def standing(self, namespace: str, issued_at: int) -> Standing:
        """Whether a link or session of `namespace` issued at `issued_at` (ms) is still
        good (blocking: Redis)."""
        if self._revocations is None:
            return "valid"
        return self._revocations.standing(namespace, issued_at)

    # -- sessions -----------------------------------------------------------------------

    def open(self, namespace: str, lang: Lang, issued_at: int | None = None) -> Session:
        """A new session; `issued_at` is the link's it is opened with (revoked with it)."""
        expires = int(time.time()) + self.seconds
        issued = now_ms() if issued_at is None else issued_at
        return Session(namespace, lang, secrets.token_urlsafe(16), expires, issued)

    def with_lang(self, session: Session, lang: Lang) -> Session:
        return replace(session, lang=lang)

    def dumps(self, session: Session) -> str:
        payload = {"n": session.namespace, "l": session.lang, "s": session.sid}
        return self._signer.sign({**payload, "e": session.expires_at, "i": session.issued_at})

    def read(self, cookie: str | None) -> Session | None:
        data = self._signer.unsign(cookie) if cookie else None
        if data is None:
            return None
        namespace, lang, sid, expires = data.get("n"), data.get("l"), data.get("s"), data.get("e")
        if not isinstance(namespace, str) or namespace_problem(namespace):
            return None
        if lang not in ("en", "zh") or not isinstance(sid, str) or not sid:
            return None
        if isinstance(expires, bool) or not isinstance(expires, int) or expires <= time.time():
            return None
        issued = data.get("i", 0)
        if isinstance(issued, bool) or not isinstance(issued, int) or issued < 0:
            return None
        return Session(namespace, cast("Lang", lang), sid, expires, issued)

    # -- CSRF -----------------------------------------------------------------------------

    def csrf(self, session: Session) -> str:
        return hmac.new(self._csrf_key, session.sid.encode(), hashlib.sha256).hexdigest()

    def csrf_ok(self, session: Session, token: str | None) -> bool:
        if not token:
            return False
        return hmac.compare_digest(self.csrf(session).encode(), token.encode("utf-8", "replace"))


def _spent(link: LinkClaims) -> str:
    """The claim that marks a link as opened on the page."""
    return f"prefs:link:{link.jti}"


def bearer_token(authorization: str) -> str | None:
    """The token of an `Authorization: Bearer T` header, or None for any other scheme."""
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token and " " not in token else None


__all__ = [
    "COOKIE",
    "CSRF_FIELD",
    "CSRF_HEADER",
    "Caller",
    "Exchange",
    "Session",
    "Sessions",
    "bearer_token",
]

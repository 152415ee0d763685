"""What the page's routes and the API's share: memory, sessions, rendering, the task pool,
and the few decisions both make the same way (who is asking, in which language, whether
the cookie must be Secure, how a checked form is saved).

Memory, Redis and the fast model block, so every call to them runs on the task pool
(`Pools.tasks`, the pool of preferences work), never on the event loop.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Mapping
from datetime import date
from typing import TYPE_CHECKING, TypeVar
from urllib.parse import urlsplit

from bot.flows.trips import trip_lines
from bot.messages import stated_lang, t
from bot.prefs.form import FormInput, stored_texts, validate_form
from bot.prefs.links import named_lang, named_namespace, public_base_of
from bot.prefs.prefill import SlotMapper, structured_profile
from bot.prefs.revocations import Revocations, Standing
from bot.prefs.saving import Saved, save_profile
from bot.web.render import Renderer, load_assets
from bot.web.request import Request, cookie
from bot.web.sessions import COOKIE, Caller, Session, Sessions, bearer_token
from bot.web.state import State, read_state
from memory.errors import MemoryEngineError
from memory.lang import Lang
from memory.profile import Clash, Value

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

    from bot.conversation.claims import Claims
    from bot.metrics import Metrics
    from bot.planning.trips import TripStore
    from memory.protocol import LongTermMemory

log = logging.getLogger(__name__)

T = TypeVar("T")
# Where a person gets a new link (message keys), given the namespace a refused link names.
NewLinkLines = Callable[[str | None], tuple[str, ...]]

MAX_BODY_BYTES = 64 * 1024  # a form or JSON body; the whole schema ticked is ~2 KB
_LIST_SEP = {"en": ", ", "zh": "、"}


class PrefsSite:
    def __init__(
        self,
        *,
        memory: LongTermMemory,
        metrics: Metrics,
        claims: Claims,
        revocations: Revocations,
        tasks: ThreadPoolExecutor,
        secret: str,
        new_link: NewLinkLines,
        trips: TripStore | None = None,
        mapper: SlotMapper | None = None,
        public_url: str = "",
        session_minutes: int = 60,
        free_text_limit: int = 500,
        default_lang: Lang = "en",
        max_body_bytes: int = MAX_BODY_BYTES,
    ) -> None:
        self.memory = memory
        self.trips = trips  # the person's coming trips, with their approval state
        self.schema = memory.schema
        self.metrics = metrics
        self.tasks = tasks
        self.sessions = Sessions(
            secret=secret,
            claims=claims,
            minutes=session_minutes,
            revocations=revocations,
        )
        self.mapper = mapper  # the fast model's suggestions for the form (None: none)
        self.free_text_limit = free_text_limit
        self.default_lang: Lang = default_lang
        public = public_base_of(public_url)
        self.base_path = urlsplit(public).path.rstrip("/") if public else ""
        self.public_https = public.startswith("https://")
        self.assets = load_assets()
        self.render = Renderer(base_path=self.base_path, assets=self.assets)
        self.max_body = min(MAX_BODY_BYTES, max_body_bytes)
        # Where a refused link's page says a new one comes from (message keys), for the
        # namespace the refused link or session names (None: it names none).
        self.new_link = new_link

    def trip_lines(self, namespace: str, lang: Lang) -> list[str]:
        """The person's coming trips in lines, with their approval state ([] without a
        trip store, or when it cannot be read: the page still shows the preferences)."""
        if self.trips is None:
            return []
        try:
            return trip_lines(self.trips.list(namespace), lang, today=date.today())
        except Exception as exc:
            log.info("the preferences page could not list trips (%s)", type(exc).__name__)
            return []

    @property
    def page_url(self) -> str:
        return f"{self.base_path}/prefs"

    async def run(self, fn: Callable[..., T], *args: object) -> T:
        """`fn(*args)` on the task pool (`RuntimeError` once it is shut down)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.tasks, functools.partial(fn, *args))

    # -- who, in which language ---------------------------------------------------------

    async def caller(self, request: Request) -> Caller | None:
        """A bearer link token when the request sends `Authorization` (and then only it),
        else the page's session; None when neither proves anyone, or what it proves was
        revoked (a link opened on the page, a person whose memory was erased since).
        `checked` is False when Redis could not say: such a caller may only read."""
        authorization = request.header("authorization")
        if authorization is not None:
            token = bearer_token(authorization)
            link = self.sessions.link(token) if token else None
            if link is None:
                return None
            standing = await self._standing(self.sessions.bearer_standing, link)
            if standing == "revoked":
                return None
            return Caller(link.namespace, link.lang, checked=standing == "valid")
        session = self.session(request)
        if session is None:
            return None
        standing = await self.session_standing(session)
        if standing == "revoked":
            return None
        return Caller(session.namespace, session.lang, session, checked=standing == "valid")

    def named(self, request: Request) -> str | None:
        """The namespace the request's link (else its session cookie) names, unchecked:
        for the words of a refusal only (`bot.prefs.links.named_namespace`)."""
        token = request.arg("token")
        return named_namespace(token if token is not None else request.cookies.get(COOKIE))

    def named_lang(self, request: Request) -> Lang | None:
        """The language the request's link (a bearer token, else `?token=`, else its session
        cookie) names, unchecked: for the words of a refusal only, as `named`."""
        bearer = bearer_token(request.header("authorization") or "")  # the API's caller
        token = bearer if bearer is not None else request.arg("token")
        return named_lang(token if token is not None else request.cookies.get(COOKIE))

    def session(self, request: Request) -> Session | None:
        """The session the cookie names, signed and unexpired (not checked for revocation:
        `session_standing`, before it reads or changes anything)."""
        return self.sessions.read(request.cookies.get(COOKIE))

    async def session_standing(self, session: Session) -> Standing:
        return await self._standing(self.sessions.standing, session.namespace, session.issued_at)

    async def _standing(self, check: Callable[..., Standing], *args: object) -> Standing:
        try:
            return await self.run(check, *args)
        except RuntimeError:  # shutting down
            return "unknown"

    def lang(self, request: Request, known: Lang | None = None, text: str = "") -> Lang:
        """`?lang=`, else what the link or session says, else the browser's, else the
        language `text` (what was sent, e.g. the note) is written in, else the default."""
        asked = request.arg("lang")
        if asked in ("en", "zh"):
            return "zh" if asked == "zh" else "en"
        browser = browser_lang(request.header("accept-language"))
        return known or browser or stated_lang(text) or self.default_lang

    def secure(self, request: Request) -> bool:
        """Whether cookies get `Secure`: PUBLIC_URL is https, or the request came over HTTPS."""
        return self.public_https or request.https

    def session_cookie(self, session: Session, request: Request) -> tuple[str, str]:
        value = cookie(
            COOKIE,
            self.sessions.dumps(session),
            max_age=session.seconds_left(),
            secure=self.secure(request),
            path=self.base_path + "/",
        )
        return ("set-cookie", value)

    # -- reading and saving (blocking: call through `run`) -------------------------------

    def state(
        self,
        namespace: str,
        lang: Lang,
        values: Mapping[str, Value | None] | None = None,
        suggest: bool = True,
    ) -> State:
        return read_state(
            self.memory,
            namespace,
            lang,
            mapper=self.mapper if suggest and values is None else None,
            free_text_limit=self.free_text_limit,
            values=values,
        )

    def check(
        self, namespace: str, chosen: Mapping[str, object], note: str | None, lang: Lang
    ) -> FormInput:
        """`validate_form` for `namespace`'s form: the note gets the verdict chat's record path
        gives it, pieces of a number against the person's stored facts included."""
        stored = stored_texts(self.memory, namespace)
        return validate_form(self.schema, chosen, note, lang, self.free_text_limit, stored=stored)

    def save(
        self, namespace: str, form: FormInput, lang: Lang, base: Mapping[str, Value] | None
    ) -> Saved:
        """Save a checked form; without `base` (the API), relative to the profile now.
        Never raises: memory being down is a "failed" save, `unavailable`."""
        try:
            if base is None:
                base = structured_profile(self.memory, namespace)
        except MemoryEngineError:
            saved = Saved("failed", t("memory_unavailable", lang), unavailable=True)
        else:
            saved = save_profile(self.memory, namespace, form, lang=lang, base=base)
        self.metrics.inc("prefs_web_saves_total", outcome=saved.outcome)
        return saved

    def clash_errors(self, clashes: tuple[Clash, ...], lang: Lang) -> dict[str, str]:
        """A conflict's message on both fields of each clash, as `validate_form` words it."""
        errors: dict[str, str] = {}
        for clash in clashes:
            for mine, other in ((clash.slot, clash.other), (clash.other, clash.slot)):
                slot = self.schema.slot(mine)
                labels = [o.label(lang) for o in slot.options if o.id in clash.options]
                errors[mine] = t(
                    "prefs_conflict",
                    lang,
                    options=_LIST_SEP[lang].join(labels),
                    other=self.schema.slot(other).label(lang),
                )
        return errors

    def field_label(self, field_id: str, lang: Lang) -> str:
        if field_id in {slot.id for slot in self.schema.slots}:
            return self.schema.slot(field_id).label(lang)
        return t("prefs_free_text_label", lang)


def browser_lang(header: str | None) -> Lang | None:
    """The first of zh/en in an `Accept-Language` header, by preference weight."""
    ranked: list[tuple[float, int, Lang]] = []
    for index, part in enumerate((header or "").split(",")[:20]):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                continue
        if weight <= 0:
            continue
        tag = tag.strip().lower()
        if tag.startswith("zh"):
            ranked.append((-weight, index, "zh"))
        elif tag.startswith("en"):
            ranked.append((-weight, index, "en"))
    return min(ranked)[2] if ranked else None


__all__ = ["MAX_BODY_BYTES", "PrefsSite", "browser_lang"]

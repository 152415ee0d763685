"""What a flow shows, as data, and the widgets each channel draws it with.

A flow never builds a platform's payload: it answers with an `Outcome` whose `view` is
one of the views below, and the channel's `Widgets` draw it (Block Kit, a card, an
ActionCard). Adding a kind of view (an approval request, say) is adding it here, a
method to `Widgets`, and that method to each channel's widgets.

- `Notice`: a line of text, named by its `bot.messages` key so a channel may word the same
  notice its own way (`Notice.text(wording)`: "this card belongs to someone else");
- `PreferencesView`: what is remembered about a person, with *Edit* (a link) and
  *Forget all* (an action) when they apply;
- `Confirmation`: a question with a *yes* and a *no* action;
- `PlanView`: a planned trip with its notes and its *Save trip* action, or who saved it;
- `ReasonForm`: "why this out-of-policy option?", a short form whose answer goes with
  `submit` (a modal, a card form, or a reply in the thread where there is no form);
- `ApprovalView`: an approval request as its approver sees it (the trip, the broken rules,
  the reason, *Approve* / *Reject*), or, once decided, its outcome.

Text in views is in the core's terms: mentions in the platform's markup
(`Platform.mention`), remembered text raw; widgets escape and convert it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, Protocol, TypeVar

from bot.conversation.reply import PlanPart
from bot.flows.actions import Action
from bot.messages import t
from memory.lang import Lang

Tone = Literal["info", "success", "warning", "error"]


@dataclass(frozen=True)
class Notice:
    """A line of text: the message `key` with `params`, in `lang`."""

    key: str
    lang: Lang = "en"
    params: Mapping[str, object] = field(default_factory=dict)

    def text(self, wording: Mapping[str, str] | None = None) -> str:
        """The text, with the channel's own `wording` of the key when it has one."""
        key = (wording or {}).get(self.key, self.key)
        return t(key, self.lang, **self.params)


@dataclass(frozen=True)
class PreferencesView:
    """What is remembered about `owner` (a namespace), for them to see."""

    lang: Lang
    count: int
    summary: str  # as memory holds it: widgets make it inert in their markup
    edit_url: str | None = None  # the web preferences page, for an *Edit* button
    forget: Action | None = None  # *Forget all*, when there is something to forget


@dataclass(frozen=True)
class Confirmation:
    """A question that needs a yes (`yes`, labelled `yes_label`) or a no."""

    question: Notice
    yes: Action
    no: Action
    yes_label: str  # a `bot.messages` key
    no_label: str
    danger: bool = True  # yes cannot be undone


@dataclass(frozen=True)
class PlanView:
    """A planned trip: its route and candidates (`part`), what to say under it (`notes`,
    whatever the model wrote), and *Save trip* (`save`) or who saved it (`saved`)."""

    part: PlanPart
    notes: tuple[str, ...] = ()
    save: Action | None = None
    saved: str | None = None  # "Trip saved by …" once saved
    # *Save with …* for an out-of-policy option the traveller may pick instead (its words,
    # and the save action picking it); each needs an approval.
    picks: tuple[tuple[str, Action], ...] = ()


@dataclass(frozen=True)
class ReasonForm:
    """Ask why an out-of-policy option is needed; the answer goes with `submit` (its data
    plus "reason"). `error`: a notice key, when the last answer was refused."""

    lang: Lang
    trip: str  # the trip in words
    choice: tuple[str, ...]  # the out-of-policy options chosen
    breaks: tuple[str, ...]  # the rules they break, in words
    submit: Action
    error: str | None = None


@dataclass(frozen=True)
class ApprovalView:
    """An approval request as its approver sees it: `approve` and `reject` while it is
    pending, its `state` and who decided once it is not. Words in `lang` (the approver's
    when known, else the traveller's); `traveller` and `decided_by` are mentions."""

    lang: Lang
    request_id: str
    trip: str
    traveller: str
    choice: str
    breaks: tuple[str, ...]
    reason: str
    state: str  # pending, approved, rejected, expired
    expires: str = ""  # the day it expires, ISO
    approve: Action | None = None
    reject: Action | None = None
    decided_by: str | None = None
    note: str = ""  # a message key said under the state (e.g. the traveller not told)


View = Notice | PreferencesView | Confirmation | PlanView | ReasonForm | ApprovalView


@dataclass(frozen=True)
class Outcome:
    """What a request comes to: the view to show, and how.

    `text` says it in one line (what a channel shows where it cannot redraw a widget:
    "Trip saved by …"), `toast` in a few plain words (a platform's toast; `text` when
    empty). With `replace` the view takes the place of the widget the request came from
    (the card, the question); `private` views are for the asker alone (in a group, sent
    one-to-one). `unchanged`: the request found its work done before (a trip saved
    already): a click still replaces its widget, but a typed command is answered with
    `text` alone, and nothing shown elsewhere is drawn again.
    """

    view: View
    text: str = ""
    toast: str = ""
    tone: Tone = "info"
    replace: bool = False
    private: bool = True
    unchanged: bool = False

    @property
    def short(self) -> str:
        return self.toast or self.text


W_co = TypeVar("W_co", covariant=True)


class Widgets(Protocol[W_co]):
    """How one channel draws each view (see the module docstring)."""

    def notice(self, view: Notice) -> W_co: ...

    def preferences(self, view: PreferencesView) -> W_co: ...

    def confirmation(self, view: Confirmation) -> W_co: ...

    def plan(self, view: PlanView) -> W_co: ...

    def reason_form(self, view: ReasonForm) -> W_co: ...

    def approval(self, view: ApprovalView) -> W_co: ...


W = TypeVar("W")


def render(widgets: Widgets[W], view: View) -> W:
    """`view` drawn by `widgets`."""
    if isinstance(view, Notice):
        return widgets.notice(view)
    if isinstance(view, PreferencesView):
        return widgets.preferences(view)
    if isinstance(view, Confirmation):
        return widgets.confirmation(view)
    if isinstance(view, ReasonForm):
        return widgets.reason_form(view)
    if isinstance(view, ApprovalView):
        return widgets.approval(view)
    return widgets.plan(view)


__all__ = [
    "ApprovalView",
    "Confirmation",
    "Notice",
    "Outcome",
    "PlanView",
    "PreferencesView",
    "ReasonForm",
    "Tone",
    "View",
    "Widgets",
    "render",
]

"""The preferences form as data: fields from the profile schema, checked the same way
whatever draws it."""

from __future__ import annotations

from bot.messages import rejection, t
from bot.prefs.form import FREE_TEXT, UNREADABLE, FormMeta, build_form, validate_form
from memory.profile import load_schema
from tests.support.sentences import KEPT, REFUSED

SCHEMA = load_schema()


def test_every_slot_becomes_a_field_in_the_persons_language() -> None:
    meta = FormMeta(user="ou_1", team="tenant", lang="zh", platform="feishu")
    form = build_form(
        SCHEMA, meta, values={"seat": "aisle"}, suggested=frozenset({"seat"}), readonly=["x"]
    )
    assert [f.id for f in form.fields] == [s.id for s in SCHEMA.slots]
    seat = next(f for f in form.fields if f.id == "seat")
    assert seat.label == SCHEMA.slot("seat").label("zh")
    assert seat.chosen == {"aisle"} and seat.suggested
    assert [c.id for c in seat.choices] == [o.id for o in SCHEMA.slot("seat").options]
    assert form.readonly == ("x",) and form.lang == "zh"
    assert FormMeta.loads(meta.dumps()) == meta
    # It names its platform, which the channel it comes back through checks; the
    # namespace is that channel's to make.
    assert FormMeta.loads(meta.dumps()).platform == "feishu"  # type: ignore[union-attr]
    assert not hasattr(meta, "namespace")


def test_an_option_both_preferred_and_avoided_is_an_error_on_both_fields() -> None:
    chosen = {"preferred_airlines": ["MU", "CA"], "avoided_airlines": ["MU"]}
    checked = validate_form(SCHEMA, chosen, None, "en")
    assert set(checked.errors) == {"preferred_airlines", "avoided_airlines"}
    # The same check the memory engine applies when it writes.
    assert [c.options for c in SCHEMA.clashes(checked.values)] == [("MU",)]


def test_unreadable_or_unknown_choices_and_refused_free_text_are_errors() -> None:
    checked = validate_form(
        SCHEMA,
        {"seat": UNREADABLE, "cabin_class": "cockpit"},
        "call me on 13812345678",
        "en",
    )
    assert checked.errors["seat"] == t("prefs_invalid_option", "en")
    assert checked.errors["cabin_class"] == t("prefs_invalid_option", "en")
    assert checked.errors[FREE_TEXT] == t("prefs_privacy_phone", "en")
    assert validate_form(SCHEMA, {"seat": None}, "  quiet rooms ", "en").errors == {}


def test_free_text_gets_the_verdict_chat_gives_not_the_rules_alone() -> None:
    # The rules' guess calls these numbers amounts; chat keeps them (a seat row, a floor).
    for text in KEPT:
        assert validate_form(SCHEMA, {}, text, "en").errors == {}, text
    # The rules let these through; chat refuses them, and so does the form, with chat's words.
    for lang in ("en", "zh"):
        for text in REFUSED:
            errors = validate_form(SCHEMA, {"seat": "aisle"}, text, lang).errors
            assert errors == {FREE_TEXT: rejection("instructions", "", lang)}

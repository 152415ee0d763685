"""The model failing in DingTalk, through the real robot: a refusal that retrying cannot
cure (a bad key, a wrong model name) is told as something for the admin, a passing
failure (a rate limit, a server error) as something to try again shortly, in the
writer's language; the preferences commands still answer meanwhile."""

from __future__ import annotations

from bot.messages import t
from tests.support.dingtalk_harness import HTTPRobot
from tests.support.llm_server import Fail, ScriptedModel

ALICE = "staff-alice"


def test_a_refusal_is_told_as_for_the_admin_and_a_server_error_as_for_later(
    robot: HTTPRobot, scripted_model: ScriptedModel
) -> None:
    scripted_model.script(Fail(401))
    robot.send("plan my trip from Shanghai to Chengdu")
    [told] = robot.answers(1, timeout=30)
    assert told.text == t("llm_refused", "en")
    assert "admin" in told.text and "try again" not in told.text.lower()

    scripted_model.script(*[Fail(500)] * 4)
    robot.send("帮我规划下个月从上海去成都的行程")
    [*_, later] = robot.answers(2, timeout=30)
    assert later.text == t("llm_unavailable", "zh")

    scripted_model.script(Fail(403))
    asked = len(scripted_model.requests)
    robot.core.memory.record(robot.namespace(ALICE), ["I never take red-eye flights"])
    robot.send("/travel-prefs")
    [*_, card] = robot.answers(3)
    assert "red-eye" in card.text
    assert len(scripted_model.requests) == asked  # a command: the model is not asked

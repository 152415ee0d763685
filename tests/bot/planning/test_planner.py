"""The `plan_itinerary` tool: plans from real memory, and the errors the model relays."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from bot.agent.loop import ToolCall
from bot.agent.memory_tools import preferences_block
from bot.agent.tools import Tool, ToolContext
from bot.compose.parts import open_planner
from bot.planning.inventory.http import HttpInventory
from bot.planning.plan import PlannedTrip, planned_trip
from bot.planning.planner import Planner, planning_tools
from bot.settings import Settings
from memory import open_memory
from memory.engine import Memory
from tests.conftest import MemoryFactory
from tests.support.llm_server import ScriptedModel

NOW = datetime(2026, 12, 1, 2, 0, tzinfo=UTC)  # 10:00 on 2026-12-01 in Shanghai
TRAVELLER = "T0PLAN:UALICE"
ADMIN = "T0PLAN:UADMIN"


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[Memory]:
    mem = open_memory(dsn=f"sqlite:///{tmp_path}/memory.db", redis_url="")
    yield mem
    mem.close()


def make_tool(memory: Memory | None, **kwargs: Any) -> Tool:
    planner = open_planner(Settings(llm_fast_model=""), memory, clock=lambda: NOW, **kwargs)
    [built] = planning_tools(planner)
    return built


def plan(tool: Tool, ctx: ToolContext, **args: Any) -> dict[str, Any]:
    text = tool.invoke(ctx, args)
    assert not text.startswith("error:"), text
    result: dict[str, Any] = json.loads(text)
    return result


def every_row(result: dict[str, Any]) -> list[dict[str, Any]]:
    legs = result["legs"].values()
    return [row for leg in legs for row in leg["options"] + leg.get("ruled_out", [])]


def test_a_traveller_who_avoids_red_eyes_gets_them_ruled_out(memory: Memory) -> None:
    memory.record(TRAVELLER, ["I never take red-eye flights"])
    result = plan(
        make_tool(memory),
        ToolContext(namespace=TRAVELLER),
        origin="Shanghai",
        destination="Chengdu",
        depart_date="2026-12-10",
        return_date="2026-12-12",
    )
    assert result["demo_data"] is True and "Demo data" in result["note"]
    assert result["preferences_used"] == "Avoids red-eye flights."
    outbound = result["legs"]["outbound"]
    assert all("red-eye" not in row["option"] for row in outbound["options"])
    [red_eye] = outbound["ruled_out"]
    assert "red-eye" in red_eye["option"]
    assert red_eye["basis"] == "Red-eye flight; the traveller avoids red-eyes"
    assert red_eye["score"] < min(row["score"] for row in outbound["options"])
    assert len(result["legs"]["hotel"]["options"]) == 5


def test_a_plan_in_chinese_explains_in_chinese(memory: Memory) -> None:
    memory.record(TRAVELLER, ["我从不坐红眼航班", "酒店要含早餐"])
    result = plan(
        make_tool(memory),
        ToolContext(namespace=TRAVELLER, lang="zh"),
        origin="上海",
        destination="成都",
        depart_date="2026-12-10",
    )
    assert result["legs"]["outbound"]["ruled_out"][0]["basis"] == "红眼航班，用户明确避开"
    assert all("含早" in row["option"] for row in result["legs"]["hotel"]["options"])
    assert "演示数据" in result["note"]


def test_no_preferences_means_every_candidate_scores_the_same(memory: Memory) -> None:
    result = plan(
        make_tool(memory),
        ToolContext(namespace=TRAVELLER),
        origin="北京",
        destination="Shanghai",
        depart_date="2026-12-10",
        return_date="2026-12-11",
    )
    rows = every_row(result)
    assert rows and {row["score"] for row in rows} == {50}
    assert all("No preferences are known" in row["basis"] for row in rows)
    assert "memory" not in result  # nothing remembered is not an outage


def test_a_database_outage_is_told_in_the_plan_not_passed_off_as_no_preferences(
    make_memory: MemoryFactory, unreachable_memory: MemoryFactory
) -> None:
    warmed = make_memory()
    warmed.record(TRAVELLER, ["I never take red-eye flights"])
    assert warmed.warm(TRAVELLER) == "warmed"
    offline = make_tool(unreachable_memory())
    route = {"origin": "Shanghai", "destination": "Chengdu", "depart_date": "2026-12-10"}

    # A traveller whose facts are cached is planned for as usual...
    result = plan(offline, ToolContext(namespace=TRAVELLER), **route)
    assert "memory" not in result
    assert "red-eye" in result["legs"]["outbound"]["ruled_out"][0]["option"]
    # ...one whose preferences cannot be read gets a plan that says so.
    result = plan(offline, ToolContext(namespace="T0PLAN:UBOB"), **route)
    assert result["memory"].startswith("unavailable:")
    assert "could not be read" in result["preferences_used"]
    chinese = plan(offline, ToolContext(namespace="T0PLAN:UBOB", lang="zh"), **route)
    assert chinese["memory"] == result["memory"]
    assert "暂时无法读取" in chinese["preferences_used"]


def test_an_admin_plan_uses_the_travellers_memory_and_writes_nothing(memory: Memory) -> None:
    memory.record(TRAVELLER, ["I never take red-eye flights"])
    before = memory.export(TRAVELLER)["items"]
    ctx = ToolContext(
        namespace=ADMIN,
        on_behalf_of=TRAVELLER,
        can_record=False,
        traveller_name="Alice",
    )
    result = plan(
        make_tool(memory),
        ctx,
        origin="Shanghai",
        destination="Chengdu",
        depart_date="2026-12-10",
        preferences="I never take red-eye flights.",
    )
    assert result["preferences_of"] == "Alice"
    assert result["legs"]["outbound"]["ruled_out"][0]["score"] <= 15
    assert memory.export(TRAVELLER)["items"] == before
    assert memory.items(ADMIN) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"origin": "Gotham", "destination": "成都"}, "I don't know the city 'Gotham'"),
        ({"origin": "上海", "destination": "沪"}, "the same city"),
        ({"depart_date": "10/12/2026"}, "depart_date must be a date written YYYY-MM-DD"),
        ({"depart_date": "2026-11-30"}, "2026-11-30 is in the past (today is 2026-12-01)"),
        ({"return_date": "2026-12-09"}, "return date 2026-12-09 is before the departure"),
    ],
)
def test_requests_that_cannot_be_planned_are_clear_tool_errors(
    args: dict[str, str], message: str
) -> None:
    request = {"origin": "Shanghai", "destination": "Chengdu", "depart_date": "2026-12-10"}
    text = make_tool(None).invoke(ToolContext(namespace=TRAVELLER), {**request, **args})
    assert text.startswith("error: ") and message in text
    if "Gotham" in args.values():
        assert "Beijing" in text and "Shanghai" in text  # a few known cities


def test_unknown_city_error_in_chinese() -> None:
    text = make_tool(None).invoke(
        ToolContext(namespace=TRAVELLER, lang="zh"),
        {"origin": "火星", "destination": "成都", "depart_date": "2026-12-10"},
    )
    assert text.startswith("error: 我不认识城市“火星”") and "北京" in text


def test_today_follows_the_travellers_time_zone() -> None:
    # 23:30 UTC on 2026-11-30 is already 2026-12-01 in Shanghai.
    planner: Planner = open_planner(
        Settings(), None, clock=lambda: datetime(2026, 11, 30, 23, 30, tzinfo=UTC)
    )
    [tool] = planning_tools(planner)
    args = {"origin": "上海", "destination": "成都", "depart_date": "2026-11-30"}
    assert "in the past" in tool.invoke(ToolContext(namespace=TRAVELLER, tz="Asia/Shanghai"), args)
    assert "in the past" not in tool.invoke(
        ToolContext(namespace=TRAVELLER, tz="America/Los_Angeles"), args
    )


@pytest.fixture
def empty_inventory() -> Iterator[Callable[[int], str]]:
    servers: list[ThreadingHTTPServer] = []

    def start(status: int) -> str:
        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_GET(self) -> None:
                field = self.path.split("?")[0].rsplit("/", 1)[-1]
                data = json.dumps({field: []}).encode()
                self.send_response(status)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def test_no_candidates_and_an_unreachable_inventory_are_tool_errors(
    empty_inventory: Callable[[int], str],
) -> None:
    args = {"origin": "Shanghai", "destination": "Chengdu", "depart_date": "2026-12-10"}
    ctx = ToolContext(namespace=TRAVELLER)
    empty = make_tool(None, inventory=HttpInventory(base_url=empty_inventory(200)))
    assert empty.invoke(ctx, args) == (
        "error: No flights, trains or hotels were found from Shanghai to Chengdu on 2026-12-10."
    )
    broken = make_tool(None, inventory=HttpInventory(base_url=empty_inventory(503)))
    assert "travel inventory is not reachable" in broken.invoke(ctx, args)


def test_the_tool_is_described_for_the_model() -> None:
    schema = make_tool(None).schema["function"]
    assert schema["name"] == "plan_itinerary"
    params = schema["parameters"]
    assert params["required"] == ["origin", "destination", "depart_date"]
    assert set(params["properties"]) == {
        "origin",
        "destination",
        "depart_date",
        "return_date",
        "preferences",
    }


def test_the_planned_trip_is_read_from_the_turns_tool_calls() -> None:
    tool = make_tool(None)
    args = {"origin": "上海", "destination": "成都", "depart_date": "2026-12-10"}
    ok = tool.invoke(ToolContext(namespace=TRAVELLER, lang="zh"), args)
    failed = tool.invoke(ToolContext(namespace=TRAVELLER), {**args, "origin": "Gotham"})
    calls = [
        ToolCall("plan_itinerary", json.dumps(args), ok),
        ToolCall("plan_itinerary", "{}", failed),
        ToolCall("retrieve_from_memory", "{}", "<remembered_preferences>…"),
    ]
    assert planned_trip(calls) == PlannedTrip("上海", "成都", date(2026, 12, 10), None)
    assert planned_trip(calls[1:]) is None


def test_the_recall_tools_nothing_remembered_text_is_no_preference(memory: Memory) -> None:
    for colleague, unavailable in ((False, False), (True, False), (False, True), (True, True)):
        result = plan(
            make_tool(memory),
            ToolContext(namespace=TRAVELLER),
            origin="Shanghai",
            destination="Chengdu",
            depart_date="2026-12-10",
            return_date="2026-12-11",
            preferences=preferences_block("", colleague=colleague, unavailable=unavailable),
        )
        rows = every_row(result)
        assert rows and {row["score"] for row in rows} == {50}
        assert all("No preferences are known" in row["basis"] for row in rows)
        assert "No stated preference applies" not in json.dumps(result)
        assert (
            result["preferences_used"]
            == "No preferences are known for this traveller; neutral score"
        )


def test_the_recall_tools_wrapper_is_not_part_of_the_preferences(memory: Memory) -> None:
    result = plan(
        make_tool(memory),
        ToolContext(namespace=TRAVELLER),
        origin="Shanghai",
        destination="Chengdu",
        depart_date="2026-12-10",
        preferences=preferences_block("Avoids red-eye flights."),
    )
    assert result["preferences_used"] == "Avoids red-eye flights."
    assert "remembered_preferences" not in json.dumps(result)
    assert result["legs"]["outbound"]["ruled_out"][0]["basis"].startswith("Red-eye flight")


def test_remembered_preferences_win_over_the_models_text(memory: Memory) -> None:
    memory.update_profile(TRAVELLER, {"red_eye": "avoid"})
    result = plan(
        make_tool(memory),
        ToolContext(namespace=TRAVELLER),
        origin="Shanghai",
        destination="Chengdu",
        depart_date="2026-12-10",
        preferences="Red-eye flights are fine.",
    )
    outbound = result["legs"]["outbound"]
    [red_eye] = outbound["ruled_out"]
    assert red_eye["basis"] == "Red-eye flight; the traveller avoids red-eyes"
    assert red_eye["score"] < min(row["score"] for row in outbound["options"])
    assert result["preferences_used"] == "Avoids red-eye flights."


def test_memory_is_read_even_when_the_model_passes_preferences(memory: Memory) -> None:
    memory.record(TRAVELLER, ["I never take red-eye flights", "I like quiet hotel lobbies"])
    with ScriptedModel() as fast:
        fast.script(json.dumps({"scores": []}))
        settings = Settings(
            llm_fast_model="fast", openai_base_url=fast.base_url, openai_api_key="test"
        )
        planner = open_planner(settings, memory, clock=lambda: NOW)
        [tool] = planning_tools(planner)
        result = plan(
            tool,
            ToolContext(namespace=TRAVELLER),
            origin="Shanghai",
            destination="Chengdu",
            depart_date="2026-12-10",
            preferences="Wants a window seat on this trip. Avoids red-eye flights.",
        )
        [request] = fast.requests
    prompt = request["messages"][-1]["content"]
    assert "quiet hotel lobbies" in prompt  # recalled from memory, not given by the model
    assert "window seat" in prompt  # said in this conversation
    assert result["legs"]["outbound"]["ruled_out"][0]["basis"].startswith("Red-eye flight")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"depart_date": "20261220"}, "depart_date must be a date written YYYY-MM-DD"),
        ({"depart_date": "2026-12-1"}, "depart_date must be a date written YYYY-MM-DD"),
        ({"depart_date": "２０２６-１２-１０"}, "depart_date must be a date written YYYY-MM-DD"),
        ({"depart_date": "2026-02-30"}, "depart_date must be a date written YYYY-MM-DD"),
        ({"return_date": "20261220"}, "return_date must be a date written YYYY-MM-DD"),
        ({"depart_date": "9999-12-31"}, "9999-12-31 is too far ahead"),
        ({"depart_date": "2099-01-01"}, "I can plan up to 365 days out (until 2027-12-01)"),
        ({"return_date": "2027-12-02"}, "2027-12-02 is too far ahead"),
    ],
)
def test_dates_must_be_strict_and_within_a_year(args: dict[str, str], message: str) -> None:
    request = {"origin": "Shanghai", "destination": "Chengdu", "depart_date": "2026-12-10"}
    text = make_tool(None).invoke(ToolContext(namespace=TRAVELLER), {**request, **args})
    assert text.startswith("error: ") and message in text


def test_a_far_date_error_in_chinese_and_the_last_day_still_plans() -> None:
    tool = make_tool(None)
    args = {"origin": "上海", "destination": "成都", "depart_date": "2027-12-02"}
    text = tool.invoke(ToolContext(namespace=TRAVELLER, lang="zh"), args)
    assert text.startswith("error: 2027-12-02 太远了") and "365" in text
    last = plan(tool, ToolContext(namespace=TRAVELLER), **{**args, "depart_date": "2027-12-01"})
    assert last["route"]["depart_date"] == "2027-12-01"


def test_null_optional_arguments_mean_the_defaults() -> None:
    arguments = json.dumps(
        {
            "origin": "Shanghai",
            "destination": "Chengdu",
            "depart_date": "2026-12-10",
            "return_date": None,
            "preferences": None,
        }
    )
    result = json.loads(make_tool(None).invoke(ToolContext(namespace=TRAVELLER), arguments))
    assert result["route"]["return_date"] is None
    assert {row["score"] for row in every_row(result)} == {50}


def test_the_planned_trip_says_whether_it_came_from_demo_data() -> None:
    args = {"origin": "上海", "destination": "成都", "depart_date": "2026-12-10"}
    ok = make_tool(None).invoke(ToolContext(namespace=TRAVELLER), args)
    trip = planned_trip([ToolCall("plan_itinerary", json.dumps(args), ok)])
    assert trip is not None and trip.demo is True


def test_the_planned_trip_carries_the_scored_candidates_for_every_channel() -> None:
    args = {"origin": "上海", "destination": "成都", "depart_date": "2026-12-10"}
    ok = make_tool(None).invoke(ToolContext(namespace=TRAVELLER, lang="zh"), args)
    trip = planned_trip([ToolCall("plan_itinerary", json.dumps(args), ok)])
    assert trip is not None
    listed = {leg: entry["options"] for leg, entry in json.loads(ok)["legs"].items()}
    assert [(c.leg, c.option, c.score, c.basis) for c in trip.candidates] == [
        (leg, row["option"], row["score"], row["basis"])
        for leg in ("outbound", "return", "hotel")
        for row in listed.get(leg, [])
    ]
    assert {c.leg for c in trip.candidates} == {"outbound", "hotel"}  # one way, one night


def test_the_planner_says_what_it_scores_while_it_works(memory: Memory) -> None:
    said: list[str] = []
    result = plan(
        make_tool(memory),
        ToolContext(namespace=TRAVELLER, progress=said.append),
        origin="Shanghai",
        destination="Chengdu",
        depart_date="2026-12-10",
        return_date="2026-12-12",
    )
    [status] = said
    legs = result["legs"]
    hotels = legs["hotel"]["candidates"]
    assert status.startswith("Scoring ") and status.endswith(f"{hotels} hotels…")
    counted = sum(int(word) for word in status.split() if word.isdigit())
    assert counted == sum(leg["candidates"] for leg in legs.values())
    said.clear()
    plan(
        make_tool(memory),
        ToolContext(namespace=TRAVELLER, lang="zh", progress=said.append),
        origin="上海",
        destination="成都",
        depart_date="2026-12-10",
    )
    assert said[0].startswith("正在为") and "个航班" in said[0] and said[0].endswith("打分…")


# Thirty things one traveller said, eleven of them constraints ("不", "只", "必须"...) that
# the previous summary rule put first, so the twelfth, the one about this trip's hotel,
# never reached the planner (issue 22).
THIRTY = [
    "我从不坐红眼航班",
    "出差只坐高铁一等座",
    "酒店必须含早餐",
    "不住青旅，太吵",
    "我不吃香菜",
    "只住无烟房",
    "不坐大巴，晕车",
    "必须直飞，不要转机",
    "不吃辣，胃不好",
    "晚上十一点以后别给我打电话",
    "不喜欢民宿",
    "住的地方最好带室内泳池，我每天早上要游一会儿",
    "喜欢看展览",
    "我喝美式咖啡",
    "喜欢在老街散步",
    "枕头喜欢低一点的",
    "喜欢拍照",
    "会员积分攒在携程",
    "喜欢吃面食",
    "喜欢听相声",
    "出差喜欢带本书",
    "喜欢坐船",
    "喜欢看日落",
    "喜欢吃早茶",
    "冬天喜欢去南方",
    "喜欢骑共享单车",
    "喜欢新开的酒店",
    "出差要带正装",
    "喜欢酒店送水果",
    "喜欢在酒店健身房跑步",
]


def test_a_plan_is_scored_with_every_preference_the_summary_carries(memory: Memory) -> None:
    for start in range(0, len(THIRTY), 20):
        memory.record(TRAVELLER, THIRTY[start : start + 20])
    pool = "住的地方最好带室内泳池，我每天早上要游一会儿"
    assert pool in memory.retrieve(TRAVELLER, "trip 成都")

    def judge(request: dict[str, Any]) -> str:
        # The scripted model rates the last hotel offered best, for the pool.
        rows = json.loads(request["messages"][-1]["content"].split("Candidates (JSON):")[1])
        [*_, last] = [row["id"] for row in rows if row["leg"] == "hotel"]
        return json.dumps({"scores": [{"id": last, "score": 100, "basis": "有室内泳池"}]})

    with ScriptedModel() as fast:
        fast.script(judge)
        settings = Settings(
            llm_fast_model="fast", openai_base_url=fast.base_url, openai_api_key="test"
        )
        [tool] = planning_tools(open_planner(settings, memory, clock=lambda: NOW))
        result = plan(
            tool,
            ToolContext(namespace=TRAVELLER, lang="zh"),
            origin="上海",
            destination="成都",
            depart_date="2026-12-10",
            return_date="2026-12-12",
        )
        [request] = fast.requests
    prompt = request["messages"][-1]["content"]
    assert pool in prompt  # the twelfth preference reached the scorer
    kept = [item.text for item in memory.items(TRAVELLER)]
    assert len(kept) >= 25 and all(fact in prompt for fact in kept)  # and every other one
    [best, *_] = result["legs"]["hotel"]["options"]
    assert "室内泳池" in best["basis"]

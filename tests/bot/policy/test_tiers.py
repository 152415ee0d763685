"""City tiers: the bundled lists match the planner's catalogue by every name, in Chinese
and English, and a policy's own lists replace the bundled ones tier by tier."""

from __future__ import annotations

import pytest

from bot.planning.compliance import city_named
from bot.planning.inventory.catalogue import load_catalogue
from bot.policy.loading import load_policy
from bot.policy.tiers import OTHER, Tiers, bundled
from tests.bot.policy.conftest import EXAMPLE

EXPECTED = {
    "beijing": "tier1",
    "shanghai": "tier1",
    "guangzhou": "tier1",
    "shenzhen": "tier1",
    "chengdu": "tier2",
    "chongqing": "tier2",
    "hangzhou": "tier2",
    "xian": "tier2",
    "wuhan": "tier2",
    "nanjing": "tier2",
    "changsha": "tier2",
    "kunming": "tier2",
    "qingdao": "tier2",
    "tianjin": "tier2",
    "zhengzhou": "tier2",
    "xiamen": "tier3",
    "harbin": "tier3",
    "sanya": "tier3",
    "hongkong": "world1",
    "singapore": "world1",
    "tokyo": "world1",
    "dubai": "world1",
    "london": "world1",
    "newyork": "world1",
    "seoul": "world2",
    "bangkok": "world2",
    "frankfurt": "world2",
}


def test_every_catalogue_city_has_its_bundled_tier_by_every_name() -> None:
    tiers = Tiers({})
    catalogue = load_catalogue()
    assert {city.id for city in catalogue.cities} == set(EXPECTED)
    for city in catalogue.cities:
        names = (city.en, city.zh, city.id, city.iata, *city.aliases)
        for name in names:
            # One name alone, as someone types it: the Chinese or the English one finds it.
            found = tiers.tier_of(city_named(catalogue, name).all)  # type: ignore[union-attr]
            assert found == EXPECTED[city.id], (city.id, name)
        assert tiers.tier_of([city.en]) == tiers.tier_of([city.zh]) == EXPECTED[city.id]


def test_the_bundled_list_spells_every_city_in_both_languages() -> None:
    for tier, cities in bundled().items():
        for names in cities:
            assert len(names) == 2, (tier, names)
            en, zh = names
            assert en.isascii() and not zh.isascii(), (tier, names)


@pytest.mark.parametrize(
    ("names", "tier"),
    [
        (["成都"], "tier2"),
        (["Chengdu"], "tier2"),  # the policy writes 成都; the bundled list knows both names
        (["CHENGDU 市"], "tier2"),
        (["西安"], OTHER),  # the policy's own tier2 replaced the bundled one
        (["Xiamen"], "tier3"),  # a tier the policy does not list keeps the bundled cities
        (["苏州"], OTHER),
        (["Gotham"], OTHER),
    ],
)
def test_a_policys_own_tier_replaces_the_bundled_one(names: list[str], tier: str) -> None:
    assert load_policy(EXAMPLE).tier_of(names) == tier


def test_a_city_named_by_the_policy_takes_the_policys_tier() -> None:
    policy = load_policy(EXAMPLE.replace("tier2: [成都, 杭州, 南京, 武汉]", "tier2: [成都, 厦门]"))
    assert policy.tier_of(["Xiamen"]) == "tier2"  # bundled tier3, named in tier2 here
    assert policy.tier_of(["哈尔滨"]) == "tier3"
    alone = load_policy(EXAMPLE.replace("currency: CNY", "bundled_city_tiers: false"))
    assert alone.tier_of(["Xiamen"]) == OTHER and alone.tier_of(["北京"]) == "tier1"

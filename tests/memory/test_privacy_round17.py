"""Round 17 (issue 22): numbers that are not money, which the fallback "an unexplained number
is an amount" refused, and amounts said beside the same words (bench/README.md)."""

from __future__ import annotations

import pytest

from memory.privacy import scan

KEPT = (
    "we ask for table 21 every night at that place",  # how often, not a rate
    "bus 14 every morning to the office",
    "a friend told me about hotel 1000 in Seattle",  # a lodging heard of is named
    "有家叫1000的酒店想去住住",
    "the transfer from the port took 45, fine",  # a duration
    "the ridge tops out at 4,120 so we go slowly",  # an altitude
    "垭口海拔4120，要慢慢走",
    "it was 41 in Marrakech, far too hot",  # a temperature
    "the sea was 16, too cold to swim",
    "the lake freezes at minus 15",
    "we'd give the hostel 9 out of 10",  # a rating
    "the walk to the waterfall is 8 each way",  # a distance on foot
    "the group was 30 strong",  # a group's size
    "the tram came every 12",  # an interval
    "the 5 from the old port takes you to the beach",  # a route going somewhere
    "the shuttle gets you to the terminal in 25",
    "the ferry was 25 late again",  # a delay
    "our train was delayed 40",
    "火车晚点了40",
    "the minibus fits 14",  # what a vehicle holds
    "the van holds 9 with bags",
    "gusts hit 70 at the top",  # a speed
    "山顶风力有50",
    "the queue was about 45 at security",
    "the ferry covers 300 between the islands",  # a distance
    "the island is about 30 off the coast",
    "Leeds to York is about 40 by road",
    "the city pass covers 50 museums",  # a count of things
    "the shuttle runs every 30 from the hotel",
    "Oslo was 3 in May, pack a fleece",  # a temperature, by what one wears
    "my tablet was on 9 by the time we landed",  # a battery
    "只剩15的电了",
    "the campground gave us plot 31",  # numbered to be found
    "the summer camp takes ages 8 to 15",  # an age range
    "the peaks here all top 3,000",  # a cap on a height
    "那几座山峰都超过5000",
)
REFUSED = (
    "dinner at table 21 came to 140",
    "bus 14 is 3 each way if you pay cash",
    "the room was 189 every night with breakfast included",
    "rent back home is 2400 so trips are cheap",
    "房租每月5500",
    "my side job brings in 900 a month",
    "the porter got 5 from me",
    "航空公司退了我300",
    "景区进门收45",
    "公交投币两块一次",
    "好点的房间最多能出300",
    "请导游一小时20",
    "the boat tour was 50 and it holds 12",
    "the ferry covers 300 for the whole family",
    "the delay cost us 90 in taxis",
    "we talked the driver down to 7",
    "I give the kids 12 each for snacks",
    "the cab 45 tops",
    "the altitude pills were 28 at the pharmacy",
    "the altitude trek budget is under 1,500",
    "the cash machine took 35 in fees",  # money taken, whatever the verb
    "the driver took 15 off us",
    "the gloves were 40 in the airport shop",  # warm words in talk of shopping
    "the scarf at the summit kiosk was 30",
    "毛衣打折买的45",
)


@pytest.mark.parametrize("text", KEPT)
def test_numbers_that_are_not_money_are_kept(text: str) -> None:
    assert scan(text) is None


@pytest.mark.parametrize("text", REFUSED)
def test_amounts_beside_the_same_words_are_refused(text: str) -> None:
    assert scan(text) == "amount"

"""The company's travel policy (差标): organisation data beside personal memory.

One policy per organisation (`orgs`: read from a person's namespace), loaded from YAML
and refused in one line when wrong (`loading`), answered by `model` (grades, city
`tiers`, caps, classes, approvers), kept versioned with each person's grade in the
memory database (`schema`, `store`). `rules` checks neutral facts of an option against
a grade and says each break in words; `approvals` (with `requests`) asks for and decides
exceptions exactly once; `audit` logs every decision and every admin read of a
colleague's memory; `tool` is the agent's read-only `travel_policy`. Nothing here knows
a chat platform or the planner: `bot.planning.compliance` applies the rules to plans,
and the core's flows (`bot.flows.approvals`) call `approvals`.
"""

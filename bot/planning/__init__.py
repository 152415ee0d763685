"""Trip planning: the `plan_itinerary` tool (`planner`), a plan as data (`plan`), scoring
candidates against preferences (`scoring`), the flight/train/hotel `inventory`, saved
`trips`, travel `admins` and planning for a colleague (`delegation`)."""

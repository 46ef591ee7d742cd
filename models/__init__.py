"""The game domain of factoryfun: geometry, rulesets, boards, machines, layouts,
games, the rule checker, scoring and rendering. Nothing here knows about CP-SAT."""

"""Small pieces of English the messages and drawings share: counts with their noun, a tile's name, text cut to
fit with an ellipsis."""
from __future__ import annotations

#: each tile kind as a player names it (square words; `Ruleset.in_own_words` turns them into Funner's)
TILE_NAMES = {"supply": "supply container", "output": "output reservoir", "end": "end-product reservoir",
              "pipe": "pipe", "diagonal": "diagonal tile"}


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """"1 violation", "2 violations" (QA: "1 violations")."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def violations_of_rules(violations) -> str:
    """"4 violations of 3 rules", "1 violation": counted as `check` counts them (QA pass 54: "breaks 4 rules" and
    "4 rules broken" under a table of 4 violations of 3 rules)."""
    rules = len({v.rule for v in violations})
    said = counted(len(violations), "violation")
    return said if rules == len(violations) == 1 else f"{said} of {counted(rules, 'rule')}"


def listed(items: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    return " and ".join([", ".join(items[:-1]), items[-1]] if len(items) > 2 else items)


def with_article(noun: str) -> str:
    """"a pipe", "an output reservoir"."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def ellipsized(text: str, most: int) -> str:
    """`text`, or its first `most - 1` characters and an ellipsis when it is longer than `most`."""
    return text if len(text) <= most else text[: max(0, most - 1)] + "…"


def up_to_seconds(seconds: float) -> str:
    """A step's share of the time, as its progress line says it: "up to 4 s", or "under a second" (QA: "up to 0 s"
    for the last half second of a plan, and for a generator's last draws)."""
    return f"up to {seconds:.0f} s" if seconds >= 1 else "under a second"

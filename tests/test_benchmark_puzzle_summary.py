"""The puzzle benchmark's summary reads a rival proved not to exist ("none") as having no margin."""
import pandas as pd

from solver.benchmark_puzzle import summary


def test_a_rival_that_does_not_exist_has_no_margin_and_the_others_keep_theirs() -> None:
    row = {"kind": "5x5", "found": True, "seconds": 1.0, "best": 22, "runner_up": 21, "attempts": 1, "carved": 0,
           "given": 0, "unique_again": True, "checker_agrees": True}
    frame = pd.DataFrame([row | {"seed": 1, "rival": "none"}, row | {"seed": 2, "rival": 18},
                          row | {"seed": 3, "rival": 20}])
    table = summary(frame, "test")
    header, _, row_5x5 = [line for line in table.splitlines() if line.startswith("|")][:3]
    cells = dict(zip((c.strip() for c in header.split("|")), (c.strip() for c in row_5x5.split("|"))))
    assert cells["median_rival_margin"] == "3"   # the median of 4 and 2, not of 4, 2 and nothing
    assert cells["median_margin"] == "1" and "| none" in table

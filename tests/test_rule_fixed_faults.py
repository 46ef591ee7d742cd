"""The checker's verdicts on partial layouts (a `--fixed` part): `dead_ends`, the loose ends no added tile can
mend, and `closed_faults`, the broken rules of networks nothing added can join. `solve --fixed` answers
INFEASIBLE from them at once, so a wrong one either refuses a part that can be completed or searches in vain
(QA pass 55: mutants of both lived through every rule test)."""
from __future__ import annotations

from builders import make_layout
from models.check import closed_faults, dead_ends

FF09 = ("FF09", (5, 1), 0)   # red 1 in at Na, black out at E: each port faces an empty cell


def test_ports_facing_empty_cells_can_be_mended():
    assert dead_ends(make_layout(machines=[FF09])) == []


def test_a_port_facing_a_machines_wall_can_never_be_mended():
    (dead,) = dead_ends(make_layout(machines=[FF09, ("FF14", (5, 3), 0)]))
    assert dead.rule == "loose-end" and dead.machines == ["FF09"] and "faces a wall of machine FF14" in dead.message


def test_a_port_facing_the_border_can_never_be_mended():
    (dead,) = dead_ends(make_layout(machines=[("FF09", (0, 3), 0)]))   # its Na input on the board's top row
    assert "the board's border" in dead.message and dead.cells == [(0, 3)]


def test_a_lone_tank_is_not_closed_since_it_opens_to_whatever_reaches_it():
    for tank in (("end", (5, 3)), ("output", (5, 3)), ("supply", (5, 3), "red")):
        assert closed_faults(make_layout(tiles=[tank])) == []


def test_a_closed_ring_of_pipes_is_a_fault_nothing_can_mend():
    ring = [("pipe", (4, 5), "E", "S"), ("pipe", (4, 6), "S", "W"), ("pipe", (5, 5), "N", "E"),
            ("pipe", (5, 6), "N", "W")]
    (fault,) = closed_faults(make_layout(tiles=ring))
    assert fault.rule == "stray-tile" and fault.message == "4 pipes not connected to any machine port"
    # the same ring left open on one side is not closed: a pipe added there may join it to a machine
    assert closed_faults(make_layout(tiles=ring[:3] + [("pipe", (5, 6), "N", "E")])) == []

"""Joining ports to networks: an input's options and route, a waiting output's reservoir or network.
"""
from __future__ import annotations

from models.catalog import PortSpec
from models.geometry import Cell

from .routing import apply_route, route
from .state import Context, Net, Slot, State

#: preference cost of a supply network no input drinks from yet (a --fixed container alone), and of a reservoir's
#: network no output reaches yet: the layout is illegal until one does, so it beats any other option a port has,
#: pipes to it included (QA: a fixed orange container beside FF39,FF08 stayed alone in every sketch, since FF39's
#: orange output fed FF08, and a solve ended UNKNOWN; a fixed end-product reservoir alone, classic-B FF01,FF14,
#: was never joined: UNKNOWN after 20 s)
ORPHAN = -20.0


def fed_from(state: State, machines: set[int]) -> set[int]:
    """The machines given and every machine they feed, directly or through others."""
    if not any(n.producers & machines and n.consumers for n in state.nets):
        return set(machines)  # the usual case: a new machine feeds nobody yet
    edges: dict[int, set[int]] = {}
    for net in state.nets:
        for p in net.producers:
            edges.setdefault(p, set()).update(net.consumers)
    seen, todo = set(machines), list(machines)
    while todo:
        for nxt in edges.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def input_options(ctx: Context, state: State, machine: int, spec: PortSpec) -> dict[int, float]:
    """Networks an input may join (colour, quantity, no feeding loop), with their preference cost."""
    amount = spec.amount or 0
    colors = set(spec.colors)
    below = fed_from(state, {machine})
    out: dict[int, float] = {}
    for i, net in enumerate(state.nets):
        if not net.colors & colors:
            continue
        if net.kind == "supply":
            out[i] = ORPHAN if net.waits_for_port else ctx.costs.supply
        elif net.kind == "product" and not net.producers & below and net.spare >= amount:
            waiting = net.demand == 0 and not net.reservoir
            out[i] = ctx.costs.pending if waiting else ctx.costs.product
    return out


def new_supply_color(ctx: Context, state: State, spec: PortSpec) -> str | None:
    """A colour of the input for which one more supply container is allowed, or None."""
    available = [c for c in spec.colors if c in ctx.ruleset.colors and ctx.supply_available(state, c)]
    return available[0] if available else None


def join_input(ctx: Context, state: State, machine: int, spec: PortSpec, start: Slot,
               wanted: frozenset[str] | None = None) -> bool:
    """Route one input from its facing cell to the cheapest network it may join; `wanted`, where known, the
    colours inputs still to route may want from a supply."""
    targets = input_options(ctx, state, machine, spec)
    color = new_supply_color(ctx, state, spec)
    state.reserved.pop(start[0], None)
    # a hex tank opens on one side only: right at the port it would leave nothing for the
    # colour's other inputs to branch from, so it goes one pipe away at least, unless no input to come wants
    # that colour (QA: a one-round Funner game planned FN21 with a pipe before each tank, 6 against 7)
    at_port = not ctx.hex or (color is not None and wanted is not None and color not in wanted)
    found = route(ctx, state, start, targets, ctx.costs.new_supply if color else None, tank_at_start=at_port)
    if found is None:
        return False
    if found.target is None:
        assert color is not None
        state.nets.append(Net("supply", frozenset({color})))
        net = len(state.nets) - 1
        if not apply_route(ctx, state, found, net, ("supply", color)):
            return False
    else:
        net = found.target
        if not apply_route(ctx, state, found, net, None):
            return False
    record_input(state.nets[net], machine, spec)
    return True


def record_input(net: Net, machine: int, spec: PortSpec) -> None:
    """Bookkeeping of an input joining a network: colours narrow, machine-fed demand grows."""
    net.colors = net.colors & set(spec.colors)
    net.consumers.add(machine)
    if net.kind != "supply":
        net.demand += spec.amount or 0


def remove_stub(state: State, net: int, cell: Cell | None = None) -> Slot:
    """Take a waiting output's stub off the board (to route it, or to cover it port to port), or a fixed supply
    pipe's open end in `cell` (an input covers it)."""
    stub = state.nets[net].stub
    if stub is None:   # (state._adopt_loose_pipes)
        assert cell is not None and state.nets[net].open_end
        end = next(p for p in state.pieces[cell] if p.net == net and len(p.sides) == 1)
        stub, state.nets[net].open_end = (cell, next(iter(end.sides))), False
    cell = stub[0]
    rest = tuple(p for p in state.pieces[cell] if not (p.net == net and len(p.sides) == 1))
    if rest:
        state.pieces[cell] = rest
    else:
        del state.pieces[cell]
    state.nets[net].stub = None
    return stub


def reservoir_policy(ctx: Context, state: State, colors: frozenset[str], expected: list[frozenset[str]]
                     ) -> tuple[float | None, bool]:
    """Extra cost of a new output reservoir for an output of `colors` (None: none left for it),
    and whether it may stand right at the port.

    Reservoirs are only three: while other colours still expected to need one
    (`expected`) have none, an output whose colour already has a reservoir
    network must join it. On hex a reservoir that others of its colour must
    join stands one pipe away, since its single opening leaves nothing to
    branch from.
    """
    free = ctx.output_limit - state.count_tanks("output")
    if free <= 0:
        return None, True
    held = [n.colors for n in state.nets if n.kind == "product" and n.reservoir]
    lacking = {min(c) for c in expected if not any(c & h for h in held) and not c & colors}
    at_port = not (ctx.hex and any(c & colors for c in expected))
    if any(h & colors for h in held):
        return (None if free <= len(lacking) else ctx.costs.tank + 2.0), at_port
    return ctx.costs.tank, at_port


def finish_output(ctx: Context, state: State, net_id: int, expected: list[frozenset[str]] = ()) -> bool:
    """Connect a waiting output: to a new reservoir while the stock lasts, else into a network of its colour.

    `expected`: colours of the other outputs that will need a reservoir.
    """
    net = state.nets[net_id]
    at_port = True
    if net.kind == "black":
        new_tank = ctx.costs.tank if ctx.end_limit is None or state.count_tanks("end") < ctx.end_limit else None
        # (an end-product reservoir takes one machine's end product: only a fixed one nothing reaches yet)
        targets: dict[int, float] = {i: ORPHAN for i, other in enumerate(state.nets)
                                     if other.kind == "black" and other.waits_for_port}
    else:
        new_tank, at_port = reservoir_policy(ctx, state, net.colors, list(expected))
        # only networks that are already legal on their own (a consumer or a reservoir), and no
        # loop: none of their consumers may feed this output's machine
        targets = {i: ORPHAN if other.waits_for_port else ctx.costs.product for i, other in enumerate(state.nets)
                   if i != net_id and other.kind == "product" and other.colors & net.colors
                   and (other.demand or other.reservoir) and not fed_from(state, other.consumers) & net.producers}
    start = remove_stub(state, net_id)
    found = route(ctx, state, start, targets, new_tank, at_port)
    if found is None:
        return False
    if found.target is None:
        return apply_route(ctx, state, found, net_id, ("end" if net.kind == "black" else "output", None))
    if not apply_route(ctx, state, found, found.target, None):
        return False
    joined = state.nets[found.target]
    joined.producers |= net.producers
    joined.offer += net.offer
    joined.colors &= net.colors
    net.kind = "dead"
    return True

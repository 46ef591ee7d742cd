"""A fast randomised sketch: a complete legal layout of all machines, without CP-SAT.

CP-SAT is good at improving a complete layout and slow at finding the first
one for 8-10 machines, so this module builds that first layout the way a
player does, in pure Python, and hands it to the rule checker before
returning it:

1. Order. Machines are placed one at a time in a feeding order (producers
   first). Unless an order is given, random permutations are scored by a greedy
   feeding: few output colours left for the three output reservoirs, many
   chained input points, machines with many ports early.
2. Placement. Every free position of the next machine is scored by how far its
   inputs' facing cells are from the networks they may join (BFS over free
   cells) and whether its outputs will find a taker or a reservoir, plus noise;
   the best few are tried with real routing.
3. Routing. Each input is routed by Dijkstra over (cell, entering side) states
   to the cheapest of its options: an output nobody takes yet (chain bonus), a
   machine-fed network with spare quantity, the colour's supply network, or a
   new supply container while the limit allows. Routes pass through free cells
   and cross other networks where the connector rules let a cell hold several
   pipes; they end by branching off a pipe of the target network, on a square
   container (which opens wherever something reaches it), or on a new tank.
   Inputs only join networks whose producers are placed and feed nothing back,
   so feeds stay acyclic; networks never merge by accident, because pipes open
   only along their route and every port's facing cell belongs to its network.
4. Outputs wait as one-sided stubs in their facing cell for a consumer (routed
   to it, facing it, or port to port). An end product gets its end-product
   reservoir at once; a coloured output no later machine can take gets an
   output reservoir, or joins a machine-fed network of its colour when the
   three reservoirs are needed by other colours. No tank or machine may take
   the last way out of a cell where a port still waits.
5. Search. Positions are explored depth first with a small budget (a dead end
   goes back a machine or two); when the budget is spent, the sketch restarts
   with another order and other random preferences until the time limit.

Hex (Funner) differences come from the ruleset: a tank has one opening, so a
supply tank (and an output reservoir that others must share) stands one pipe
away from its first port, leaving a pipe to branch from. A `fixed` layout is
kept exactly: its pipes are never extended (new pipes may cross them) and its
square tanks may take more connections; its machines' loose ports (e.g. fixed
machines without tiles) are connected first.
"""
from .search import Attempt, best_sketch, ranked, ranking, sketch_attempts, sketch_layout, static_score

__all__ = ["Attempt", "best_sketch", "ranked", "ranking", "sketch_attempts", "sketch_layout", "static_score"]

"""Machine catalogues: the printed machine tiles of one ruleset."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .errors import DocumentError, as_json, expect, expect_int_in, expect_plain_id, require_keys
from .jsonio import read_json, refuse_boards_file, refuse_play_document
from .paths import MACHINES_DIR
from .rulesets import Ruleset

#: bounds on the numbers printed on a machine tile (the printed ones are incomes 1-14, amounts 1-3);
#: far larger numbers are typos that would overflow the solver's integer models
MAX_INCOME = 100
MAX_AMOUNT = 100


@dataclass(frozen=True)
class PortSpec:
    """One printed port. `colors` has several entries for Funner's multi-colour ports."""

    at: str                  # printed position (square: W, E, Na, Nb, Sa, Sb; hex: a side)
    kind: str                # "in" or "out"
    colors: tuple[str, ...]
    amount: int | None       # None for a black end-product output

    @property
    def is_input(self) -> bool:
        return self.kind == "in"

    @property
    def is_black(self) -> bool:
        return self.colors == ("black",)


@dataclass(frozen=True)
class Machine:
    id: str
    name: str | None
    name_certain: bool
    income: int
    bonus_supply: str | None  # a colour, "any", or None
    ports: tuple[PortSpec, ...]
    #: one of the box's extra tiles, not in the deal unless asked (Funner's three special machines: its rulebook
    #: shuffles "all 45 machines" and lists the three among the additional components)
    special: bool = False

    @property
    def inputs(self) -> tuple[PortSpec, ...]:
        return tuple(p for p in self.ports if p.is_input)

    @property
    def outputs(self) -> tuple[PortSpec, ...]:
        return tuple(p for p in self.ports if not p.is_input)

    @property
    def display_name(self) -> str:
        if self.name is None:
            return "?"
        return self.name if self.name_certain else f"{self.name} (?)"


@dataclass(frozen=True)
class Catalog:
    ruleset: str
    machines: dict[str, Machine]
    source: str

    def __getitem__(self, machine_id: str) -> Machine:
        return self.machines[machine_id]

    def __contains__(self, machine_id: object) -> bool:
        return machine_id in self.machines

    @property
    def bundled(self) -> bool:
        """One of instances/machines, not a user's --catalog file."""
        return Path(self.source).parent == MACHINES_DIR

    def unknown(self, machine_id: str) -> str:
        """What an id this catalogue lacks is called in errors: a user's catalogue is named (QA: "unknown machine
        id" alone left the reader to guess which file was meant)."""
        return f"unknown machine id {as_json(machine_id)}" + ("" if self.bundled else f" (not in the catalogue {self.source})")


def catalog_document(catalog: Catalog) -> dict:
    """The catalogue as a machines file lists it: `parse_catalog` reads it back to an equal catalogue, so
    `factoryfun catalog --json` output works as `--catalog FILE`."""
    return {"ruleset": catalog.ruleset, "machines": [
        {"id": m.id, "name": m.name, "name_certain": m.name_certain, "income": m.income, "bonus_supply": m.bonus_supply,
         "ports": [{"at": p.at, "kind": p.kind, "colors": list(p.colors), "amount": p.amount} for p in m.ports],
         **({"special": True} if m.special else {})}
        for m in catalog.machines.values()]}


def _parse_port(src: str, key: str, raw: object, ruleset: Ruleset) -> PortSpec:
    require_keys(src, key, raw, {"at", "kind", "colors", "amount"})
    assert isinstance(raw, dict)
    at = raw["at"]
    # (a list or object here is no position either: QA saw "unhashable type" in a traceback)
    if not isinstance(at, str) or at not in ruleset.machine_shape.positions:
        raise DocumentError(src, f"{key}.at", f"unknown port position {as_json(at)}")
    if raw["kind"] not in ("in", "out"):
        raise DocumentError(src, f"{key}.kind", "expected 'in' or 'out'")
    colors = expect(src, f"{key}.colors", raw["colors"], list, "a list of colours")
    for color in colors:
        if color not in ruleset.all_colors:
            raise DocumentError(src, f"{key}.colors", f"unknown colour {as_json(color)} for ruleset {ruleset.id}")
    if not colors:
        raise DocumentError(src, f"{key}.colors", "a port needs at least one colour")
    if len(colors) > 1 and ("black" in colors or not ruleset.multi_colour_ports):
        raise DocumentError(src, f"{key}.colors", "black is an end product, never one of a port's colours"
                            if "black" in colors else f"ruleset {ruleset.id} prints one colour per port")
    if raw["kind"] == "in" and colors == ["black"]:
        raise DocumentError(src, f"{key}.colors", "no input takes black: end products go only to end-product "
                            "reservoirs")
    amount = raw["amount"]
    if amount is not None:
        expect_int_in(src, f"{key}.amount", amount, 1, MAX_AMOUNT, "an integer amount")
    elif colors != ["black"]:
        raise DocumentError(src, f"{key}.amount", "only black outputs may omit the amount")
    return PortSpec(at=at, kind=raw["kind"], colors=tuple(colors), amount=amount)


def parse_catalog(document: object, ruleset: Ruleset, source: str) -> Catalog:
    refuse_play_document(source, document, "a machine catalogue")
    refuse_boards_file(source, document, "a machine catalogue")   # (QA: "boards: unknown key")
    require_keys(source, "", document, {"ruleset", "machines"}, {"source"})
    assert isinstance(document, dict)
    if document["ruleset"] != ruleset.id:
        raise DocumentError(source, "ruleset", f"catalogue is for {as_json(document['ruleset'])}, not {as_json(ruleset.id)}")
    machines: dict[str, Machine] = {}
    for i, raw in enumerate(expect(source, "machines", document["machines"], list, "a list")):
        key = f"machines[{i}]"
        require_keys(source, key, raw, {"id", "income", "ports"}, {"name", "name_certain", "bonus_supply", "special"})
        machine_id = expect_plain_id(source, f"{key}.id", raw["id"])
        if machine_id in machines:
            raise DocumentError(source, f"{key}.id", f"duplicate machine id {as_json(machine_id)}")
        bonus = raw.get("bonus_supply")
        if bonus is not None and not ruleset.bonus_supply:   # (QA: drawn as "+1 container" the checker refused)
            raise DocumentError(source, f"{key}.bonus_supply", f"{ruleset.title} has no bonus machines: leave it "
                                "out (or null)")
        if bonus is not None and bonus != "any" and bonus not in ruleset.colors:
            raise DocumentError(source, f"{key}.bonus_supply", f"unknown colour {as_json(bonus)} (known: "
                                f"{', '.join(ruleset.colors)}, or \"any\" for a colour of the player's choice)")
        try:
            ports = tuple(
                _parse_port(source, f"{key}.ports[{j}]", p, ruleset)
                for j, p in enumerate(expect(source, f"{key}.ports", raw["ports"], list, "a list"))
            )
        except DocumentError as exc:   # name the machine too: the list index alone sends the reader counting
            raise DocumentError(exc.source, exc.key, f"{exc.detail} (machine {machine_id})", exc.cell) from None
        if not ports:
            raise DocumentError(source, f"{key}.ports", "a machine needs at least one port")
        positions = [p.at for p in ports]
        twice = next((at for at in positions if positions.count(at) > 1), None)
        if twice is not None:   # (named as the other port errors are; QA: "two ports at the same position" alone)
            raise DocumentError(source, f"{key}.ports", f"two ports at {as_json(twice)} (machine {machine_id})")
        machines[machine_id] = Machine(
            id=machine_id,
            name=expect(source, f"{key}.name", raw.get("name"), (str, type(None)), "a string name or null"),
            name_certain=expect(source, f"{key}.name_certain", raw.get("name_certain", True), bool, "true or false"),
            income=expect_int_in(source, f"{key}.income", raw["income"], 0, MAX_INCOME, "an integer income"),
            bonus_supply=bonus,
            ports=ports,
            special=expect(source, f"{key}.special", raw.get("special", False), bool, "true or false"),
        )
    if not machines:
        raise DocumentError(source, "machines", "lists no machines")
    return Catalog(ruleset=ruleset.id, machines=machines, source=source)


_CACHE: dict[tuple[str, str], Catalog] = {}


#: what a ruleset without transcribed tiles needs (the 1st edition's were never transcribed)
NO_CATALOGUE = "no bundled machine catalogue (its printed tiles are not transcribed); pass your own with --catalog FILE"


def load_catalog(ruleset: Ruleset, path: str | Path | None = None) -> Catalog:
    """The bundled catalogue of a ruleset, or a user's catalogue file."""
    if path is None and ruleset.catalog_file is None:
        raise DocumentError(f"ruleset {ruleset.id}", "", NO_CATALOGUE)
    file = Path(path) if path is not None else MACHINES_DIR / ruleset.catalog_file
    key = (ruleset.id, str(file))
    if key not in _CACHE:
        _CACHE[key] = parse_catalog(read_json(file), ruleset, str(file))
    return _CACHE[key]

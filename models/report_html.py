"""The analysis of a played game against the plan as one standalone HTML page.

Standalone means: inline CSS, inline SVG, no script and no external asset, so the
file can be mailed or attached to an issue and still look the same. Layout
pictures come from `render.layout_svg`; this module only frames them (crops the
per-picture legend, which the page shows once, and keeps element ids unique,
because one HTML document holds many SVGs).
"""
from __future__ import annotations

import itertools
import re
from html import escape

from .analysis import (Analysis, GameRound, RoundComparison, bound_text, fell_short, illegal_lead, ladder_text, level_note,
                       money_moves, moves_note, share_text, signed, unbuilt)
from .render import layout_svg
from .render.svg import legend_svg
from .replay import grouped_violations


CSS = """
:root { --loss: #c62828; --gain: #2e7d32; --ink: #222; --muted: #6b6b6b; --line: #e2ddd2; --paper: #faf8f3; }
* { box-sizing: border-box; }
body { margin: 0; padding: 28px 36px 48px; font: 15px/1.45 "DejaVu Sans", Verdana, Arial, sans-serif; color: var(--ink); background: var(--paper); }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 34px 0 12px; border-bottom: 2px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 17px; margin: 0; }
.sub { color: var(--muted); margin: 0 0 18px; }
.cards { display: flex; gap: 14px; flex-wrap: wrap; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 12px 18px; min-width: 170px; }
.card .label { font-size: 12px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); }
.card .value { font-size: 30px; font-weight: bold; line-height: 1.2; }
.card .note { font-size: 13px; color: var(--muted); }
.bar { height: 10px; background: #e9e4d8; border-radius: 5px; overflow: hidden; margin-top: 6px; width: 160px; }
.bar span { display: block; height: 100%; background: var(--gain); }
.bar span.void { background: var(--muted); }
.loss { color: var(--loss); font-weight: bold; }
.gain { color: var(--gain); font-weight: bold; }
.even { color: var(--muted); }
ul.short { margin: 6px 0 0; padding-left: 20px; }
ul.short li { margin: 3px 0; }
.violations { background: #fdecea; border: 1px solid #f3b8b2; border-radius: 8px; padding: 10px 16px; color: var(--loss); }
.violations ul { margin: 4px 0 0; padding-left: 20px; }
table.rounds { border-collapse: collapse; background: #fff; border: 1px solid var(--line); width: 100%; }
table.rounds th, table.rounds td { padding: 6px 10px; border-bottom: 1px solid var(--line); text-align: left; white-space: nowrap; }
table.rounds th { background: #f1ede3; font-size: 13px; }
table.rounds td.num, table.rounds th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.rounds tr.total td { font-weight: bold; border-top: 2px solid #cfc8b8; }
table.rounds tr.bad td:first-child { box-shadow: inset 4px 0 0 var(--loss); }
.offer { display: inline-block; padding: 0 6px; margin: 1px 2px 1px 0; border-radius: 4px; background: #eee9dd; font-size: 13px; }
.offer.you { outline: 2px solid #3b6fd6; }
.offer.plan { background: #d9eedb; }
.skip { color: var(--loss); }
.round { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 14px 18px; margin: 16px 0; }
.round.quiet { padding: 8px 18px; color: var(--muted); }
.round header { display: flex; align-items: baseline; gap: 16px; flex-wrap: wrap; margin-bottom: 10px; }
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: 18px; max-width: 1180px; }
figure { margin: 0; }
figure svg { width: 100%; height: auto; display: block; border: 1px solid var(--line); border-radius: 6px; }
figure.unchanged svg { opacity: .55; }
figcaption { margin-top: 6px; font-size: 14px; }
figcaption b { font-size: 15px; }
.tag { display: inline-block; font-size: 12px; padding: 0 6px; border-radius: 4px; background: #eee; color: var(--muted); margin-left: 6px; }
.rv { color: var(--loss); margin: 6px 0 0; padding-left: 20px; font-size: 14px; }
.legend svg { width: 340px; height: auto; }
.key { font-size: 13px; color: var(--muted); margin: 6px 0 0; }
"""


# -- pictures -------------------------------------------------------------------------
def _inline_svg(svg: str) -> str:
    """An SVG document made fit to sit inside HTML: no XML declaration."""
    return svg.split("?>", 1)[1].lstrip() if svg.startswith("<?xml") else svg


def _own_patterns(body: str) -> str:
    """The page with each picture's hatch pattern of blocked cells (id ff-hatch in every picture) given an id of
    its own, ff-hatch-1, -2, ...: an id may stand once in an HTML page (QA: 15 times), and a picture copied out
    of the page alone keeps its hatching (QA, 2026-12-07: the page defined it once, in its first picture, so a
    copied picture drew blocked cells white)."""
    pictures = itertools.count(1)
    return re.sub(r"<svg\b.*?</svg>", lambda m: m.group(0).replace("ff-hatch", f"ff-hatch-{next(pictures)}"),
                  body, flags=re.S)


# -- pieces of text -------------------------------------------------------------------
def _cls(value: float) -> str:
    return "loss" if value < 0 else "gain" if value > 0 else "even"


def _diff(value: int) -> str:
    return f'<span class="{_cls(value)}">{escape(signed(value))}</span>'


def _choice(side: GameRound) -> str:
    r = side.report
    if r.taken is None:
        return '<span class="even">took nothing</span>'
    if r.built:
        return f"<b>{escape(r.taken)}</b> built"
    penalty = f" (&minus;{r.penalty})" if r.penalty else ""
    return f'<b>{escape(r.taken)}</b> <span class="skip">{unbuilt(r)}{penalty}</span>'


def _money_parts(side: GameRound) -> str:
    parts = []
    for kind, value in money_moves(side.report):
        text = f"{'+' if value > 0 else '&minus;'}{abs(value)} {kind}"
        parts.append(f'<span class="skip">{text}</span>' if kind == "penalty" else text)
    return ", ".join(parts) or '<span class="even">&ndash;</span>'


def _offers(r: RoundComparison) -> str:
    """The offered machines, the player's pick outlined and the plan's pick shaded."""
    out = []
    for machine in r.offered:
        cls = "offer" + (" you" if machine == r.played.report.taken else "") + (" plan" if machine == r.best.report.taken else "")
        out.append(f'<span class="{cls}">{escape(machine)}</span>')
    return "".join(out)


# -- page sections --------------------------------------------------------------------
def _card(label: str, value: str, note: str = "", extra: str = "") -> str:
    note_html = f'<div class="note">{note}</div>' if note else ""
    return f'<div class="card"><div class="label">{escape(label)}</div><div class="value">{value}</div>{note_html}{extra}</div>'


def _header(a: Analysis) -> str:
    game = a.played_game
    share = a.share
    # an illegal game's score does not count: its share is drawn grey with a plain difference, not as a win in
    # green (QA, 2026-12-07: a share of 131 % in green above "does not count")
    void = ' class="void"' if a.played_violations else ""
    bar = "" if share is None else f'<div class="bar"><span{void} style="width:{max(0.0, min(share, 100.0)):.1f}%"></span></div>'
    difference = f"difference {escape(signed(a.score_gap))} &middot; illegal game: does not count" if void else f"difference {_diff(a.score_gap)}"
    cards = [
        _card("Your score", str(a.played_score), f"money {a.played.money} + chain bonus {a.played.chain_bonus}"),
        _card(f"The {a.plan_label}", str(a.best_score), f"money {a.best.money} + chain bonus {a.best.chain_bonus}"),
        _card(f"Share of the {a.plan_label}", escape(share_text(a)), difference, bar),
    ]
    bound = bound_text(a)
    if bound is not None:
        value = str(a.bound) if a.bound is not None else escape(a.status or "")
        note = f"the plan {a.plan_gap} points under it" if a.plan_gap is not None else ""
        if a.status and a.bound is not None:
            note += f" &middot; {escape(a.status)}"
        if a.claimed:   # (QA: the terminal said "as the plan file says: not proved here", the page did not)
            note += " &middot; as the plan file says: not proved here"
        cards.append(_card("Bound", value, note))
    verdict = ('<span class="loss">illegal game</span>' if a.played_violations else "legal game")
    sub = (f"{escape(game.ruleset.id)} &middot; board {escape(game.context.board.id)} &middot; {len(a.rounds)} rounds "
           f"&middot; start money {game.start_money} &middot; {verdict}")
    lead = illegal_lead(a)
    lead_html = f'<p class="loss">{escape(lead)}.</p>' if lead else ""
    ladder = ladder_text(a)
    lead_html += f'<p class="sub"><b>{escape(ladder[0].upper() + ladder[1:])}.</b></p>' if ladder else ""
    return (f"<h1>Your game against the {escape(a.plan_label)}</h1><p class=\"sub\">{sub}</p>{lead_html}"
            f'<div class="cards">{"".join(cards)}</div>')


def _shortfalls(a: Analysis) -> str:
    items = a.shortfalls()
    said = level_note(a)
    note = "" if fell_short(items) else f'<p class="gain">{said[0].upper()}{said[1:]}.</p>'
    lis = "".join(f'<li><span class="{"loss" if s.amount > 0 else "gain"}">'
                  f'{escape(s.signed).replace("-", "&minus;")}</span> &nbsp;{escape(s.text)}</li>' for s in items)
    return f'<h2>Where it fell short</h2>{note}' + (f'<ul class="short">{lis}</ul>' if items else "")


def _violations(a: Analysis) -> str:
    if not a.played_violations:
        return ""
    # at its cells, as the terminal says it (QA: the page left them out)
    lis = "".join(f"<li>round {rounds}: <b>{escape(v.rule)}</b> &ndash; {escape(v.message)}"
                  f"{' at ' + escape(v.cells_text) if v.cells else ''}</li>"
                  for rounds, v in grouped_violations(a.played_violations))
    return f'<h2>Rule violations in your game</h2><div class="violations"><ul>{lis}</ul></div>'


def _table(a: Analysis) -> str:
    head = ("<tr><th class=num>Round</th><th>Offered</th><th>You</th><th>Plan</th><th>Your money move</th><th>Plan's money move</th>"
            "<th class=num>Your money</th><th class=num>Plan money</th><th class=num>You &minus; plan</th><th class=num>This round</th></tr>")
    rows = []
    for r in a.rounds:
        bad = ' class="bad"' if r.change < 0 or r.played.violations else ""
        warn = f' <span class="loss" title="rule violations">&#9888; {len(r.played.violations)}</span>' if r.played.violations else ""
        rows.append(
            f"<tr{bad}><td class=num>{r.number}</td><td>{_offers(r)}</td><td>{_choice(r.played)}{warn}</td><td>{_choice(r.best)}</td>"
            f"<td>{_money_parts(r.played)}</td><td>{_money_parts(r.best)}</td>"
            f"<td class=num>{r.played.report.money}</td><td class=num>{r.best.report.money}</td>"
            f"<td class=num>{_diff(r.gap)}</td><td class=num>{_diff(r.change)}</td></tr>")
    rows.append(f'<tr class="total"><td></td><td colspan=5>chain bonus at the end</td><td class=num>{a.played.chain_bonus}</td>'
                f"<td class=num>{a.best.chain_bonus}</td><td></td><td class=num>{_diff(a.chain_difference)}</td></tr>")
    rows.append(f'<tr class="total"><td></td><td colspan=5>final score</td><td class=num>{a.played_score}</td>'
                f"<td class=num>{a.best_score}</td><td class=num>{_diff(a.score_gap)}</td><td></td></tr>")
    key = ('<p class="key"><span class="offer you">id</span> your pick &nbsp; <span class="offer plan">id</span> the plan\'s pick '
           '&nbsp; <b>You &minus; plan</b>: your money minus the plan\'s after the round &nbsp; <b>This round</b>: what the round alone '
           'won or lost against the plan</p>')
    return f'<h2>Round by round</h2><table class="rounds">{head}{"".join(rows)}</table>{key}'


def _figure(side: GameRound, who: str, number: int) -> str:
    r = side.report
    cells = sorted({tuple(c) for v in side.violations for c in v.cells})
    svg = _inline_svg(layout_svg(side.layout, f"{who} after round {number}", cells, legend=False))
    tag = "" if side.changed else '<span class="tag">unchanged</span>'
    # the build's tiles and moves, the first-pick token apart, as the table beside it shows them (QA: "build cost 6"
    # above "-5 build, -1 first pick")
    fee = f" &middot; first pick &minus;{r.first_pick_fee}" if r.built and r.first_pick_fee else ""
    # what the cost paid for (QA: a round that moved FF25 read only "build cost 8"; the terminal has a moves column)
    caption = (f"<b>{escape(who)}</b>{tag}<br>{_choice(side)} &middot; build cost {r.tiles_cost}{escape(moves_note(side))}{fee} &middot; "
               f"money after the round <b>{r.money}</b>")
    if side.violations:
        caption += '<ul class="rv">' + "".join(f"<li>{escape(v.rule)}: {escape(v.message)}</li>" for v in side.violations) + "</ul>"
    cls = "" if side.changed else ' class="unchanged"'
    return f"<figure{cls}>{svg}<figcaption>{caption}</figcaption></figure>"


def _round_section(r: RoundComparison) -> str:
    title = (f"<h3>Round {r.number}</h3><span>{_offers(r)}</span>"
             f"<span>this round {_diff(r.change)} &middot; you &minus; plan after it {_diff(r.gap)}</span>")
    if not (r.played.changed or r.best.changed or r.played.violations):
        return (f'<section class="round quiet"><header>{title}</header>'
                f"Neither layout changed: you {_choice(r.played)}, the plan {_choice(r.best)}.</section>")
    pair = _figure(r.played, "You", r.number) + _figure(r.best, "Plan", r.number)
    return f'<section class="round"><header>{title}</header><div class="pair">{pair}</div></section>'


def analysis_html(analysis: Analysis, title: str | None = None, interrupted: bool = False) -> str:
    """The whole report: header with scores, share, bound and gap; where it fell
    short; violations; the per-round table; then both layouts of every round that
    changed anything, side by side. `interrupted`: the plan's search was stopped, which
    the page says under its header as the terminal does (QA: only the terminal said it)."""
    page_title = title or f"{analysis.played_game.ruleset.title}: your game vs the {analysis.plan_label}"
    legend = (f'<div class="legend">{_inline_svg(legend_svg(analysis.best.final_layout))}</div>'
              if any(r.played.changed or r.best.changed for r in analysis.rounds) else "")
    body = _own_patterns("".join([
        _header(analysis),
        '<p class="sub">Interrupted: the plan compared against is the best found so far.</p>' if interrupted else "",
        _shortfalls(analysis), _violations(analysis), _table(analysis),
        "<h2>Layouts, round by round</h2>", "".join(_round_section(r) for r in analysis.rounds), legend,
    ]))
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(page_title)}</title><style>{CSS}</style></head><body>{body}</body></html>\n")

"""The house-rule lab: what a house rule does to a game.

:func:`compare` plays the same seeded games under several configurations (a variant, with house rules, or
a ruleset file) and measures each game: its length, how its hands end, the points they carry, who wins.
:class:`Comparison` puts the configurations side by side, each measure with a 95 % confidence interval,
and tests every difference from the first configuration with a paired test (the deals are the same, so
game ``i`` under one configuration is compared with game ``i`` under the other). A configuration that does
not deal game ``i`` as the first does (another game, ``gin`` against ``500-rum``, or rules that change the
deal) has no pairs to compare: its differences are tested unpaired (Welch's two-sample test), and the report
says so.

::

    from rummykit.lab import compare
    result = compare(["gin", "gin+gin-only"], games=400, seed=1)
    print(result.table())

Game ``i`` is played from :func:`rummykit.simulate.game_seed` ``(seed, i)`` whatever the configuration or
the number of worker processes, so a comparison is the same for any ``jobs``.
"""

from __future__ import annotations

import csv
import hashlib
import html
import io
import json
import math
import os
import statistics
import textwrap
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .engine import Game
from .results import describe_result
from .simulate import BACKENDS, _play_in_bulk, _pool_map, _ray_map, chunks, game_seed
from .variant import Variant, load_variant

__all__ = ["Config", "Measure", "Comparison", "compare", "parse_config", "measure_game", "write_report"]

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95 % interval."""


@dataclass(frozen=True)
class Config:
    """One configuration: a variant (a name or a ruleset file) and the house rules applied to it."""

    variant: str
    house_rules: tuple[str, ...] = ()
    plugins: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """How the configuration is written and shown: ``gin+gin-only+modern``."""
        return "+".join((self.variant, *self.house_rules))

    def load(self) -> Variant:
        """The variant with its house rules (the plugin files make the house rules they offer selectable)."""
        return load_variant(self.variant, house_rules=self.house_rules, plugins=self.plugins)


def parse_config(text: str, plugins: Sequence[str] = ()) -> Config:
    """``gin+gin-only+modern``: the variant ``gin`` with the house rules ``gin-only`` and ``modern``. The
    variant may be a ruleset file (``my-rules.yaml+modern``)."""
    name, *rules = [part.strip() for part in text.split("+")]
    if not name or any(not rule for rule in rules):
        raise ValueError(f"{text!r}: expected VARIANT or VARIANT+HOUSE-RULE[+HOUSE-RULE...]")
    return Config(name, tuple(rules), tuple(str(p) for p in plugins))


def _count(number: int, noun: str) -> str:
    """``1 game``, ``2 games``."""
    return f"{number} {noun}{'' if number == 1 else 's'}"


# -- what is measured per game ---------------------------------------------------------------------


@dataclass(frozen=True)
class Measure:
    """A number measured per game (None where the game has none, e.g. no knock)."""

    key: str
    label: str
    digits: int = 2


BASE_MEASURES = (
    Measure("hands", "hands per game"),
    Measure("actions_per_hand", "actions per hand", 1),
    Measure("points_per_hand", "points won per hand", 1),
    Measure("first_player_wins", "hands won by the first player", 3),
    Measure("dealer_wins", "hands won by the dealer", 3),
)


def figure_key(name: str) -> str:
    """The measure key of a figure a game reports (``knock deadwood``: ``knock_deadwood``)."""
    return "_".join(name.split())


SHARES = ("kind:", "win:", "first_player_wins", "dealer_wins")
"""Measures that are shares of hands or games: their intervals are kept within 0 and 1."""


def measure_game(game: Game) -> dict[str, Any]:
    """The measures of one finished game: per-game numbers, how its hands ended, and who won.

    ``points_per_hand`` is the mean, over the game's hands, of the points won in a hand (the sum of the
    seats' positive hand scores); ``first_player_wins`` and ``dealer_wins`` are the shares of hands won by
    the seat that played first and by the dealer. Every figure the game reports per hand
    (:attr:`ResultWords.figures <rummykit.results.ResultWords.figures>`, Gin's ``knock deadwood``) is averaged
    over the game's hands that report it, under its key (:func:`figure_key`; ``figures`` maps keys to names).
    ``hand_points`` lists each hand's points won, for the spread.
    """
    results = game.results
    n = game.num_players
    hands = len(results)
    actions = sum(len(deal) for deal in game.history)
    won = [sum(max(s, 0) for s in r.scores) for r in results]
    first = [r.winner == (r.dealer + 1) % n for r in results if r.winner is not None]
    dealer = [r.winner == r.dealer for r in results if r.winner is not None]
    reported: dict[str, list[int]] = {}  # the figures of rummykit_describe_result, by name
    for r in results:
        for name, values in describe_result(game, None, r).figures.items():
            reported.setdefault(name, []).extend(v for v in values if v is not None)
    kinds: dict[str, int] = {}
    for r in results:
        kinds[r.kind] = kinds.get(r.kind, 0) + 1
    return {
        "hands": hands,
        "actions_per_hand": actions / hands if hands else None,
        "points_per_hand": statistics.fmean(won) if won else None,
        "first_player_wins": statistics.fmean(first) if first else None,
        "dealer_wins": statistics.fmean(dealer) if dealer else None,
        **{figure_key(name): statistics.fmean(values) if values else None for name, values in reported.items()},
        "figures": {figure_key(name): name for name in reported},
        "kinds": kinds,
        "hand_points": won,
        "winner": game.winner,
        "end_reason": game.end_reason,
    }


def deal_key(game: Game) -> str:
    """A short digest of the deal in progress as dealt: the dealer and where every card lies. Two games with
    the same key were dealt the same cards."""
    deal = game.deal
    places = [deal.dealer, [[c.face for c in hand] for hand in deal.hands], [c.face for c in deal.discard]]
    places.append([c.face for c in deal.stock])
    return hashlib.sha256(json.dumps(places).encode()).hexdigest()[:16]


def _play_chunk(
    config: Config, indexes: range, seed: int, bots: tuple[str, ...], players: int | None
) -> list[dict[str, Any]]:
    variant = config.load()
    measured = []
    dealt: list[str] = []  # each game's first deal, as it starts
    for index in indexes:
        game = _play_in_bulk(
            variant, game_seed(seed, index), bots, players, on_start=lambda g: dealt.append(deal_key(g))
        )
        measured.append({**measure_game(game), "first_deal": dealt[-1]})
        game._drop()  # freed now rather than by the collector (the game and its deal refer to each other)
    return measured


# -- the comparison ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Estimate:
    """A mean with its 95 % interval; for a difference, its paired test as well."""

    mean: float | None
    low: float | None
    high: float | None
    n: int
    significant: bool = False

    def text(self, digits: int) -> str:
        if self.mean is None:
            return "-"
        if self.low is None or self.high is None:
            return f"{self.mean:.{digits}f}"
        return f"{self.mean:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"

    def as_dict(self) -> dict[str, Any]:
        return {"mean": self.mean, "low": self.low, "high": self.high, "n": self.n, "significant": self.significant}


def estimate(values: Sequence[float]) -> Estimate:
    """The mean of ``values`` with a normal 95 % interval (none for fewer than two values)."""
    if not values:
        return Estimate(None, None, None, 0)
    mean = statistics.fmean(values)
    if len(values) < 2:
        return Estimate(mean, None, None, len(values))
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return Estimate(mean, mean - half, mean + half, len(values))


def paired(base: Sequence[float | None], other: Sequence[float | None]) -> Estimate:
    """The mean difference ``other - base`` over the games where both have a value, with its 95 % interval;
    significant when the interval leaves out 0 (a paired z-test at 5 %)."""
    diffs = [o - b for b, o in zip(base, other) if b is not None and o is not None]
    found = estimate(diffs)
    if found.low is None or found.high is None:
        return found
    significant = found.low > 0 or found.high < 0
    return Estimate(found.mean, found.low, found.high, found.n, significant)


def unpaired(base: Sequence[float | None], other: Sequence[float | None]) -> Estimate:
    """The difference of the means ``other - base``, each over the games that have a value, with its 95 %
    interval from both samples' variances (Welch's two-sample z-test at 5 %): for two samples of games that
    are not the same deals. ``n`` is the smaller sample."""
    one = [b for b in base if b is not None]
    two = [o for o in other if o is not None]
    if not one or not two:
        return Estimate(None, None, None, 0)
    mean = statistics.fmean(two) - statistics.fmean(one)
    n = min(len(one), len(two))
    if len(one) < 2 or len(two) < 2:
        return Estimate(mean, None, None, n)
    half = Z95 * math.sqrt(statistics.variance(one) / len(one) + statistics.variance(two) / len(two))
    low, high = mean - half, mean + half
    return Estimate(mean, low, high, n, low > 0 or high < 0)


@dataclass
class Comparison:
    """Every configuration's per-game measures, in game order; the summaries are computed from them."""

    configs: list[Config]
    games: int
    seed: int
    bots: tuple[str, ...]
    players: int | None
    per_game: list[list[dict[str, Any]]] = field(default_factory=list)

    def same_deals(self) -> list[bool]:
        """Per configuration, whether it dealt every game as the first configuration did (the same cards in
        the same places in each game's first deal): then game ``i`` under one is paired with game ``i`` under
        the other. Another game, or rules that change the deal, deal other cards: no pairs."""
        first = [game.get("first_deal") for game in self.per_game[0]] if self.per_game else []
        return [
            bool(games) and all(g.get("first_deal") == f and f is not None for g, f in zip(games, first))
            for games in self.per_game
        ]

    def kinds(self) -> list[str]:
        """Every way a hand ended in any configuration, most frequent first."""
        totals: dict[str, int] = {}
        for games in self.per_game:
            for game in games:
                for kind, count in game["kinds"].items():
                    totals[kind] = totals.get(kind, 0) + count
        return sorted(totals, key=lambda k: (-totals[k], k))

    def values(self, index: int, key: str) -> list[float | None]:
        """Measure ``key`` of every game of configuration ``index`` (``kind:KNOCK`` is that kind's share of the
        game's hands)."""
        if key.startswith("kind:"):
            kind = key[5:]
            return [g["kinds"].get(kind, 0) / g["hands"] if g["hands"] else None for g in self.per_game[index]]
        if key.startswith("win:"):
            seat = int(key[4:])
            return [float(g["winner"] == seat) for g in self.per_game[index]]
        return [g.get(key) for g in self.per_game[index]]

    def figures(self) -> dict[str, str]:
        """The figures some game reported (its hands' ``ResultWords.figures``), key to name, in order seen."""
        found: dict[str, str] = {}
        for games in self.per_game:
            for game in games:
                found.update(game.get("figures", {}))
        return found

    def measures(self) -> list[Measure]:
        """The measures shown: the base ones that some game has, each figure the games report, each way hands
        end, each seat's win rate."""
        figures = [Measure(key, name, 2) for key, name in self.figures().items()]
        shown = [m for m in (*BASE_MEASURES, *figures) if any(v is not None for i in range(len(self.configs))
                                                              for v in self.values(i, m.key))]  # fmt: skip
        shown += [Measure(f"kind:{kind}", f"hands ending {kind}", 3) for kind in self.kinds()]
        seats = max((len(self.bots), self.players or 0, *(self._seats(i) for i in range(len(self.configs)))))
        shown += [
            Measure(f"win:{seat}", f"games won by seat {seat + 1} ({self._bot(seat)})", 3) for seat in range(seats)
        ]
        return shown

    def _seats(self, index: int) -> int:
        winners = [g["winner"] for g in self.per_game[index] if isinstance(g["winner"], int)]
        return max(winners, default=-1) + 1

    def _bot(self, seat: int) -> str:
        return self.bots[seat] if len(self.bots) > 1 and seat < len(self.bots) else self.bots[0]

    def summary(self) -> dict[str, Any]:
        """Every measure per configuration (mean and interval) and its difference from the first."""
        rows = []
        same = self.same_deals()
        for measure in self.measures():
            base = self.values(0, measure.key)
            row: dict[str, Any] = {"key": measure.key, "label": measure.label, "configs": []}
            for index, config in enumerate(self.configs):
                values = self.values(index, measure.key)
                entry = {"config": config.label, **estimate([v for v in values if v is not None]).as_dict()}
                if measure.key.startswith(SHARES) and entry["low"] is not None:
                    entry["low"], entry["high"] = max(entry["low"], 0.0), min(entry["high"], 1.0)
                if index:
                    test = paired if same[index] else unpaired
                    entry["difference"] = {**test(base, values).as_dict(), "test": test.__name__}
                row["configs"].append(entry)
            rows.append(row)
        spread = []
        for index, config in enumerate(self.configs):
            points = [p for g in self.per_game[index] for p in g["hand_points"]]
            spread.append({"config": config.label, "sd": statistics.stdev(points) if len(points) > 1 else None})
        return {
            "games": self.games,
            "seed": self.seed,
            "bots": list(self.bots),
            "players": self.players,
            "configs": [c.label for c in self.configs],
            "same_deals": same,
            "measures": rows,
            "points_per_hand_sd": spread,
        }

    def table(self) -> str:
        """The comparison as a text table: one row per measure; ``*`` marks a significant difference from
        the first configuration, with its sign (``+`` more, ``-`` less)."""
        data = self.summary()
        header = ["measure", *data["configs"]]
        lines = [header]
        for row, measure in zip(data["measures"], self.measures()):
            cells = [row["label"]]
            for entry in row["configs"]:
                text = Estimate(entry["mean"], entry["low"], entry["high"], entry["n"]).text(measure.digits)
                diff = entry.get("difference")
                if diff and diff["significant"]:
                    text += " *" + ("+" if diff["mean"] > 0 else "-")
                cells.append(text)
            lines.append(cells)
        sds = ["spread of points won per hand (sd)"]
        sds += [f"{s['sd']:.1f}" if s["sd"] is not None else "-" for s in data["points_per_hand_sd"]]
        lines.append(sds)
        widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
        out = ["  ".join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip() for line in lines]
        out.insert(1, "  ".join("-" * w for w in widths))
        bots = ",".join(self.bots)
        out.append("")
        out.append(f"{_count(self.games, 'game')} per configuration, seed {self.seed}, bots {bots}; means with 95 % "
                   "intervals;")  # fmt: skip
        out += textwrap.wrap(self._tests_text(), width=110)
        extra = sorted({name for config in self.configs for name in config.load().extra_plugins})
        if extra:  # plugin files that offer no house rule are in force in every configuration
            out.append(f"In force in every configuration: plugin {', plugin '.join(extra)}.")
        return "\n".join(out)

    def _tests_text(self) -> str:
        """What the marks mean, and which test each configuration's differences had."""
        first = self.configs[0].label
        same = self.same_deals()
        others = [config.label for config, alike in zip(self.configs, same) if not alike]
        if not others:
            return f"*+ / *-: significantly more / less than {first} (paired test, 5 %)."
        one = len(others) == 1
        paired_too = "; the others' are paired (the same deals)" if len(others) < len(self.configs) - 1 else ""
        return (
            f"*+ / *-: significantly more / less than {first} (5 %). {', '.join(others)} "
            f"{'does' if one else 'do'} not deal the games as {first} does (a different game, or rules that "
            f"change the deal), so there are no pairs to compare: {'its' if one else 'their'} differences are "
            f"tested unpaired (Welch's two-sample test){paired_too}."
        )

    def rows(self) -> list[dict[str, Any]]:
        """One row per configuration and game, for CSV."""
        out = []
        for config, games in zip(self.configs, self.per_game):
            for index, game in enumerate(games):
                row = {"config": config.label, "game": index}
                row.update({m.key: game[m.key] for m in BASE_MEASURES})
                row.update({key: game.get(key) for key in self.figures()})
                row.update({f"kind:{k}": game["kinds"].get(k, 0) for k in self.kinds()})
                row["winner"] = game["winner"]
                out.append(row)
        return out


def compare(
    configs: Sequence[Config | str],
    games: int,
    seed: int = 0,
    bots: Sequence[str] = ("greedy",),
    players: int | None = None,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    plugins: Sequence[str | Path] = (),
    *,
    backend: str = "process",
    ray_address: str | None = None,
) -> Comparison:
    """Play ``games`` games under each configuration, game ``i`` from the same seed in all of them.
    ``plugins`` are local plugin files loaded for the configurations given as text (house rules they offer
    may be named there). ``jobs`` and ``backend`` as for :func:`rummykit.simulate.simulate`: ``jobs`` worker
    processes, or with ``backend="ray"`` Ray tasks at a time (0: the cluster's CPUs) on the cluster at
    ``ray_address``; the comparison is the same for any of them."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}: the backends are {' and '.join(BACKENDS)}")
    chosen = [parse_config(c, [str(p) for p in plugins]) if isinstance(c, str) else c for c in configs]
    if not chosen:
        raise ValueError("compare needs at least one configuration")
    for config in chosen:
        config.load()  # refuse a bad name or house rule before any game is played
    result = Comparison(chosen, games, seed, tuple(bots), players)
    total = games * len(chosen)
    done = 0
    parts = chunks(games, max(jobs, 1) if backend == "process" else jobs or os.cpu_count() or 1)
    tasks = [(config, part, seed, tuple(bots), players) for config in chosen for part in parts]
    # One pool of workers serves every configuration (simulate's: ^C, a lost worker and a killed parent are
    # handled alike); chunks finish in any order and are put back in game order.
    finished: Iterable[tuple[int, list[dict[str, Any]]]]
    if backend == "ray":
        finished = _ray_map(_play_chunk, tasks, jobs, ray_address)
    elif jobs > 1 and len(tasks) > 1:
        finished = _pool_map(_play_chunk, tasks, jobs)
    else:
        finished = ((number, _play_chunk(*task)) for number, task in enumerate(tasks))
    measured: dict[int, list[dict[str, Any]]] = {}
    for number, found in finished:
        measured[number] = found
        done += len(tasks[number][1])
        if progress is not None:
            progress(done, total)
    for index in range(len(chosen)):
        numbers = range(index * len(parts), (index + 1) * len(parts))
        result.per_game.append([game for number in numbers for game in measured[number]])
    return result


# -- the report -------------------------------------------------------------------------------------


def write_report(comparison: Comparison, folder: Path) -> list[Path]:
    """Write ``index.html`` (the table and, with the ``plots`` extra, its plots inline and as ``points.svg``,
    ``length.svg`` and ``endings.svg``), ``summary.json``, ``games.csv`` and ``games.json`` into ``folder``;
    return the paths written, the page last."""
    folder.mkdir(parents=True, exist_ok=True)
    summary = comparison.summary()
    written = []
    path = folder / "summary.json"
    path.write_text(json.dumps(summary, indent=2), encoding="utf-8")
    written.append(path)
    rows = comparison.rows()
    path = folder / "games.csv"
    buffer = io.StringIO()
    fields = list(rows[0]) if rows else ["config", "game"]
    for row in rows:
        fields += [k for k in row if k not in fields]
    writer = csv.DictWriter(buffer, fieldnames=fields, restval=0)
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(buffer.getvalue(), encoding="utf-8")
    written.append(path)
    path = folder / "games.json"
    path.write_text(json.dumps(rows), encoding="utf-8")
    written.append(path)
    figures = _plots(comparison)
    for _, name, image in figures:
        path = folder / name
        path.write_text(image, encoding="utf-8")
        written.append(path)
    path = folder / "index.html"
    path.write_text(_html(comparison, summary, figures), encoding="utf-8")
    written.append(path)
    return written


def _html(comparison: Comparison, summary: dict[str, Any], figures: list[tuple[str, str, str]]) -> str:
    measures = comparison.measures()
    head = "".join(f"<th>{html.escape(c)}</th>" for c in summary["configs"])
    body = []
    for row, measure in zip(summary["measures"], measures):
        cells = []
        for entry in row["configs"]:
            text = Estimate(entry["mean"], entry["low"], entry["high"], entry["n"]).text(measure.digits)
            diff = entry.get("difference")
            mark = ""
            if diff and diff["significant"]:
                mark = ' class="more"' if diff["mean"] > 0 else ' class="less"'
            cells.append(f"<td{mark}>{html.escape(text)}</td>")
        body.append(f"<tr><th>{html.escape(row['label'])}</th>{''.join(cells)}</tr>")
    plots = "".join(f"<figure>{image}<figcaption>{html.escape(caption)}</figcaption></figure>"
                    for caption, _, image in figures)  # fmt: skip
    if not figures:
        plots = (
            "<p>Plots need the <code>plots</code> extra: <code>pip install '.[plots]'</code> in rummykit's folder.</p>"
        )
    title = "rummykit compare: " + " vs ".join(summary["configs"])
    played = _count(summary["games"], "game")
    tests = "(paired test at 5 %, the same deals under each configuration)."
    if not all(summary["same_deals"]):
        tests = "(5 %). " + html.escape(comparison._tests_text().split("(5 %). ", 1)[1])
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>
body {{ font-family: sans-serif; margin: 2em; }} table {{ border-collapse: collapse; }}
td, th {{ border: 1px solid #ccc; padding: 0.3em 0.6em; text-align: right; }} th {{ text-align: left; }}
td.more {{ background: #d8f0d8; }} td.less {{ background: #f6d8d8; }} figure {{ display: inline-block; }}
</style></head><body>
<h1>{html.escape(title)}</h1>
<p>{played} per configuration, seed {summary["seed"]}, bots {html.escape(",".join(summary["bots"]))}.
Means with 95 % intervals; green / red: significantly more / less than {html.escape(summary["configs"][0])}
{tests}</p>
<table><tr><th>measure</th>{head}</tr>
{"".join(body)}
</table>
{plots}
<p>Data: <a href="summary.json">summary.json</a>, <a href="games.csv">games.csv</a>,
<a href="games.json">games.json</a>.</p>
</body></html>
"""


def _plots(comparison: Comparison) -> list[tuple[str, str, str]]:
    """The plots as SVG texts, each with its caption and file name (none without matplotlib, the ``plots``
    extra)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    labels = [c.label for c in comparison.configs]
    figures: list[tuple[str, str, str]] = []

    def svg(fig: Any) -> str:
        out = io.StringIO()
        fig.savefig(out, format="svg", bbox_inches="tight", metadata={"Date": None})
        plt.close(fig)
        text = out.getvalue()
        return text[text.index("<svg") :]

    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.hist([[p for g in games for p in g["hand_points"]] for games in comparison.per_game], bins=30, label=labels)
    ax.set_xlabel("points won in a hand")
    ax.set_ylabel("hands")
    ax.legend()
    figures.append(("Points won per hand", "points.svg", svg(fig)))
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.hist([[g["hands"] for g in games] for games in comparison.per_game], bins=20, label=labels)
    ax.set_xlabel("hands in a game")
    ax.set_ylabel("games")
    ax.legend()
    figures.append(("Game length", "length.svg", svg(fig)))
    kinds = comparison.kinds()
    fig, ax = plt.subplots(figsize=(6, 3.5))
    width = 0.8 / max(len(labels), 1)
    for i, games in enumerate(comparison.per_game):
        hands = sum(g["hands"] for g in games) or 1
        shares = [sum(g["kinds"].get(k, 0) for g in games) / hands for k in kinds]
        ax.bar([x + i * width for x in range(len(kinds))], shares, width, label=labels[i])
    ax.set_xticks([x + width * (len(labels) - 1) / 2 for x in range(len(kinds))], kinds)
    ax.set_ylabel("share of hands")
    ax.legend()
    figures.append(("How hands end", "endings.svg", svg(fig)))
    return figures

"""``analyze`` and ``check`` give the same answers however they are computed (issue 29's speed work).

Two independent witnesses:

* a straightforward reference, written variant by variant in plain Python from the definitions in
  :mod:`bot.engine.analysis` (missing, possible, holding the exposures, the ranking), which the fast numpy form
  must agree with on every line, seeded racks and a Hypothesis property alike;
* answers recorded before the speed work (``data/analysis_recorded.json``: for each seeded rack, a digest of
  ``analyze``'s whole output, need and spare included, and of ``check``'s matches), so that nothing the reference
  does not model (the chosen variant behind ``need`` and ``spare``, the arrangement of a Mah Jongg) can drift.

Racks come with exposures (jokers in them too) and visible tiles, on the practice card, the 1946 card and the
practice card with one line of 1,008 variants. Run this file as a script to record the answers anew (only ever
from code known to be right).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections import Counter
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.cards import flat, winning_groups
from support.properties import SETTINGS

from bot.engine.analysis import LineAnalysis, analyze
from bot.engine.card import Card
from bot.engine.cardfile import load_card_text
from bot.engine.matching import CheckResult, check, exposure_group
from bot.engine.notation import counts_of
from bot.engine.tiles import NUM_KINDS
from bot.service.cards import DEFAULT_CARDS_DIR, load_card

RECORDED = Path(__file__).resolve().parent / "data" / "analysis_recorded.json"
CARD_IDS = ("practice", "nmjl-1946", "practice-long")
RACKS_PER_CARD = 120


@cache
def card_of(card_id: str) -> Card:
    """The shipped cards, and the practice card with a made-up line of 42 x 4 x 6 = 1,008 variants."""
    if card_id != "practice-long":
        return load_card(card_id)
    pairs = [(i, j) for i in range(1, 10) for j in range(1, 10) if i != j][:42]
    alternatives = ", ".join(f'"ZZZ {str(i) * 4}a NN {str(j) * 3}b FF"' for i, j in pairs)
    practice = (DEFAULT_CARDS_DIR / "practice.toml").read_text(encoding="utf-8")
    line = (f'\n[[hand]]\nid = "long-1"\nsection = "Long"\npattern = [{alternatives}]\nexposed = true\n'
            'value = 30\nnote = "a made-up line of 1,008 variants"\n')
    return load_card_text(practice.replace('id = "practice"', 'id = "practice-long"', 1) + line)


# ------------------------------------------------------------------------------------------ the racks


def random_rack(card: Card, rng: random.Random, size: int) -> tuple[list[int], list[list[int]], list[int]]:
    """(concealed, exposures, visible): up to two exposures (some with wilds), dealt from the card's set."""
    wall = card.tile_set.tiles()
    rng.shuffle(wall)
    wild = card.wild
    exposures: list[list[int]] = []
    for _ in range(rng.choice((0, 0, 1, 1, 2))):
        tile = rng.choice(sorted({t for t in wall if t != wild}))
        group_size = rng.choice((3, 3, 4))
        wilds = min(rng.choice((0, 0, 1, 2)), wall.count(wild) if wild is not None else 0)
        if wall.count(tile) < group_size - wilds:
            continue
        group = [tile] * (group_size - wilds) + [wild] * wilds  # type: ignore[list-item]
        for t in group:
            wall.remove(t)
        exposures.append(group)
    take = size - sum(len(e) for e in exposures)
    if exposures and rng.random() < 0.5:  # hold more of an exposed tile: the exposure fills its groups first
        kin = [t for t in wall if t == exposures[0][0]][:take]
        for t in kin:
            wall.remove(t)
        wall = kin + wall
    concealed, wall = wall[:take], wall[take:]
    visible = wall[: rng.choice((0, 5, 20, 60))]
    return concealed, exposures, visible


def winning_rack(card: Card, rng: random.Random) -> tuple[list[int], list[list[int]], list[int]]:
    """A Mah Jongg of a random variant, with wilds where naturals run out, all concealed."""
    line = rng.choice(card.lines)
    variant = rng.choice(line.variants)
    rack: list[int] = []
    for tile, size in variant.groups:
        naturals = min(size, card.tile_set.counts[tile] - rack.count(tile))
        rack += [tile] * naturals + [card.wild] * (size - naturals)  # type: ignore[list-item]
    return rack, [], []


def exposed_near_win(card: Card, rng: random.Random) -> tuple[list[int], list[list[int]], list[int]]:
    """A variant's winning groups with one or two of its groups of three or more exposed, then up to two
    concealed tiles swapped for others from the wall: the racks where exposed and held tiles share kinds."""
    while True:
        variant = rng.choice(rng.choice(card.lines).variants)
        groups = winning_groups(variant, card.tile_set)
        exposable = [i for i, g in enumerate(groups) if len(g) >= 3 and any(t != card.wild for t in g)]
        if exposable:
            break
    chosen = set(rng.sample(exposable, min(len(exposable), rng.choice((1, 2)))))
    exposures = [groups[i] for i in sorted(chosen)]
    concealed = flat(g for i, g in enumerate(groups) if i not in chosen)
    if concealed and rng.random() < 0.7:
        wall = card.tile_set.tiles()
        for t in [*concealed, *flat(exposures)]:
            wall.remove(t)
        for _ in range(rng.choice((1, 2))):
            position = rng.randrange(len(concealed))
            new = wall.pop(rng.randrange(len(wall)))
            wall.append(concealed[position])
            concealed[position] = new
    return concealed, exposures, []


def seeded_racks(card_id: str) -> list[tuple[list[int], list[list[int]], list[int]]]:
    card = card_of(card_id)
    rng = random.Random(f"analysis-identical-{card_id}")
    racks = [random_rack(card, rng, rng.choice((13, 14))) for _ in range(RACKS_PER_CARD)]
    racks += [exposed_near_win(card, rng) for _ in range(RACKS_PER_CARD // 2)]
    return racks + [winning_rack(card, rng) for _ in range(RACKS_PER_CARD // 3)]


# ------------------------------------------------------------------------------------- the reference


def reference_ranking(card: Card, concealed: Sequence[int], exposures: Sequence[Sequence[int]],
                      visible: Sequence[int]) -> list[tuple[str, int, bool]]:
    """(line id, missing, possible) for every line, ranked, computed one variant at a time."""
    wild = card.wild
    groups = [exposure_group(e, wild) for e in exposures]
    naturals = counts_of(concealed)
    jokers = naturals[wild] if wild is not None else 0
    exposed = [0] * NUM_KINDS
    for tile, size in groups:
        exposed[tile] += size
    seen = counts_of([*visible, *(t for e in exposures for t in e)])
    reachable = [card.tile_set.counts[k] - seen[k] for k in range(NUM_KINDS)]
    reachable_jokers = 0
    if wild is not None:
        naturals[wild] = 0
        reachable_jokers, reachable[wild] = reachable[wild], 0
    wanted = Counter(groups)

    def missing_of(variant, exposed: list[int]) -> int:  # type: ignore[no-untyped-def]
        kinds = [k for k in range(NUM_KINDS) if variant.need[k]]  # a kind the variant does not use adds nothing
        matched = sum(max(0, min(variant.need[k] - exposed[k], naturals[k])) for k in kinds)
        in_small = sum(min(variant.small[k], naturals[k]) for k in kinds)
        big_places = sum(variant.need) - sum(variant.small) - sum(exposed)
        jokerable = big_places - (matched - in_small)
        return 14 - sum(exposed) - matched - min(jokers, jokerable)

    ranked = []
    for line in card.lines:
        best: tuple[int, int, bool] | None = None
        for variant in line.variants:
            own = Counter(g for g in variant.groups if g[1] >= 3)
            holds = line.exposed and all(own[g] >= n for g, n in wanted.items())
            # A line that cannot hold the exposures is scored on the concealed tiles alone.
            missing = missing_of(variant, exposed if not groups or holds else [0] * NUM_KINDS)
            kinds = [k for k in range(NUM_KINDS) if variant.need[k]]
            fits = all(variant.small[k] <= reachable[k] for k in kinds)
            wilds_needed = sum(max(0, variant.need[k] - reachable[k] - exposed[k]) for k in kinds)
            possible = fits and wilds_needed <= reachable_jokers and (holds or not groups)
            key = (0 if possible else 1, missing, possible)
            if best is None or key[:2] < best[:2]:
                best = key
        assert best is not None
        ranked.append((line, best[1], best[2]))
    ranked.sort(key=lambda r: (not r[2], r[1], -r[0].value, r[0].index))
    return [(line.id, missing, possible) for line, missing, possible in ranked]


# ------------------------------------------------------------------------------------- the recording


def analysis_digest(results: Sequence[LineAnalysis]) -> str:
    """SHA-256 of the whole output: every line in order with its missing, possible, need and spare."""
    text = ";".join(f"{a.line.id},{a.missing},{int(a.possible)},{[int(t) for t in a.need]},"
                    f"{[int(t) for t in a.spare]}" for a in results)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def check_answer(result: CheckResult) -> str:
    """Every matched line with its arrangement and jokerless flag, as one string."""
    return ";".join(f"{m.line.id}:{[[int(t) for t in g] for g in m.arrangement]}:{int(m.jokerless)}"
                    for m in result.matches)


def answers(card_id: str) -> list[list[str]]:
    """[analysis digest, check answer ("-" when the rack is 13 tiles)] for each seeded rack."""
    card = card_of(card_id)
    out = []
    for concealed, exposures, visible in seeded_racks(card_id):
        size = len(concealed) + sum(len(e) for e in exposures)
        digest = analysis_digest(analyze(card, concealed, exposures, visible))
        out.append([digest, check_answer(check(card, concealed, exposures)) if size == 14 else "-"])
    return out


# ------------------------------------------------------------------------------------------ the tests


@pytest.mark.parametrize("card_id", [*CARD_IDS[:2], pytest.param(CARD_IDS[2], marks=pytest.mark.slow)])
def test_analyze_ranks_every_line_as_the_variant_by_variant_reference_does(card_id: str) -> None:
    card = card_of(card_id)
    racks = seeded_racks(card_id)
    assert any(e for _, e, _ in racks) and any(v for _, _, v in racks)
    for concealed, exposures, visible in racks:
        fast = [(a.line.id, a.missing, a.possible) for a in analyze(card, concealed, exposures, visible)]
        assert fast == reference_ranking(card, concealed, exposures, visible), (concealed, exposures, visible)


@pytest.mark.parametrize("card_id", CARD_IDS)
def test_analyze_and_check_answer_as_recorded_before_the_speed_work(card_id: str) -> None:
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))[card_id]
    now = answers(card_id)
    assert len(now) == len(recorded)
    for n, (got, want) in enumerate(zip(now, recorded, strict=True)):
        assert got == want, f"rack {n} of {card_id}: {seeded_racks(card_id)[n]}"
    assert sum(1 for _, c in recorded if c not in ("-", "")) >= RACKS_PER_CARD // 3  # the wins were checked


@settings(SETTINGS, max_examples=60)
@given(st.sampled_from(CARD_IDS), st.integers(0, 2**32 - 1), st.sampled_from((13, 14)))
def test_analyze_matches_the_reference_on_any_dealt_or_exposed_rack(card_id: str, seed: int, size: int) -> None:
    card = card_of(card_id)
    rng = random.Random(seed)
    concealed, exposures, visible = random_rack(card, rng, size) if rng.random() < 0.5 else exposed_near_win(card, rng)
    fast = [(a.line.id, a.missing, a.possible) for a in analyze(card, concealed, exposures, visible)]
    assert fast == reference_ranking(card, concealed, exposures, visible)


if __name__ == "__main__":  # record the answers anew: python tests/engine/test_analysis_identical.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    RECORDED.write_text(json.dumps({card_id: answers(card_id) for card_id in CARD_IDS}, indent=0) + "\n",
                        encoding="utf-8")
    print(f"recorded {RECORDED}")

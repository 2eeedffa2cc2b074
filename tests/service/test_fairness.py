"""Provable deals through the table service (docs/rules.md, *Provable deals*), on both backends: every deal is
sealed with its game, a table shows the commitment from the deal on and the seed and salt only once the game is
over, a restart keeps the seal, and :func:`verify_deals` passes on recorded games and names a game whose stored seed,
commitment or log was changed."""

from __future__ import annotations

import json
import re

from support.service import ALICE

from bot.engine import fairness
from bot.engine.fairness import DealTerms
from bot.service.clock import ManualClock
from bot.service.fairness import DealSeal, verify_deals
from bot.service.tables import TableService
from bot.service.updates import TableUpdate
from bot.store.db import Database

HEX64 = re.compile(r"^[0-9a-f]{64}$")


async def _computer_games(service: TableService, games: int, seed: int | None = None) -> int:
    table_id = (await service.create_table(5, 50, seed=seed)).table_id
    for _ in range(4):
        await service.add_computer(table_id, "hard")
    for _ in range(games):
        await service.start(table_id)  # computers at delay 0 play each game to its end at once
    return table_id


async def test_a_deal_shows_its_commitment_and_only_the_games_end_reveals_its_seed_and_salt(db: Database) -> None:
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    table_id = (await service.create_table(5, 50)).table_id  # no seed given: each game gets a fresh secret one
    await service.join(table_id, ALICE, "Alice", seat=0)
    for _ in range(3):
        await service.add_computer(table_id, "hard")
    seen: list[TableUpdate] = []
    service.subscribe(seen.append, table_id)
    dealt = await service.start(table_id)
    seal = dealt.view.seal
    assert seal is not None and HEX64.match(seal.commitment) and (seal.seed, seal.salt) == (None, None)
    await service.leave(table_id, ALICE)  # a computer finishes her hand
    await service.drain()
    table = service.tables[table_id]
    stored = await db.fetchone("SELECT g.seed, d.scheme, d.commitment, d.salt, g.rules FROM games g "
                               "JOIN deal_seals d ON d.game_id = g.game_id WHERE g.game_id = ?", (table.game_id,))
    assert stored is not None and stored[1] == fairness.SCHEME and stored[2] == seal.commitment
    over = [u for u in seen if u.phase == "finished"]
    assert over and all(u.view.seal == DealSeal(seal.commitment, int(stored[0]), stored[3]) for u in over)
    assert all(u.view.seal == seal for u in seen if u.phase != "finished" and u.view.game is not None)
    terms = DealTerms(int(stored[0]), 1, table.game.state.east, "practice", json.loads(stored[4]))
    assert fairness.matches(terms, stored[3], seal.commitment)


async def test_a_table_without_a_seed_deals_every_game_from_a_fresh_secret_seed(db: Database) -> None:
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    table_id = await _computer_games(service, 2)
    (table_seed,) = await db.fetchone("SELECT seed FROM tables WHERE table_id = ?", (table_id,))
    seeds = [int(r[0]) for r in await db.fetchall("SELECT seed FROM games WHERE table_id = ? ORDER BY game_no",
                                                  (table_id,))]
    # a revealed seed tells nothing of the next game's: no game is the table's seed plus its number
    assert len(set(seeds)) == 2 and all(s != table_seed + n for n, s in enumerate(seeds, start=1))


async def test_a_table_given_a_seed_deals_game_n_from_that_seed_plus_n(db: Database) -> None:
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    table_id = await _computer_games(service, 2, seed=100)
    seeds = [int(r[0]) for r in await db.fetchall("SELECT seed FROM games WHERE table_id = ? ORDER BY game_no",
                                                  (table_id,))]
    assert seeds == [101, 102]
    assert (await verify_deals(db)).checked == 2


async def test_a_restart_keeps_the_commitment_of_the_game_in_progress(db_target: str) -> None:
    first = await TableService.open(db_target, clock=ManualClock(), computer_delay=0)
    table_id = (await first.create_table(5, 50)).table_id
    await first.join(table_id, ALICE, "Alice", seat=0)
    for _ in range(3):
        await first.add_computer(table_id, "hard")
    sealed = (await first.start(table_id)).view.seal
    await first.close()
    again = await TableService.open(db_target, clock=ManualClock(), computer_delay=0)
    try:
        assert again.view(table_id).seal == sealed and sealed is not None and sealed.seed is None
    finally:
        await again.close()


async def test_verify_passes_on_recorded_games_and_names_the_game_whose_seed_was_altered(db: Database) -> None:
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    await _computer_games(service, 2)
    report = await verify_deals(db)
    assert report.ok and report.checked == 2 and report.unsealed == 0
    (game_id,) = await db.fetchone("SELECT game_id FROM games ORDER BY game_id LIMIT 1 OFFSET 1")
    async with db.transaction() as conn:
        await conn.execute("UPDATE games SET seed = seed + 1 WHERE game_id = ?", (game_id,))
    report = await verify_deals(db)
    assert [m.game_id for m in report.mismatches] == [game_id] and report.checked == 2
    assert "does not match its published commitment" in report.mismatches[0].problem


async def test_a_seed_altered_with_its_commitment_made_again_fails_on_the_recorded_play(db: Database) -> None:
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    await _computer_games(service, 1)
    game = await db.fetchone("SELECT g.game_id, g.seed, g.game_no, g.east, g.rules, d.salt FROM games g "
                             "JOIN deal_seals d ON d.game_id = g.game_id")
    assert game is not None
    forged = fairness.seal(DealTerms(int(game[1]) + 1, int(game[2]), int(game[3]), "practice", json.loads(game[4])),
                           game[5])
    async with db.transaction() as conn:
        await conn.execute("UPDATE games SET seed = seed + 1 WHERE game_id = ?", (game[0],))
        await conn.execute("UPDATE deal_seals SET commitment = ? WHERE game_id = ?", (forged, game[0]))
    (mismatch,) = (await verify_deals(db)).mismatches
    assert mismatch.game_id == game[0] and "recorded play does not follow from its deal" in mismatch.problem


async def test_a_game_whose_seal_is_missing_does_not_match_and_one_dealt_before_sealing_is_set_apart(
        db: Database) -> None:
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    await _computer_games(service, 2)
    first, second = [int(r[0]) for r in await db.fetchall("SELECT game_id FROM games ORDER BY game_id")]
    async with db.transaction() as conn:
        await conn.execute("DELETE FROM deal_seals WHERE game_id = ?", (first,))
        await conn.execute("UPDATE deal_seals SET scheme = 'none', commitment = '', salt = '' WHERE game_id = ?",
                           (second,))
    report = await verify_deals(db)
    assert [m.game_id for m in report.mismatches] == [first] and "no commitment" in report.mismatches[0].problem
    assert (report.checked, report.unsealed) == (1, 1)


async def test_verify_shows_one_games_seed_only_once_it_is_over(db: Database) -> None:
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    table_id = (await service.create_table(5, 50)).table_id
    await service.join(table_id, ALICE, "Alice", seat=0)
    for _ in range(3):
        await service.add_computer(table_id, "hard")
    await service.start(table_id)
    game_id = service.tables[table_id].game_id
    assert game_id is not None
    (seed,) = await db.fetchone("SELECT seed FROM games WHERE game_id = ?", (game_id,))
    playing = await verify_deals(db, game_id)
    assert playing.ok and playing.checked == 1 and "in progress" in "\n".join(playing.shown)
    assert str(seed) not in "\n".join(playing.shown)
    await service.leave(table_id, ALICE)
    assert f"seed {seed}, salt " in "\n".join((await verify_deals(db, game_id)).shown)

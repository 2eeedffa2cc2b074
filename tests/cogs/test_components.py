"""The components the bot draws, built from real service updates (no Discord needed to build them): the table
message's call buttons follow the claimable discard, including the 1946 rule that the last discard stays
claimable during the next turn, and a player's own message offers exactly her moves."""

from __future__ import annotations

from pathlib import Path

import discord
from support.service import PEOPLE, human_table

from bot.ai.selfplay import computer_move
from bot.engine.state import Phase
from bot.service.clock import ManualClock
from bot.service.keys import action_key
from bot.service.tables import TableService
from bot.store.db import Database
from cogs.show import components


def _ids(view: discord.ui.View | None) -> list[str]:
    return [item.custom_id for item in view.children if getattr(item, "custom_id", None)] if view else []  # type: ignore[attr-defined]


async def test_the_1946_late_window_is_offered_until_the_next_discard(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "late.db")
    try:
        clock = ManualClock()
        service = TableService(db, clock=clock, computer_delay=0)
        table_id = await human_table(service, list(PEOPLE), seed=5, preset="nmjl-1946", card="nmjl-1946")
        await service.start(table_id)
        live = service.tables[table_id]
        seen = False
        while live.playing and not seen:
            game = live.game
            assert game is not None
            update = service.snapshot(table_id)
            if game.state.phase == Phase.PLAY and update.claimable is not None:
                token, _, discarder = update.claimable
                table_ids = _ids(components.table_components(update))
                assert f"ch:c:{table_id}:{token}" in table_ids and f"ch:a:{table_id}:{token}:cm" in table_ids
                assert f"ch:a:{table_id}:{token}:p" not in table_ids  # no pass or wait once the window has closed
                for seat, player in enumerate(PEOPLE):
                    mine = service.seat_update(table_id, player)
                    if seat not in (discarder, game.state.turn) and mine.choices.calls:
                        offered = _ids(components.rack_components(mine))
                        assert all(f":{token}:" in cid for cid in offered)
                        await service.act(table_id, player, mine.choices.calls[0].key, token=token)  # accepted
                        seen = True
                        break
                if seen:
                    break
            if game.state.phase == Phase.CALL_WINDOW:  # nobody answers: the window runs out, the discard stays open
                clock.advance(live.rules.call_window_seconds + 1)
                await service.tick()
                continue
            seat = live.people_awaited()[0]
            await service.act(table_id, PEOPLE[seat], action_key(computer_move("normal", game, seat)))
        assert seen, "no late call was possible in this game: pick another seed"
    finally:
        await db.close()

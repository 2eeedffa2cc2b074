"""M3 on the offline Discord (docs/rules.md §6, issue 23 item 11): a person makes a Mah Jongg on a discard that her
hand completes only by redeeming a joker from an exposure, by pressing "Mah Jongg!" in her DM; the table makes the
redemption, the game is settled once in a clean ledger, and the results in the thread name the line.

Nothing is set up by hand: table seed 145 is dealt as ``/table new`` deals it, and every move is a hard computer
player's choice, Alice's made through Discord by the scripted person. The seed was found by playing the same game
through the table service with Discord's pacing (``python -m support.m3_seeds`` from ``tests/`` lists such seeds;
the first check below says so if a change to the engine or the computer players moved the game).
"""

from __future__ import annotations

from pathlib import Path

from support.discord_double import Double
from support.e2e_tables import finish, lobby, open_table, seat_everyone
from support.game_driver import Driver, Person, make_bot
from support.m3_seeds import m3_win

from bot.engine.matching import check
from bot.engine.tiles import Tile
from bot.engine.wording import line_name
from bot.service.cards import load_card
from bot.service.keys import CALL_MAHJONG

SEED, SEAT = 145, 1  # table seed 145: the person in seat 1 (South) wins on Like Numbers by M3


async def test_a_mahjong_on_a_discard_finished_by_redeeming_a_joker_pressed_in_discord(
        discord_double: Double, tmp_path: Path) -> None:
    double = discord_double
    ruth, alice = double.user("ruth"), double.user("alice")
    events = []
    bot = make_bot(double, tmp_path / "m3.db", seeds=iter([SEED]))
    async with double.running(bot):
        await double.wait_for_commands("table")
        # Ruth opens the table; Alice takes seat 1 and Ruth leaves it to her and three computers.
        table_id = await open_table(double, ruth, computer_delay=0)
        thread = double.world.channels[bot.service.view(table_id).display.thread]
        joined = await (await alice.at(thread).slash("table", "join", seat=SEAT)).message()
        assert f"You're in seat {SEAT}" in joined.content, joined.content
        assert "left" in (await (await ruth.at(thread).slash("table", "leave")).message()).content.lower()
        await double.wait_for(lambda: lobby(double, table_id), 10, "the lobby message")
        bot.service.subscribe(lambda u: events.extend(u.events), table_id)
        await seat_everyone(double, bot, table_id, [alice], 3, level="hard")
        assert bot.service.view(table_id).seat_of(alice.id) == SEAT

        # Alice plays as a normal computer player would, through her DMs, until she can call a discard for Mah
        # Jongg.
        driver = Driver(double, bot, table_id, [Person(alice, SEAT)])
        def can_win() -> bool:
            return bot.service.seat_update(table_id, alice.id).win_chance is not None

        await driver.play(until=can_win)
        live = driver.live
        assert live.playing, f"the game ended without Alice's Mah Jongg: seed {SEED} no longer reaches M3 (see " \
            "python -m support.m3_seeds)"
        mine = bot.service.seat_update(table_id, alice.id)
        claimable = mine.table.claimable
        assert claimable is not None and mine.choices.call_mahjong, "a discard Alice can call for Mah Jongg"
        # The discard alone does not finish her hand: only a redemption does (M3).
        state, card = live.game.state, load_card(bot.service.view(table_id).rules.card)
        me = state.seats[SEAT]
        assert not check(card, [*me.rack, claimable[1]], [e.tiles for e in me.exposures]).mahjong
        jokers = [(owner, n) for owner, seat in enumerate(state.seats) for n, e in enumerate(seat.exposures)
                  if Tile.J in e.tiles and e.tile in me.rack]
        assert jokers, "a joker in an exposure that a tile of Alice's can redeem"

        # She presses "Mah Jongg!" in her DM.
        custom_id = f"ch:a:{table_id}:{mine.table.token}:{CALL_MAHJONG}"
        dm = await double.wait_for(lambda: next((m for m in reversed(alice.dms()) if custom_id in m.custom_ids),
                                                None), 10, "Alice's DM with the Mah Jongg button")
        assert dm.component(custom_id)["label"] == "Mah Jongg!"  # type: ignore[index]
        pressed = await alice.at(dm.channel).click(dm, custom_id)
        await pressed.response()
        await double.wait_for(lambda: not live.playing, 10, "the game to end on Alice's Mah Jongg")
        assert not pressed.interaction.errors and not pressed.interaction.followups  # taken, not refused

        # The table makes the redemption and the win; settled once, in a clean ledger; the results name the line.
        await finish(driver, bot)
        state = driver.live.game.state
        table_message = driver.table_message()
        assert table_message is not None and "for a joker" in table_message.content  # the redemption, told
        posted = [m.content for m in driver.thread().messages if not m.deleted and "Settled in the chip ledger" in
                  m.content]
    result = state.result
    assert result is not None and result.winner == SEAT and result.how == "self_pick"  # paid as a self-pick (SC2)
    won = m3_win(events, list(state.log))
    assert won is not None and won[0] == SEAT
    (exchange,) = won[1]  # one joker redeemed
    assert (exchange.payload.owner, exchange.payload.exposure) in jokers
    line = next(x for x in card.lines if x.id == result.line)
    (results,) = posted  # once
    assert "Alice" in results and (line_name(card, line) in results or f"line {line.id}" in results), results

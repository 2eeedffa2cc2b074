"""Every move by command, with suggestions from the player's legal moves; the private helpers (/table show, /rack,
/hint, /back); presses that can't be honoured (a button of an earlier decision, a player with no seat); and any
text typed into an option, which always gets a clear answer."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.discord_double import Double, Player
from support.e2e_tables import open_table, seat_everyone
from support.game_driver import make_bot

from bot.ai.selfplay import computer_move
from bot.engine.actions import (
    Call,
    CharlestonPass,
    CharlestonVote,
    CourtesyOffer,
    DeclareMahJongg,
    Discard,
    ExchangeJoker,
    Hold,
    PassCall,
)
from bot.engine.tiles import code
from bot.service.keys import action_key
from cogs.app import CharlestonBot


async def _command_for(alice: Player, action: object) -> tuple[tuple[str, ...], dict[str, object]]:
    """The /play command (and options) that makes ``action``, checking the suggestions offer it."""
    match action:
        case Discard(tile=tile):
            offered = await alice.autocomplete("play", "discard", tile="")
            assert code(tile) in [c["value"] for c in offered]
            return ("play", "discard"), {"tile": code(tile)}
        case CharlestonPass(tiles=tiles, blind=blind):
            typed = " ".join(code(t) for t in tiles)
            if tiles:
                offered = await alice.autocomplete("play", "charleston", tiles=" ".join(code(t) for t in tiles[:-1]))
                assert any(c["value"].split()[-1] == code(tiles[-1]) for c in offered), offered
            return ("play", "charleston"), {"tiles": typed, "blind": blind}
        case CharlestonVote(stop=stop):
            return ("play", "vote"), {"stop": stop}
        case CourtesyOffer(tiles=tiles):
            return ("play", "courtesy"), {"tiles": " ".join(code(t) for t in tiles)}
        case Call(mahjong=True) | DeclareMahJongg():
            return ("play", "mahjong"), {}
        case Call():
            offered = await alice.autocomplete("play", "call", tiles="")
            assert action_key(action) in [c["value"] for c in offered]  # type: ignore[arg-type]
            return ("play", "call"), {"tiles": action_key(action)}  # type: ignore[arg-type]
        case PassCall():
            return ("play", "pass"), {}
        case Hold():
            return ("play", "hold"), {}
        case ExchangeJoker(owner=owner, tile=tile):
            return ("play", "joker"), {"tile": code(tile), "owner": str(owner)}
    raise AssertionError(f"no command for {action}")


async def test_a_person_plays_by_command_and_uses_the_helpers(discord_double: Double, tmp_path: Path) -> None:
    alice = discord_double.user("alice")
    bot = make_bot(discord_double, tmp_path / "commands.db", seeds=iter([12]))
    async with discord_double.running(bot):
        await discord_double.wait_for_commands("table", "play", "rack", "hint", "back")
        table_id = await open_table(discord_double, alice, computer_delay=0)
        await seat_everyone(discord_double, bot, table_id, [alice], 3)
        live = bot.service.tables[table_id]
        await discord_double.wait_for(lambda: live.game is not None, 5, "the deal")
        here = alice.at(discord_double.world.channels[live.display.thread])
        moves = 0
        while live.playing and moves < 25:  # the Charleston and a good part of the play, all typed
            if 0 not in live.people_awaited():
                await discord_double.wait_for(lambda: 0 in live.people_awaited() or not live.playing, 10, "my turn")
                continue
            action = computer_move("normal", live.game, 0)  # type: ignore[arg-type]
            names, options = await _command_for(here, action)
            before = live.version
            answer = await (await here.slash(*names, **options)).message()
            assert answer.ephemeral and "went wrong" not in answer.content, answer.content
            assert live.version > before, answer.content
            moves += 1
        assert moves == 25 or not live.playing

        shown = await (await here.slash("table", "show")).message()
        assert shown.ephemeral and any(a.filename == "table.png" for a in shown.attachments)
        hint = await (await here.slash("hint")).message()
        assert hint.ephemeral and ("closest lines" in hint.content or "No line" in hint.content)
        rack = await (await here.slash("rack")).message()
        assert "Your rack is in your DMs" in rack.content
        await discord_double.wait_for(lambda: any(a.filename == "rack.png" for a in alice.dms()[-1].attachments),
                                      5, "the rack sent again")
        if live.playing:  # away by leaving, then /back
            left = await (await here.slash("table", "leave")).message()
            assert "A computer plays the rest of this game for you" in left.content
            back = await (await here.slash("back")).message()
            assert "Welcome back" in back.content


async def test_presses_that_cant_be_honoured_get_a_clear_private_answer(discord_double: Double,
                                                                        tmp_path: Path) -> None:
    alice, bob = discord_double.user("alice"), discord_double.user("bob")
    bot = make_bot(discord_double, tmp_path / "stale.db", seeds=iter([4]))
    async with discord_double.running(bot):
        await discord_double.wait_for_commands("table")
        table_id = await open_table(discord_double, alice, computer_delay=0)
        await seat_everyone(discord_double, bot, table_id, [alice], 3)
        live = bot.service.tables[table_id]
        first = await discord_double.wait_for(
            lambda: next((m for m in reversed(alice.dms()) if any(c.startswith("ch:p:") for c in m.custom_ids)),
                         None), 10, "the first pass's DM")
        pick = next(c for c in first.custom_ids if c.startswith("ch:p:"))
        values = [o["value"] for o in first.component(pick)["options"]][:3]  # type: ignore[index]
        await (await alice.at(first.channel).select(first, pick, values)).response()
        await discord_double.wait_for(lambda: live.game is not None and live.game.state.charleston is not None
                                      and live.game.state.charleston.stage >= 1
                                      and live.version == len(live.game.state.log), 5, "the first pass done, saved")
        # the same select again (the first right is over): refused, clearly, and Alice makes no move (the
        # computers go on passing meanwhile, so the table's version may move)
        def alices_moves() -> int:
            return sum(1 for entry in live.game.state.log if entry.get("seat") == 0)

        before = alices_moves()
        said = await (await alice.at(first.channel).select(first, pick, values)).message()
        assert "That button was for the first right pass, which is over" in said.content
        assert alices_moves() == before
        # Bob has no seat: the table message's buttons answer him privately
        table = await discord_double.wait_for(lambda: next(
            (m for t in discord_double.threads() for m in reversed(t.messages)
             if f"ch:t:{table_id}:rack" in m.custom_ids and not m.deleted), None), 5, "the table message")
        refused = await (await bob.at(table.channel).click(table, f"ch:t:{table_id}:rack")).message()
        assert refused.ephemeral and "You have no seat at this table" in refused.content


@pytest.fixture
async def seated(discord_double: Double, tmp_path: Path) -> AsyncIterator[tuple[CharlestonBot, Player]]:
    """A running bot with Alice playing at a table of computers."""
    alice = discord_double.user("alice")
    bot = make_bot(discord_double, tmp_path / "fuzz.db", seeds=iter([6]))
    async with discord_double.running(bot):
        await discord_double.wait_for_commands("table", "play")
        table_id = await open_table(discord_double, alice, computer_delay=0)
        await seat_everyone(discord_double, bot, table_id, [alice], 3)
        thread = discord_double.world.channels[bot.service.display(table_id).thread]
        yield bot, alice.at(thread)


TYPED = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)
COMMANDS = st.sampled_from([("discard", "tile"), ("charleston", "tiles"), ("courtesy", "tiles"), ("call", "tiles"),
                            ("blank", "discard"), ("joker", "tile")])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(command=COMMANDS, text=TYPED)
async def test_any_text_typed_into_a_move_gets_a_clear_answer(seated: tuple[CharlestonBot, Player],
                                                              command: tuple[str, str], text: str) -> None:
    _, alice = seated
    name, option = command
    typed: dict[str, object] = {"owner": "1", option: text} if name == "joker" else {option: text}
    suggestions = await alice.autocomplete("play", name, **typed)
    assert len(suggestions) <= 25
    options: dict[str, object] = {**typed, option: text or "x"}
    answer = await (await alice.slash("play", name, **options)).message()
    assert answer.ephemeral and answer.content and "went wrong" not in answer.content, answer.content

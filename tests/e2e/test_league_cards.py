"""Cards a server imports, on the offline Discord: ``/card-admin import`` takes an attachment (downloaded from
Discord), checks it with the card compiler and shows every problem line by line, privately; a file too big, not
text, a malformed card or a name already taken is refused and nothing is stored. An imported card is listed,
shown as a card sheet, suggested and played by ``/table new``, may become the server's default, and still plays
after a restart."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image
from support.discord_double import Double
from support.league_bots import RunningClock, answer_to, make_league_bot
from support.league_cards import GOOD

MALFORMED = b"""[card]
id = "weeds"
name = "Weeds"

[[hand]]
id = "w-1"
section = "Weeds"
pattern = "FFFF 1111a 2222a 3a"
exposed = true
value = 25

[[hand]]
id = "w-2"
section = "Weeds"
pattern = "NNN EEE WWW SSSS F"
exposed = false
vaule = 30
"""


async def _stored(bot: object) -> list[tuple[int, str]]:
    rows = await bot.service.db.fetchall("SELECT guild_id, name FROM guild_cards")  # type: ignore[attr-defined]
    return [(int(r[0]), str(r[1])) for r in rows]


async def test_importing_a_card_with_a_good_file_and_three_bad_ones(discord_double: Double, tmp_path: Path) -> None:
    double = discord_double
    ruth = double.user("ruth")
    db_path = tmp_path / "cards.db"
    bot = make_league_bot(double, db_path, RunningClock())
    async with double.running(bot):
        await double.wait_for_commands("card", "card-admin", "table")

        # A malformed card: every problem the compiler finds, one per line, privately; nothing stored.
        bad = await answer_to(await ruth.slash("card-admin", "import", name="weeds",
                                          file=ruth.upload("weeds.toml", MALFORMED, "application/toml")))
        assert bad.ephemeral and "nothing was imported" in bad.content
        lines = bad.content.splitlines()
        # each problem on the line of the key at fault, the missing value on the line of its misspelling
        assert any("weeds.toml:8: hand w-1: the groups add up to 13 tiles" in x for x in lines)
        assert any("weeds.toml:17: hand w-2: unknown key `vaule`; did you mean `value`?" in x for x in lines)
        assert any("weeds.toml:17: hand w-2: missing `value`" in x for x in lines)
        # Too big: refused from its size, before it is downloaded.
        big = await answer_to(await ruth.slash("card-admin", "import", name="big",
                                          file=ruth.upload("big.toml", GOOD + b"#" * 300_000)))
        assert big.ephemeral and "at most 262,144" in big.content
        # Not text: a picture.
        picture = io.BytesIO()
        Image.new("RGB", (4, 4)).save(picture, format="PNG")
        png = await answer_to(await ruth.slash("card-admin", "import", name="picture",
                                          file=ruth.upload("card.png", picture.getvalue(), "image/png")))
        assert png.ephemeral and "card.png:1: not UTF-8 text (byte 0x89 at column 1)" in png.content
        assert await _stored(bot) == []

        # The good file.
        good = await answer_to(await ruth.slash("card-admin", "import", name="Garden",
                                           file=ruth.upload("garden.toml", GOOD)))
        assert good.ephemeral and "Imported **Garden Club card** as `garden`: 2 lines" in good.content
        assert await _stored(bot) == [(double.guild_id, "garden")]
        # A name already taken, here or by a shipped card.
        for name in ("garden", "practice"):
            clash = await answer_to(await ruth.slash("card-admin", "import", name=name,
                                                file=ruth.upload("garden.toml", GOOD)))
            assert clash.ephemeral and f"A card named '{name}' already exists" in clash.content
        bad_name = await answer_to(await ruth.slash("card-admin", "import", name="my card!",
                                               file=ruth.upload("garden.toml", GOOD)))
        assert "can't be a card name" in bad_name.content
        assert await _stored(bot) == [(double.guild_id, "garden")]

        listed = await answer_to(await ruth.slash("card", "list"))
        assert "`garden`: Garden Club card, 2 lines, nmjl rules (imported here)" in listed.content
        assert "`practice`" in listed.content and "**default**" in listed.content
        sheet = await answer_to(await ruth.slash("card", "show", name="garden"))
        (image,) = sheet.attachments
        assert "Garden Club card" in (image.description or "") and "Garden #2" in (image.description or "")
        assert [c["value"] for c in await ruth.autocomplete("card", "show", name="practice", section="24")] == ["2468"]
        part = await answer_to(await ruth.slash("card", "show", name="practice", section="2468"))
        assert part.content.startswith("section 2468 of **Charleston practice card**")
        assert "section 2468" in (part.attachments[0].description or "")
        wrong = await answer_to(await ruth.slash("card", "show", name="garden", section="2468"))
        assert wrong.ephemeral and "has no section '2468'. Its sections: Garden." in wrong.content
        offered = await ruth.autocomplete("table", "new", card="gar")
        assert [c["value"] for c in offered] == ["garden"]

        default = await answer_to(await ruth.slash("card-admin", "default", name="garden"))
        assert "now play **Garden Club card**" in default.content
        opened = await answer_to(await ruth.slash("table", "new", computer_delay=0))
        assert "(garden card)" in opened.content
        table_id = int(opened.content.split("**table ")[1].split("**")[0])
        card_id = bot.service.view(table_id).rules.card
        assert card_id == f"garden@{double.guild_id}"
        thread = ruth.at(double.world.channels[bot.service.view(table_id).display.thread])
        lobby = await double.wait_for(lambda: next((m for m in thread.channel.live_messages
                                                    if f"**Table {table_id}**" in m.content), None), 5, "the lobby")
        assert "· garden card ·" in lobby.content  # shown by its name here, not its id
        for _ in range(3):
            await answer_to(await thread.slash("table", "computer", level="random"))
        await answer_to(await thread.slash("table", "start"))
        assert bot.service.tables[table_id].playing  # the Charleston waits for Ruth

    # After a restart the imported card is loaded before the tables, so the game in progress carries on with it.
    again = make_league_bot(double, db_path, RunningClock())
    async with double.running(again):
        live = again.service.tables[table_id]
        assert live.playing and live.game is not None and live.game.card.id == card_id
        assert "`garden`" in (await answer_to(await ruth.slash("card", "list"))).content

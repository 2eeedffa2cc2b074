"""/card-admin import, proof and line on the offline Discord (issue 29), every payload checked against Discord's
spec: another tool's card file (a made-up riichi_advanced .jq and mpmahj JSON) shows its warnings privately and
is stored only when the organiser presses "Store this card"; the proof sheet comes privately, a page per section,
each with its alt text; a line typed as printed replaces one line of a card imported here (a malformed one is
refused in one message and nothing changes) and is answered with its proof."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image
from support.discord_double import Double
from support.import_files import (
    GARDEN_JQ,
    GARDEN_JQ_LINES,
    ORCHARD_JSON,
    ORCHARD_JSON_LINES,
    PRACTICE_LINE,
    SHORT_LINE,
)
from support.league_bots import RunningClock, answer_to, make_league_bot

from bot.service.cards import load_card
from bot.store import guilds

ALT_LIMIT = 1024  # Discord's limit on an attachment's description


async def _stored(bot: object) -> list[str]:
    rows = await bot.service.db.fetchall("SELECT name FROM guild_cards ORDER BY name")  # type: ignore[attr-defined]
    return [str(r[0]) for r in rows]


def _button(message: object, label: str) -> str:
    for row in message.components:  # type: ignore[attr-defined]
        for item in row.get("components", []):
            if item.get("label") == label:
                return str(item["custom_id"])
    raise AssertionError(f"no button {label!r} on {message!r}")


async def test_an_import_of_another_tools_file_waits_for_the_organisers_press(discord_double: Double,
                                                                              tmp_path: Path) -> None:
    double = discord_double
    ruth = double.user("ruth")
    bot = make_league_bot(double, tmp_path / "cards.db", RunningClock())
    async with double.running(bot):
        await double.wait_for_commands("card", "card-admin")
        for filename, data, name, lines in (("garden.jq", GARDEN_JQ, "garden", GARDEN_JQ_LINES),
                                            ("orchard.json", ORCHARD_JSON, "orchard", ORCHARD_JSON_LINES)):
            shown = await answer_to(await ruth.slash("card-admin", "import", name=name,
                                                     file=ruth.upload(filename, data.encode())))
            # The warnings, privately, before anything is stored; the converted card attached.
            assert shown.ephemeral and "**Nothing is stored yet.**" in shown.content
            assert "left out: it has 13 tiles, not 14" in shown.content and "value = 25" in shown.content
            assert f"{lines} lines, 1 left out" in shown.content
            (converted,) = shown.attachments
            assert converted.filename == f"{name}.toml" and b"[[hand]]" in converted.data
            assert await _stored(bot) == sorted(x for x in ("garden",) if name == "orchard")
            stored = await answer_to(await ruth.click(shown, _button(shown, "Store this card")))
            assert stored.ephemeral and f"as `{name}`: {lines} lines" in stored.content
            assert name in await _stored(bot)
            # A second press stores nothing twice.
            again = await answer_to(await ruth.click(shown, _button(shown, "Store this card")))
            assert again.ephemeral and "no longer waiting" in again.content
        assert await _stored(bot) == ["garden", "orchard"]
        listed = await answer_to(await ruth.slash("card", "list"))
        assert "`garden`" in listed.content and "`orchard`" in listed.content

        # The format option reads a file whose name says nothing; a file in no format is one clear line.
        named = await answer_to(await ruth.slash("card-admin", "import", name="third", format="ra",
                                                 file=ruth.upload("card.txt", GARDEN_JQ.encode())))
        assert "riichi_advanced" in named.content and "Nothing is stored yet" in named.content
        unknown = await answer_to(await ruth.slash("card-admin", "import", name="fourth",
                                                   file=ruth.upload("notes.txt", b"shopping: eggs, milk")))
        assert unknown.ephemeral and "cannot tell which format" in unknown.content
        assert await _stored(bot) == ["garden", "orchard"]

        # The stored card's answer offers its proof sheet.
        proof = await ruth.click(stored, _button(stored, "Show its proof sheet"))
        (page,) = (await proof.messages(1))[0].attachments
        assert "Proof sheet of" in (page.description or "")


async def test_the_proof_sheet_comes_privately_a_page_per_section(discord_double: Double, tmp_path: Path) -> None:
    double = discord_double
    ruth = double.user("ruth")
    bot = make_league_bot(double, tmp_path / "cards.db", RunningClock())
    card = load_card("nmjl-1946")
    async with double.running(bot):
        await double.wait_for_commands("card-admin")
        sent = await ruth.slash("card-admin", "proof", name="nmjl-1946")
        messages = await sent.messages(2, timeout=20)  # 11 sections: ten pages, then one
        pages = [a for m in messages for a in m.attachments]
        assert all(m.ephemeral for m in messages) and len(pages) == len(card.sections)
        assert "Proof sheet of **" in messages[0].content and "hold it next to the printed card" in messages[0].content
        for n, (attachment, section) in enumerate(zip(pages, card.sections, strict=True), 1):
            assert attachment.filename == f"nmjl-1946-proof-{n:02d}.png"
            alt = attachment.description or ""
            assert 0 < len(alt) <= ALT_LIMIT and f", {section} (page {n} of" in alt
            with Image.open(io.BytesIO(attachment.data)) as picture:
                assert picture.width == 720
        classical = await answer_to(await ruth.slash("card-admin", "proof", name="nope"))
        assert classical.ephemeral and "There is no card 'nope'" in classical.content
        # Managers only: a player without Manage Server is told so.
        guest = double.user("guest", manager=False)
        refused = await answer_to(await guest.slash("card-admin", "proof", name="practice"))
        assert refused.ephemeral and "Only server managers" in refused.content


async def test_a_line_typed_as_printed_replaces_one_line(discord_double: Double, tmp_path: Path) -> None:
    double = discord_double
    ruth = double.user("ruth")
    bot = make_league_bot(double, tmp_path / "cards.db", RunningClock())
    async with double.running(bot):
        await double.wait_for_commands("card-admin")
        shown = await answer_to(await ruth.slash("card-admin", "import", name="garden",
                                                 file=ruth.upload("garden.jq", GARDEN_JQ.encode())))
        await answer_to(await ruth.click(shown, _button(shown, "Store this card")))
        offered = await ruth.autocomplete("card-admin", "line", name="garden", text="FF", line="gar")
        assert [c["value"] for c in offered] == ["Garden #1", "Garden #2"]
        before = await guilds.card_source(bot.service.db, double.guild_id, "garden")

        # A malformed line: one clear message, nothing stored.
        bad = await answer_to(await ruth.slash("card-admin", "line", name="garden", line="Garden #2",
                                               text=f"{SHORT_LINE} X 30"))
        assert bad.ephemeral and "Garden #2 was not changed" in bad.content and "13 tiles" in bad.content
        assert "docs/card-format.md" in bad.content and not bad.attachments
        assert await guilds.card_source(bot.service.db, double.guild_id, "garden") == before
        shipped = await answer_to(await ruth.slash("card-admin", "line", name="practice", line="2026 #1",
                                                   text=PRACTICE_LINE))
        assert "comes with the bot" in shipped.content

        # The line as printed, X and its value at the end: stored, answered with its proof.
        good = await answer_to(await ruth.slash("card-admin", "line", name="garden", line="Garden #2",
                                                text=f"{PRACTICE_LINE} X 30", note="any 2 suits"))
        assert good.ephemeral and "**Garden #2** of `garden` is replaced" in good.content
        (image,) = good.attachments
        alt = image.description or ""
        assert alt.startswith("Proof sheet of") and "Garden #2: WWW 44 888 22 6666" in alt and "30 chips" in alt
        card = bot.leagues.cards.card(double.guild_id, "garden")
        assert card.lines[1].patterns == (PRACTICE_LINE,) and card.lines[1].value == 30
        after = await guilds.card_source(bot.service.db, double.guild_id, "garden")
        assert after is not None and f'pattern = "{PRACTICE_LINE}"' in after
        assert "# riichi_advanced line 4" in after  # the import's comments are kept

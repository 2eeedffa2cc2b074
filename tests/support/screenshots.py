"""Pictures of a game in Discord for the README: a table's thread and a player's DM, as the offline Discord holds
them after a real (seeded) game played by the bot, drawn the way Discord's dark theme shows them.

    python tests/support/screenshots.py [OUT_DIR]        (default docs/images; needs the OpenAPI spec, see
                                                      docs/testing-discord.md)

These are drawings of the messages the bot sent (their text, their images, their buttons), not screen captures
of the Discord client.
"""

from __future__ import annotations

import asyncio
import io
import re
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT)]

from renderers import fonts  # noqa: E402
from support.discord_double import DiscordDouble, Double, World, load_validator, spec_path  # noqa: E402
from support.discord_double.models import Message  # noqa: E402
from support.game_driver import Driver, Person, make_bot  # noqa: E402

WIDTH = 560
BACKGROUND, TEXT, MUTED, QUOTE = (49, 51, 56), (219, 222, 225), (148, 155, 164), (78, 80, 88)
BUTTONS = {1: (88, 101, 242), 2: (78, 80, 88), 3: (36, 128, 70), 4: (218, 55, 60)}


def _plain(text: str, now: datetime) -> str:
    """Discord's markdown as it reads: bold markers gone, <t:..:R> as "in N seconds", mentions as #thread."""
    def when(match: re.Match[str]) -> str:
        seconds = int(match.group(1)) - int(now.timestamp())
        return f"in {seconds} seconds" if seconds >= 0 else f"{-seconds} seconds ago"

    def moment(match: re.Match[str]) -> str:  # as a reader in UTC sees it
        at = datetime.fromtimestamp(int(match.group(1)), UTC)
        return {"t": f"{at:%H:%M}", "D": f"{at.day} {at:%B %Y}"}.get(match.group(2), f"{at:%A} {at.day} {at:%B %Y} "
                                                                                    f"{at:%H:%M}")

    text = re.sub(r"<t:(\d+):R>", when, text)
    text = re.sub(r"<t:(\d+):([tTdDfF])>", moment, text)
    text = re.sub(r"<#\d+>", "#Mah Jongg table 1", text)
    return "\n".join(fonts.printable(line, "") for line in text.replace("**", "").replace("`", "").split("\n"))


def _wrap(draw: ImageDraw.ImageDraw, text: str, font: Any, width: int) -> list[str]:
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            trial = f"{line} {word}".strip()
            if draw.textlength(trial, font=font) <= width or not line:
                line = trial
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


def draw_message(message: Message, now: datetime) -> Image.Image:
    """One message as Discord's dark theme shows it: author, text, image, buttons and selects."""
    regular, bold = fonts.regular(15), fonts.bold(15)
    scratch = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    body = _wrap(scratch, _plain(message.content, now), regular, WIDTH - 80)
    attachment = next((a for a in message.attachments if a.filename.endswith(".png")), None)
    picture = None
    if attachment is not None:
        picture = Image.open(io.BytesIO(attachment.data)).convert("RGB")
        picture = picture.resize((WIDTH - 80, round(picture.height * (WIDTH - 80) / picture.width)))
    rows = [c for c in message.components if c.get("type") == 1]
    height = 56 + 21 * len(body) + (picture.height + 10 if picture else 0) + 42 * len(rows) + 16
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.ellipse((16, 16, 56, 56), fill=(88, 101, 242))
    draw.text((70, 16), "Charleston", font=bold, fill=(255, 255, 255))
    draw.rounded_rectangle((162, 18, 196, 34), 3, fill=(88, 101, 242))
    draw.text((167, 18), "APP", font=fonts.bold(11), fill=(255, 255, 255))
    y = 40
    for line in body:
        quoted = line.startswith("> ")
        if quoted:
            draw.rectangle((70, y, 73, y + 19), fill=QUOTE)
        draw.text((82 if quoted else 70, y), line[2:] if quoted else line, font=regular, fill=TEXT)
        y += 21
    if picture is not None:
        image.paste(picture, (70, y + 4))
        y += picture.height + 10
    for row in rows:
        x = 70
        for comp in row.get("components", []):
            if comp.get("type") == 2:
                label = fonts.printable(comp.get("label") or "")
                w = int(draw.textlength(label, font=fonts.bold(13))) + 28
                draw.rounded_rectangle((x, y + 4, x + w, y + 36), 4, fill=BUTTONS.get(comp.get("style", 2), QUOTE))
                draw.text((x + 14, y + 12), label, font=fonts.bold(13), fill=(255, 255, 255))
                x += w + 8
            elif comp.get("type") == 3:
                draw.rounded_rectangle((x, y + 4, WIDTH - 20, y + 38), 4, fill=(30, 31, 34))
                draw.text((x + 12, y + 12), fonts.printable(comp.get("placeholder") or "Choose"), font=regular,
                          fill=MUTED)
                draw.text((WIDTH - 40, y + 12), "v", font=bold, fill=MUTED)
        y += 42
    return image


async def main(out: Path) -> None:
    """Play a seeded game on the offline Discord and draw the thread's table message and Alice's DM."""
    server = await DiscordDouble(World(), load_validator(str(spec_path()))).start()
    double = Double(server)
    with tempfile.TemporaryDirectory() as folder:
        bot = make_bot(double, Path(folder) / "pictures.db", seeds=iter([22]))
        async with double.running(bot):
            alice = double.user("alice")
            await double.wait_for_commands("table")
            opened = await (await alice.slash("table", "new", computer_delay=0)).message()
            table_id = int(opened.content.split("**table ")[1].split("**")[0])
            live = bot.service.tables[table_id]
            await double.wait_for(lambda: live.display.message is not None, 10, "the lobby")
            here = alice.at(double.world.channels[live.display.thread])
            for _ in range(3):
                lobby = double.world.messages[live.display.message]
                await (await here.click(lobby, f"ch:t:{table_id}:computer")).response()
            await double.wait_for(lambda: all(not s.empty for s in live.view().seats), 10, "a full table")
            lobby = double.world.messages[live.display.message]
            await (await here.click(lobby, f"ch:t:{table_id}:start")).response()
            driver = Driver(double, bot, table_id, [Person(alice, 0)])
            await driver.play(until=lambda: live.game is not None and live.game.state.turns >= 24
                              and live.people_awaited() == [0] and live.game.state.phase.value == "play")
            await bot.presenter.settle()
            await asyncio.sleep(0.3)
            now = datetime.now(UTC)
            table = driver.table_message()
            dm = next(m for m in reversed(alice.dms()) if any(a.filename == "rack.png" for a in m.attachments))
            assert table is not None
            out.mkdir(parents=True, exist_ok=True)
            draw_message(table, now).save(out / "discord-thread.png", optimize=True)
            draw_message(dm, now).save(out / "discord-dm.png", optimize=True)
            print(f"wrote {out / 'discord-thread.png'} and {out / 'discord-dm.png'}")
    await server.close()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "images"))

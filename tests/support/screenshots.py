"""Pictures of a game in Discord for the README: a table's thread and a player's DM, as the offline Discord holds
them after a real (seeded) game played by the bot, drawn the way Discord's dark theme shows them.

    python tests/support/screenshots.py [OUT_DIR]        (default docs/images; needs the OpenAPI spec, see
                                                      docs/testing-discord.md)

These are drawings of the messages the bot sent (their text, their images, their buttons), not screen captures
of the Discord client. The text's markdown (bold, code blocks in monospace, subtext, quotes, timestamps,
mentions...) is drawn by tests/support/discord_markdown.py, which says what it covers and how a timestamp reads;
a relative timestamp is counted from the message's own time. The pictures are saved as palette PNGs (a third of
the bytes). The league night's pictures (night-signup.png, night-results.png) come from the night's end-to-end
test: CHARLESTON_NIGHT_PICTURES=docs/images pytest tests/e2e/test_nights.py.
"""

from __future__ import annotations

import asyncio
import io
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT)]

from renderers import fonts  # noqa: E402
from support.discord_double import DiscordDouble, Double, World, load_validator, spec_path  # noqa: E402
from support.discord_double.models import Message  # noqa: E402
from support.discord_markdown import Block, Layout, Names, parse  # noqa: E402
from support.game_driver import Driver, Person, make_bot  # noqa: E402

WIDTH = 560
BACKGROUND, TEXT, MUTED, QUOTE = (49, 51, 56), (219, 222, 225), (148, 155, 164), (78, 80, 88)
BUTTONS = {1: (88, 101, 242), 2: (78, 80, 88), 3: (36, 128, 70), 4: (218, 55, 60)}


def _names(world: World | None) -> Names:
    """Who a mention names, as the offline Discord knows them (Discord shows "#unknown" for a channel it can't)."""
    def name(kind: str, ident: int) -> str | None:
        if world is None:
            return None
        if kind == "#":
            channel = world.channels.get(ident)
            return channel.name if channel is not None else None
        user = world.users.get(ident)
        return user.name if kind == "@" and user is not None else None

    return name


def _when(message: Message) -> datetime:
    """The message's own time: its last edit, else its sending (what a reader saw as it changed)."""
    return datetime.fromtimestamp(message.edited_at or message.created_at, UTC)


def read(message: Message, now: datetime | None = None, world: World | None = None) -> list[Block]:
    """The message's text as Discord lays it out: its markdown rendered, relative times counted from ``now``, by
    default the message's own time; ``world`` names the mentions."""
    return parse(message.content, now or _when(message), _names(world))


def draw_message(message: Message, now: datetime | None = None, world: World | None = None) -> Image.Image:
    """One message as Discord's dark theme shows it: author, text (see :func:`read`), image, buttons and selects."""
    text = Layout(read(message, now, world), 70, WIDTH - 90, edited=message.edited_at is not None)
    regular, bold = fonts.regular(15), fonts.bold(15)
    attachment = next((a for a in message.attachments if a.filename.endswith(".png")), None)
    picture = None
    if attachment is not None:
        picture = Image.open(io.BytesIO(attachment.data)).convert("RGB")
        picture = picture.resize((WIDTH - 80, round(picture.height * (WIDTH - 80) / picture.width)),
                                 Image.Resampling.LANCZOS)
    rows = [c for c in message.components if c.get("type") == 1]
    height = max(72, 42 + text.height + (picture.height + 10 if picture else 0) + 42 * len(rows) + 16)
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.ellipse((16, 16, 56, 56), fill=(88, 101, 242))
    draw.text((70, 16), "Charleston", font=bold, fill=(255, 255, 255))
    draw.rounded_rectangle((162, 18, 196, 34), 3, fill=(88, 101, 242))
    draw.text((167, 18), "APP", font=fonts.bold(11), fill=(255, 255, 255))
    sent = datetime.fromtimestamp(message.created_at, UTC)
    draw.text((204, 20), f"{sent:%d/%m/%Y, %H:%M}", font=fonts.regular(12), fill=MUTED)
    text.draw(image, 42)
    y = 42 + text.height
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
    return small(image)


def small(image: Image.Image) -> Image.Image:
    """The picture as a 256-colour palette image: a README picture at a fraction of the bytes, no visible loss."""
    return image.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


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
            table = driver.table_message()
            dm = next(m for m in reversed(alice.dms()) if any(a.filename == "rack.png" for a in m.attachments))
            assert table is not None
            out.mkdir(parents=True, exist_ok=True)
            draw_message(table, world=double.world).save(out / "discord-thread.png", optimize=True)
            draw_message(dm, world=double.world).save(out / "discord-dm.png", optimize=True)
            print(f"wrote {out / 'discord-thread.png'} and {out / 'discord-dm.png'}")
    await server.close()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "images"))

"""The README's pictures of Discord messages are drawn as Discord shows them (tests/support/screenshots.py and
tests/support/discord_markdown.py): timestamps read as Discord reads them, code blocks line up in monospace,
markdown markers never show."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image
from support.discord_double import World
from support.discord_double.models import Channel, Message, User
from support.discord_markdown import CODE_BACK, Block, moment, parse, relative
from support.screenshots import BACKGROUND, WIDTH, draw_message, read

NOON = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)
# Discord's documented example moment: Tuesday 20 April 2021, 16:20:30 (here in UTC).
EXAMPLE = int(datetime(2021, 4, 20, 16, 20, 30, tzinfo=UTC).timestamp())


def _message(content: str, sent: float = NOON.timestamp(), edited: float | None = None) -> Message:
    return Message(1, Channel(2, 0, "general"), User(3, "Charleston", bot=True), content, created_at=sent,
                   edited_at=edited)


def _text(blocks: list[Block]) -> list[str]:
    return ["".join(run.text for run in block.runs) if block.kind != "code" else "\n".join(block.code)
            for block in blocks]


def test_a_relative_timestamp_49_minutes_ahead_of_the_message_reads_in_49_minutes() -> None:
    sent = NOON.timestamp()
    blocks = read(_message(f"Sign-up closes <t:{int(sent) + 2953}:R>.", sent))
    assert _text(blocks) == ["Sign-up closes in 49 minutes."]
    assert blocks[0].runs[1].pill == "time"


def test_a_relative_timestamp_counts_from_the_messages_last_edit_not_its_sending() -> None:
    sent = NOON.timestamp()
    message = _message(f"time's up <t:{int(sent) + 3600}:R>", sent, edited=sent + 3600 - 8)
    assert _text(read(message)) == ["time's up in 8 seconds"]


@pytest.mark.parametrize(("seconds", "words"), [
    (8, "in 8 seconds"), (1, "in 1 second"), (59.6, "in 1 minute"), (-90, "2 minutes ago"), (2953, "in 49 minutes"),
    (-7200, "2 hours ago"), (3 * 86400, "in 3 days"), (-62 * 86400, "2 months ago"), (800 * 86400, "in 2 years"),
])
def test_relative_times_are_worded_in_the_largest_whole_unit_as_discord_words_them(seconds: float, words: str) -> None:
    assert relative(seconds) == words


@pytest.mark.parametrize(("style", "shown"), [
    ("t", "16:20"), ("T", "16:20:30"), ("d", "20/04/2021"), ("D", "20 April 2021"), ("f", "20 April 2021 16:20"),
    ("F", "Tuesday, 20 April 2021 16:20"), ("s", "20/04/2021, 16:20"), ("S", "20/04/2021, 16:20:30"),
])
def test_every_documented_timestamp_style_reads_as_discords_documentation_shows_it(style: str, shown: str) -> None:
    assert moment(EXAMPLE, style, NOON) == shown
    assert _text(parse(f"<t:{EXAMPLE}:{style}>", NOON, lambda kind, ident: None)) == [shown]


def test_a_timestamp_without_a_style_reads_as_the_default_short_date_and_time() -> None:
    assert _text(parse(f"at <t:{EXAMPLE}>", NOON, lambda kind, ident: None)) == ["at 20 April 2021 16:20"]


def test_markdown_markers_never_show_and_each_line_keeps_its_kind() -> None:
    content = ("**Table 1** · game 1\n> West discards *5 Dot*\n-# Deal sealed: `ab12` (the results reveal its seed)\n"
               "- a __line__ ~~gone~~ \\*kept\\*\n2 * 3 = 6")
    blocks = read(_message(content))
    assert _text(blocks) == ["Table 1 · game 1", "West discards 5 Dot", "Deal sealed: ab12 (the results reveal its "
                             "seed)", "a line gone *kept*", "2 * 3 = 6"]
    assert [b.kind for b in blocks] == ["text", "text", "subtext", "bullet", "text"]
    assert blocks[1].quoted and blocks[0].runs[0].bold and blocks[1].runs[1].italic
    assert blocks[2].runs[1].pill == "code" and blocks[3].runs[1].underline and blocks[3].runs[3].strike


def test_mentions_show_the_name_discord_shows() -> None:
    world = World()
    alice = world.users.setdefault(901, User(901, "alice"))
    blocks = read(_message(f"<@{alice.id}> follow <#{world.general.id}>, not <#424242>"), world=world)
    assert _text(blocks) == ["@alice follow #general, not #unknown"]
    assert all(run.pill == "mention" for run in blocks[0].runs[::2])


def test_a_code_block_keeps_its_spaces_and_its_lines() -> None:
    blocks = read(_message("Standings\n```\n #  Player  Net\n 1  Ann     +30\n10  Bo       -5\n```\nRound 1:"))
    assert [b.kind for b in blocks] == ["text", "code", "text"]
    assert blocks[1].code == (" #  Player  Net", " 1  Ann     +30", "10  Bo       -5")


def _ink(image: Image.Image, top: int, bottom: int) -> list[int]:
    """The columns right of the avatar where a band of rows holds text (pixels far brighter than the block)."""
    band = image.convert("L").crop((72, top, WIDTH, bottom))
    width, height = band.size
    data = band.tobytes()
    return [72 + x for x in range(width) if any(data[y * width + x] > 100 for y in range(height))]


def test_a_code_blocks_lines_start_at_the_same_x_and_its_columns_line_up() -> None:
    lines = ["|iiiii|", "|WWWWW|", "|1.1.1|"]  # in a proportional font the closing bars land far apart
    image = draw_message(_message("```\n" + "\n".join(lines) + "\n```"))
    rgb = image.convert("RGB")
    block = [y for y in range(image.height) if rgb.getpixel((75, y)) == CODE_BACK]
    assert block, "no code block drawn"
    top = block[0] + 8
    bands = [(top + 18 * n, top + 18 * n + 16) for n in range(len(lines))]
    starts = [min(_ink(image, a, b)) for a, b in bands]
    ends = [max(_ink(image, a, b)) for a, b in bands]
    assert max(starts) - min(starts) <= 1, starts
    assert max(ends) - min(ends) <= 1, ends  # the closing bars, column 7 of each line


def test_a_message_is_drawn_at_phone_width_on_discords_dark_background_as_a_small_palette_png() -> None:
    image = draw_message(_message("**Club** · league night <t:1764356400:F>\n```\n1  Ann  +30\n```"))
    assert image.width == WIDTH and image.mode == "P"
    assert image.convert("RGB").getpixel((5, image.height - 5)) == BACKGROUND


PIECES = [*"ab *_~`>#-<@:t!&\\\n0123456789RFé", "🀄", "```", "-# ", "> ", "<t:1764356400:R>", "<t:1:F>", "<#1>",
          "<@3>", "<:tile:5>", "**", "x" * 30]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join))
def test_any_content_is_drawn_at_phone_width_without_an_error(content: str) -> None:
    image = draw_message(_message(content))
    assert image.width == WIDTH and image.height >= 72

"""Plain words in everything the bot sends: whole games on the offline Discord (the practice card with a player
whose DMs are closed, the 1946 rules, the classical game at three), then every body the bot sent (messages, edits,
interaction answers and follow-ups, DMs) scanned: each line of text, each button label, each menu's placeholder
and options, each image's alt text, for the faults people met (tests/support/wording.py: card lines by id,
"group of N", "points", counters, "You receives", snake_case names, brackets in brackets, jokers under the 1946
rules, tile codes in sentences, lines too long for a phone)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support.discord_double import Double
from support.e2e_tables import finish, open_table, seat_everyone
from support.game_driver import Driver, Person, make_bot
from support.wording import Said, faults

GAMES = {
    "practice, closed DMs": dict(seed=8, rules=None, people=2, closed=True),
    "1946 rules": dict(seed=3, rules="nmjl-1946", people=1, closed=False),
    "classical at three": dict(seed=4, rules="classical", people=1, closed=False, players=3),
}


def collect(body: Any, said: Said) -> None:
    """Every text of one request body, by where a player reads it."""
    if not isinstance(body, dict):
        return
    if isinstance(body.get("data"), dict):  # an interaction's answer
        body = body["data"]
    for line in str(body.get("content") or "").splitlines():
        line = line.removeprefix("> ").replace("**", "")
        if line.strip():
            said.told.append(line)
    for attachment in body.get("attachments") or []:
        if isinstance(attachment, dict) and attachment.get("description"):
            said.alt.append(str(attachment["description"]))
    for row in body.get("components") or []:
        for item in row.get("components") or []:
            for key in ("label", "placeholder"):
                if item.get(key):
                    said.labels.append(str(item[key]))
            said.labels += [str(option["label"]) for option in item.get("options") or []]


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_every_text_the_bot_sends_in_a_game_is_in_plain_words(discord_double: Double, tmp_path: Path,
                                                                     game: str) -> None:
    setup = GAMES[game]
    alice = discord_double.user("alice")
    bea = discord_double.user("bea", dms_open=not setup["closed"])
    people = [alice, bea][: int(setup["people"])]  # type: ignore[call-overload]
    players = int(setup.get("players", 4))  # type: ignore[call-overload]
    bot = make_bot(discord_double, tmp_path / "words.db", seeds=iter([int(setup["seed"])]))  # type: ignore[call-overload]
    async with discord_double.running(bot):
        await discord_double.wait_for_commands("table")
        options: dict[str, object] = {"computer_delay": 0, "players": players}
        if setup["rules"]:
            options["rules"] = setup["rules"]
        table_id = await open_table(discord_double, alice, **options)
        await seat_everyone(discord_double, bot, table_id, people, players - len(people))
        driver = Driver(discord_double, bot, table_id, [Person(p, n) for n, p in enumerate(people)])
        await finish(driver, bot)
    said = Said()
    for record in discord_double.world.requests:
        collect(record.body, said)
    assert len(said.told) > 50 and len(said.labels) > 30 and len(said.alt) > 10, (len(said.told), len(said.labels))
    problems = faults(said, flowers_wild=setup["rules"] == "nmjl-1946", limits={"told": 200})
    assert not problems, "\n".join(sorted(set(problems))[:40])

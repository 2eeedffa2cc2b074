"""Plain words: whole games (the practice card, the 1946 rules, the classical game, two and three players) played
through the table service, every text a player reads there scanned for the faults people met: card lines named by
their ids, "group of N" for a named group, "points" where the unit is chips, counters, brackets in brackets,
"You receives", snake_case names, jokers under the 1946 rules (where flowers are wild), tile codes in sentences,
and texts too long for a phone or a button."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.wording import LIMITS, Said, faults, play_and_collect

from bot.service.cards import load_card

GAMES = {
    "practice, four people": dict(seed=3, seats=(0, 1, 2, 3), preset="nmjl"),
    "1946 rules": dict(seed=4, seats=(0, 1, 2, 3), preset="nmjl-1946"),
    "classical": dict(seed=5, seats=(0, 1, 2, 3), preset="classical"),
    "three players with Bob": dict(seed=6, seats=(0, 1, 2), preset="nmjl", players=3,
                                   three_player_charleston="bob"),
    "two players, blanks": dict(seed=7, seats=(0, 2), preset="nmjl", players=2, blanks=4),
}


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(GAMES))
async def test_every_text_of_a_whole_game_is_in_plain_words(tmp_path: Path, game: str) -> None:
    options = dict(GAMES[game])
    said = await play_and_collect(tmp_path / "words.db", **options)  # type: ignore[arg-type]
    assert said.ended, "the game should be played to its end"
    counts = {where: sum(1 for w, _ in said.everything() if w == where) for where in LIMITS}
    assert counts["told"] > 100 and counts["labels"] > 50 and counts["alt"] >= 3 and counts["errors"] > 10, counts
    assert game == "classical" or counts["hints"] > 3, counts
    problems = faults(said, flowers_wild=options["preset"] == "nmjl-1946")
    assert not problems, "\n".join(sorted(set(problems))[:40])


def test_the_scan_finds_the_faults_people_met() -> None:
    """The faulty texts of issue 23 (those below the cogs), each caught by the scan."""
    met = Said(told=["You receives West, 1 Crak, 1 Dot on the first right.", "South calls for a group of 3.",
                     "That button was for the call on discard 56 of game 1, which is over.",
                     "Mah Jongg! South (Computer (normal)), on a discard", "line like-3, 25 chips",
                     "East pays South 50 (add-2: East column)", "MAH JONGG! East wins on 369-4 (369, 25)"],
               labels=["Kong of 7 Dot (3 jokers)"], hints=["sp-3 (Singles and Pairs, 50): N E W S 11a 99a"],
               errors=["Say which exposure (you can make: none)."],
               alt=["Winning hand: line like-3, 25 points"])
    found = faults(met, flowers_wild=True)
    for text in [*met.told, *met.labels, *met.hints, *met.errors, *met.alt]:
        assert any(text in problem for problem in found), text


def test_the_phrasebook_speaks_to_you_and_names_things_as_players_do() -> None:
    """Sentences people met wrong, as they read now."""
    from bot.engine.events import Event, EventKind
    from bot.engine.notation import parse_tiles
    from bot.service.narration import describe

    card = load_card("practice")
    names = ["Ruth (East)", "East (computer)", "Ida (West)", "Dot (North)"].__getitem__

    def told(kind: EventKind, seat: int | None, you: int | None = None, **data: object) -> str:
        return describe(Event(kind.payload(**data), seat, kind.private), names, you=you, card=card)

    first_right = told(EventKind.CHARLESTON_RECEIVED, 0, 0, tiles=tuple(parse_tiles("W 1C 1D")), step="first right")
    assert first_right == "First right: you receive West Wind, 1 Crak and 1 Dot."
    assert told(EventKind.COURTESY_RECEIVED, 0, 0, tiles=()).startswith("Courtesy pass: nothing comes across, as one "
                                                                       "of the pair offered no tiles")
    assert told(EventKind.COMPUTER_ADDED, 1, level="normal") == "A normal computer player sits down."
    assert told(EventKind.CALL, 2, mahjong=False, size=3) == "Ida (West) calls it for a pung."
    assert told(EventKind.CALL, 2, 2, mahjong=False, size=4) == "You call it for a kong."
    assert told(EventKind.EXPOSURE, 2, tile=parse_tiles("7D")[0], tiles=tuple(parse_tiles("7D F F F")),
                called_from=0) == "Ida (West) exposes a kong of 7 Dot with 3 flowers."
    won = told(EventKind.MAHJONG, 1, line="like-3", section="Any Like Numbers", value=25, how="discard",
               discarder=0, jokerless=False, tiles=())
    assert won == "Mah Jongg! East (computer) wins with Any Like Numbers #3, on a discard: 25 chips."
    assert told(EventKind.TURN, 0, 0) == "Your turn." and told(EventKind.TURN, 2) == "Ida (West) to play."

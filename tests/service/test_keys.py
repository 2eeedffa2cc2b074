"""Action keys and grouped choices: every legal action of seeded games has a key that fits a Discord custom_id
and parses back to the same action; every group of choices fits one component; any text at all is either a
key or a clear refusal."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ai.selfplay import computer_move
from bot.engine.actions import TABLE, CharlestonPass, CloseWindow, CourtesyOffer
from bot.engine.game import Game
from bot.engine.rules import table_rules
from bot.engine.state import Phase
from bot.engine.views import seat_view, waiting_for
from bot.service.cards import load_card
from bot.service.choices import MAX_OPTIONS, choices_for
from bot.service.decisions import current_token, describe, gone_message, is_token, open_tokens
from bot.service.errors import ErrorKind, TableError
from bot.service.keys import MAX_KEY_LENGTH, action_key, parse_action_key

CUSTOM_ID = 100  # Discord's limit; a button carries "<prefix>:<table>:<token>:<key>"


def _games(seeds: range, preset: str = "nmjl", **options: object):  # type: ignore[no-untyped-def]
    rules = table_rules(preset, **options)
    card = load_card(rules.card)
    for seed in seeds:
        game, _ = Game.new(card, rules, seed, east=seed % 4 if rules.players != 2 else 0)
        yield game


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "options"), [("nmjl", {}), ("nmjl", {"blanks": 4, "blank_timing": "any_time"}),
                                                 ("nmjl-1946", {}), ("nmjl", {"players": 2}), ("classical", {}),
                                                 ("classical", {"players": 2})])
def test_every_legal_action_has_a_key_that_round_trips_and_every_group_fits(preset: str,
                                                                           options: dict[str, object]) -> None:
    checked = 0
    seen_kinds: set[str] = set()
    for game in _games(range(3), preset, **options):
        while game.state.phase != Phase.FINISHED:
            for seat in game.state.players:
                view = seat_view(game, seat)
                token = current_token(game)
                assert token is not None and is_token(token) and token in open_tokens(game)
                for action in view.legal:
                    key = action_key(action)
                    assert len(key) <= MAX_KEY_LENGTH
                    assert len(f"ch:99999999:{token}:{key}") <= CUSTOM_ID
                    assert parse_action_key(key, seat) == action
                    seen_kinds.add(key[:2] if "." in key[:2] else key)
                    checked += 1
                choices = choices_for(view, token)
                groups = [choices.discard, choices.calls, choices.exchanges, choices.vote, choices.kongs,
                          *(swaps for _, swaps in choices.blank_swaps)]
                assert all(len(g) <= MAX_OPTIONS for g in groups)
                assert all(len(c.label) <= 80 for g in groups for c in g)
                assert set(choices.keys()) <= {action_key(a) for a in view.legal}
                if choices.pick is not None:
                    assert len(choices.pick.options) <= 14
                    _check_pick(choices.pick, view.legal)
            waiting = waiting_for(game)
            if not waiting:
                game.apply(CloseWindow(TABLE))
            else:
                game.apply(computer_move("normal", game, waiting[0]))
    assert checked > (500 if options.get("players") == 2 else 1000)
    assert {"d.", "c.", "p", "h", "dr"} <= seen_kinds  # discards, calls (chows and pungs too), pass, wait, draw


def _check_pick(pick, legal) -> None:  # type: ignore[no-untyped-def]
    """Picking the first tiles of the rack gives a key the engine lists as legal."""
    wanted = {action_key(a) for a in legal if isinstance(a, (CharlestonPass, CourtesyOffer))}
    values = [v for v, _ in pick.options][:3]
    key = pick.key_for(values, 0)
    if pick.kind == "charleston":
        assert key in wanted
        if 1 in pick.blind:
            assert pick.key_for(values[:2], 1) in wanted
        with pytest.raises(TableError, match="exactly 3"):
            pick.key_for(values[:2], 0)
    else:
        assert key in wanted
    with pytest.raises(TableError):
        pick.key_for(["9Z"], 0)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=120))
def test_any_text_is_a_key_or_a_clear_refusal(text: str) -> None:
    try:
        action = parse_action_key(text, 2)
    except TableError as exc:
        assert exc.kind == ErrorKind.BAD_INPUT and "not a move" in str(exc)
    else:
        assert action.seat == 2 and parse_action_key(action_key(action), 2) == action


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_any_token_text_is_described_without_error(text: str) -> None:
    assert gone_message(text).startswith("That button was for ")


def test_CL_chows_and_kongs_have_keys_and_labels() -> None:
    from bot.engine.actions import Call, DeclareKong
    from bot.engine.notation import parse_tiles

    chow = Call(1, tuple(parse_tiles("4D 6D")), False)
    assert action_key(chow) == "c.4D-6D" and parse_action_key("c.4D-6D", 1) == chow
    kong = DeclareKong(2, parse_tiles("RD")[0])
    assert action_key(kong) == "k.RD" and parse_action_key("k.RD", 2) == kong
    with pytest.raises(TableError):
        parse_action_key("k.", 2)


def test_tokens_name_their_decisions() -> None:
    assert describe("3c2") == "the first left pass"
    assert describe("3w31") == "an earlier discard" == describe("3w31", 3)
    assert describe("1t0") == "an earlier turn"
    assert describe("1v") == "the vote to stop the Charleston"
    assert describe("1v", 2) == "an earlier game"
    assert gone_message("3w31") == ("That button was for an earlier discard, which can no longer be called. Use the "
                                    "newest message.")

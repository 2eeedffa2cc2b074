"""``charleston replay FILE [--json]``: play a replay file back and report what happened."""

from __future__ import annotations

import argparse
import json
from typing import Any

from bot.cli.common import UsageProblem, file_path, plural, print_json
from bot.engine.errors import CardError
from bot.engine.game import Game, seat_wind
from bot.engine.payouts import payouts
from bot.engine.replay import ReplayError, replay, replay_header
from bot.engine.tiles import code
from bot.service.cards import UnknownCard, load_card
from bot.service.files import read_text
from bot.service.narration import describe

MAX_REPLAY_BYTES = 5_000_000  # a finished game is about 30 KB


def register(commands: Any) -> None:
    """Add `charleston replay` to the command line."""
    parser = commands.add_parser("replay", help="play a replay file back (docs/replay-format.md)")
    parser.add_argument("file", type=file_path, metavar="FILE",
                        help="a replay file (charleston simulate --log, docs/replay-format.md)")
    parser.add_argument("--json", action="store_true", help="events, final state and payouts as JSON")
    parser.set_defaults(run=run)


def load_replay_file(path: str) -> dict[str, Any]:
    """The JSON object in a replay file; a :class:`UsageProblem` naming the file (and line) if it is not one."""
    text = read_text(path, what="replay", max_bytes=MAX_REPLAY_BYTES)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageProblem(f"{path}:{exc.lineno}: not valid JSON: {exc.msg} (column {exc.colno})") from None
    except RecursionError:
        raise UsageProblem(f"{path}: not a replay: arrays or objects are nested too deeply") from None
    except ValueError as exc:  # e.g. a number too long to convert
        raise UsageProblem(f"{path}: not a usable replay: {exc}") from None
    if not isinstance(data, dict):
        raise UsageProblem(f"{path}: a replay is a JSON object, {{\"format\": \"charleston-replay\", ...}}")
    return data


def summary(game: Game) -> dict[str, Any]:
    """The replayed game's end state, as JSON-ready values (no rack is hidden: a replay shows all)."""
    state = game.state
    return {
        "phase": state.phase.value, "east": state.east, "turn": state.turn, "wall": len(state.wall),
        "discards": len(state.discards),
        "seats": [{"seat": s, "wind": seat_wind(state, s), "rack": [code(t) for t in seat.rack],
                   "exposures": [[code(t) for t in e.tiles] for e in seat.exposures], "dead": seat.dead,
                   "empty": seat.empty} for s, seat in enumerate(state.seats)],
        "result": state.result.to_json() if state.result else None,
    }


def run(args: argparse.Namespace) -> int:
    """`replay`: play a replay file back and print its events or a summary."""
    data = load_replay_file(args.file)
    try:
        card_id, _ = replay_header(data)
        card = load_card(card_id)
        played = replay(data, card)
    except UnknownCard as exc:
        raise UsageProblem(str(exc)) from None
    except CardError as exc:
        raise UsageProblem(f"the replay's card is broken: {exc.problems[0]}") from None
    except ReplayError as exc:
        raise UsageProblem(f"{args.file}: {exc}") from None
    game = played.game
    money = [p.to_json() for p in payouts(game.state)]
    if args.json:
        print_json({"events": [e.to_json() for e in played.opening] +
                              [e.to_json() for step in played.events for e in step],
                    "state": summary(game), "payouts": money})
        return 0
    winds = [seat_wind(game.state, s) for s in range(4)]
    for event in played.opening + [e for step in played.events for e in step]:
        print(("  (private) " if event.private else "") + describe(event, winds.__getitem__, card=card))
    state = summary(game)
    print(f"\nPhase: {state['phase']}; {plural(state['wall'], 'tile')} in the wall; "
          f"{plural(state['discards'], 'discard')}.")
    for seat in state["seats"]:
        if seat["empty"]:
            continue
        exposed = "; ".join(" ".join(e) for e in seat["exposures"]) or "-"
        dead = " (dead)" if seat["dead"] else ""
        print(f"  {seat['wind']:<6} rack {' '.join(seat['rack'])}  exposed {exposed}{dead}")
    if money:
        print("Payouts:")
        for p in money:
            print(f"  {winds[p['from']]} pays {winds[p['to']]} {p['amount']} ({p['reason']})")
    elif game.state.result is not None:
        print("No payments.")
    return 0

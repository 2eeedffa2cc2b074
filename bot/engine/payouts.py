"""Who pays whom when a game ends (docs/rules.md §7). Values are the card's, conventionally cents.

NMJL (SC1-SC4): on a discard the discarder pays 2V and the others V; on a self-pick (own draw, a joker
exchange, the heavenly hand) everyone pays 2V; a jokerless hand doubles every payment, except Singles & Pairs;
dead hands pay like anyone else; a wall game pays nothing.

1946 (H5, §11.7): each loser pays the printed value, the East column when East wins or pays; a false Mah
Jongg's penalties are added as they happened.
"""

from __future__ import annotations

from .state import GameState, Payout

__all__ = ["Payout", "payouts"]  # Payout (one transfer) lives in .state, which keeps the game's penalties


def payouts(state: GameState) -> list[Payout]:
    """Every transfer of a finished game, penalties first; empty for a game still running."""
    result = state.result
    if result is None:
        return []
    transfers = list(state.penalties)
    if result.winner is None:
        return transfers  # a wall game (M10) or no live players: no payments
    rules = state.rules
    winner = result.winner
    for payer in state.players:
        if payer == winner:
            continue
        # The reason says why this amount, in words a ledger reader knows (the line is on the game's record).
        reasons: list[str] = []
        if rules.east_double and winner != payer and state.east in (winner, payer):
            base = result.east_value if result.east_value is not None else 2 * result.value
            reasons.append("East column")
        else:
            base = result.value
        factor = 1
        if rules.winner_pays_double_rules:
            if result.self_pick:
                factor = 2
                reasons.append("self-pick" if result.how == "self_pick" else "heavenly hand")
            elif payer == result.discarder:
                factor = 2
                reasons.append("threw the winning tile")
            if result.jokerless and not result.singles_and_pairs:
                factor *= 2
                reasons.append("jokerless")
        transfers.append(Payout(payer, winner, base * factor, ", ".join(reasons) or "the hand's value"))
    return transfers


def net_chips(state: GameState) -> list[int]:
    """Each seat's net chips from a game's payouts (penalties included): what it received less what it paid."""
    net = [0] * len(state.seats)
    for payout in payouts(state):
        net[payout.payer] -= payout.amount
        net[payout.payee] += payout.amount
    return net

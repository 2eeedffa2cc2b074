"""How players' statistics look in Discord (``/stats``): what the standings show of a player, for anyone, and her
whole detail, for her or for the one who asked. Messages only; the figures come from :mod:`bot.service.stats`."""

from __future__ import annotations

from bot.engine.wording import noun, plural
from bot.service.stats import PlayerStats

from .fit import fit_lines
from .league_look import plain


def _signed(amount: float) -> str:
    return f"+{amount:g}" if amount > 0 else f"{amount:g}"


def no_games_text(name: str, where: str) -> str:
    """A player with no game counted yet."""
    return f"**{plain(name)}** has no finished game in {where} yet."


def summary_text(figures: PlayerStats, name: str, where: str) -> str:
    """What the standings show of a player (games, wins, self-picks, jokerless wins, net chips): what anyone may
    see of another player."""
    return (f"**{plain(name)}** in {where}: {plural(figures.games, 'game')}, "
            f"{plural(figures.mahjong, 'Mah Jongg')} ({figures.self_picks} self-picked, "
            f"{figures.jokerless} jokerless), **{_signed(figures.chips)}** {noun(figures.chips, 'chip')}.")


def detail_text(figures: PlayerStats, name: str, where: str) -> str:
    """A player's whole statistics, a short line each, for a phone."""
    rate = f" ({figures.mahjong / figures.games:.0%})" if figures.games else ""
    lines = [f"**{plain(name)}** in {where}",
             f"Games: **{figures.games}** · Mah Jongg: **{figures.mahjong}**{rate}",
             f"Self-picked: {figures.self_picks} · Jokerless: {figures.jokerless} · Wall games: {figures.wall_games}",
             f"Chips: **{_signed(figures.chips)}** ({_signed(figures.chips_per_game)} a game)",
             f"As East: {figures.wins_as_east} won of {figures.games_as_east} · "
             f"Other seats: {figures.wins_not_east} won of {figures.games_not_east}"]
    if figures.lines:
        lines.append("Lines won most: " + "; ".join(f"{plain(w.name)} ×{w.wins}" for w in figures.lines))
    else:
        lines.append("Lines won most: none yet")
    return fit_lines("\n".join(lines), "… and {more}: too long for one message.")

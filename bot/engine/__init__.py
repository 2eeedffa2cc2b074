"""The rules engine: pure, deterministic, no I/O.

Nothing here imports discord, aiosqlite, PIL or asyncio, or reads files; card files are read by ``bot.service.cards``
and handed over as text.
"""

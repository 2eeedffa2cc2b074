"""Persistence: the database (:mod:`bot.store.db`) and the rows the service keeps in it.

Both backends are imported here, so that :meth:`bot.store.db.Database.open` finds them (each is a subclass of
:class:`~bot.store.db.Database`): an SQLite file (:mod:`bot.store.sqlite`, the default) or a PostgreSQL database
(:mod:`bot.store.postgres`, for several bot processes over one database).
"""

from . import postgres, sqlite

__all__ = ["postgres", "sqlite"]

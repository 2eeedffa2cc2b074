"""Finding a table and looking at it: by id, by place, by player; its public view, a seat's own view, where it is
shown. Mixed into :class:`~bot.service.tables.TableService`; nothing here changes a table."""

from __future__ import annotations

from .display import Display
from .errors import ErrorKind, TableError
from .live import LiveTable
from .updates import Cause, SeatUpdate, TableUpdate, TableView


class TableLookup:
    """The look-ups of the service's open tables."""

    tables: dict[int, LiveTable]

    def table(self, table_id: int) -> LiveTable:
        """An open table, or a TableError (NO_TABLE)."""
        table = self.tables.get(table_id)
        if table is None:
            raise TableError(ErrorKind.NO_TABLE, f"There is no open table {table_id}.")
        return table

    def tables_at(self, guild_id: int, channel_id: int) -> list[LiveTable]:
        """The open tables in one channel (or thread) of a guild."""
        return [t for t in self.tables.values() if (t.row.guild_id, t.row.channel_id) == (guild_id, channel_id)]

    def table_at(self, guild_id: int, channel_id: int) -> LiveTable:
        """The one open table in a channel, or a TableError saying there is none (or which to pick)."""
        found = self.tables_at(guild_id, channel_id)
        if not found:
            raise TableError(ErrorKind.NO_TABLE, "There is no open table here. Open one with /table new, or use "
                             "this command in a table's thread.")
        if len(found) > 1:
            ids = ", ".join(str(t.table_id) for t in found)
            raise TableError(ErrorKind.NO_TABLE, f"Several tables are open here ({ids}): use the command in the "
                             "table's own thread.")
        return found[0]

    def tables_of(self, player_id: int) -> list[LiveTable]:
        """The open tables where ``player_id`` has a seat."""
        return [t for t in self.tables.values() if t.seat_of(player_id) is not None]

    def table_for(self, guild_id: int, channel_id: int, player_id: int) -> int:
        """The table a command means: the one open in this channel or thread, else the caller's only table in
        this guild (in a DM, ``guild_id`` 0: their only table anywhere); a TableError (NO_TABLE) saying where to
        use the command otherwise."""
        here = self.tables_at(guild_id, channel_id)
        if len(here) == 1:
            return here[0].table_id
        mine = [t for t in self.tables_of(player_id) if t.row.guild_id == guild_id or not guild_id]
        if len(mine) == 1 and not here:
            return mine[0].table_id
        raise TableError(ErrorKind.NO_TABLE, "Use this command in the table's thread (or open a table with /table "
                         "new).")

    def table_ids(self) -> list[int]:
        """Every open table, oldest first."""
        return sorted(self.tables)

    def is_open(self, table_id: int) -> bool:
        """Whether ``table_id`` is an open table of this service."""
        return table_id in self.tables

    def display(self, table_id: int) -> Display:
        """Where an open table is shown (the Discord layer's record)."""
        return self.table(table_id).display

    def view(self, table_id: int) -> TableView:
        """The public view of a table now."""
        return self.table(table_id).view()

    def snapshot(self, table_id: int) -> TableUpdate:
        """The table as it is now, as everyone may see it (a look, not a change)."""
        return self.table(table_id).table_update(Cause.SHOW, [], change=False)

    def seat_update(self, table_id: int, player_id: int) -> SeatUpdate:
        """The caller's own seat as it is now (rack, choices): for "show my rack"; never another seat's."""
        table = self.table(table_id)
        seat = self._seat(table, player_id)
        return table.seat_update(table.table_update(Cause.SHOW, [], change=False), seat, [])

    def _seat(self, table: LiveTable, player_id: int) -> int:
        seat = table.seat_of(player_id)
        if seat is None:
            raise TableError(ErrorKind.NOT_SEATED, "You have no seat at this table. Join it first (/table join).")
        return seat

"""The slash commands, one command group per module: ``/table`` (:mod:`.tables`), ``/play`` (:mod:`.moves`),
``/rack``, ``/hint`` and ``/back`` (:mod:`.seat`), ``/league`` and ``/league-admin`` (:mod:`.leagues`),
``/standings`` and ``/ledger`` (:mod:`.standings`), ``/card`` and ``/card-admin`` (:mod:`.cards`), ``/ping``
(:mod:`.general`). Each command makes one service call and answers through the door; the bot's wiring
(:mod:`cogs.app`) builds each group with what it uses."""

"""The Discord layer, in rooms by role. Data flows one way: Discord -> cogs -> the table service -> the engine;
updates flow back out.

- :mod:`cogs.app`: the wiring. Builds the bot and every part below, each handed what it uses.
- :mod:`cogs.commands`: the slash commands, one module per command group.
- :mod:`cogs.press`: from a press to a service call (the router, the handlers, the one error path).
- :mod:`cogs.show`: from a service update to messages (the table message, the DMs, what they show, the images).
- :mod:`cogs.door` and :mod:`cogs.failures`: the one door for every Discord call whose failure is expected, and
  Discord's failures, each named once with its policy; :mod:`cogs.payload`: what a message carries.
- :mod:`cogs.keeper`: what happens when Discord takes a table's thread away.
- :mod:`cogs.cluster`: the bot as several processes.
"""

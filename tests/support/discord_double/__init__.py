"""An offline Discord for end-to-end tests: the real discord.py talks to it over HTTP and the gateway.

See docs/testing-discord.md. The fixtures live in tests/support/discord_fixtures.py.
"""

from .double import Double, discord_pointed_at
from .models import Attachment, Channel, Command, Interaction, Message, User
from .players import Player, PlayerError, Sent
from .server import DiscordDouble
from .spec import SpecMissing, load_validator, spec_path
from .world import World

__all__ = [
    "Attachment", "Channel", "Command", "DiscordDouble", "Double", "Interaction", "Message", "Player", "PlayerError",
    "Sent", "SpecMissing", "User", "World", "discord_pointed_at", "load_validator", "spec_path",
]

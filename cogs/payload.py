"""What the bot writes to a message: its text, files and components (:class:`Payload`), and the picture a message
already shows (:class:`Picture`), so an edit that leaves the picture unchanged uploads nothing."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import discord


@dataclass
class Payload:
    """A message to send or to edit into place (its files are read once: build a new one for each try).

    ``kept`` are attachments the message already has and keeps as they are (an edit that leaves its picture
    unchanged uploads nothing)."""

    content: str
    files: list[discord.File] = field(default_factory=list)
    components: discord.ui.View | None = None  # its buttons and selects (a Discord view)
    kept: list[discord.Attachment] = field(default_factory=list)
    picture: bytes = b""  # a digest of the files' bytes: the same picture need not be uploaded again

    def keep(self, shown: Picture | None, message_id: int) -> Payload:
        """This payload for an edit of ``message_id``: its files left out and the attachments already there kept,
        when ``shown`` says that message shows the same picture."""
        if shown is not None and shown.message == message_id and self.picture and shown.digest == self.picture:
            self.files, self.kept = [], list(shown.attachments)
        return self

    @property
    def attachments(self) -> list[discord.Attachment | discord.File]:
        """What an edit leaves on the message: the kept attachments, then the new files."""
        return [*self.kept, *self.files]


@dataclass(frozen=True)
class Picture:
    """The picture a message shows: its attachments, and the digest of the bytes they were uploaded from."""

    message: int
    digest: bytes
    attachments: tuple[discord.Attachment, ...]

    @staticmethod
    def of(message: discord.Message, payload: Payload) -> Picture | None:
        """What ``message`` shows once ``payload`` was written to it (None: no picture)."""
        if not payload.picture or not message.attachments:
            return None
        return Picture(message.id, payload.picture, tuple(message.attachments))


def digest(data: bytes) -> bytes:
    """A short digest of a file's bytes (to tell whether a picture changed)."""
    return hashlib.blake2b(data, digest_size=16).digest()

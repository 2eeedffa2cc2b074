"""Images for players: tile faces, racks, the table, card sheets and standings charts (docs/rendering.md).

Pure functions from engine views (or plain tile lists) to PNG bytes plus alt text; Pillow only, no Discord.
"""

from .card import NotOnCard, render_card, render_card_pages
from .common import Rendered
from .palette import warm_up
from .proof import render_proof_line, render_proof_pages
from .rack import render_rack, render_seat_view
from .sheet import render_tile_sheet
from .standings import render_season, render_weekly
from .table import render_table
from .tiles import tile_face

__all__ = ["NotOnCard", "Rendered", "render_card", "render_card_pages", "render_proof_line", "render_proof_pages",
           "render_rack", "render_season", "render_seat_view", "render_table", "render_tile_sheet", "render_weekly",
           "tile_face", "warm_up"]

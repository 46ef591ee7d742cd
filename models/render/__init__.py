"""Pictures of boards and layouts: coloured terminal text and standalone SVG."""
from .svg import board_svg, layout_svg
from .text import draw_board, draw_layout

__all__ = ["board_svg", "layout_svg", "draw_board", "draw_layout"]

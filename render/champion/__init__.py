"""Champion of the Empire pictures: the map, the cards and the character sheet (pure: data in, PNG out)."""

from render.champion.map import bench_map, compose_map, map_alt_text, render_map, sample_view, warm

__all__ = ["bench_map", "compose_map", "map_alt_text", "render_map", "sample_view", "warm"]

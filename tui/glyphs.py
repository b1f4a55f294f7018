"""Glyphs the front end shows outside the boards, chosen from those common fonts have."""

HEADER_ICON = "○"  # Textual's default ⭘ (U+2B58) is missing from DejaVu Sans Mono and others

"""The vocabulary of CellReading labels and attrs, per board region.

This is the contract between the digital twin (what it draws), the observers (what they read) and
the referee (what a game state should look like from above). Attrs are plain JSON values.
"""

from __future__ import annotations

# --- Babylon garden (8×8): the top item of each cell, seen from straight above ---------------------
RECESS = "recess"  # empty recess of the player board, level 0
PILLAR1 = "pillar1"  # a single pillar's top; attrs: level (where its top is)
PILLAR2 = "pillar2"  # a double pillar's top; attrs: level
TILE = "tile"  # a tile space; attrs: level, tile (footprint id, e.g. "r2c3" of its top-left cell),
#                flower ("flower0".."flower3" or a player colour name), icon (one of ICONS or "none")
STAIRS = "stairs"  # decorations; attrs: level (for stairs: levels [a, b] of the two spaces it joins)
FOUNTAIN = "fountain"
BRIDGE = "bridge"
STATUE = "statue"
BELVEDERE = "belvedere"
BABYLON_GARDEN_LABELS = (RECESS, PILLAR1, PILLAR2, TILE, STAIRS, FOUNTAIN, BRIDGE, STATUE, BELVEDERE)
ICONS = ("stairs", "fountain", "bridge", "statue", "none")

# --- Babylon quarry (4×4 places): the top layer at each place -------------------------------------
QUARRY_CLAY = "clay"
QUARRY_GRANITE = "granite"
QUARRY_BASALT = "basalt"
QUARRY_EMPTY = "bottom"  # no tile left at this place
BABYLON_QUARRY_LABELS = (QUARRY_CLAY, QUARRY_GRANITE, QUARRY_BASALT, QUARRY_EMPTY)

# --- The Reclamation (6×6): attrs height (0..3), gardener (bool) ---------------------------------
EMPTY = "empty"
FLOWER = "flower"  # top stone shows the Flower face
VINE = "vine"  # top stone shows the Vine face
RECLAMATION_LABELS = (EMPTY, FLOWER, VINE)

# --- Babel Builders (3×3): label "cubes", attrs count (0..25) -------------------------------------
CUBES = "cubes"

# --- Baubylon (grid of spaces): label "field"; attrs height (pawn heights of the block top),
#     pawns (list of colours bottom to top, "red" for a blocker), start (bool) -------------------
FIELD = "field"

# --- Plain grid boards --------------------------------------------------------------------------
GRID_EMPTY = "."
GRID_DARK = "B"
GRID_LIGHT = "W"

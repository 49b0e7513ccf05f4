"""A compact representation of The Reclamation for search: bit masks and precomputed tables.

The readable state (state.py) is for refereeing and saving; this one is for speed. A position is a
plain tuple of ints:

    (f1, f2, f3, v1, v2, v3, hand_f, hand_v, captives_f, captives_v, used_f, used_v, to_move)

where fN / vN are 36-bit masks of the squares holding a Flower / Vine stack of height N (3 means a
gardener), hands are placeable stones, captives are stones taken from gardeners (Throne) and used_*
are bit masks over the card indices. Bit i is square i of board.py.

The successor generator applies exactly the rules of reclaim.py; the tests check the two agree on
every successor of many random positions.
"""

from __future__ import annotations

from itertools import combinations

from . import board as geo
from .cards import Card
from .reclaim import Stack
from .rules import WIN_SQUARE_COUNT
from .state import ReclamationState, Turn

FULL = (1 << geo.SQUARES) - 1
NEIGHBOUR_MASKS = tuple(sum(1 << n for n in geo.NEIGHBOURS[s]) for s in range(geo.SQUARES))

Position = tuple[int, ...]
# A successor: (score for the mover, win flag, move, child position); move = (from, to, card, placed mask)
Successor = tuple[int, bool, tuple[int, int, int, int], Position]


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class FastRules:
    """Precomputed tables for one game's cards and variant, and the successor generator."""

    def __init__(self, cards: tuple[Card, ...], throne: bool):
        self.cards = cards
        self.throne = throne
        self.count = len(cards)
        self.all_used = (1 << self.count) - 1
        # targets[player][card][square] -> mask of on-board targets (off-board ones dropped)
        self.targets = tuple(
            tuple(
                tuple(
                    sum(
                        1 << t
                        for o in card.targets
                        if (t := geo.target_square(player, square, o.forward, o.right)) is not None
                    )
                    for square in range(geo.SQUARES)
                )
                for card in cards
            )
            for player in (0, 1)
        )

    # -- conversion ------------------------------------------------------------------------
    def encode(self, state: ReclamationState) -> Position:
        masks = [0] * 6
        for square, stack in enumerate(state.board):
            if stack is not None:
                masks[stack.owner * 3 + stack.height - 1] |= 1 << square
        index = {c.name: i for i, c in enumerate(self.cards)}
        used = [sum(1 << index[n] for n in state.used[p]) for p in (0, 1)]
        return (*masks, *state.hands, *state.captives, *used, state.to_move)

    def decode(self, pos: Position, like: ReclamationState) -> ReclamationState:
        squares: list[Stack | None] = [None] * geo.SQUARES
        for k in range(6):
            for square in _bits(pos[k]):
                squares[square] = Stack(k // 3, k % 3 + 1)
        used = tuple(frozenset(self.cards[i].name for i in _bits(pos[10 + p])) for p in (0, 1))
        turn = like.turn + (1 if pos[12] != like.to_move else 0)
        return ReclamationState(
            like.variant, like.names, like.cards, tuple(squares), (pos[6], pos[7]), (pos[8], pos[9]),
            (used[0], used[1]), pos[12], turn,
        )

    def turn_of(self, move: tuple[int, int, int, int]) -> Turn:
        gardener, to, card, placed = move
        return Turn(geo.name(gardener), geo.name(to), self.cards[card].name, tuple(geo.name(s) for s in _bits(placed)))

    # -- rules -----------------------------------------------------------------------------
    def successors(self, pos: Position) -> list[Successor]:
        """Every legal turn from `pos` with the position it leads to, its score for the mover
        (see score()) and whether it wins at once."""
        f1, f2, f3, v1, v2, v3, hf, hv, cf, cv, uf, uv, me = pos
        if me == 0:
            m1, m2, m3, o1, o2, o3, hand, caps, used = f1, f2, f3, v1, v2, v3, hf, cf, uf
        else:
            m1, m2, m3, o1, o2, o3, hand, caps, used = v1, v2, v3, f1, f2, f3, hv, cv, uv
        throne = self.throne
        occupied = m1 | m2 | m3 | o1 | o2 | o3
        all_used = self.all_used
        cards = [(c, table, 1 << c) for c, table in enumerate(self.targets[me]) if not used >> c & 1]
        opp_hand = hv if me == 0 else hf
        opp_caps = cv if me == 0 else cf
        out: list[Successor] = []
        gardeners = m3
        while gardeners:
            gbit = gardeners & -gardeners
            gardeners ^= gbit
            g = gbit.bit_length() - 1
            without = occupied ^ gbit
            dests = NEIGHBOUR_MASKS[g] & ~occupied
            while dests:
                dbit = dests & -dests
                dests ^= dbit
                d = dbit.bit_length() - 1
                empty = FULL & ~(without | dbit)
                base3 = m3 ^ gbit | dbit
                for c, table, cbit in cards:
                    t = table[d]
                    if throne:
                        add = t & (m1 | m2)
                        take3 = t & o3
                    else:
                        add = t & m1
                        take3 = 0
                    fill = t & empty
                    take1 = t & o1
                    take2 = t & o2
                    need = add | fill
                    if not ((hand and need) or take1 or take2 or take3):
                        continue  # reclamation.garden.reclaim.no_effect
                    nused = used | cbit
                    if nused == all_used:
                        nused = cbit if self.count > 1 else 0
                    no1 = (o1 & ~take1) | take2
                    if throne:
                        no2 = (o2 & ~take2) | take3
                        no3 = o3 & ~take3
                        ncaps = caps + take3.bit_count()
                    else:
                        no2 = o2 & ~take2
                        no3 = o3
                        ncaps = caps
                    gained = (take1 | take2).bit_count()
                    total = need.bit_count()
                    options = (need,) if hand >= total else _choices(add, fill, hand)
                    for placed in options:
                        pa = placed & add
                        pe = placed & fill
                        if throne:
                            pa2 = pa & m2
                            pa1 = pa & ~pa2
                            nm1 = (m1 & ~pa1) | pe
                            nm2 = (m2 & ~pa2) | pa1
                            nm3 = base3 | pa2
                        else:
                            nm1 = (m1 & ~pa) | pe
                            nm2 = m2 | pa
                            nm3 = base3
                        nhand = hand - placed.bit_count() + gained
                        mine = (nm1 | nm2 | nm3).bit_count()
                        theirs = (no1 | no2 | no3).bit_count()
                        if throne:
                            win = not no3 or ncaps >= 3
                            score = (
                                60 * (nm3.bit_count() - no3.bit_count()) + 45 * (ncaps - opp_caps)
                                + 6 * (nm2.bit_count() - no2.bit_count()) + 2 * (mine - theirs)
                            )
                        else:
                            win = mine >= WIN_SQUARE_COUNT
                            score = (
                                10 * (mine - theirs) + 3 * (nm2.bit_count() - no2.bit_count())
                                + min(nhand, 4) - min(opp_hand, 4)
                            )
                        if me == 0:
                            child = (nm1, nm2, nm3, no1, no2, no3, nhand, hv, ncaps, cv, nused, uv, 1)
                        else:
                            child = (no1, no2, no3, nm1, nm2, nm3, hf, nhand, cf, ncaps, uf, nused, 0)
                        out.append((score, win, (g, d, c, placed), child))
        return out


def _choices(add: int, fill: int, hand: int) -> list[int]:
    """reclamation.garden.reclaim.short: step-1 targets first; choose among a step's targets."""
    add_bits = _bits(add)
    if hand >= len(add_bits):
        fill_bits = _bits(fill)
        return [add | sum(1 << s for s in chosen) for chosen in combinations(fill_bits, hand - len(add_bits))]
    return [sum(1 << s for s in chosen) for chosen in combinations(add_bits, hand)]


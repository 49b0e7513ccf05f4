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
# A successor: (score for the mover, wins at once, child, from square, to square, card index,
# mask of the squares that received a stone). One flat tuple per child, for speed.
Successor = tuple[int, bool, Position, int, int, int, int]


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

    def turn_of(self, successor: Successor) -> Turn:
        _, _, _, gardener, to, card, placed = successor
        return Turn(geo.name(gardener), geo.name(to), self.cards[card].name, tuple(geo.name(s) for s in _bits(placed)))

    # -- rules -----------------------------------------------------------------------------
    def successors(self, pos: Position) -> list[Successor]:
        """Every legal turn from `pos`: (score for the mover, wins at once, child position,
        gardener square, destination, card index, mask of squares that got a stone)."""
        return self._throne(pos) if self.throne else self._garden(pos)

    def _garden(self, pos: Position) -> list[Successor]:
        f1, f2, f3, v1, v2, v3, hf, hv, cf, cv, uf, uv, me = pos
        if me == 0:
            m1, m2, m3, o1, o2, o3, hand, used, opp_hand = f1, f2, f3, v1, v2, v3, hf, uf, hv
        else:
            m1, m2, m3, o1, o2, o3, hand, used, opp_hand = v1, v2, v3, f1, f2, f3, hv, uv, hf
        occupied = m1 | m2 | m3 | o1 | o2 | o3
        all_used, many = self.all_used, self.count > 1
        cards = [(c, table, 1 << c) for c, table in enumerate(self.targets[me]) if not used >> c & 1]
        # Counts before the turn; each child's counts follow from what the reclaim changes.
        base_mine = (m1 | m2 | m3).bit_count()
        base_theirs = (o1 | o2 | o3).bit_count()
        my2, their2 = m2.bit_count(), o2.bit_count()
        opp_reserve = opp_hand if opp_hand < 4 else 4
        out: list[Successor] = []
        append = out.append
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
                nm3 = m3 ^ gbit | dbit
                for c, table, cbit in cards:
                    t = table[d]
                    add = t & m1
                    fill = t & empty
                    take1 = t & o1
                    take2 = t & o2
                    if not ((hand and (add or fill)) or take1 or take2):
                        continue  # reclamation.garden.reclaim.no_effect
                    nused = used | cbit
                    if nused == all_used:
                        nused = cbit if many else 0
                    no1 = (o1 & ~take1) | take2
                    no2 = o2 & ~take2
                    t1 = take1.bit_count()
                    t2 = take2.bit_count()
                    theirs = base_theirs - t1
                    na = add.bit_count()
                    nf = fill.bit_count()
                    if hand >= na + nf:
                        options = ((add | fill, na, nf),)
                    else:
                        options = [(p, (p & add).bit_count(), (p & fill).bit_count()) for p in _choices(add, fill, hand)]
                    for placed, pa_n, pe_n in options:
                        pa = placed & add
                        nm1 = (m1 & ~pa) | (placed & fill)
                        nm2 = m2 | pa
                        nhand = hand - pa_n - pe_n + t1 + t2
                        mine = base_mine + pe_n
                        score = (
                            10 * (mine - theirs) + 3 * (my2 + pa_n - their2 + t2)
                            + (nhand if nhand < 4 else 4) - opp_reserve
                        )
                        if me == 0:
                            child = (nm1, nm2, nm3, no1, no2, o3, nhand, hv, cf, cv, nused, uv, 1)
                        else:
                            child = (no1, no2, o3, nm1, nm2, nm3, hf, nhand, cf, cv, uf, nused, 0)
                        append((score, mine >= WIN_SQUARE_COUNT, child, g, d, c, placed))
        return out

    def _throne(self, pos: Position) -> list[Successor]:
        f1, f2, f3, v1, v2, v3, hf, hv, cf, cv, uf, uv, me = pos
        if me == 0:
            m1, m2, m3, o1, o2, o3, hand, caps, used, opp_caps = f1, f2, f3, v1, v2, v3, hf, cf, uf, cv
        else:
            m1, m2, m3, o1, o2, o3, hand, caps, used, opp_caps = v1, v2, v3, f1, f2, f3, hv, cv, uv, cf
        occupied = m1 | m2 | m3 | o1 | o2 | o3
        all_used, many = self.all_used, self.count > 1
        cards = [(c, table, 1 << c) for c, table in enumerate(self.targets[me]) if not used >> c & 1]
        mine12 = m1 | m2
        base_mine = (m1 | m2 | m3).bit_count()
        base_theirs = (o1 | o2 | o3).bit_count()
        my2, their2 = m2.bit_count(), o2.bit_count()
        my3, their3 = m3.bit_count(), o3.bit_count()
        out: list[Successor] = []
        append = out.append
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
                    add = t & mine12  # reclamation.throne.reclaim: stacks of 1 or 2 take a stone
                    fill = t & empty
                    take1 = t & o1
                    take2 = t & o2
                    take3 = t & o3  # gardeners too; those stones become captives
                    if not ((hand and (add or fill)) or take1 or take2 or take3):
                        continue
                    nused = used | cbit
                    if nused == all_used:
                        nused = cbit if many else 0
                    no1 = (o1 & ~take1) | take2
                    no2 = (o2 & ~take2) | take3
                    no3 = o3 & ~take3
                    t1 = take1.bit_count()
                    t3 = take3.bit_count()
                    gained = t1 + take2.bit_count()
                    ncaps = caps + t3
                    win = not no3 or ncaps >= 3
                    theirs = base_theirs - t1
                    opp2 = their2 - gained + t1 + t3
                    opp3 = their3 - t3
                    need = add | fill
                    options = (need,) if hand >= need.bit_count() else _choices(add, fill, hand)
                    for placed in options:
                        pa = placed & add
                        pe = placed & fill
                        pa2 = pa & m2
                        pa1 = pa ^ pa2
                        n2 = pa2.bit_count()
                        n1 = pa1.bit_count()
                        ne = pe.bit_count()
                        nm1 = (m1 & ~pa1) | pe
                        nm2 = (m2 & ~pa2) | pa1
                        nm3 = base3 | pa2
                        nhand = hand - n1 - n2 - ne + gained
                        score = (
                            60 * (my3 + n2 - opp3) + 45 * (ncaps - opp_caps)
                            + 6 * (my2 + n1 - n2 - opp2) + 2 * (base_mine + ne - theirs)
                        )
                        if me == 0:
                            child = (nm1, nm2, nm3, no1, no2, no3, nhand, hv, ncaps, cv, nused, uv, 1)
                        else:
                            child = (no1, no2, no3, nm1, nm2, nm3, hf, nhand, cf, ncaps, uf, nused, 0)
                        append((score, win, child, g, d, c, placed))
        return out


def _choices(add: int, fill: int, hand: int) -> list[int]:
    """reclamation.garden.reclaim.short: step-1 targets first; choose among a step's targets."""
    add_bits = _bits(add)
    if hand >= len(add_bits):
        fill_bits = _bits(fill)
        return [add | sum(1 << s for s in chosen) for chosen in combinations(fill_bits, hand - len(add_bits))]
    return [sum(1 << s for s in chosen) for chosen in combinations(add_bits, hand)]


"""Pure-Python twin of ``src/mnemonic_estimate.pxd``: the Mnemonic planner's continuation estimate (MN-44).

The chance of a Victory in the rest of the session beyond the exact horizon, in floats like the kernel; the model
is :mod:`solver.twins.mnemonic_model`, the search that calls the estimate :mod:`solver.twins.mnemonic_plan`.
"""

from __future__ import annotations

from typing import Any

from solver.twins.mnemonic_model import *  # noqa: F403 (the model's names, as the kernel's ``cimport *``)

#: the continuation stops once the chance that nothing has been won yet falls below this
TAIL_EPSILON = 1e-9
#: ``POW6[i][d] = (i / 6) ** d``: every base the continuation raises to a power is a sixth
POW6 = [[(i / 6.0) ** d for d in range(160)] for i in range(7)]
# continuation block states: usable, usable injured (one die fewer), complicated, injured and unusable
B_OK, B_INJ, B_CPL, B_GONE = range(4)


class Tail:
    """The continuation estimate (MN-44): the rest of the session under the base policy, in a mean-field model.

    The base policy faces the Adversary after every round and tries again while allowed (at most
    ``TAIL_WINDOW`` Group Scenes between two rounds when Try Again has no cap), then plays another round while
    the session has rounds left and the cards allow. Each scene is played with the matching available skill with
    the most dice (no help, learning, weaving or extra dice; no match: no roll). In the model a draw takes a
    category with the unseen cards' shares, with replacement; a card from a hand known to the planner with that
    hand's shares. A player with a weaving left avoids the complication of a failed roll (weavings refreshed
    each round under ``weaving.refresh = round``). Each player's suits are followed on their own: for every suit, the best available skill is a
    *block* in one of four states (usable, usable with one die fewer, complicated, injured and unusable) with
    probabilities updated scene by scene (extra dice a player holds are spent on their next roll); a Group
    Scene's odds are exact for independent blocks:
    ``P(Victory) = sum_v b_v^m0 (prod_q E_q[a_v^d b_v^f] - prod_q E_q[b_v^d b_v^f])`` with ``a_v = v/6``,
    ``b_v = (v-1)/6``, ``d`` the dice a player brings and ``f`` their new complications. Between two rounds the
    Group Scenes are followed exactly by the number of Defeats so far (a Defeat injures the skills brought, for
    everyone at once; a Draw changes nothing); at the next round the branches are mixed. Computed in floats,
    like the kernel (``src/mnemonic_plan.pxi``, ``estimate``).
    """

    def __init__(self, model: Model, pos: list[int]) -> None:
        m, c = model, model.c
        self.model, self.pos, self.k = m, pos, m.k
        self.burner = not c[CFG_GREY]
        self.grey_card = bool(c[CFG_GREY] and c[CFG_GREY_CARD])
        self.wild = bool(c[CFG_JOKER_WILD])
        self.effect = c[CFG_INJURY_EFFECT]
        self.deck = pos[POS_DECK]
        self.hand = [pos[m.pl(q, PL_HAND_SIZE)] for q in range(self.k)]
        pool = pos[POS_POOL:POS_POOL + CATEGORIES]
        total = sum(pool)
        self.share = [pool[x] / total if total > 0 else 0.0 for x in range(CATEGORIES)]
        self.scene_share: list[list[float]] = []
        for q in range(self.k):
            size = pos[m.pl(q, PL_HAND_SIZE)]
            if pos[m.pl(q, PL_KNOWN)] and size > 0:
                self.scene_share.append([pos[m.pl(q, PL_HAND + x)] / size for x in range(CATEGORIES)])
            else:
                self.scene_share.append(list(self.share))
        self.dice_ok = [[0] * 4 for _ in range(self.k)]
        self.dice_inj = [[0] * 4 for _ in range(self.k)]
        self.p = [[[0.0, 0.0, 0.0, 1.0] for _ in range(4)] for _ in range(self.k)]
        self.order: list[list[int]] = []
        for q in range(self.k):
            for suit in range(4):
                best, best_slot = -1, -1
                for i in m.slots_of[q]:
                    if m.usable(pos, i) and pos[m.sl(i, SL_SUIT)] == suit:
                        d = self.current_dice(i)
                        if d > best:
                            best, best_slot = d, i
                if best_slot >= 0:
                    rating = m.rating[best_slot]
                    self.dice_ok[q][suit] = rating
                    self.dice_inj[q][suit] = max(0, rating - 1) if self.effect == MINUS_ONE else rating
                    injured = pos[m.sl(best_slot, SL_STATUS)] & INJURED and self.effect == MINUS_ONE
                    self.p[q][suit] = [0.0, 1.0, 0.0, 0.0] if injured else [1.0, 0.0, 0.0, 0.0]
            self.order.append(sorted(range(4), key=lambda t, q=q: (-self.dice_ok[q][t], t)))
        self.tokens = [[1.0 if w == pos[m.pl(q, PL_TOKENS)] else 0.0 for w in range(4)] for q in range(self.k)]
        self.bonus = [pos[m.pl(q, PL_BONUS)] for q in range(self.k)]  # spent on the player's next roll
        self.m0 = m.complications(pos)
        self.cap = c[CFG_MAX_ATTEMPTS] if m.capped() else TAIL_WINDOW
        self.open = 1.0  # chance of no Victory yet, Group Scenes still allowed before the next round
        self.closed = 0.0  # chance of no Victory yet, the next Group Scene only after a round
        self.total = 0.0

    def current_dice(self, i: int) -> int:
        m = self.model
        n = m.rating[i]
        if self.pos[m.sl(i, SL_STATUS)] & INJURED and self.effect == MINUS_ONE:
            n -= 1
        return max(0, n)

    # -- one player's generating function ---------------------------------------------------------
    def usable(self, q: int, t: int) -> float:
        return self.p[q][t][B_OK] + self.p[q][t][B_INJ]

    def idle(self, q: int, t: int, y: float) -> float:
        """A block that is not brought: it counts only through its complication."""
        pr = self.p[q][t]
        return pr[B_OK] + pr[B_INJ] + pr[B_CPL] * y + pr[B_GONE]

    def used(self, q: int, t: int, x: int, y: float) -> float:
        """A block brought when usable (``x``: the base in sixths)."""
        pr = self.p[q][t]
        extra = self.bonus[q]
        return (pr[B_OK] * POW6[x][self.dice_ok[q][t] + extra] + pr[B_INJ] * POW6[x][self.dice_inj[q][t] + extra]
                + pr[B_CPL] * y + pr[B_GONE])

    def best_of(self, q: int, held: list[bool], x: int, y: float, idle: list[float]) -> float:
        """The best usable block among the ``held`` suits is brought; the others count as idle."""
        total = 0.0
        before = 1.0
        rank = self.order[q]
        for j in range(4):
            t = rank[j]
            if not held[t]:
                continue
            pr = self.p[q][t]
            after = 1.0
            for j2 in range(j + 1, 4):
                if held[rank[j2]]:
                    after *= idle[rank[j2]]
            total += (pr[B_OK] * POW6[x][self.dice_ok[q][t] + self.bonus[q]]
                      + pr[B_INJ] * POW6[x][self.dice_inj[q][t] + self.bonus[q]]) * before * after
            before *= pr[B_CPL] * y + pr[B_GONE]
        total += before
        for t in range(4):
            if not held[t]:
                total *= idle[t]
        return total

    def held(self, q: int) -> list[bool]:
        """Into the Grey: the suits ``q`` can pay a Group Scene for (every suit without group cards)."""
        if not self.grey_card:
            return [True] * 4
        share = self.scene_share[q]
        if self.wild and share[JOKER] > 0:
            return [True] * 4
        return [share[t] > 0 for t in range(4)]

    def expect(self, q: int, x: int, yi: int) -> float:
        """``E_q[(x/6)^d (yi/6)^f]`` at a Group Scene (``d`` dice brought, ``f`` new complications)."""
        y = yi / 6.0
        idle = self.idle_table[q][yi]
        if self.grey_card and self.hand[q] == 0:
            return idle[0] * idle[1] * idle[2] * idle[3]
        if not self.burner:
            return self.best_of(q, self.held(q), x, y, idle)
        total = 0.0
        for cat in range(CATEGORIES):
            if self.share[cat] <= 0:
                continue
            if cat < 4:
                term = self.used(q, cat, x, y)
                for t in range(4):
                    if t != cat:
                        term *= idle[t]
            elif self.wild:
                term = self.best_of(q, [True] * 4, x, y, idle)
            else:
                term = idle[0] * idle[1] * idle[2] * idle[3]
            total += self.share[cat] * term
        return total

    def product(self, x: int, y: int) -> float:
        """``prod_q E_q[(x/6)^d (y/6)^f]``."""
        out = 1.0
        for q in range(self.k):
            out *= self.expect(q, x, y)
        return out

    # -- the steps ---------------------------------------------------------------------------------
    def attempt(self) -> tuple[float, float, float]:
        """(Victory, Defeat, no Group Scene possible) of one Group Scene."""
        c = self.model.c
        self.idle_table = [[[self.idle(q, t, yi / 6.0) for t in range(4)] for yi in range(7)] for q in range(self.k)]
        win = lose = 0.0
        for v in range(1, 7):  # the highest roll is v: a_v = v/6, b_v = (v-1)/6
            both = self.product(v - 1, v - 1)
            if self.m0 == 0 or v > 1:
                win += POW6[v - 1][self.m0] * (self.product(v, v - 1) - both)
            lose += POW6[v][self.m0] * self.product(v - 1, v) - POW6[v - 1][self.m0] * both
        blocked = 0.0
        if self.m0 == 0:
            nobody = self.product(0, 0)
            if c[CFG_NEEDS_COMPLICATION]:
                blocked = self.product(6, 0)
                win -= blocked - nobody
            elif c[CFG_NOBODY] == VICTORY:
                win += nobody
            elif c[CFG_NOBODY] == DEFEAT:
                lose += nobody
        return win, lose, blocked

    def brought(self, q: int, share: list[float]) -> list[float]:
        """Chance that each block of ``q`` is brought to a Group Scene when usable."""
        out = [0.0] * 4
        if self.grey_card and self.hand[q] == 0:
            return out
        if not self.burner:
            held = self.held(q)
            unused = 1.0
            for t in self.order[q]:
                if held[t]:
                    out[t] = unused
                    unused *= 1.0 - self.usable(q, t)
            return out
        unused = 1.0
        for t in self.order[q]:
            out[t] = share[t] + (share[JOKER] * unused if self.wild else 0.0)
            unused *= 1.0 - self.usable(q, t)
        return out

    def injure(self, chance: float, brought: list[list[float]]) -> None:
        """Each block brought is injured with ``chance`` (MN-26, MN-29)."""
        if self.effect == NO_EFFECT:
            return
        target = B_GONE if self.effect == UNUSABLE else B_INJ
        for q in range(self.k):
            for t in range(4):
                moved = chance * brought[q][t] * self.p[q][t][B_OK]
                self.p[q][t][B_OK] -= moved
                self.p[q][t][target] += moved

    def spend_group_cards(self) -> None:
        if self.burner:
            self.deck -= self.k
        elif self.grey_card:
            for q in range(self.k):
                if self.hand[q] > 0:
                    self.hand[q] -= 1

    def injured_copy(self, brought: list[list[float]]) -> list[list[list[float]]]:
        """The blocks after a Defeat: every block brought is injured (the current blocks are kept)."""
        saved = self.p
        self.p = [[list(block) for block in player] for player in saved]
        self.injure(1.0, brought)
        injured, self.p = self.p, saved
        return injured

    def window(self, attempts: int, states: list[Any] | None = None, open_w: list[float] | None = None,
               closed_w: list[float] | None = None) -> None:
        """Group Scenes, one after another while allowed.

        A Draw changes no skill, a Defeat injures the skills brought, for every player at once: within the window
        the blocks are followed exactly by the number of Defeats so far (``states[d]``, with the chance of still
        being allowed to try, ``open_w[d]``, or of waiting for the next round, ``closed_w[d]``); at the window's
        end the branches are mixed again.
        """
        c = self.model.c
        if states is None or open_w is None or closed_w is None:
            states, open_w, closed_w = [self.p], [self.open], [self.closed]
        cached: dict[int, tuple[float, float, float]] = {}
        for _ in range(attempts):
            if sum(open_w) < TAIL_EPSILON or (self.burner and self.deck < self.k):
                break
            extra = any(self.bonus)
            for d in range(len(states) - 1, -1, -1):
                if open_w[d] <= 0.0:
                    continue
                self.p = states[d]
                if extra or d not in cached:
                    outcome = self.attempt()
                    if not extra:
                        cached[d] = outcome
                else:
                    outcome = cached[d]
                win, lose, blocked = outcome
                draw = 1.0 - win - lose - blocked
                if d + 1 == len(states):
                    states.append(self.injured_copy([self.brought(q, self.share) for q in range(self.k)]))
                    open_w.append(0.0)
                    closed_w.append(0.0)
                mass = open_w[d]
                self.total += mass * win
                closed_w[d] += mass * (blocked + (draw if c[CFG_DRAW_AS_VICTORY] else 0.0))
                open_w[d] = mass * (0.0 if c[CFG_DRAW_AS_VICTORY] else draw)
                open_w[d + 1] += mass * lose
            self.spend_group_cards()
            self.bonus = [0] * self.k
        self.merge(states, open_w, closed_w)

    def merge(self, states: list[Any], open_w: list[float], closed_w: list[float]) -> None:
        """The window's branches mixed into one set of blocks (weighted by their chance)."""
        self.open = sum(open_w)
        self.closed = sum(closed_w)
        weight = self.open + self.closed
        if weight <= 0.0:
            self.p = states[0]
            return
        mixed = [[[0.0] * 4 for _ in range(4)] for _ in range(self.k)]
        for d in range(len(states)):
            share = (open_w[d] + closed_w[d]) / weight
            for q in range(self.k):
                for t in range(4):
                    for x in range(4):
                        mixed[q][t][x] += share * states[d][q][t][x]
        self.p = mixed

    def scene(self, q: int) -> None:
        """One Individual Scene of ``q``: the matching block with the most dice is rolled; a failure complicates it."""
        if self.hand[q] > 0:
            share = self.scene_share[q]
            self.hand[q] -= 1
        elif self.deck > 0:
            share = self.share
            self.deck -= 1
        else:
            return
        unused = 1.0
        hits = [0.0] * 4
        for t in self.order[q]:
            hits[t] = share[t] + (share[JOKER] * unused if self.wild else 0.0)
            unused *= 1.0 - self.usable(q, t)
        keep = self.tokens[q][0]  # no weaving left: a failure complicates the skill
        failed = 0.0
        for t in range(4):
            pr = self.p[q][t]
            fail_ok = hits[t] * pr[B_OK] * POW6[5][self.dice_ok[q][t] + self.bonus[q]]
            fail_inj = hits[t] * pr[B_INJ] * POW6[5][self.dice_inj[q][t] + self.bonus[q]]
            failed += fail_ok + fail_inj
            pr[B_CPL] += (fail_ok + fail_inj) * keep
            pr[B_OK] -= fail_ok * keep
            pr[B_INJ] -= fail_inj * keep
        self.bonus[q] = 0
        tokens = self.tokens[q]  # a weaving avoids the failure's complication
        tokens[0] += tokens[1] * failed
        for w in range(1, 3):
            tokens[w] = tokens[w] * (1.0 - failed) + tokens[w + 1] * failed
        tokens[3] *= 1.0 - failed

    def play_round(self, first_index: int, new: bool = True) -> None:
        """The round's scenes from ``first_index`` on (a ``new`` round first refreshes the weavings if the rules
        say so)."""
        if new and self.model.c[CFG_REFRESH] == REFRESH_ROUND:
            w = self.model.c[CFG_WEAVINGS]
            self.tokens = [[1.0 if x == w else 0.0 for x in range(4)] for _ in range(self.k)]
        for index in range(first_index, self.k):
            self.scene(self.model.order(self.pos, index))

    def round_allowed(self) -> bool:
        return sum(1 for q in range(self.k) if self.hand[q] == 0) <= self.deck

    def run(self, mode: int, victory: float, defeat: float) -> float:
        """The estimate from ``self.pos``: ``mode`` says where the session stands (``TAIL_*``); after the last
        exact Group Scene (``TAIL_AFTER``) its Victory and Defeat chances are given and the estimate is the
        chance of a later Victory, given that one did not win."""
        m, pos = self.model, self.pos
        rounds = m.tail_rounds(pos)
        if mode == TAIL_REST:
            self.play_round((pos[POS_FOCUS] - pos[POS_FIRST]) % self.k, new=False)
            self.window(self.cap)
        elif mode == TAIL_ROUND:
            rounds -= 1
            self.play_round(0)
            self.window(self.cap)
        elif mode == TAIL_FACE:
            self.window(self.cap - pos[POS_ATTEMPTS] if m.capped() else self.cap)
        else:
            states, open_w, closed_w = self.after_last_group(victory, defeat)
            self.window(self.cap - pos[POS_ATTEMPTS] if m.capped() else self.cap - 1, states, open_w, closed_w)
        while rounds > 0 and self.open + self.closed >= TAIL_EPSILON and self.round_allowed():
            rounds -= 1
            self.open += self.closed
            self.closed = 0.0
            self.play_round(0)
            self.window(self.cap)
        return self.total

    def after_last_group(self, victory: float, defeat: float) -> tuple[list[Any], list[float], list[float]]:
        """The window's branches after the horizon's last Group Scene, given no Victory: a Draw (the blocks as
        they are) or a Defeat (the blocks brought injured), with their chances; its remaining cards spent."""
        m, pos = self.model, self.pos
        brought = [[0.0] * 4 for _ in range(self.k)]
        for index in range(self.k):
            q = m.order(pos, index)
            if index < pos[POS_TURN]:
                slot = pos[m.pl(q, PL_GROUP_SLOT)]
                if slot >= 0:
                    brought[q][pos[m.sl(slot, SL_SUIT)]] = 1.0
                continue
            share = self.share
            cat = pos[m.pl(q, PL_GROUP_CAT)]
            if self.burner and cat >= 0:
                share = [1.0 if x == cat else 0.0 for x in range(CATEGORIES)]
            brought[q] = self.brought(q, share)
            if self.grey_card and self.hand[q] > 0:
                self.hand[q] -= 1
        self.bonus = [0] * self.k
        lost = 1.0 - victory
        draw = (lost - defeat) / lost
        states = [self.p, self.injured_copy(brought)]
        if m.c[CFG_DRAW_AS_VICTORY]:
            return states, [0.0, defeat / lost], [draw, 0.0]
        return states, [draw, defeat / lost], [0.0, 0.0]

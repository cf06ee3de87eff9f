package dev.berth.assign;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Local search after a greedy pass: a buffer left out of its cheapest space takes it by
 * evicting, from that space, buffers live with it that save less, cheapest loss first, until it
 * fits ({@link Packing#insert}); the evicted ones go to their fallback, unless they fit again
 * elsewhere among their options. The move is kept when the cost falls, else the packing is
 * rolled back to its mark. Rounds repeat while a move is kept, within the work limit.
 */
final class Repair {
    private Repair() {
    }

    static Greedy.Result improve(Model m, Greedy.Result r, int[] priority, long workLimit) {
        Packing p = r.packing();
        int[] choice = r.choice().clone();
        long cost = r.cost();
        for (int round = 0; round < 4; round++) {
            boolean kept = false;
            for (int k : priority) {
                if (p.work() >= workLimit) {
                    break;
                }
                Entry e = m.entries[k];
                int best = e.options()[0];
                if (choice[k] == best || e.limited()[best] < 0) {
                    continue;
                }
                long gain = e.cost()[choice[k]] - e.cost()[best];
                if (gain <= 0) {
                    continue;
                }
                int s = e.limited()[best];
                List<Integer> rivals = new ArrayList<>();
                for (int j : p.held(s)) {
                    Entry x = m.entries[j];
                    if (!x.pinned() && x.fallback() >= 0 && x.spec().live().overlaps(e.spec().live())) {
                        rivals.add(j);
                    }
                }
                rivals.sort(Comparator.comparingLong((Integer j) -> loss(m, j, choice[j])).thenComparingInt(j -> j));
                Packing.Mark mark = p.mark();
                long lost = 0;
                List<Integer> evicted = new ArrayList<>();
                boolean in = p.insert(k, best);
                for (int j : rivals) {
                    if (in || lost + loss(m, j, choice[j]) >= gain) {
                        break;
                    }
                    if (!p.remove(j, choice[j])) {
                        break;
                    }
                    lost += loss(m, j, choice[j]);
                    evicted.add(j);
                    in = p.insert(k, best);
                }
                if (!in) {
                    p.rollback(mark);
                    continue;
                }
                int[] next = choice.clone();
                next[k] = best;
                for (int j : evicted) {
                    Entry x = m.entries[j];
                    next[j] = x.fallback();
                    for (int o : x.options()) {
                        if (x.limited()[o] < 0 || x.cost()[o] >= x.cost()[next[j]]) {
                            break;
                        }
                        if (p.insert(j, o)) {
                            next[j] = o;
                            break;
                        }
                    }
                }
                long c = m.cost(next);
                if (c < cost) {
                    cost = c;
                    System.arraycopy(next, 0, choice, 0, choice.length);
                    kept = true;
                } else {
                    p.rollback(mark);
                }
            }
            if (!kept) {
                break;
            }
        }
        return new Greedy.Result(choice, cost, p, r.order());
    }

    /** What buffer {@code j} loses when it leaves its space {@code now} for its fallback. */
    private static long loss(Model m, int j, int now) {
        Entry x = m.entries[j];
        return x.cost()[x.fallback()] - x.cost()[now];
    }
}

package dev.berth.assign;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Local search after a greedy pass: a buffer left out of its cheapest space takes it by
 * evicting, from that space, buffers live with it that save less, until it fits
 * ({@link Packing#insert}); the evicted ones go to their fallback, unless they fit again
 * elsewhere among their options, and then the buffers outside a space with a capacity that were
 * live with an evicted one try again to get in (the room the eviction left can take them). The
 * rivals are evicted in each of {@link #evictionOrders} from the same state (rolled back to its
 * mark after each); the cheapest result is made again and kept when the cost falls. Rounds
 * repeat while a move is kept, within the work limit.
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
                // each eviction order is tried from the same state; the best move is made again
                List<Comparator<Integer>> orders = evictionOrders(m, choice);
                Packing.Mark mark = p.mark();
                int won = -1;
                long wonCost = cost;
                for (int t = 0; t < orders.size() && p.work() < workLimit; t++) {
                    int[] tried = move(m, p, choice, k, best, gain, sorted(rivals, orders.get(t)), priority);
                    if (tried != null && m.cost(tried) < wonCost) {
                        won = t;
                        wonCost = m.cost(tried);
                    }
                    p.rollback(mark);
                }
                if (won >= 0) {
                    int[] next = move(m, p, choice, k, best, gain, sorted(rivals, orders.get(won)), priority);
                    if (next == null || m.cost(next) != wonCost) {
                        throw new IllegalStateException("a repair move gave another result when made again");
                    }
                    cost = wonCost;
                    System.arraycopy(next, 0, choice, 0, choice.length);
                    kept = true;
                }
            }
            if (!kept) {
                break;
            }
        }
        return new Greedy.Result(choice, cost, p, r.order());
    }

    /**
     * The orders rivals are evicted in: cheapest loss first, and least loss per byte reserved
     * first (which frees the most room for what it costs).
     */
    private static List<Comparator<Integer>> evictionOrders(Model m, int[] choice) {
        Comparator<Integer> byLoss = Comparator.comparingLong((Integer j) -> loss(m, j, choice[j]))
                .thenComparingInt(j -> j);
        Comparator<Integer> perByte = Comparator.comparingDouble((Integer j) -> (double) loss(m, j, choice[j])
                / Math.max(1, m.entries[j].reserved()[choice[j]])).thenComparingInt(j -> j);
        return List.of(byLoss, perByte);
    }

    private static List<Integer> sorted(List<Integer> rivals, Comparator<Integer> by) {
        List<Integer> out = new ArrayList<>(rivals);
        out.sort(by);
        return out;
    }

    /**
     * Buffer {@code k} into its cheapest candidate {@code best}, evicting {@code rivals} in their
     * order until it fits (while what they lose stays below {@code gain}); the evicted go to the
     * cheapest of their options that fits, then every buffer not in its cheapest option that was
     * live with an evicted one tries, in {@code priority}, the options cheaper than its own. The
     * new choice, with the packing changed to hold it, or null with the packing possibly changed
     * (the caller rolls back).
     */
    private static int[] move(Model m, Packing p, int[] choice, int k, int best, long gain, List<Integer> rivals,
                              int[] priority) {
        long lost = 0;
        List<Integer> evicted = new ArrayList<>();
        // k leaves the space with a capacity it may hold now (another than best's)
        if (m.entries[k].limited()[choice[k]] >= 0 && !p.remove(k, choice[k])) {
            return null;
        }
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
            return null;
        }
        int[] next = choice.clone();
        next[k] = best;
        Steps freed = new Steps();
        for (int j : evicted) {
            Entry x = m.entries[j];
            freed.add(x.spec().live());
            next[j] = x.fallback();
            settle(p, x, j, next);
        }
        if (evicted.isEmpty()) {
            return next;
        }
        for (int j : priority) {
            Entry x = m.entries[j];
            if (j != k && !evicted.contains(j) && next[j] != x.options()[0] && freed.overlaps(x.spec().live())) {
                int was = next[j];
                if (x.limited()[was] >= 0) {
                    // it holds room elsewhere already: only a move out of a space without a capacity is tried
                    continue;
                }
                settle(p, x, j, next);
                assert next[j] == was || x.cost()[next[j]] < x.cost()[was];
            }
        }
        return next;
    }

    /** Buffer {@code j} (in a space without a capacity) into the first option cheaper than {@code next[j]} that fits. */
    private static void settle(Packing p, Entry x, int j, int[] next) {
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

    /** What buffer {@code j} loses when it leaves its space {@code now} for its fallback. */
    private static long loss(Model m, int j, int now) {
        Entry x = m.entries[j];
        return x.cost()[x.fallback()] - x.cost()[now];
    }
}

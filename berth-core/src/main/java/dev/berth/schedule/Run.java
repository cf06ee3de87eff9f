package dev.berth.schedule;

import dev.berth.arith.Checked;

import java.util.List;

/**
 * The one step function of the schedule model: the state after a set of executed operators
 * (which buffers are live, how many consumers each still has) and the bytes live while one more
 * operator runs, with the best in-place pairs it may take there. The search, the evaluation of a
 * given order and the bounds all go through it.
 */
final class Run {
    private final Graph g;
    private final InPlace level;
    private final boolean[] done;
    private final int[] pendingConsumers;
    private final int[] pendingPreds;
    private long live;
    private int executed;

    Run(Graph g, InPlace level) {
        this.g = g;
        this.level = level;
        done = new boolean[g.ops];
        pendingConsumers = new int[g.reserved.length];
        for (int b = 0; b < pendingConsumers.length; b++) {
            pendingConsumers[b] = g.consumers[b].length;
        }
        pendingPreds = new int[g.ops];
        for (int o = 0; o < g.ops; o++) {
            pendingPreds[o] = g.preds[o].length;
        }
        live = g.initialLive;
    }

    /** Bytes live after the executed operators. */
    long live() {
        return live;
    }

    int executed() {
        return executed;
    }

    boolean done(int o) {
        return done[o];
    }

    /** True when {@code o} has not run and everything it waits for has. */
    boolean ready(int o) {
        return !done[o] && pendingPreds[o] == 0;
    }

    /** True when {@code input} dies at {@code o}: {@code o} is its last consumer still to run. */
    private boolean diesAt(int input) {
        return g.role[input].reusable() && pendingConsumers[input] == 1;
    }

    /** Bytes live while {@code o} runs next, taking the in-place pairs that save the most. */
    long peakDuring(int o) {
        long bytes = Checked.add(live, executed == 0 ? g.unreadInputs : 0);
        for (int w : g.writes[o]) {
            bytes = Checked.add(bytes, g.reserved[w]);
        }
        return Checked.subtract(bytes, savings(o, null));
    }

    /**
     * The most output bytes {@code o} can write over inputs dying at it, each input hosting one
     * output and each output taking one input; the chosen pairs' indices into o's declared pairs
     * are written to {@code chosen} when it is not null (-1 ends the list).
     */
    long savings(int o, int[] chosen) {
        int k = g.pairOut[o].length;
        if (k == 0 || level == InPlace.NONE) {
            if (chosen != null && chosen.length > 0) {
                chosen[0] = -1;
            }
            return 0;
        }
        boolean[] usable = new boolean[k];
        int count = 0;
        for (int j = 0; j < k; j++) {
            usable[j] = level.allows(g.pairReason[o][j]) && diesAt(g.pairIn[o][j]);
            count += usable[j] ? 1 : 0;
        }
        if (count == 0) {
            if (chosen != null) {
                chosen[0] = -1;
            }
            return 0;
        }
        int[] best = new int[k + 1];
        int[] path = new int[k + 1];
        long[] bestValue = {-1};
        match(o, 0, usable, path, 0, 0, best, bestValue);
        if (chosen != null) {
            System.arraycopy(best, 0, chosen, 0, Math.min(best.length, chosen.length));
        }
        return bestValue[0];
    }

    /** Exhaustive matching over o's usable pairs (an operator declares few): pair j taken or not. */
    private void match(int o, int j, boolean[] usable, int[] path, int taken, long value, int[] best, long[] bestValue) {
        int k = usable.length;
        if (j == k) {
            if (value > bestValue[0]) {
                bestValue[0] = value;
                System.arraycopy(path, 0, best, 0, taken);
                best[taken] = -1;
            }
            return;
        }
        if (usable[j] && free(o, j, path, taken)) {
            path[taken] = j;
            match(o, j + 1, usable, path, taken + 1, Checked.add(value, g.reserved[g.pairOut[o][j]]), best, bestValue);
        }
        match(o, j + 1, usable, path, taken, value, best, bestValue);
    }

    private boolean free(int o, int j, int[] path, int taken) {
        for (int t = 0; t < taken; t++) {
            int q = path[t];
            if (g.pairOut[o][q] == g.pairOut[o][j] || g.pairIn[o][q] == g.pairIn[o][j]) {
                return false;
            }
        }
        return true;
    }

    /**
     * True when running {@code o} next leaves no more bytes live than before: its outputs that stay
     * live (someone reads them, or graph outputs) take no more than its inputs that die at it (as
     * {@link #apply} counts them).
     */
    boolean shrinks(int o) {
        long kept = 0;
        for (int w : g.writes[o]) {
            if (g.role[w] == Role.OUTPUT || g.consumers[w].length > 0) {
                kept = Checked.add(kept, g.reserved[w]);
            }
        }
        long freed = 0;
        for (int r : g.reads[o]) {
            if (pendingConsumers[r] == 1 && g.role[r].reusable()) {
                freed = Checked.add(freed, g.reserved[r]);
            }
        }
        return kept <= freed;
    }

    /** Runs {@code o}: its outputs that someone reads (or graph outputs) become live, inputs dying here end. */
    void apply(int o) {
        for (int w : g.writes[o]) {
            if (g.role[w] == Role.OUTPUT || g.consumers[w].length > 0) {
                live = Checked.add(live, g.reserved[w]);
            }
        }
        for (int r : g.reads[o]) {
            if (--pendingConsumers[r] == 0 && g.role[r].reusable()) {
                live = Checked.subtract(live, g.reserved[r]);
            }
        }
        for (int s : g.succs[o]) {
            pendingPreds[s]--;
        }
        done[o] = true;
        executed++;
    }

    /** Undoes {@link #apply} of {@code o}, the last operator applied. */
    void undo(int o) {
        done[o] = false;
        executed--;
        for (int s : g.succs[o]) {
            pendingPreds[s]++;
        }
        for (int r : g.reads[o]) {
            if (pendingConsumers[r]++ == 0 && g.role[r].reusable()) {
                live = Checked.add(live, g.reserved[r]);
            }
        }
        for (int w : g.writes[o]) {
            if (g.role[w] == Role.OUTPUT || g.consumers[w].length > 0) {
                live = Checked.subtract(live, g.reserved[w]);
            }
        }
    }

    /** The peak of running {@code order} (operator indices) from a fresh state, and the pairs it takes. */
    static long peak(Graph g, InPlace level, int[] order, List<Schedule.Pair> pairs) {
        Run run = new Run(g, level);
        // no operator: what the caller gives is all there is
        long peak = order.length == 0 ? Checked.add(run.live, g.unreadInputs) : 0;
        int[] chosen = new int[64];
        for (int o : order) {
            if (!run.ready(o)) {
                throw new IllegalStateException("not an order of " + g.name() + ": " + g.operators().get(o).name());
            }
            peak = Math.max(peak, run.peakDuring(o));
            if (pairs != null) {
                int[] pick = chosen.length > g.pairOut[o].length ? chosen : new int[g.pairOut[o].length + 1];
                run.savings(o, pick);
                for (int t = 0; t < pick.length && pick[t] >= 0; t++) {
                    int j = pick[t];
                    pairs.add(new Schedule.Pair(g.buffers().get(g.pairOut[o][j]).name(),
                            g.buffers().get(g.pairIn[o][j]).name(), g.operators().get(o).name(), g.pairReason[o][j]));
                }
            }
            run.apply(o);
        }
        return peak;
    }
}

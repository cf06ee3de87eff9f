package dev.berth.solve.exact;

import dev.berth.solve.Budget;
import dev.berth.solve.thread.OwnThread;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs several {@link CanonicalSearch}es (one per item order) in rounds: in each round every
 * search gets the same node limit, which doubles from round to round (restarts). The answer of
 * a round is that of the first search, in the given order, that placed everything or proved
 * that nothing fits; the others' answers in that round are ignored.
 *
 * <p>The searches share nothing (each has its own learned failures), so a search's answer in a
 * round depends only on its own earlier rounds. That makes the result the same whether the
 * searches of a round run one after the other or side by side on several threads: with more
 * than one thread, the searches of a round run in parallel, and once search k has its answer
 * the searches after k are cancelled (their answers could not count), while those before k
 * are awaited (theirs would).
 */
final class Portfolio {
    /**
     * The status of the deciding search ({@link CanonicalSearch} constants), which one it was, and
     * the nodes the run counts: every node of the searches up to the deciding one, and of the
     * searches after it only their nodes before the deciding round (what they did in that round
     * is cancelled work, whose amount depends on the threads' timing). So the count is the same
     * on any number of threads. (The rounds' own results carry 0 there; {@link #run} counts.)
     */
    record Result(int status, int search, long nodes) {
        Result(int status, int search) {
            this(status, search, 0);
        }
    }

    private Portfolio() {
    }

    /**
     * The search recurses once per placed item (and once more per sub-problem), so a deep
     * search needs a deeper stack than a thread's default: from this many items the searches
     * run on threads of their own with {@link #STACK_PER_ITEM} bytes of stack an item.
     */
    static final int OWN_STACK_FROM = 2048;
    static final long STACK_PER_ITEM = 1024;
    private static final long STACK_BASE = 4L << 20;

    /** The stack a search of {@code items} items needs: 0 for a thread's default. */
    static long stackFor(int items) {
        return items < OWN_STACK_FROM ? 0 : STACK_BASE + STACK_PER_ITEM * items;
    }

    static Result run(CanonicalSearch[] searches, AtomicBoolean[] cancel, long firstLimit, long maxNodes, int threads,
                      Budget budget) {
        int k = searches.length;
        long limit = k == 1 ? Long.MAX_VALUE : firstLimit;
        long stack = stackFor(searches[0].items());
        ExecutorService pool = threads > 1 && k > 1 ? Executors.newFixedThreadPool(Math.min(threads, k), r -> {
            Thread t = new Thread(null, r, "berth-exact", stack);
            t.setDaemon(true);
            return t;
        }) : null;
        long[] before = new long[k];
        try {
            while (true) {
                for (int i = 0; i < k; i++) {
                    before[i] = searches[i].nodes();
                }
                long done = nodes(searches);
                long roundLimit = limit;
                if (maxNodes != Long.MAX_VALUE && (maxNodes - done) / k < roundLimit) {
                    roundLimit = (maxNodes - done) / k;
                    if (roundLimit < 1) {
                        return new Result(CanonicalSearch.ABORTED, -1, done);
                    }
                }
                Result r = pool != null ? parallel(pool, searches, cancel, roundLimit)
                        : stack == 0 ? sequential(searches, roundLimit) : sequentialOwnStack(searches, roundLimit, stack);
                if (r.status() != CanonicalSearch.ABORTED || roundLimit < limit || budget.exhausted()) {
                    long counted = 0;
                    for (int i = 0; i < k; i++) {
                        counted += r.search() < 0 || i <= r.search() ? searches[i].nodes() : before[i];
                    }
                    if (r.status() == CanonicalSearch.ABORTED && budget.exhausted()) {
                        return new Result(CanonicalSearch.STOPPED, -1, counted);
                    }
                    return new Result(r.status(), r.search(), counted);
                }
                limit = limit > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : limit * 2;
            }
        } finally {
            if (pool != null) {
                for (AtomicBoolean c : cancel) {
                    c.set(true);
                }
                pool.shutdownNow();
            }
        }
    }

    static long nodes(CanonicalSearch[] searches) {
        long t = 0;
        for (CanonicalSearch s : searches) {
            t += s.nodes();
        }
        return t;
    }

    private static Result sequential(CanonicalSearch[] searches, long limit) {
        for (int i = 0; i < searches.length; i++) {
            int r = searches[i].solve(limit);
            if (r != CanonicalSearch.ABORTED) {
                return new Result(r, i);
            }
        }
        return new Result(CanonicalSearch.ABORTED, -1);
    }

    /** {@link #sequential} on a thread with {@code stack} bytes of stack, waited for. */
    private static Result sequentialOwnStack(CanonicalSearch[] searches, long limit, long stack) {
        Result[] out = new Result[1];
        RuntimeException[] failed = new RuntimeException[1];
        Error[] error = new Error[1];
        Thread t = OwnThread.start("berth-exact", stack, () -> {
            try {
                out[0] = sequential(searches, limit);
            } catch (RuntimeException e) {
                failed[0] = e;
            } catch (Error e) {
                error[0] = e;
            }
        });
        // the search polls its budget; it ends soon after the caller's budget does
        OwnThread.join(t);
        if (failed[0] != null) {
            throw new IllegalStateException("search failed", failed[0]);
        }
        if (error[0] instanceof OutOfMemoryError oom) {
            // out of memory on the search's thread is the caller's out of memory, not a failed search
            throw oom;
        }
        if (error[0] != null) {
            throw new IllegalStateException("search failed", error[0]);
        }
        return out[0];
    }

    private static Result parallel(ExecutorService pool, CanonicalSearch[] searches, AtomicBoolean[] cancel, long limit) {
        List<Future<Integer>> results = new ArrayList<>();
        for (int i = 0; i < searches.length; i++) {
            CanonicalSearch s = searches[i];
            results.add(pool.submit(() -> s.solve(limit)));
        }
        try {
            for (int i = 0; i < searches.length; i++) {
                int r = results.get(i).get();
                if (r != CanonicalSearch.ABORTED) {
                    for (int j = i + 1; j < searches.length; j++) {
                        cancel[j].set(true);
                    }
                    for (int j = i + 1; j < searches.length; j++) {
                        results.get(j).get();
                        cancel[j].set(false);
                    }
                    return new Result(r, i);
                }
            }
            return new Result(CanonicalSearch.ABORTED, -1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(CanonicalSearch.STOPPED, -1);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof OutOfMemoryError oom) {
                throw oom; // out of memory in a worker is the caller's out of memory, not a failed search
            }
            throw new IllegalStateException("search failed", e.getCause());
        }
    }
}

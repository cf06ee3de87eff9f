package dev.berth.solve.exact;

import dev.berth.solve.Budget;

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
     * The status of the deciding search ({@link CanonicalSearch} constants), which one it was, the
     * node limit of the last round, and the nodes the run counts: every node of the searches up
     * to the deciding one, and of the searches after it only their nodes before the deciding
     * round (what they did in that round is cancelled work, whose amount depends on the threads'
     * timing). So the count is the same on any number of threads.
     */
    record Result(int status, int search, long nodeLimit, long nodes) {
    }

    private Portfolio() {
    }

    static Result run(CanonicalSearch[] searches, AtomicBoolean[] cancel, long firstLimit, long maxNodes, int threads,
                      Budget budget) {
        int k = searches.length;
        long limit = k == 1 ? Long.MAX_VALUE : firstLimit;
        ExecutorService pool = threads > 1 && k > 1 ? Executors.newFixedThreadPool(Math.min(threads, k), r -> {
            Thread t = new Thread(r, "berth-exact");
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
                        return new Result(CanonicalSearch.ABORTED, -1, limit, done);
                    }
                }
                Result r = pool == null ? sequential(searches, roundLimit) : parallel(pool, searches, cancel, roundLimit);
                if (r.status() != CanonicalSearch.ABORTED || roundLimit < limit || budget.exhausted()) {
                    long counted = 0;
                    for (int i = 0; i < k; i++) {
                        counted += r.search() < 0 || i <= r.search() ? searches[i].nodes() : before[i];
                    }
                    if (r.status() == CanonicalSearch.ABORTED && budget.exhausted()) {
                        return new Result(CanonicalSearch.STOPPED, -1, limit, counted);
                    }
                    return new Result(r.status(), r.search(), limit, counted);
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
                return new Result(r, i, limit, 0);
            }
        }
        return new Result(CanonicalSearch.ABORTED, -1, limit, 0);
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
                    return new Result(r, i, limit, 0);
                }
            }
            return new Result(CanonicalSearch.ABORTED, -1, limit, 0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(CanonicalSearch.STOPPED, -1, limit, 0);
        } catch (ExecutionException e) {
            throw new IllegalStateException("search failed", e.getCause());
        }
    }
}

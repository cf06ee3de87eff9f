package dev.berth.bench;

import dev.berth.schedule.Graph;
import dev.berth.schedule.InPlace;
import dev.berth.schedule.Order;
import dev.berth.schedule.OrderSearch;
import dev.berth.schedule.Schedule;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Operator order on irregular graphs (issue 28's second measured goal): the seeded graphs of
 * {@link IrregularGraphs}, each scheduled by XLA's three memory schedulers ({@link XlaSchedulers})
 * and by Berth's {@link OrderSearch} ({@link Order#BEST}, {@link InPlace#NONE}, its default node
 * budget per segment: bounded by work, never by the clock). Per graph: operators, the peak of live
 * bytes of the file order, of each XLA scheduler's order and the best of those four, Berth's peak,
 * bound and proof, its nodes, its wall time in this process (a figure, not a bound: the search
 * stops on nodes), and Berth's reduction against the file order and against that best. Then the
 * same with the elementwise in-place pairs the generators declare ({@link InPlace#ELEMENTWISE},
 * every order measured with the pairs it allows), and a summary per family.
 * Usage: {@code java -cp benchmarks.jar dev.berth.bench.IrregularSchedules [SEEDS]} (6 by default).
 */
public final class IrregularSchedules {
    /** Seeds per family unless told otherwise. */
    public static final int SEEDS = 6;
    /** The operators up to which the issue asks for a proof within 10 s. */
    public static final int PROVE_UP_TO = 64;

    private IrregularSchedules() {
    }

    /** One graph's row: the file order's, each XLA scheduler's and Berth's peaks, and Berth's search. */
    record Row(IrregularGraphs.Generated graph, long file, long[] xla, Schedule berth, double seconds) {
        long best() {
            long best = file;
            for (long x : xla) {
                best = Math.min(best, x);
            }
            return best;
        }

        int operators() {
            return graph.graph().operators().size();
        }
    }

    /** Schedules {@code gen} at {@code level}: the XLA orders measured there, Berth's search timed. */
    static Row row(IrregularGraphs.Generated gen, InPlace level) {
        Graph g = gen.graph();
        XlaSchedulers.Kind[] kinds = XlaSchedulers.Kind.values();
        long[] xla = new long[kinds.length];
        for (int k = 0; k < kinds.length; k++) {
            xla[k] = XlaSchedulers.run(g, XlaSchedulers.order(g, kinds[k]), level).peak();
        }
        long t0 = System.nanoTime();
        Schedule berth = OrderSearch.search(g, Order.BEST, level);
        double seconds = (System.nanoTime() - t0) / 1e9;
        return new Row(gen, berth.fileLevelPeak(), xla, berth, seconds);
    }

    public static void main(String[] args) {
        int seeds = args.length > 0 ? Integer.parseInt(args[0]) : SEEDS;
        List<IrregularGraphs.Generated> graphs = IrregularGraphs.all(seeds);
        System.out.printf(Locale.ROOT, "%d graphs (%d seeds per family), node budget %,d per segment, peaks in bytes%n%n",
                graphs.size(), seeds, OrderSearch.DEFAULT_NODES);
        System.out.println("No in-place reuse (InPlace.NONE):");
        List<Row> none = table(graphs, InPlace.NONE);
        System.out.println();
        System.out.println("With the elementwise in-place pairs the generators declare (InPlace.ELEMENTWISE; every order with its best pairs):");
        List<Row> elementwise = table(graphs, InPlace.ELEMENTWISE);
        System.out.println();
        summary("none", none);
        summary("elementwise", elementwise);
    }

    private static List<Row> table(List<IrregularGraphs.Generated> graphs, InPlace level) {
        System.out.printf(Locale.ROOT, "%-28s %4s %11s %11s %11s %11s %11s %11s %11s %-7s %9s %7s %8s %8s%n", "graph", "ops", "file",
                "xla list", "xla dfs", "xla post", "best", "berth", "bound", "proof", "nodes", "s", "vs file", "vs best");
        List<Row> rows = new ArrayList<>();
        for (IrregularGraphs.Generated gen : graphs) {
            Row r = row(gen, level);
            rows.add(r);
            Schedule b = r.berth();
            System.out.printf(Locale.ROOT, "%-28s %4d %,11d %,11d %,11d %,11d %,11d %,11d %,11d %-7s %,9d %7.3f %7.1f%% %7.1f%%%n",
                    gen.graph().name(), r.operators(), r.file(), r.xla()[0], r.xla()[1], r.xla()[2], r.best(), b.peak(), b.bound(),
                    b.proved() ? "optimal" : "open", b.nodes(), r.seconds(), reduction(r.file(), b.peak()),
                    reduction(r.best(), b.peak()));
        }
        return rows;
    }

    /** Per family and overall: graphs, Berth above the best (should be none), proofs and time up to 64 operators, mean reductions. */
    private static void summary(String level, List<Row> rows) {
        Map<String, List<Row>> families = new LinkedHashMap<>();
        for (Row r : rows) {
            families.computeIfAbsent(r.graph().family(), f -> new ArrayList<>()).add(r);
        }
        families.put("all", rows);
        System.out.printf(Locale.ROOT, "Summary, in-place %s:%n", level);
        System.out.printf(Locale.ROOT, "%-18s %6s %7s %12s %14s %9s %13s %13s %13s%n", "family", "graphs", "ops", "above best",
                "proved <=64", "max s", "proved >64", "mean vs file", "mean vs best");
        for (Map.Entry<String, List<Row>> e : families.entrySet()) {
            List<Row> rs = e.getValue();
            int small = 0;
            int smallProved = 0;
            int large = 0;
            int largeProved = 0;
            int above = 0;
            double maxSeconds = 0;
            double vsFile = 0;
            double vsBest = 0;
            int minOps = Integer.MAX_VALUE;
            int maxOps = 0;
            for (Row r : rs) {
                minOps = Math.min(minOps, r.operators());
                maxOps = Math.max(maxOps, r.operators());
                above += r.berth().peak() > r.best() ? 1 : 0;
                if (r.operators() <= PROVE_UP_TO) {
                    small++;
                    smallProved += r.berth().proved() ? 1 : 0;
                    maxSeconds = Math.max(maxSeconds, r.seconds());
                } else {
                    large++;
                    largeProved += r.berth().proved() ? 1 : 0;
                }
                vsFile += reduction(r.file(), r.berth().peak());
                vsBest += reduction(r.best(), r.berth().peak());
            }
            System.out.printf(Locale.ROOT, "%-18s %6d %7s %12d %14s %9s %13s %12.1f%% %12.1f%%%n", e.getKey(), rs.size(),
                    minOps == maxOps ? Integer.toString(minOps) : minOps + "-" + maxOps, above,
                    small == 0 ? "-" : smallProved + " of " + small, small == 0 ? "-" : String.format(Locale.ROOT, "%.3f", maxSeconds),
                    large == 0 ? "-" : largeProved + " of " + large, vsFile / rs.size(), vsBest / rs.size());
        }
    }

    /** How much lower {@code peak} is than {@code reference}, in percent of the reference. */
    static double reduction(long reference, long peak) {
        return reference == 0 ? 0 : 100.0 * (reference - peak) / reference;
    }
}

package dev.berth.cli;

import dev.berth.arith.Sizes;
import dev.berth.failure.Require;
import dev.berth.text.Visible;
import dev.berth.artifact.Optimality;
import dev.berth.artifact.Plan;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.failure.BerthException;
import dev.berth.failure.Failure;
import dev.berth.io.MiniMallocCsv;
import dev.berth.arith.Checked;
import dev.berth.plan.Effort;
import dev.berth.sweep.LiveBytes;
import dev.berth.plan.Planner;
import dev.berth.solve.Progress;
import dev.berth.solve.SolverChoice;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.FixedRegion;
import dev.berth.workload.Workload;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** {@code berth bench}: benchmark suites. */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Run a benchmark suite and print its table.",
        subcommands = {BenchCommand.MiniMalloc.class, BenchCommand.Idealloc.class},
        footer = {"", "Examples:", "  berth bench minimalloc testdata/benchmarks/minimalloc --time-limit 60",
                "  berth bench idealloc testdata/benchmarks/idealloc testdata/benchmarks/minimalloc"})
final class BenchCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a suite is needed: minimalloc or idealloc");
    }

    /**
     * The .csv files of {@code d} (in its subdirectories too when {@code deep}), sorted, or
     * {@code d} itself when it is a file; none is {@code invalid-input}.
     */
    static List<Path> csvFiles(Path d, boolean deep) throws IOException {
        if (Files.isRegularFile(d)) {
            return List.of(d);
        }
        if (!Files.isDirectory(d)) {
            throw BerthException.invalid("DIR", d.toString(), d + ": no such directory");
        }
        List<Path> out;
        try (Stream<Path> s = deep ? Files.walk(d) : Files.list(d)) {
            out = new ArrayList<>(s.filter(f -> Files.isRegularFile(f) && CsvWorkloads.isCsv(f)).sorted().toList());
        }
        if (out.isEmpty()) {
            throw BerthException.invalid("DIR", d.toString(), d + ": no .csv files");
        }
        return out;
    }

    /**
     * One instance's row on stderr as it is planned (the table comes on stdout at the end), names
     * made visible: progress, so only when stderr is a terminal and without {@code -q} (a log of
     * {@code 2>&1} holds the table once).
     */
    static void progress(PrintWriter err, String[] row, boolean quiet) {
        if (quiet || !Terminal.stderrIsTerminal()) {
            return;
        }
        err.println(Visible.text(String.join("  ", row)));
        err.flush();
    }

    /**
     * The search options both suites take, with the same meaning and defaults ({@code --solver}
     * is each suite's own: their defaults differ).
     */
    static final class Search {
        @Option(names = "--time-limit", paramLabel = "SECONDS", defaultValue = "60",
                description = "Time limit per instance, in seconds. Default: ${DEFAULT-VALUE}.")
        double timeLimit;

        @Option(names = "--minimize", description = "Minimise each instance's height (auto or exact) with the larger "
                + "work budget of plan --minimize, and show the proved optimum or the bracket left.")
        boolean minimize;

        @Mixin
        SearchNodesOption searchNodes = new SearchNodesOption();

        @Mixin
        QuietOption quiet = new QuietOption();

        @Option(names = "--threads", paramLabel = "N", defaultValue = "0",
                description = "Threads the search may use: the exact solver's portfolio, and best fit beside greedy "
                        + "(0: one per processor; the answers do not depend on it). Default: ${DEFAULT-VALUE}.")
        int threads;

        /** The checks every suite makes of its options; returns the planner's options for {@code solver}. */
        Planner.Options options(String solver, Effort withoutMinimize) {
            SearchOptions.timeLimit(timeLimit);
            if (threads < 0) {
                throw Require.invalid("--threads", Integer.toString(threads), "must be 0 or more");
            }
            SolverChoice choice = SearchOptions.solver(solver, minimize);
            searchNodes.check(choice);
            return searchNodes.applyTo(new Planner.Options(choice, minimize ? Effort.MINIMIZE : withoutMinimize,
                    timeLimit, threads, Progress.NONE));
        }

        /** The options as the table's heading line repeats them. */
        String describe(SolverChoice choice) {
            return " --solver " + choice.id() + (minimize ? " --minimize" : "")
                    + searchNodes.describe() + " --time-limit " + timeLimit
                    + (choice.searches() ? " --threads " + threads + " (" + (threads > 0 ? threads
                    : Runtime.getRuntime().availableProcessors()) + " used)" : "");
        }
    }

    /**
     * {@code berth bench idealloc DIR...}: every MiniMalloc CSV under the directories (idealloc's
     * instances, MiniMalloc's) planned with no capacity to meet, so that the height is what counts:
     * one JVM, each instance through the planner (admission and validator included). Prints per
     * instance the buffers, the proved lower bound, the height, their ratio, the proof or the
     * bracket left, and the time.
     */
    @Command(name = "idealloc", mixinStandardHelpOptions = true,
            description = "Plan every MiniMalloc CSV under the directories in an unbounded space; print buffers, lower "
                    + "bound, height, height / lower bound, proof and time per instance.",
            footer = {"", "Examples:", "  berth bench idealloc testdata/benchmarks/idealloc testdata/benchmarks/minimalloc",
                    "  berth bench idealloc testdata/benchmarks/idealloc/iopddl/Y_1.csv --solver best-fit"})
    static final class Idealloc implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(arity = "1..*", paramLabel = "DIR", description = "Directories of .csv files (searched with their "
                + "subdirectories), or .csv files.")
        List<Path> dirs;

        @Option(names = "--solver", paramLabel = "SOLVER", defaultValue = "auto",
                description = "auto, greedy, best-fit, skyline or exact. Default: ${DEFAULT-VALUE}.")
        String solver;

        @Mixin
        Search search;

        @Override
        public Integer call() throws IOException {
            Planner.Options options = search.options(solver, Effort.DEFAULT);
            SolverChoice choice = options.solver();
            List<Path[]> instances = new ArrayList<>();
            for (Path d : dirs) {
                Path base = Files.isDirectory(d) ? d.toAbsolutePath().getParent() : null;
                for (Path f : csvFiles(d, true)) {
                    instances.add(new Path[]{f, base == null ? f.getFileName() : base.relativize(f.toAbsolutePath())});
                }
            }
            Target t = MiniMallocCsv.target(Long.MAX_VALUE);
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[]{"instance", "buffers", "lower bound", "height", "height/lower bound", "solver",
                    "proof", "time (s)"});
            int optimal = 0;
            double totalTime = 0;
            PrintWriter err = spec.commandLine().getErr();
            for (Path[] instance : instances) {
                Workload w = MiniMallocCsv.read(instance[0]).workload(t);
                long t0 = System.nanoTime();
                Plan plan = Planner.plan(t, w, options).plan();
                double seconds = (System.nanoTime() - t0) / 1e9;
                totalTime += seconds;
                SpaceMetrics m = plan.spaces().get(MiniMallocCsv.SPACE);
                Optimality o = m.optimality().orElseThrow();
                optimal += o.optimal() ? 1 : 0;
                String[] row = {instance[1].toString(), Integer.toString(plan.buffers().size()),
                        Long.toString(o.lowerBound()), Long.toString(m.highWater()),
                        String.format(Locale.ROOT, "%.4f", o.lowerBound() == 0 ? 1.0
                                : (double) m.highWater() / o.lowerBound()), o.solver().id(), Tables.proof(o, m)
                        + (o.timeLimited() ? " (clock)" : ""), String.format(Locale.ROOT, "%.3f", seconds)};
                rows.add(row);
                progress(err, row, search.quiet.quiet);
            }
            PrintWriter out = spec.commandLine().getOut();
            out.println();
            out.println("berth bench idealloc" + search.describe(choice));
            out.print(Tables.render(rows));
            out.println(String.format(Locale.ROOT, "total: %d instances planned and validated, %d proved optimal, %.3f s",
                    instances.size(), optimal, totalTime));
            return 0;
        }
    }

    /**
     * {@code berth bench minimalloc DIR}: every MiniMalloc CSV of DIR at its capacity (the number
     * after the last dot of its name, unless {@code --capacity} is given), one JVM, one solver,
     * each instance planned by the planner (so every placement passed the admission check and the
     * plan validator before it counts). Without {@code --minimize} a solver only has to fit the
     * capacity (the heuristics are judged by their own height, in a space large enough for it);
     * with it, the planner minimises each instance with the larger work budget and the table
     * shows the proved optimum or the bracket left.
     */
    @Command(name = "minimalloc", mixinStandardHelpOptions = true,
            description = "Plan MiniMalloc CSV instances at their capacity; print buffers, capacity, peak live, "
                    + "solved, height, proof and time per instance and the total.",
            footer = {"", "Examples:", "  berth bench minimalloc testdata/benchmarks/minimalloc --time-limit 60",
                    "  berth bench minimalloc testdata/benchmarks/minimalloc --minimize --time-limit 60"})
    static final class MiniMalloc implements Callable<Integer> {
        private static final Pattern CAPACITY = Pattern.compile(".*\\.(\\d+)\\.csv");

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "DIR", description = "A directory of .csv files (or one .csv file).")
        Path dir;

        @Option(names = "--capacity", paramLabel = "SIZE",
                description = "Capacity for every instance (default: the number in each file name, as in A.1048576.csv).")
        String capacity;

        @Option(names = "--solver", paramLabel = "SOLVER", defaultValue = "exact",
                description = "auto, greedy, best-fit, skyline or exact. Default: ${DEFAULT-VALUE}.")
        String solver;

        @Mixin
        Search search;

        @Override
        public Integer call() throws IOException {
            Planner.Options options = search.options(solver, Effort.FIT);
            SolverChoice choice = options.solver();
            List<Path> files = csvFiles(dir, false);
            List<Long> capacities = new ArrayList<>();
            for (Path f : files) {
                capacities.add(capacityOf(f));
            }
            PrintWriter out = spec.commandLine().getOut();
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[]{"instance", "buffers", "capacity", "peak live", "solved", "height", "height/peak",
                    "proof", "time (s)"});
            int solved = 0;
            int optimal = 0;
            double totalTime = 0;
            for (int i = 0; i < files.size(); i++) {
                Path f = files.get(i);
                long cap = capacities.get(i);
                // a heuristic is judged by its own height: plan it where any height fits
                boolean heuristic = !choice.searches();
                Target t = MiniMallocCsv.target(heuristic ? Long.MAX_VALUE : cap);
                Workload w = MiniMallocCsv.read(f).workload(t);
                long t0 = System.nanoTime();
                String[] row;
                try {
                    Plan plan = Planner.plan(t, w, options).plan();
                    double seconds = (System.nanoTime() - t0) / 1e9;
                    totalTime += seconds;
                    SpaceMetrics m = plan.spaces().get(MiniMallocCsv.SPACE);
                    boolean fits = m.highWater() <= cap;
                    solved += fits ? 1 : 0;
                    Optimality o = m.optimality().orElseThrow();
                    optimal += o.optimal() ? 1 : 0;
                    row = new String[]{f.getFileName().toString(), Integer.toString(plan.buffers().size()),
                            Long.toString(cap), Long.toString(m.peakLive()), fits ? "yes" : "no (over capacity)",
                            Long.toString(m.highWater()), String.format(Locale.ROOT, "%.3f",
                            m.peakLive() == 0 ? 1.0 : (double) m.highWater() / m.peakLive()), Tables.proof(o, m),
                            String.format(Locale.ROOT, "%.3f", seconds)};
                } catch (BerthException e) {
                    if (!(e.failure() instanceof Failure.CapacityExceeded c)) {
                        throw e;
                    }
                    double seconds = (System.nanoTime() - t0) / 1e9;
                    totalTime += seconds;
                    String why = c.provablyInfeasible() || !c.infeasibleSubset().isEmpty()
                            || e.getMessage().contains("proved that no placement") ? "no (proved infeasible)"
                            : "no (not placed)";
                    row = new String[]{f.getFileName().toString(), Integer.toString(w.buffers().size()
                            + w.fixed().size()), Long.toString(cap), Long.toString(peakLive(w)), why, "-", "-", "-",
                            String.format(Locale.ROOT, "%.3f", seconds)};
                }
                rows.add(row);
                progress(spec.commandLine().getErr(), row, search.quiet.quiet);
            }
            out.println();
            out.println("berth bench minimalloc " + Visible.text(dir.toString()) + search.describe(choice));
            out.print(Tables.render(rows));
            out.println(String.format(Locale.ROOT, "total: %d of %d solved and validated%s, %.3f s", solved, files.size(),
                    search.minimize ? ", " + optimal + " proved optimal" : "", totalTime));
            return 0;
        }

        /** The most bytes live at one step (sizes rounded up to their alignment; fixed rows exact), for a failed plan. */
        private static long peakLive(Workload w) {
            int n = w.buffers().size() + w.fixed().size();
            int[] first = new int[n];
            int[] last = new int[n];
            long[] reserved = new long[n];
            int k = 0;
            for (BufferSpec b : w.buffers()) {
                first[k] = b.live().first();
                last[k] = b.live().last();
                reserved[k++] = Checked.alignUp(b.size(), b.alignment());
            }
            for (FixedRegion r : w.fixed()) {
                first[k] = r.live().first();
                last[k] = r.live().last();
                reserved[k++] = r.size();
            }
            return LiveBytes.peak(first, last, reserved).bytes();
        }


        private long capacityOf(Path f) {
            if (capacity != null) {
                return Sizes.parse(capacity, "--capacity");
            }
            Matcher m = CAPACITY.matcher(f.getFileName().toString());
            if (!m.matches()) {
                throw BerthException.invalid("DIR", f.toString(), f + ": no capacity in the file name (NAME.CAPACITY.csv); "
                        + "give --capacity");
            }
            return Sizes.parse(m.group(1), f.toString());
        }
    }
}

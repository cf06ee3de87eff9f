package dev.berth.cli;

import dev.berth.failure.BerthException;
import dev.berth.io.MiniMallocCsv;
import dev.berth.plan.InvalidPlanException;
import dev.berth.plan.PlanFromOffsets;
import dev.berth.plan.PlanResult;
import dev.berth.solve.Budget;
import dev.berth.solve.heuristic.HeuristicSolver;
import dev.berth.solve.Outcome;
import dev.berth.solve.skyline.SkylineSolver;
import dev.berth.solve.Solver;
import dev.berth.solve.SpaceProblem;
import dev.berth.solve.exact.ExactSolver;
import dev.berth.solve.exact.Minimizer;
import dev.berth.target.Target;
import dev.berth.workload.Workload;
import picocli.CommandLine;
import picocli.CommandLine.Command;
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
        subcommands = {BenchCommand.MiniMalloc.class},
        footer = {"", "Example:", "  berth bench minimalloc testdata/benchmarks/minimalloc --time-limit 60"})
final class BenchCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a suite is needed: minimalloc");
    }

    /**
     * {@code berth bench minimalloc DIR}: every MiniMalloc CSV of DIR at its capacity (the number
     * after the last dot of its name, unless {@code --capacity} is given), one JVM, one solver.
     * A placement counts as solved only after it passed the admission check and the plan
     * validator.
     */
    @Command(name = "minimalloc", mixinStandardHelpOptions = true,
            description = "Solve MiniMalloc CSV instances at their capacity; print buffers, capacity, lower bound, "
                    + "solved, height, time per instance and the total.",
            footer = {"", "Example:", "  berth bench minimalloc testdata/benchmarks/minimalloc --time-limit 60"})
    static final class MiniMalloc implements Callable<Integer> {
        private static final Pattern CAPACITY = Pattern.compile(".*\\.(\\d+)\\.csv");

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "DIR", description = "A directory of .csv files (or one .csv file).")
        Path dir;

        @Option(names = "--time-limit", paramLabel = "SECONDS", defaultValue = "60",
                description = "Time limit per instance, in seconds. Default: ${DEFAULT-VALUE}.")
        double timeLimit;

        @Option(names = "--capacity", paramLabel = "SIZE",
                description = "Capacity for every instance (default: the number in each file name, as in A.1048576.csv).")
        String capacity;

        @Option(names = "--solver", paramLabel = "SOLVER", defaultValue = "exact",
                description = "exact, best-fit, greedy or skyline (repeated skyline dives, a heuristic). Default: ${DEFAULT-VALUE}.")
        String solver;

        @Option(names = "--threads", paramLabel = "N", defaultValue = "0",
                description = "Threads of the exact solver's portfolio (0: one per processor; the answers do not "
                        + "depend on it). Default: ${DEFAULT-VALUE}.")
        int threads;

        @Override
        public Integer call() throws IOException {
            if (!(timeLimit > 0) || Double.isInfinite(timeLimit)) {
                throw BerthException.invalid("--time-limit", Double.toString(timeLimit),
                        "--time-limit: must be a positive number of seconds");
            }
            if (threads < 0) {
                throw BerthException.invalid("--threads", Integer.toString(threads), "--threads: must be 0 or more");
            }
            Solver s = switch (solver) {
                case "exact" -> new ExactSolver(ExactSolver.Settings.defaults().withThreads(threads));
                case "best-fit" -> HeuristicSolver.bestFit();
                case "greedy" -> HeuristicSolver.greedyBySize();
                case "skyline" -> new SkylineSolver();
                default -> throw BerthException.invalid("--solver", solver, "--solver: '" + solver
                        + "' is not one of exact, best-fit, greedy, skyline");
            };
            List<Path> files = files(dir);
            List<Long> capacities = new ArrayList<>();
            for (Path f : files) {
                capacities.add(capacityOf(f));
            }
            PrintWriter out = spec.commandLine().getOut();
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[]{"instance", "buffers", "capacity", "lower bound", "solved", "height", "height/lb",
                    "time (s)"});
            int solved = 0;
            double totalTime = 0;
            for (int i = 0; i < files.size(); i++) {
                Path f = files.get(i);
                long cap = capacities.get(i);
                MiniMallocCsv.Document doc = MiniMallocCsv.read(f);
                Target t = MiniMallocCsv.target(cap);
                Workload w = doc.workload(t);
                SpaceProblem p = PlanFromOffsets.problem(t, w, MiniMallocCsv.SPACE);
                long lb = Minimizer.lowerBound(p);
                long t0 = System.nanoTime();
                Outcome o = s.solve(p, Budget.seconds(timeLimit));
                double seconds = (System.nanoTime() - t0) / 1e9;
                totalTime += seconds;
                String verdict;
                String height = "-";
                String ratio = "-";
                if (o instanceof Outcome.Solved sol) {
                    height = Long.toString(sol.height());
                    ratio = String.format(Locale.ROOT, "%.3f", lb == 0 ? 1.0 : (double) sol.height() / lb);
                    verdict = sol.height() > cap ? "no (over capacity)" : validated(t, w, sol);
                    if (verdict.equals("yes")) {
                        solved++;
                    }
                } else if (o instanceof Outcome.Infeasible) {
                    verdict = "no (proved infeasible)";
                } else {
                    verdict = "no (time limit)";
                }
                String[] row = {f.getFileName().toString(), Integer.toString(p.size()), Long.toString(cap),
                        Long.toString(lb), verdict, height, ratio, String.format(Locale.ROOT, "%.3f", seconds)};
                rows.add(row);
                // progress on stderr; the table on stdout at the end
                PrintWriter err = spec.commandLine().getErr();
                err.println(String.join("  ", row));
                err.flush();
            }
            out.println();
            out.println("berth bench minimalloc " + dir + " --solver " + solver + " --time-limit " + timeLimit
                    + (solver.equals("exact") ? " --threads " + threads + " (" + (threads > 0 ? threads
                    : Runtime.getRuntime().availableProcessors()) + " used)" : ""));
            out.print(Tables.render(rows));
            out.println(String.format(Locale.ROOT, "total: %d of %d solved and validated, %.3f s", solved, files.size(),
                    totalTime));
            return 0;
        }

        private static String validated(Target t, Workload w, Outcome.Solved sol) {
            try {
                PlanResult r = PlanFromOffsets.plan(t, w, MiniMallocCsv.SPACE, sol.offsets(), "bench");
                return r.verdict().valid() ? "yes" : "no (invalid)";
            } catch (BerthException | InvalidPlanException e) {
                return "no (invalid: " + e.getMessage() + ")";
            }
        }

        private List<Path> files(Path d) throws IOException {
            if (Files.isRegularFile(d)) {
                return List.of(d);
            }
            if (!Files.isDirectory(d)) {
                throw BerthException.invalid("DIR", d.toString(), d + ": no such directory");
            }
            List<Path> out;
            try (Stream<Path> s = Files.list(d)) {
                out = new ArrayList<>(s.filter(CsvWorkloads::isCsv).sorted().toList());
            }
            if (out.isEmpty()) {
                throw BerthException.invalid("DIR", d.toString(), d + ": no .csv files");
            }
            return out;
        }

        private long capacityOf(Path f) {
            if (capacity != null) {
                return dev.berth.arith.Sizes.parse(capacity, "--capacity");
            }
            Matcher m = CAPACITY.matcher(f.getFileName().toString());
            if (!m.matches()) {
                throw BerthException.invalid("DIR", f.toString(), f + ": no capacity in the file name (NAME.CAPACITY.csv); "
                        + "give --capacity");
            }
            return dev.berth.arith.Sizes.parse(m.group(1), f.toString());
        }
    }
}

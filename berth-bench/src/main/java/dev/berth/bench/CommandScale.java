package dev.berth.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The whole command at scale, measured as a ratio that carries from one machine to the next
 * (issue 29): each seeded workload file ({@link WorkloadFiles}) is planned by
 * {@code berth plan FILE -o plan.json} as its own process and, in the same run, alternating with
 * it, read by the reference {@code python3 -c 'import json; json.load(open(FILE))'} (a C parser
 * building every object of the same file). Wall time, CPU time (user + system) and peak resident
 * memory of each process come from {@code /usr/bin/time}; the table gives the median of the runs
 * (5 by default) of each and the ratio of the medians' wall times (the goal's measure), and of
 * their CPU times: on a machine busy with other work, the wall ratio measures the contention as
 * much as the command (the JVM uses both cores, the reference one), the CPU ratio less so.
 *
 * <p>Start-up is measured the same way: a one-buffer plan against {@code java -version}, both
 * through the same JVM. Workloads: {@code plain} (3 buffers starting per step, as ONNX models of
 * many small operators give, in {@code global}), {@code candidates} (the same, every buffer a
 * candidate for the local {@code sram} before {@code global}, 1 to 8 accesses: Berth chooses the
 * space) and {@code tiled} (n small buffers in {@code sram} and one tiled through it).
 *
 * <p>Every berth run must exit 0 and write the same plan bytes as the first, unless the plan says
 * the clock stopped a search (the table says when).
 *
 * <p>Usage: {@code java -cp benchmarks.jar dev.berth.bench.CommandScale BERTH [--runs N]
 * [KIND:BUFFERS...]} (BERTH: berth.jar, or the {@code berth} launcher; default
 * {@code plain:10000 plain:100000 plain:1000000 candidates:10000 tiled:100000}).
 */
public final class CommandScale {
    private static final Path TIME = Path.of("/usr/bin/time");
    private static final Pattern CLOCK = Pattern.compile("\"timeLimited\"\\s*:\\s*true");

    private CommandScale() {
    }

    /** What {@code /usr/bin/time} measured of one process. */
    record Run(double wall, double cpu, double mb) {
    }

    /** The medians of several runs of one command. */
    record Medians(double wall, double cpu, double mb) {
        static Medians of(List<Run> runs) {
            return new Medians(median(runs.stream().mapToDouble(Run::wall).toArray()),
                    median(runs.stream().mapToDouble(Run::cpu).toArray()),
                    median(runs.stream().mapToDouble(Run::mb).toArray()));
        }
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    public static void main(String[] args) throws IOException, InterruptedException, NoSuchAlgorithmException {
        if (args.length < 1) {
            System.err.println("usage: CommandScale BERTH [--runs N] [plain|candidates|tiled:BUFFERS...]");
            System.exit(2);
        }
        if (!Files.isExecutable(TIME)) {
            System.err.println(TIME + " is needed to measure peak memory (apt-get install time)");
            System.exit(2);
        }
        Path berth = Path.of(args[0]);
        int runs = 5;
        List<String> workloads = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals("--runs")) {
                runs = Integer.parseInt(args[++i]);
            } else {
                workloads.add(args[i]);
            }
        }
        if (workloads.isEmpty()) {
            workloads = List.of("plain:10000", "plain:100000", "plain:1000000", "candidates:10000", "tiled:100000");
        }
        Path dir = Files.createTempDirectory("berth-scale");
        try {
            // start-up: a one-buffer plan against java -version, alternating
            Path one = dir.resolve("one.json");
            WorkloadFiles.write(one, 1, WorkloadFiles.SEED, WorkloadFiles.PER_STEP);
            List<Run> plans = new ArrayList<>();
            List<Run> versions = new ArrayList<>();
            String load = load();
            for (int r = 0; r < runs; r++) {
                plans.add(berth(berth, one, dir, new String[1]));
                versions.add(time(List.of("java", "-version"), dir));
            }
            Medians startPlan = Medians.of(plans);
            Medians startJava = Medians.of(versions);
            double startup = startPlan.wall() - startJava.wall();
            System.out.println("| command | runs | median wall (s) | median CPU (s) | median peak RSS (MB) |");
            System.out.println("| --- | ---: | ---: | ---: | ---: |");
            System.out.println(String.format(Locale.ROOT, "| `berth plan` of one buffer | %d | %.2f | %.2f | %.0f |",
                    runs, startPlan.wall(), startPlan.cpu(), startPlan.mb()));
            System.out.println(String.format(Locale.ROOT, "| `java -version` | %d | %.2f | %.2f | %.0f |",
                    runs, startJava.wall(), startJava.cpu(), startJava.mb()));
            System.out.println(String.format(Locale.ROOT,
                    "%nStart-up: a one-buffer plan takes %.2f s more than `java -version` (goal <= 0.25 s: %s; "
                            + "load average %s, %s).%n", startup, startup <= 0.25 ? "met" : "not met", load, load()));
            System.out.println("| workload | buffers | file (MB) | runs | berth wall (s) | berth CPU (s) | berth RSS (MB) "
                    + "| json.load wall (s) | json.load CPU (s) | json.load RSS (MB) | ratio (wall) | ratio (CPU) | goal | met "
                    + "| same plan every run | load average |");
            System.out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | --- | --- |");
            for (String w : workloads) {
                String[] kn = w.split(":");
                String kind = kn[0];
                int n = Integer.parseInt(kn[1]);
                Path file = dir.resolve(kind + n + ".json");
                switch (kind) {
                    case "plain" -> WorkloadFiles.write(file, n, WorkloadFiles.SEED, WorkloadFiles.PER_STEP);
                    case "candidates" -> WorkloadFiles.writeCandidates(file, n);
                    case "tiled" -> WorkloadFiles.writeTiled(file, n);
                    default -> throw new IllegalArgumentException("workload kind plain, candidates or tiled, not " + kind);
                }
                List<Run> b = new ArrayList<>();
                List<Run> py = new ArrayList<>();
                String[] digest = new String[1];
                boolean clock = false;
                boolean same = true;
                Files.deleteIfExists(dir.resolve("clock"));
                String before = load();
                for (int r = 0; r < runs; r++) {
                    String previous = digest[0];
                    b.add(berth(berth, file, dir, digest));
                    clock |= Files.exists(dir.resolve("clock"));
                    if (previous != null && !previous.equals(digest[0])) {
                        same = false;
                        if (!clock) {
                            throw new IllegalStateException(w + ": run " + r + " wrote another plan than run 0, "
                                    + "and neither says the clock stopped a search");
                        }
                    }
                    py.add(time(List.of("python3", "-c", "import json, sys; json.load(open(sys.argv[1]))",
                            file.toString()), dir));
                }
                Medians mb = Medians.of(b);
                Medians mp = Medians.of(py);
                double ratio = mb.wall() / mp.wall();
                String goal;
                boolean met;
                if (kind.equals("plain") && n >= 1_000_000) {
                    goal = "<= 2.0 x, <= 1536 MB";
                    met = ratio <= 2.0 && mb.mb() <= 1536;
                } else if (kind.equals("plain") && n >= 100_000) {
                    goal = "<= 2.0 x";
                    met = ratio <= 2.0;
                } else if (kind.equals("plain") && n >= 10_000) {
                    goal = String.format(Locale.ROOT, "<= one buffer + 1 s (%.2f s)", startPlan.wall() + 1);
                    met = mb.wall() <= startPlan.wall() + 1;
                } else {
                    goal = "-";
                    met = true;
                }
                String row = String.format(Locale.ROOT,
                        "| %s | %,d | %.1f | %d | %.2f | %.2f | %.0f | %.2f | %.2f | %.0f | %.2f | %.2f | %s | %s | %s | %s, %s |",
                        kind, n, Files.size(file) / 1e6, runs, mb.wall(), mb.cpu(), mb.mb(), mp.wall(), mp.cpu(), mp.mb(),
                        ratio, mb.cpu() / mp.cpu(), goal, goal.equals("-") ? "-" : met ? "yes" : "no",
                        same ? (clock ? "yes (the clock stopped a search)" : "yes") : "no (the clock stopped a search)",
                        before, load());
                System.out.println(row);
                System.err.println(row);
                Files.delete(file);
            }
        } finally {
            try (var s = Files.list(dir)) {
                for (Path f : s.toList()) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(dir);
        }
    }

    /**
     * Runs {@code berth plan FILE -o plan.json}; puts the plan's SHA-256 into {@code digest[0]} and
     * leaves a file {@code clock} in {@code dir} when the plan says the clock stopped a search.
     */
    private static Run berth(Path berth, Path file, Path dir, String[] digest)
            throws IOException, InterruptedException, NoSuchAlgorithmException {
        Path plan = dir.resolve("plan.json");
        Run r = time(BerthProcess.command(berth, "plan", file.toString(), "-o", plan.toString()), dir);
        byte[] bytes = Files.readAllBytes(plan);
        if (CLOCK.matcher(new String(bytes, StandardCharsets.UTF_8)).find()) {
            Files.writeString(dir.resolve("clock"), "");
        }
        digest[0] = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        Files.delete(plan);
        return r;
    }

    /** Runs {@code cmd} under {@code /usr/bin/time}; a non-zero exit is an error naming the command. */
    private static Run time(List<String> cmd, Path dir) throws IOException, InterruptedException {
        Path times = dir.resolve("time.txt");
        Path err = dir.resolve("err.txt");
        List<String> full = new ArrayList<>(List.of(TIME.toString(), "-f", "%e %U %S %M", "-o", times.toString()));
        full.addAll(cmd);
        Process p = new ProcessBuilder(full).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(err.toFile()).start();
        int exit = p.waitFor();
        if (exit != 0) {
            throw new IllegalStateException(String.join(" ", full) + " exited " + exit + ": " + Files.readString(err));
        }
        String[] lines = Files.readString(times).trim().split("\n");
        String[] t = lines[lines.length - 1].trim().split("\\s+");
        return new Run(Double.parseDouble(t[0]), Double.parseDouble(t[1]) + Double.parseDouble(t[2]),
                Long.parseLong(t[3]) / 1024.0);
    }

    /** The 1-minute load average now. */
    static String load() throws IOException {
        return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    }
}

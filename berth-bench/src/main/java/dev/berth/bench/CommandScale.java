package dev.berth.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * The whole command at scale, as a user runs it: seeded ONNX-like workload files
 * ({@link WorkloadFiles}: 3 buffers starting per step, seed 7, in space {@code global} of the
 * default target {@code npu-ref}) of 10^4, 10^5 and 10^6 buffers, each
 * planned by {@code berth plan FILE -o plan.json} (the launcher, or {@code java -jar berth.jar}) as its own process. Wall time and
 * peak resident memory come from {@code /usr/bin/time} (the kernel's maximum resident set size of
 * the process, JVM included); the median of 5 runs (3 at 10^6). Every run must exit 0 and write
 * the same plan bytes as the first, unless the plan says the clock stopped a search (the
 * table says when).
 *
 * <p>With {@code --tiled}, the files are {@link WorkloadFiles#writeTiled}'s instead: n small buffers
 * in {@code sram} and one tiled through it (no goal of its own; the tiling phase was quadratic in
 * the buffers of the space it tiles through until it loaded them in one batch, checked by one sweep).
 *
 * <p>Usage: {@code java -cp benchmarks.jar dev.berth.bench.CommandScale BERTH [--tiled] [buffers...]} (BERTH: berth.jar, or the {@code berth} launcher).
 */
public final class CommandScale {
    private static final Path TIME = Path.of("/usr/bin/time");

    private CommandScale() {
    }

    /** The goals of issue 14: wall seconds and peak MB by size (0: none). */
    private static String goal(int n) {
        return n >= 1_000_000 ? "<= 10 s, <= 1536 MB" : n >= 100_000 ? "<= 2 s" : n >= 10_000 ? "<= 1 s" : "-";
    }

    private static boolean met(int n, double wall, double mb) {
        return n >= 1_000_000 ? wall <= 10 && mb <= 1536 : n >= 100_000 ? wall <= 2 : n < 10_000 || wall <= 1;
    }

    public static void main(String[] args) throws IOException, InterruptedException, NoSuchAlgorithmException {
        if (args.length < 1) {
            System.err.println("usage: CommandScale BERTH_JAR [--tiled] [buffers...]");
            System.exit(2);
        }
        if (!Files.isExecutable(TIME)) {
            System.err.println(TIME + " is needed to measure peak memory (apt-get install time)");
            System.exit(2);
        }
        Path jar = Path.of(args[0]);
        // --tiled: the tiling workload (WorkloadFiles.writeTiled), which has no goal of its own
        boolean tiled = args.length > 1 && args[1].equals("--tiled");
        int from = tiled ? 2 : 1;
        int[] sizes = args.length == from ? new int[]{10_000, 100_000, 1_000_000}
                : Arrays.stream(args, from, args.length).mapToInt(Integer::parseInt).toArray();
        Path dir = Files.createTempDirectory("berth-scale");
        System.out.println("| buffers | file (MB) | runs | median wall (s) | min - max wall (s) | median peak RSS (MB) "
                + "| max peak RSS (MB) | same plan every run | goal | met | load average |");
        System.out.println("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | --- | --- |");
        try {
            for (int n : sizes) {
                Path workload = dir.resolve("w" + n + ".json");
                if (tiled) {
                    WorkloadFiles.writeTiled(workload, n);
                } else {
                    WorkloadFiles.write(workload, n, WorkloadFiles.SEED, WorkloadFiles.PER_STEP);
                }
                int runs = n >= 1_000_000 ? 3 : 5;
                double[] wall = new double[runs];
                double[] mb = new double[runs];
                String digest = null;
                boolean same = true;
                boolean clock = false;
                String loadBefore = load();
                for (int r = 0; r < runs; r++) {
                    Path plan = dir.resolve("plan.json");
                    Path times = dir.resolve("time.txt");
                    List<String> cmd = new ArrayList<>(List.of(TIME.toString(), "-f", "%e %M", "-o", times.toString()));
                    cmd.addAll(BerthProcess.command(jar, "plan", workload.toString(), "-o", plan.toString()));
                    Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                            .redirectError(dir.resolve("err.txt").toFile()).start();
                    int exit = p.waitFor();
                    if (exit != 0) {
                        throw new IllegalStateException(String.join(" ", cmd) + " exited " + exit + ": "
                                + Files.readString(dir.resolve("err.txt")));
                    }
                    String[] t = Files.readString(times).trim().split("\\s+");
                    wall[r] = Double.parseDouble(t[t.length - 2]);
                    mb[r] = Long.parseLong(t[t.length - 1]) / 1024.0;
                    // a plan the clock cut short says so (timeLimited), and may differ from the others
                    boolean cut = java.util.regex.Pattern.compile("\"timeLimited\"\\s*:\\s*true")
                            .matcher(Files.readString(plan)).find();
                    clock |= cut;
                    String d = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(plan)));
                    if (digest != null && !digest.equals(d)) {
                        same = false;
                        if (!clock) {
                            throw new IllegalStateException(n + " buffers: run " + r + " wrote another plan than run 0, "
                                    + "and neither says the clock stopped a search");
                        }
                    }
                    digest = d;
                    Files.delete(plan);
                }
                double[] sortedWall = wall.clone();
                double[] sortedMb = mb.clone();
                Arrays.sort(sortedWall);
                Arrays.sort(sortedMb);
                double medWall = sortedWall[runs / 2];
                double medMb = sortedMb[runs / 2];
                String row = String.format(Locale.ROOT, "| %,d | %.1f | %d | %.2f | %.2f - %.2f | %.0f | %.0f | %s | %s | %s | %s, %s |",
                        n, Files.size(workload) / 1e6, runs, medWall, sortedWall[0], sortedWall[runs - 1], medMb,
                        sortedMb[runs - 1], same ? (clock ? "yes (the clock stopped a search)" : "yes")
                        : "no (the clock stopped a search)", tiled ? "-" : goal(n),
                        tiled ? "-" : met(n, medWall, medMb) ? "yes" : "no", loadBefore, load());
                System.out.println(row);
                System.err.println(row);
                Files.delete(workload);
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

    /** The 1-minute load average now. */
    static String load() throws IOException {
        return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    }
}

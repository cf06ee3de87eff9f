package dev.berth.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * idealloc's instances side by side with idealloc's own figures: every instance of the table
 * "idealloc's results, measured here" in the README of the idealloc folder (its heights and
 * times with {@code -l 1} and {@code -l 100}, inputs here, not computed) planned by
 * {@code java -jar berth.jar bench idealloc FILE [OPTIONS...]}, one process per run (wall time
 * includes the JVM's start and reading the file; median of 3 runs, 1 when a run takes more than
 * 20 s). Every run must give the same height and proof as the first unless the clock stopped
 * it. Prints a Markdown table and how many instances Berth's height is lower, equal or higher
 * than idealloc's best.
 *
 * <p>Usage: {@code java -cp benchmarks.jar dev.berth.bench.IdeallocTable BERTH_JAR IDEALLOC_DIR [OPTIONS...]}.
 */
public final class IdeallocTable {
    /** A row of the README's table: instance, buffers, lower bound, -l 1 height and s, -l 100 height and s. */
    private static final Pattern ROW = Pattern.compile(
            "\\|\\s*(\\S+\\.csv)\\s*\\|\\s*(\\d+)\\s*\\|\\s*(\\d+)\\s*\\|\\s*(\\d+)\\s*\\|\\s*([\\d.]+)\\s*\\|\\s*(\\d+|—)\\s*\\|\\s*([\\d.]+)\\s*\\|");

    private record Idealloc(String instance, int buffers, long lowerBound, long height1, double seconds1,
                            long height100, double seconds100) {
        long best() {
            return height100 < 0 ? height1 : Math.min(height1, height100);
        }
    }

    private record Berth(long lowerBound, long height, String solver, String proof, double seconds) {
    }

    private IdeallocTable() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length < 2) {
            System.err.println("usage: IdeallocTable BERTH_JAR IDEALLOC_DIR [OPTIONS...]");
            System.exit(2);
        }
        Path jar = Path.of(args[0]);
        Path dir = Path.of(args[1]);
        List<String> options = Arrays.asList(args).subList(2, args.length);
        List<Idealloc> rows = readme(dir.resolve("README.md"));
        System.out.println("| instance | buffers | lower bound | idealloc best | Berth height | Berth / bound "
                + "| idealloc best / bound | Berth vs idealloc | Berth solver | Berth proof | Berth wall (s) "
                + "| idealloc -l 1 (s) | idealloc -l 100 (s) |");
        System.out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | --- | ---: | ---: | ---: |");
        int lower = 0;
        int equal = 0;
        int higher = 0;
        for (Idealloc r : rows) {
            Path file = dir.resolve(r.instance()).normalize();
            List<Double> wall = new ArrayList<>();
            Berth first = null;
            for (int run = 0; run < 3; run++) {
                long t0 = System.nanoTime();
                Berth b = bench(jar, file, options);
                double w = (System.nanoTime() - t0) / 1e9;
                wall.add(w);
                if (first == null) {
                    first = b;
                } else if ((first.height() != b.height() || !first.proof().equals(b.proof()))
                        && !b.proof().contains("(clock)")) {
                    throw new IllegalStateException(r.instance() + ": two runs gave " + first + " and " + b);
                }
                if (w > 20) {
                    break;
                }
            }
            wall.sort(null);
            if (first.lowerBound() < r.lowerBound()) {
                throw new IllegalStateException(r.instance() + ": Berth's lower bound " + first.lowerBound()
                        + " is below the README's " + r.lowerBound());
            }
            long best = r.best();
            String vs = first.height() < best ? "lower" : first.height() == best ? "equal" : "higher";
            lower += first.height() < best ? 1 : 0;
            equal += first.height() == best ? 1 : 0;
            higher += first.height() > best ? 1 : 0;
            String row = String.format(Locale.ROOT, "| %s | %,d | %,d | %,d | %,d | %.4f | %.4f | %s | %s | %s | %.2f | %.2f | %s |",
                    r.instance(), r.buffers(), first.lowerBound(), best, first.height(),
                    (double) first.height() / first.lowerBound(), (double) best / first.lowerBound(), vs,
                    first.solver(), first.proof(), wall.get(wall.size() / 2), r.seconds1(),
                    r.height100() < 0 ? "killed at " + r.seconds100() : String.format(Locale.ROOT, "%.2f", r.seconds100()));
            System.out.println(row);
            System.err.println(row);
        }
        System.out.printf(Locale.ROOT, "%nBerth's height against idealloc's best: lower on %d, equal on %d, higher on %d of %d.%n",
                lower, equal, higher, rows.size());
    }

    private static List<Idealloc> readme(Path readme) throws IOException {
        List<Idealloc> out = new ArrayList<>();
        String text = Files.readString(readme);
        int from = text.indexOf("## idealloc's results, measured here");
        if (from < 0) {
            throw new IllegalStateException(readme + ": no section \"idealloc's results, measured here\"");
        }
        for (String line : text.substring(from).split("\n")) {
            Matcher m = ROW.matcher(line);
            if (m.matches()) {
                out.add(new Idealloc(m.group(1), Integer.parseInt(m.group(2)), Long.parseLong(m.group(3)),
                        Long.parseLong(m.group(4)), Double.parseDouble(m.group(5)),
                        m.group(6).equals("—") ? -1 : Long.parseLong(m.group(6)), Double.parseDouble(m.group(7))));
            }
        }
        if (out.size() != 21) {
            throw new IllegalStateException(readme + ": " + out.size() + " instances in idealloc's table, not 21");
        }
        return out;
    }

    /** One process of {@code berth bench idealloc FILE OPTIONS}; its row of the table. */
    private static Berth bench(Path jar, Path file, List<String> options) throws IOException, InterruptedException {
        List<String> cmd = BerthProcess.command(jar, "bench", "idealloc", file.toString());
        cmd.addAll(options);
        String text = BerthProcess.output(cmd).text();
        String name = file.getFileName().toString();
        for (String line : text.split("\n")) {
            if (line.startsWith(name + " ")) {
                // instance, buffers, lower bound, height, ratio, solver, proof..., time: columns apart by 2+ spaces
                String[] c = line.trim().split("\\s{2,}");
                return new Berth(Long.parseLong(c[2]), Long.parseLong(c[3]), c[5], c[6],
                        Double.parseDouble(c[c.length - 1]));
            }
        }
        throw new IllegalStateException(String.join(" ", cmd) + ": no row for " + name + " in:\n" + text);
    }
}

package dev.berth.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Whether {@code --time-limit} is kept: {@code berth bench idealloc DIR... --solver S --time-limit
 * SECONDS} for each solver that searches (auto, skyline, exact, and auto with {@code --minimize}),
 * one process per solver, and per solver the instance whose planning took longest against the
 * limit (the bench's own per-instance time: the planner with its checks, admission and
 * validator, not the JVM's start or reading the file), how many instances the clock stopped,
 * and how many ran past the limit by more than 10 %.
 *
 * <p>Usage: {@code java -cp benchmarks.jar dev.berth.bench.TimeLimits BERTH_JAR SECONDS DIR...}.
 */
public final class TimeLimits {
    private TimeLimits() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length < 3) {
            System.err.println("usage: TimeLimits BERTH_JAR SECONDS DIR...");
            System.exit(2);
        }
        String jar = args[0];
        double limit = Double.parseDouble(args[1]);
        List<String> dirs = List.of(args).subList(2, args.length);
        System.out.println("| solver | instances | stopped by the clock | longest (s) | on | longest / limit | over 110 % |");
        System.out.println("| --- | ---: | ---: | ---: | --- | ---: | ---: |");
        for (List<String> solver : List.of(List.of("--solver", "auto"), List.of("--solver", "skyline"),
                List.of("--solver", "exact"), List.of("--solver", "auto", "--minimize"))) {
            List<String> cmd = BerthProcess.command(Path.of(jar), "bench", "idealloc");
            cmd.addAll(dirs);
            cmd.addAll(solver);
            cmd.addAll(List.of("--time-limit", args[1]));
            String text = BerthProcess.output(cmd).text();
            int instances = 0;
            int clock = 0;
            int over = 0;
            double longest = 0;
            String on = "-";
            for (String line : text.split("\n")) {
                if (!line.contains(".csv ")) {
                    continue;
                }
                String[] c = line.trim().split("\\s{2,}");
                double s = Double.parseDouble(c[c.length - 1]);
                instances++;
                clock += line.contains("(clock)") ? 1 : 0;
                over += s > 1.1 * limit ? 1 : 0;
                if (s > longest) {
                    longest = s;
                    on = c[0];
                }
            }
            String row = String.format(Locale.ROOT, "| %s | %d | %d | %.2f | %s | %.2f | %d |",
                    String.join(" ", solver), instances, clock, longest, on, longest / limit, over);
            System.out.println(row);
            System.err.println(row);
        }
    }
}

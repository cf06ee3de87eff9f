package dev.berth.cli;

import dev.berth.TestData;
import dev.berth.artifact.Optimality;
import dev.berth.artifact.Plan;
import dev.berth.io.PlanJson;
import dev.berth.verify.PlanValidator;
import dev.berth.verify.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Ctrl-C on a real {@code berth plan} process (contract §7): SIGINT (or SIGTERM) while the search
 * of MiniMalloc's D runs makes it write the best valid plan found so far, its space marked
 * {@code interrupted} with its bracket, and exit 130; a second signal exits 130 at once, and
 * nothing half-written nor any temporary file is left. The signal is sent once the process has
 * printed a bracket of the search (event-driven: no sleeping).
 */
class InterruptCliTest {
    @TempDir
    Path dir;

    /** A plan of D that searches far longer than the test: 10^9 nodes, a 600 s time limit. */
    private Process start(Path out) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "plan",
                TestData.require("benchmarks/minimalloc/D.1048576.csv").toString(), "--capacity", "1048576",
                "--minimize", "--search-nodes", "1000000000", "--time-limit", "600", "-o", out.toString()));
        return new ProcessBuilder(cmd).redirectOutput(dir.resolve("stdout").toFile()).start();
    }

    /** Reads stderr (where the bracket lines go, contract §7) until a line of the search's bracket, then returns everything read. */
    private static List<String> untilSearching(BufferedReader stderr) throws IOException {
        List<String> lines = new ArrayList<>();
        for (String l = stderr.readLine(); l != null; l = stderr.readLine()) {
            lines.add(l);
            if (l.contains("limit ") && l.contains("mem  [")) {
                return lines;
            }
        }
        throw new AssertionError("the process ended before it searched: " + lines);
    }

    private static void signal(Process p, String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(p.pid())).inheritIO().start();
        assertThat(kill.waitFor()).isZero();
    }

    private List<String> leftovers() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".tmp")).toList();
        }
    }

    private void interruptsOnceAndKeepsTheBest(String signal) throws IOException, InterruptedException {
        Path out = dir.resolve(signal + ".json");
        Process p = start(out);
        String err;
        try (BufferedReader stderr = new BufferedReader(new InputStreamReader(p.getErrorStream(),
                StandardCharsets.UTF_8))) {
            untilSearching(stderr);
            signal(p, signal);
            err = String.join("\n", stderr.lines().toList());
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).isEqualTo(130);
        }
        List<String> stdout = Files.readAllLines(dir.resolve("stdout"));
        assertThat(stdout).anyMatch(l -> l.startsWith("mem ") && l.endsWith("] interrupted"))
                .contains("wrote " + out);
        assertThat(err).contains("berth: interrupted: the searches stop and keep the best plan found so far")
                .contains("berth: interrupted: wrote " + out + ": the best plan found before the interrupt, validated");
        Plan plan = PlanJson.read(out);
        assertThat(PlanValidator.validate(plan)).isInstanceOf(Verdict.Valid.class);
        Optimality o = plan.spaces().get("mem").optimality().orElseThrow();
        assertThat(o.proof()).isEqualTo(Optimality.Proof.OPEN);
        assertThat(o.open()).contains(Optimality.Open.INTERRUPTED);
        assertThat(o.lowerBound()).isLessThan(plan.spaces().get("mem").highWater());
        assertThat(plan.spaces().get("mem").highWater()).isLessThanOrEqualTo(1048576);
        assertThat(leftovers()).isEmpty();
    }

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void theFirstSigintWritesTheBestPlanSoFarAndExits130() throws IOException, InterruptedException {
        interruptsOnceAndKeepsTheBest("INT");
    }

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void sigtermDoesTheSame() throws IOException, InterruptedException {
        interruptsOnceAndKeepsTheBest("TERM");
    }

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void aSecondSignalExitsAtOnceLeavingNothingHalfWritten() throws IOException, InterruptedException {
        Path out = dir.resolve("twice.json");
        Files.writeString(out, "the user's earlier file\n");
        Process p = start(out);
        try (BufferedReader stderr = new BufferedReader(new InputStreamReader(p.getErrorStream(),
                StandardCharsets.UTF_8))) {
            untilSearching(stderr);
            signal(p, "INT");
            signal(p, "INT");
            stderr.lines().forEach(l -> { });
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).isEqualTo(130);
        }
        // either the earlier file as it was, or the whole new plan, which validates; never a part
        String now = Files.readString(out);
        if (!now.equals("the user's earlier file\n")) {
            assertThat(PlanValidator.validate(PlanJson.read(out))).isInstanceOf(Verdict.Valid.class);
        }
        assertThat(leftovers()).isEmpty();
    }
}

package dev.berth.cli;

import dev.berth.artifact.Optimality;
import dev.berth.artifact.Plan;
import dev.berth.io.PlanJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Plan artifacts of both versions on the command line: {@code plan} writes version 2 (what is
 * proved per space) and it round-trips; {@code check-deploy} and {@code report} read a version 1
 * plan written before version 2 existed (the fixture {@code v1/seed.plan.json}, the seed
 * workload's plan) as well as a version 2 one.
 */
class PlanVersionsTest {
    private static final String EXAMPLE = """
            { "workload": "seed", "buffers": [
              { "name": "input", "size": "4KiB", "space": "global", "live": [0, 1] },
              { "name": "conv1", "size": "3KiB", "space": "global", "live": [1, 2] },
              { "name": "skip", "size": "1KiB", "space": "global", "live": [1, 4] },
              { "name": "acc", "size": "48KiB", "space": "sram", "alignment": 32, "live": [1, 3] } ] }
            """;

    @TempDir
    Path dir;

    private Path v1() throws IOException {
        Path p = dir.resolve("v1.plan.json");
        try (InputStream in = getClass().getResourceAsStream("/v1/seed.plan.json")) {
            assertThat(in).as("the version 1 fixture").isNotNull();
            Files.write(p, in.readAllBytes());
        }
        return p;
    }

    @Test
    void aVersion1PlanStillChecksDeploysAndReports() throws IOException {
        Path plan = v1();
        assertThat(Files.readString(plan)).contains("\"version\": 1").doesNotContain("lowerBound");
        Run ok = Run.of("check-deploy", plan.toString(), "--provide", "global=16KiB");
        assertThat(ok.exit()).as(ok.err()).isZero();
        assertThat(ok.out()).contains("needs 9344 bytes").contains("deployable");
        Run short_ = Run.of("check-deploy", plan.toString(), "--provide", "global=8KiB");
        assertThat(short_.exit()).isEqualTo(6);
        Path html = dir.resolve("v1.html");
        Run report = Run.of("report", plan.toString(), "-o", html.toString());
        assertThat(report.exit()).as(report.err()).isZero();
        // a version 1 plan says nothing about proofs: the report shows none
        assertThat(Files.readString(html)).contains("<svg").contains("solver auto").doesNotContain("optimal (");
    }

    @Test
    void planWritesVersion2ThatRoundTripsAndChecksDeploys() throws IOException {
        Path workload = dir.resolve("w.json");
        Files.writeString(workload, EXAMPLE);
        Path out = dir.resolve("plan.json");
        Run r = Run.of("plan", workload.toString(), "-o", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        String text = Files.readString(out);
        assertThat(text).contains("\"version\": 2", "\"lowerBound\"", "\"proof\": \"lower-bound\"",
                "\"timeLimited\": false");
        Plan plan = PlanJson.read(out);
        assertThat(plan.version()).isEqualTo(2);
        assertThat(plan.spaces().values()).allSatisfy(m -> assertThat(m.optimality()).isPresent());
        Optimality g = plan.spaces().get("global").optimality().orElseThrow();
        assertThat(g.lowerBound()).isEqualTo(plan.spaces().get("global").highWater());
        assertThat(PlanJson.toString(plan)).isEqualTo(text);
        Run deploy = Run.of("check-deploy", out.toString(), "--provide", "global=64KiB");
        assertThat(deploy.exit()).as(deploy.err()).isZero();
        Path html = dir.resolve("v2.html");
        assertThat(Run.of("report", out.toString(), "-o", html.toString()).exit()).isZero();
        assertThat(Files.readString(html)).contains("<th>proof</th>", "optimal (lower bound)");
        // --json prints the same per-space fields
        Run json = Run.of("plan", workload.toString(), "--json");
        assertThat(json.out()).contains("\"proof\": \"lower-bound\"", "\"solver\": ", "\"lowerBound\": ");
    }

    /**
     * A hand-edited version 1 plan gets exit 2 from report and check-deploy: a buffer whose end is
     * past 2^63-1 the validator's verdict naming it, bytes live at one step past 2^63-1 the space's
     * peakLive; neither is measured into an arithmetic overflow (exit 4) before it is validated.
     */
    @Test
    void aCorruptVersion1PlanIsInvalidInputNotAnOverflow() throws IOException {
        String v1 = Files.readString(v1());
        Path pastTheEnd = dir.resolve("past.plan.json");
        Files.writeString(pastTheEnd, v1.replaceFirst("\"offset\": 2048", "\"offset\": " + Long.MAX_VALUE));
        Path tooMuchLive = dir.resolve("live.plan.json");
        Files.writeString(tooMuchLive, v1.replaceFirst("\"reserved\": 4096", "\"reserved\": " + (1L << 62))
                .replaceFirst("\"reserved\": 3072", "\"reserved\": " + (1L << 62)));
        for (String[] args : List.of(new String[]{"report", "-o", dir.resolve("r.html").toString()},
                new String[]{"check-deploy", "--provide", "global=16KiB"})) {
            Run past = Run.of(with(args, pastTheEnd));
            assertThat(past.exit()).as(past.err()).isEqualTo(2);
            assertThat(past.err()).contains("invalid-input", "plan failed validation", "input: [" + Long.MAX_VALUE)
                    .doesNotContain("overflow", "Exception");
            Run live = Run.of(with(args, tooMuchLive));
            assertThat(live.exit()).as(live.err()).isEqualTo(2);
            assertThat(live.err()).contains("invalid-input: spaces.global.peakLive: 9344 in the plan, but in its "
                    + "buffers the reserved bytes live at step 1 pass 2^63-1").doesNotContain("Exception");
        }
    }

    /**
     * A plan that fails validation is reported one violation a line by report and check-deploy
     * (the verdict's own line breaks kept), the file's name written visibly like any name.
     */
    @Test
    void aRejectedPlanIsReportedOneViolationALineWithItsNameVisible() throws IOException {
        String v1 = Files.readString(v1());
        Path bad = dir.resolve("p\u001b[31m.plan.json");
        Files.writeString(bad, v1.replaceFirst("\"offset\": 2048", "\"offset\": " + Long.MAX_VALUE));
        for (String[] args : List.of(new String[]{"report", "-o", dir.resolve("r.html").toString()},
                new String[]{"check-deploy", "--provide", "global=16KiB"})) {
            Run r = Run.of(with(args, bad));
            assertThat(r.exit()).as(r.err()).isEqualTo(2);
            List<String> lines = r.err().lines().toList();
            assertThat(lines.get(0)).startsWith("berth: invalid-input: ").contains("p\\u001b[31m.plan.json: ")
                    .contains("plan failed validation");
            assertThat(lines.subList(1, lines.size())).isNotEmpty().allSatisfy(l -> assertThat(l).startsWith("  - "));
            assertThat(r.err()).doesNotContain("\u001b", "\\u000a");
        }
    }

    /** {@code args} with {@code plan} after the command's name. */
    private static String[] with(String[] args, Path plan) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add(1, plan.toString());
        return all.toArray(String[]::new);
    }
}

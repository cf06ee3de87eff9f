package dev.berth.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Usage, help, output files: what every command owes its user. */
class CommandLineTest {
    @TempDir
    Path dir;

    private Path workload() throws IOException {
        Path p = dir.resolve("w.json");
        Files.writeString(p, """
                { "buffers": [ { "name": "a", "size": "1KiB", "space": "global", "live": [0, 1] },
                               { "name": "b", "size": "2KiB", "space": "global", "live": [1, 2] } ] }
                """);
        return p;
    }

    @ParameterizedTest
    @ValueSource(strings = {"plan", "check-deploy"})
    void everyHelpHasAnExample(String command) {
        Run r = Run.of(command, "--help");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("Usage:").contains("Example");
    }

    @Test
    void aRunOfOneCommandBuildsThatCommandAloneAndHelpListsThemAll() {
        assertThat(Main.subcommands(new String[]{"plan", "w.json"})).containsExactly(PlanCommand.class);
        assertThat(Main.subcommands(new String[]{"check-deploy", "p.json"})).containsExactly(CheckDeployCommand.class);
        // help, completion, options and unknown names see every command (to list or suggest them)
        for (String first : new String[]{"help", "completion", "--help", "pla"}) {
            assertThat(Main.subcommands(new String[]{first})).hasSize(7);
        }
        assertThat(Main.subcommands(new String[0])).hasSize(7);
        Run r = Run.of("--help");
        assertThat(r.exit()).isZero();
        for (String c : new String[]{"plan", "check-deploy", "report", "demo", "bench", "completion", "help"}) {
            assertThat(r.out()).containsPattern("(?m)^\\s+" + c + "\\b");
        }
    }

    @Test
    void usageErrorsAreInvalidInputWithExit2() throws IOException {
        Run r = Run.of("plan", workload().toString(), "--no-such-option");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("invalid-input").contains("--no-such-option").doesNotContain("Exception");
        Run json = Run.of("plan", "--json");
        assertThat(json.exit()).isEqualTo(2);
        assertThat(json.out()).contains("\"category\": \"invalid-input\"");
        assertThat(Run.of("plan", workload().toString(), "--solver", "magic").err()).contains("--solver");
        assertThat(Run.of("plan", workload().toString(), "--time-limit", "-1").exit()).isEqualTo(2);
        assertThat(Run.of("check-deploy", "x.json", "--provide", "global").err()).contains("SPACE=SIZE");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "NaN", "Infinity"})
    void planAndBenchRefuseTheSameTimeLimitsWithTheSameMessage(String seconds) throws IOException {
        Path csv = dir.resolve("t.csv");
        Files.writeString(csv, "id,lower,upper,size\n0,0,2,8\n");
        Run plan = Run.of("plan", workload().toString(), "--time-limit", seconds);
        Run bench = Run.of("bench", "idealloc", csv.toString(), "--time-limit", seconds);
        for (Run r : new Run[]{plan, bench}) {
            assertThat(r.exit()).as(r.err()).isEqualTo(2);
            assertThat(r.err()).contains("invalid-input", "--time-limit: must be a positive number of seconds")
                    .doesNotContain("Exception");
        }
    }

    @Test
    void planAndBenchRefuseMinimizeWithAHeuristicWithTheSameMessage() throws IOException {
        Path csv = dir.resolve("m.csv");
        Files.writeString(csv, "id,lower,upper,size\n0,0,2,8\n");
        Run plan = Run.of("plan", workload().toString(), "--solver", "best-fit", "--minimize");
        Run bench = Run.of("bench", "idealloc", csv.toString(), "--solver", "best-fit", "--minimize");
        for (Run r : new Run[]{plan, bench}) {
            assertThat(r.exit()).as(r.err()).isEqualTo(2);
            assertThat(r.err()).contains("--minimize needs --solver auto or exact (it searches for smaller plans), "
                    + "not the heuristic best-fit");
        }
    }

    @Test
    void jsonEqualsTrueReportsAFailureAsJsonAndJsonEqualsFalseAsText() throws IOException {
        Path bad = dir.resolve("neg.json");
        Files.writeString(bad, "{ \"buffers\": [ { \"name\": \"a\", \"size\": -1, \"space\": \"global\", \"live\": [0, 1] } ] }");
        Run asJson = Run.of("plan", bad.toString(), "--json=true");
        assertThat(asJson.exit()).isEqualTo(2);
        assertThat(asJson.out()).contains("\"category\": \"invalid-input\"");
        assertThat(asJson.err()).isEmpty();
        Run asText = Run.of("plan", bad.toString(), "--json=false");
        assertThat(asText.exit()).isEqualTo(2);
        assertThat(asText.out()).isEmpty();
        assertThat(asText.err()).contains("invalid-input");
        // a usage error, reported before picocli has read --json=true, is JSON too
        Run usage = Run.of("plan", bad.toString(), "--json=TRUE", "--no-such-option");
        assertThat(usage.out()).contains("\"category\": \"invalid-input\"");
    }

    @Test
    void aUsageErrorOfASubcommandNamesItsWholeCommandInTheHint() throws IOException {
        Run r = Run.of("bench", "idealloc", dir.toString(), "--no-such-option");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("Try 'berth bench idealloc --help'.");
        assertThat(Run.of("plan", "--no-such-option").err()).contains("Try 'berth plan --help'.");
    }

    @ParameterizedTest
    @ValueSource(strings = {"-5", "1", "49"})
    void aPictureNarrowerThanItCanBeIsRefused(String width) throws IOException {
        Run r = Run.of("plan", workload().toString(), "--show", "--width", width);
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--width: the picture needs at least 50 columns, got " + width);
        assertThat(Run.of("plan", workload().toString(), "--show", "--width", "50").exit()).isZero();
    }

    @Test
    void aMissingFileIsInvalidInputNotAStackTrace() {
        Run r = Run.of("plan", dir.resolve("nope.json").toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("no such file").doesNotContain("at dev.berth");
    }

    @Test
    void anOutputPathEqualToAnInputIsRefusedAndTheInputIsKept() throws IOException {
        Path w = workload();
        String before = Files.readString(w);
        Run r = Run.of("plan", w.toString(), "-o", w.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("also an input");
        assertThat(Files.readString(w)).isEqualTo(before);
    }

    @Test
    void aFailedRunLeavesAnEarlierOutputUntouched() throws IOException {
        Path out = dir.resolve("plan.json");
        assertThat(Run.of("plan", workload().toString(), "-o", out.toString()).exit()).isZero();
        String good = Files.readString(out);
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{ \"buffers\": [ { \"name\": \"a\", \"size\": \"5GiB\", \"space\": \"global\", \"live\": [0, 0] } ] }");
        Run r = Run.of("plan", bad.toString(), "-o", out.toString());
        assertThat(r.exit()).isEqualTo(3);
        assertThat(Files.readString(out)).isEqualTo(good);
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
        }
    }

    @Test
    void checkDeployNeedsEveryLogicalSpaceAndOnlyThem() throws IOException {
        Path out = dir.resolve("plan.json");
        assertThat(Run.of("plan", workload().toString(), "-o", out.toString()).exit()).isZero();
        assertThat(Run.of("check-deploy", out.toString()).err()).contains("--provide global=SIZE");
        Run local = Run.of("check-deploy", out.toString(), "--provide", "global=1MiB", "--provide", "sram=1KiB");
        assertThat(local.exit()).isEqualTo(2);
        assertThat(local.err()).contains("sram").contains("local");
        Run unknown = Run.of("check-deploy", out.toString(), "--provide", "global=1MiB", "--base", "dram=0");
        assertThat(unknown.exit()).isEqualTo(2);
        assertThat(unknown.err()).contains("no space 'dram'");
        Run based = Run.of("check-deploy", out.toString(), "--provide", "global=1MiB", "--base", "global=0xFFFF_FC00");
        assertThat(based.exit()).as(based.err()).isEqualTo(3);
        assertThat(based.err()).contains("address-not-encodable").contains("dma32");
        Run fine = Run.of("check-deploy", out.toString(), "--provide", "global=1MiB", "--base", "global=0x1000_0000");
        assertThat(fine.exit()).as(fine.err()).isZero();
    }

    @Test
    void aTamperedPlanIsRejectedByTheValidator() throws IOException {
        Path out = dir.resolve("plan.json");
        assertThat(Run.of("plan", workload().toString(), "-o", out.toString()).exit()).isZero();
        String text = Files.readString(out).replaceFirst("\"highWater\": \\d+", "\"highWater\": 1");
        Files.writeString(out, text);
        Run r = Run.of("check-deploy", out.toString(), "--provide", "global=1MiB");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("highWater is 1 in the plan");
    }

    @Test
    void versionIsPrinted() {
        Run r = Run.of("--version");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).startsWith("berth ");
    }
}

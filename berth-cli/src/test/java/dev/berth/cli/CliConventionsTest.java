package dev.berth.cli;

import dev.berth.TestData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The command line's conventions (contract §7): a misspelt option, command or value gets the
 * closest one; {@code -q} means the same everywhere; tables go to stdout, and progress to
 * stderr only on a terminal (never under the tests).
 */
class CliConventionsTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "plan examples/seed.json --solvr exact|usage: Unknown options: '--solvr', 'exact'; did you mean '--solver'?",
            "plan examples/seed.json --minimise|usage: Unknown option: '--minimise'; did you mean '--minimize'?",
            "plan examples/seed.json --widht=70|usage: Unknown option: '--widht=70'; did you mean '--width'?",
            "pln examples/seed.json|usage: Unmatched arguments from index 0: 'pln', 'examples/seed.json'; did you mean 'plan'?",
            "check-deploy p.json --provid global=1|usage: Unknown options: '--provid', 'global=1'; did you mean '--provide'?",
            "bench minimalloc d --threds 2|usage: Unknown options: '--threds', '2'; did you mean '--threads'?",
            "plan examples/seed.json --solver exat|--solver: 'exat' is not one of auto, greedy, best-fit, skyline, exact; did you mean 'exact'?",
            "plan examples/seed.json --solver bestfit|--solver: 'bestfit' is not one of auto, greedy, best-fit, skyline, exact; did you mean 'best-fit'?"})
    void aMisspeltOptionCommandOrValueGetsTheClosest(String args, String message) {
        Run r = Run.of(args.split(" "));
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err().lines().findFirst().orElseThrow()).isEqualTo("berth: invalid-input: " + message);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "plan examples/seed.json --xyz|usage: Unknown option: '--xyz'",
            "zzz|usage: Unmatched argument at index 0: 'zzz'",
            "plan examples/seed.json --solver annealing|--solver: 'annealing' is not one of auto, greedy, best-fit, skyline, exact"})
    void nothingIsSuggestedWhenNothingIsClose(String args, String message) {
        Run r = Run.of(args.split(" "));
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err().lines().findFirst().orElseThrow()).isEqualTo("berth: invalid-input: " + message);
    }

    @Test
    void theRuleOfClosest() {
        assertThat(Suggestion.distance("solvr", "solver")).isEqualTo(1);
        assertThat(Suggestion.distance("shwo", "show")).isEqualTo(1); // a swap counts once
        assertThat(Suggestion.distance("", "abc")).isEqualTo(3);
        assertThat(Suggestion.closest("--shwo", List.of("--show", "--solver"))).contains("--show");
        // within a third of the longer word, at least 1: one typo in "sr", not two
        assertThat(Suggestion.closest("sx", List.of("sr"))).contains("sr");
        assertThat(Suggestion.closest("xy", List.of("sr"))).isEmpty();
        assertThat(Suggestion.closest("--json", List.of("--json"))).contains("--json");
        assertThat(Suggestion.closest("abc", List.of())).isEmpty();
    }

    @Test
    void quietKeepsTheResultsAndDropsTheConfirmations() throws IOException {
        String seed = TestData.root().resolve("examples/seed.json").toString();
        Run plain = Run.of("plan", seed);
        Run quiet = Run.of("plan", seed, "-q");
        assertThat(quiet.exit()).isZero();
        assertThat(plain.out()).endsWith("no artifact written (use -o PLAN.json)\n");
        assertThat(quiet.out()).isEqualTo(plain.out().replace("no artifact written (use -o PLAN.json)\n", ""));
        Path plan = dir.resolve("plan.json");
        Path html = dir.resolve("plan.html");
        Run written = Run.of("plan", seed, "-o", plan.toString(), "--report", html.toString(), "--quiet");
        assertThat(written.exit()).isZero();
        assertThat(written.out()).doesNotContain("wrote").contains("plan seed on target npu-ref");
        assertThat(plan).isNotEmptyFile();
        assertThat(html).isNotEmptyFile();
        Run minimize = Run.of("plan", seed, "--minimize", "-q");
        assertThat(minimize.out()).doesNotContain("minimize:").contains("plan seed on target npu-ref");
        Run report = Run.of("report", plan.toString(), "-o", dir.resolve("again.html").toString(), "-q");
        assertThat(report.exit()).isZero();
        assertThat(report.out()).isEmpty();
        assertThat(report.err()).isEmpty();
        // the same words in every help that has it
        for (String[] help : List.of(new String[]{"plan", "--help"}, new String[]{"report", "--help"},
                new String[]{"bench", "minimalloc", "--help"}, new String[]{"bench", "idealloc", "--help"})) {
            assertThat(Run.of(help).out().replaceAll("\\s+", " ")).contains("-q, --quiet Quiet: no progress on "
                    + "stderr and no 'wrote FILE' lines; the results (tables, JSON) and errors are printed as without it.");
        }
    }

    @Test
    void benchPrintsItsTableOnStdoutOnceAndNothingOnStderrOffATerminal() throws IOException {
        Files.writeString(dir.resolve("x.12.csv"), "id,lower,upper,size\nb1,0,3,4\nb2,3,9,4\nb3,0,9,4\n");
        for (String suite : List.of("minimalloc", "idealloc")) {
            Run r = Run.of("bench", suite, dir.toString());
            assertThat(r.exit()).as(r.err()).isZero();
            assertThat(r.err()).isEmpty();
            assertThat(r.out()).containsOnlyOnce("x.12.csv");
            Run quiet = Run.of("bench", suite, dir.toString(), "-q");
            assertThat(quiet.exit()).isZero();
            assertThat(quiet.err()).isEmpty();
            assertThat(quiet.out()).containsOnlyOnce("x.12.csv").contains("total: 1 ");
        }
    }
}

package dev.berth.cli;

import dev.berth.io.MiniMallocCsv;
import dev.berth.workload.FixedRegion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** MiniMalloc CSV through the command line: plan, -o FILE.csv, --minimize, bench minimalloc. */
class MiniMallocCliTest {
    private static final String INPUT_12 = """
            id,lower,upper,size
            b1,0,3,4
            b2,3,9,4
            b3,0,9,4
            b4,9,21,4
            b5,0,21,4
            """;

    /** Best fit and greedy both reach 12 here; the peak of live bytes is 10 (steps 2 and 4), and 10 fits. */
    private static final String ABOVE_THE_BOUND = """
            id,lower,upper,size
            a,1,3,3
            b,1,4,3
            c,4,5,5
            d,2,5,4
            e,3,4,3
            """;

    @TempDir
    Path dir;

    private Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    @Test
    void plansACsvAndWritesItsRowsWithOffsets() throws IOException {
        Path in = write("input.12.csv", INPUT_12);
        Path out = dir.resolve("out.csv");
        Run r = Run.of("plan", in.toString(), "--capacity", "12", "-o", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("mem").contains("wrote " + out);
        List<String> lines = Files.readAllLines(out);
        assertThat(lines.get(0)).isEqualTo("id,lower,upper,size,offset");
        assertThat(lines).hasSize(6);
        // read back, every buffer is fixed where the plan put it: the planner's own checks
        // (fixed regions never overlap, all within capacity) accept it
        MiniMallocCsv.Document back = MiniMallocCsv.read(out);
        assertThat(back.workload(MiniMallocCsv.target(12)).fixed()).extracting(FixedRegion::name).containsExactly("b1", "b2", "b3", "b4", "b5");
        Run again = Run.of("plan", out.toString(), "--capacity", "12");
        assertThat(again.exit()).as(again.err()).isZero();
        // a JSON artifact when -o does not end in .csv
        Path json = dir.resolve("plan.json");
        assertThat(Run.of("plan", in.toString(), "--capacity", "12", "-o", json.toString()).exit()).isZero();
        assertThat(Files.readString(json)).contains("\"berth-plan\"");
    }

    @Test
    void csvTakesNoTarget() throws IOException {
        Path in = write("x.csv", INPUT_12);
        Run target = Run.of("plan", in.toString(), "--capacity", "12", "--target", "teaching");
        assertThat(target.exit()).isEqualTo(2);
        assertThat(target.err()).contains("--target does not apply");
        Run small = Run.of("plan", in.toString(), "--capacity", "11", "--json");
        assertThat(small.exit()).isEqualTo(5);
        assertThat(small.out()).contains("\"provablyInfeasible\": true");
    }

    /**
     * Without --capacity the one space is logical: the plan minimises its height (here below what
     * best fit and greedy reach, down to the peak of live bytes), and says so in one line.
     */
    @Test
    void csvWithoutACapacityPlansItsHeightInALogicalSpaceAndSaysSo() throws IOException {
        Path in = write("x.csv", ABOVE_THE_BOUND);
        Run r = Run.of("plan", in.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.out()).containsPattern("mem +logical +at deploy +10 +10 +10 +100\\.0%")
                .contains("optimal (lower bound)")
                .contains("\n" + CsvWorkloads.LOGICAL_NOTE + "\n")
                .containsOnlyOnce("csv: ");
        assertThat(CsvWorkloads.LOGICAL_NOTE).doesNotContain("\n");
        // with a capacity, no such line; the same height
        Run local = Run.of("plan", in.toString(), "--capacity", "10");
        assertThat(local.exit()).as(local.err()).isZero();
        assertThat(local.out()).doesNotContain("csv: ").containsPattern("mem +local +10 +10 ");
        // -o FILE.csv writes the rows with their offsets, as with a capacity; --json prints only JSON
        Path out = dir.resolve("x.out.csv");
        assertThat(Run.of("plan", in.toString(), "-o", out.toString()).exit()).isZero();
        assertThat(Files.readAllLines(out).get(0)).isEqualTo("id,lower,upper,size,offset");
        Run json = Run.of("plan", in.toString(), "--json");
        assertThat(json.exit()).isZero();
        assertThat(json.out()).startsWith("{").doesNotContain("csv: ").contains("\"kind\": \"logical\"");
    }

    @Test
    void badCsvIsInvalidInputWithLineAndColumn() throws IOException {
        Path in = write("bad.csv", "id,lower,upper,size\nb1,0,3,4\nb2,3,nine,4\n");
        Run r = Run.of("plan", in.toString(), "--capacity", "12");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("line 3, column 3");
    }

    @Test
    void csvOutputNeedsCsvInput() throws IOException {
        Path json = write("w.json", """
                { "buffers": [ { "name": "a", "size": 16, "space": "sram", "live": [0, 1] } ] }
                """);
        Run r = Run.of("plan", json.toString(), "-o", dir.resolve("o.csv").toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("CSV output");
    }

    @Test
    void minimizeFindsAndProvesTheSmallestCapacity() throws IOException {
        Path in = write("input.12.csv", INPUT_12);
        Run r = Run.of("plan", in.toString(), "--capacity", "40", "--minimize", "--time-limit", "20");
        assertThat(r.exit()).as(r.err()).isZero();
        // the plan keeps the given capacity and reaches the minimum, which equals the lower bound
        assertThat(r.err()).startsWith("minimize: ");
        assertThat(r.out()).startsWith("plan input.12 ")
                .containsPattern("mem\\s+local\\s+40\\s+12\\s+12\\s+12\\s.*optimal \\(lower bound\\)");
        // without --minimize as well: every plan is minimised by default
        Run plain = Run.of("plan", in.toString(), "--capacity", "40");
        assertThat(plain.out()).containsPattern("mem\\s+local\\s+40\\s+12\\s+12\\s+12\\s.*optimal \\(lower bound\\)");
    }

    @Test
    void minimizeGoesBelowTheHeuristicsByExactSearch() throws IOException {
        Path in = write("h.csv", ABOVE_THE_BOUND);
        assertThat(Run.of("plan", in.toString(), "--capacity", "11", "--solver", "best-fit").exit()).isEqualTo(5);
        Run r = Run.of("plan", in.toString(), "--capacity", "100", "--solver", "exact", "--minimize", "--time-limit", "20");
        assertThat(r.exit()).as(r.err()).isZero();
        // the bracket lines are progress: stderr; the table is the result: stdout (contract §7)
        assertThat(r.err()).contains("mem  [10, 12]  start: height 12, lower bound 10");
        assertThat(r.out()).doesNotContain("start: height").doesNotContain("minimize: every space")
                .containsPattern("mem\\s+local\\s+100\\s+10\\s+10\\s+10\\s.*exact\\s+optimal \\(lower bound\\)");
        Run at = Run.of("plan", in.toString(), "--capacity", "10", "--solver", "exact");
        assertThat(at.exit()).as(at.err()).isZero();
        Run below = Run.of("plan", in.toString(), "--capacity", "9", "--solver", "exact", "--json");
        assertThat(below.exit()).isEqualTo(5);
        assertThat(below.out()).contains("\"provablyInfeasible\": true");
        // a heuristic alone says it proved nothing, and --minimize refuses it
        Run greedy = Run.of("plan", in.toString(), "--capacity", "100", "--solver", "greedy");
        assertThat(greedy.out()).contains("[10, 12] heuristic only");
        Run refused = Run.of("plan", in.toString(), "--capacity", "100", "--solver", "greedy", "--minimize");
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err()).contains("--minimize", "auto or exact");
    }

    @Test
    void searchNodesSetTheSearchsWorkAndAreChecked() throws IOException {
        Path in = write("h.csv", ABOVE_THE_BOUND);
        Run r = Run.of("plan", in.toString(), "--capacity", "100", "--solver", "exact", "--search-nodes", "100000", "--json");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("\"highWater\": 10", "\"proof\": \"lower-bound\"", "\"timeLimited\": false");
        // one node: the first probe stops at once, the heuristics' 12 stays, and the plan says why
        Run one = Run.of("plan", in.toString(), "--capacity", "100", "--solver", "exact", "--search-nodes", "1", "--json");
        assertThat(one.exit()).as(one.err()).isZero();
        assertThat(one.out()).contains("\"highWater\": 12", "\"proof\": \"open\"", "\"open\": \"work-budget\"",
                "\"timeLimited\": false");
        Run benchOne = Run.of("bench", "minimalloc", in.getParent().toString(), "--capacity", "100", "--minimize",
                "--search-nodes", "1");
        assertThat(benchOne.exit()).as(benchOne.err()).isZero();
        assertThat(benchOne.out()).contains("[10, 12] work budget spent");
        for (String bad : List.of("0", "-3")) {
            Run refused = Run.of("plan", in.toString(), "--capacity", "100", "--search-nodes", bad);
            assertThat(refused.exit()).isEqualTo(2);
            assertThat(refused.err()).contains("--search-nodes: must be at least 1 search node, got " + bad);
        }
        Run heuristic = Run.of("plan", in.toString(), "--capacity", "100", "--solver", "best-fit", "--search-nodes", "5");
        assertThat(heuristic.exit()).isEqualTo(2);
        assertThat(heuristic.err()).contains("--search-nodes", "auto or exact");
        Run bench = Run.of("bench", "minimalloc", in.getParent().toString(), "--capacity", "100", "--minimize",
                "--search-nodes", "100000");
        assertThat(bench.exit()).as(bench.err()).isZero();
        assertThat(bench.out()).contains("--minimize --search-nodes 100000 --time-limit");
        Run benchBad = Run.of("bench", "minimalloc", in.getParent().toString(), "--capacity", "100", "--search-nodes", "0");
        assertThat(benchBad.exit()).isEqualTo(2);
        assertThat(benchBad.err()).contains("--search-nodes: must be at least 1 search node, got 0");
    }

    @Test
    void aSearchProvesAnOptimumAboveTheLowerBound() throws IOException {
        // the fixed region at 4..6 pushes the 5-byte buffer to 6..11: 11 is the least height,
        // though only 8 bytes are ever live
        Path in = write("frag.csv", """
                id,lower,upper,size,offset
                f,0,2,2,4
                b,0,2,5,
                c,1,3,1,
                """);
        Run r = Run.of("plan", in.toString(), "--capacity", "100", "--json");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("\"highWater\": 11", "\"peakLive\": 8", "\"lowerBound\": 11",
                "\"proof\": \"search\"", "\"timeLimited\": false");
        Run table = Run.of("plan", in.toString(), "--capacity", "100");
        assertThat(table.out()).contains("optimal (search)");
    }

    @Test
    void aFixedRowEndingPastTheCapacityIsCalledAFixedRegionFromTheFirstSentence() throws IOException {
        Path in = write("past.csv", """
                id,lower,upper,size,offset
                b1,0,3,4,0
                b2,3,9,4,60
                b3,0,9,4,
                """);
        Run r = Run.of("plan", in.toString(), "--capacity", "32");
        assertThat(r.exit()).isEqualTo(5);
        assertThat(r.err()).startsWith("berth: capacity-exceeded: fixed region b2 in space mem: start 60 is past the "
                + "usable capacity 32").contains("the fixed region b2 sits at 60").doesNotContain("buffer b2");
    }

    @Test
    void aSearchProvedInfeasibilityNamesASmallSubset() throws IOException {
        // the fixed region at 4..6 leaves no 5 contiguous bytes in 10, though only 8 are live
        Path in = write("frag.csv", """
                id,lower,upper,size,offset
                f,0,2,2,4
                b,0,2,5,
                c,1,3,1,
                """);
        Run r = Run.of("plan", in.toString(), "--capacity", "10", "--json");
        assertThat(r.exit()).isEqualTo(5);
        assertThat(r.out()).contains("\"provablyInfeasible\": false").contains("a complete search proved")
                .containsPattern("\"infeasibleSubset\": \\[\\s*\"f\",\\s*\"b\"\\s*\\]");
        assertThat(Run.of("plan", in.toString(), "--capacity", "11").exit()).isZero();
    }

    @Test
    void benchSolvesValidatesAndTotals() throws IOException {
        write("input.12.csv", INPUT_12);
        write("tight.11.csv", INPUT_12);
        Files.writeString(dir.resolve("README.md"), "not an instance");
        Run r = Run.of("bench", "minimalloc", dir.toString(), "--time-limit", "20");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).containsPattern("input\\.12\\.csv\\s+5\\s+12\\s+12\\s+yes\\s+12\\s+1\\.000");
        assertThat(r.out()).containsPattern("tight\\.11\\.csv\\s+5\\s+11\\s+12\\s+no \\(proved infeasible\\)");
        assertThat(r.out()).contains("total: 1 of 2 solved and validated");
        Run heur = Run.of("bench", "minimalloc", dir.resolve("input.12.csv").toString(), "--solver", "best-fit");
        assertThat(heur.out()).contains("total: 1 of 1 solved and validated");
        Run sky = Run.of("bench", "minimalloc", dir.resolve("input.12.csv").toString(), "--solver", "skyline");
        assertThat(sky.out()).contains("--solver skyline").contains("total: 1 of 1 solved and validated");
        Run min = Run.of("bench", "minimalloc", dir.toString(), "--minimize", "--time-limit", "20");
        assertThat(min.exit()).as(min.err()).isZero();
        assertThat(min.out()).contains("--minimize")
                .containsPattern("input\\.12\\.csv\\s+5\\s+12\\s+12\\s+yes\\s+12\\s+1\\.000\\s+optimal \\(lower bound\\)")
                .contains("total: 1 of 2 solved and validated, 1 proved optimal");
    }

    @Test
    void benchNeedsACapacityPerFile() throws IOException {
        write("nameless.csv", INPUT_12);
        Run r = Run.of("bench", "minimalloc", dir.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("no capacity in the file name");
        Run given = Run.of("bench", "minimalloc", dir.toString(), "--capacity", "12");
        assertThat(given.exit()).isZero();
        assertThat(given.out()).contains("total: 1 of 1 solved");
    }

    @Test
    void benchIdeallocPlansEveryCsvUnderTheDirectoriesWithNoCapacity() throws IOException {
        Path suite = Files.createDirectories(dir.resolve("suite").resolve("deep"));
        Files.writeString(suite.resolve("input.csv"), INPUT_12);
        Files.writeString(dir.resolve("suite").resolve("README.md"), "not an instance");
        Path single = write("single.csv", INPUT_12);
        Run r = Run.of("bench", "idealloc", dir.resolve("suite").toString(), single.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        // buffers, lower bound, height, height / lower bound, solver, proof
        assertThat(r.out()).containsPattern("suite/deep/input\\.csv\\s+5\\s+12\\s+12\\s+1\\.0000\\s+\\S+\\s+"
                + "optimal \\(lower bound\\)");
        assertThat(r.out()).containsPattern("\\ssingle\\.csv\\s+5\\s+12\\s+12\\s+1\\.0000");
        assertThat(r.out()).contains("total: 2 instances planned and validated, 2 proved optimal");
        Run heur = Run.of("bench", "idealloc", single.toString(), "--solver", "greedy");
        assertThat(heur.out()).containsPattern("single\\.csv\\s+5\\s+12\\s+\\d+\\s+\\d\\.\\d{4}\\s+greedy");
        Path empty = Files.createDirectories(dir.resolve("empty"));
        Run none = Run.of("bench", "idealloc", empty.toString());
        assertThat(none.exit()).isEqualTo(2);
        assertThat(none.err()).contains("no .csv files");
        Run bad = Run.of("bench", "idealloc", single.toString(), "--solver", "greedy", "--minimize");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("--minimize needs --solver auto or exact");
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"auto", "greedy", "best-fit", "skyline", "exact"})
    void bytesLiveTogetherPast2To63AreArithmeticOverflowWhateverTheSolver(String solver) throws IOException {
        Path in = write("ovf.csv", "id,lower,upper,size\n0,0,1,9223372036854775807\n1,0,1,9223372036854775807\n");
        Run r = Run.of("plan", in.toString(), "--capacity", "9223372036854775807", "--solver", solver);
        assertThat(r.exit()).as(r.err()).isEqualTo(4);
        assertThat(r.err()).contains("arithmetic-overflow", "space mem", "pass 2^63-1");
    }
}

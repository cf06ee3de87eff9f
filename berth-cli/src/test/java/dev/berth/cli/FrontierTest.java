package dev.berth.cli;

import dev.berth.TestData;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The best placements known of MiniMalloc's D and J ({@code testdata/benchmarks/minimalloc-frontier},
 * see its README), checked as certificates of the upper end of each bracket: every row is the
 * instance's own row (id, lifetime, size, in order) with an offset, so every row is a fixed region;
 * {@code plan} accepts the placement (the reader refuses fixed rows that overlap, the admission check
 * one past the capacity, and the independent validator re-checks the plan before it is printed), its
 * high-water mark is the height in the file's name, and the peak of live bytes, the lower end, is the
 * instance's. One byte less capacity, or two rows moved onto each other, is refused.
 */
class FrontierTest {
    /** The instances, with their peak of live bytes (testdata/benchmarks/minimalloc/README.md). */
    private static final List<String[]> INSTANCES = List.of(new String[]{"D", "986112"}, new String[]{"J", "989184"});

    @TempDir
    Path dir;

    static Path certificate(String instance) throws IOException {
        Path frontier = TestData.require("benchmarks/minimalloc-frontier");
        try (Stream<Path> s = Files.list(frontier)) {
            List<Path> found = s.filter(p -> p.getFileName().toString().matches(instance + "\\.\\d+\\.csv")).toList();
            assertThat(found).as("one placement of %s in %s", instance, frontier).hasSize(1);
            return found.get(0);
        }
    }

    static long height(Path certificate) {
        String name = certificate.getFileName().toString();
        return Long.parseLong(name.substring(name.indexOf('.') + 1, name.lastIndexOf('.')));
    }

    @TestFactory
    List<DynamicTest> theBestPlacementsKnownAreValidAtTheirHeights() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String[] instance : INSTANCES) {
            tests.add(DynamicTest.dynamicTest(instance[0], () -> {
                Path cert = certificate(instance[0]);
                long h = height(cert);
                List<String> rows = Files.readAllLines(cert);
                List<String> original = Files.readAllLines(
                        TestData.require("benchmarks/minimalloc/" + instance[0] + ".1048576.csv"));
                assertThat(rows.get(0)).isEqualTo(original.get(0) + ",offset");
                assertThat(rows).hasSameSizeAs(original);
                for (int i = 1; i < rows.size(); i++) {
                    String row = rows.get(i);
                    assertThat(row.substring(0, row.lastIndexOf(','))).as("row %d", i).isEqualTo(original.get(i));
                    assertThat(row.substring(row.lastIndexOf(',') + 1)).as("row %d's offset", i).matches("\\d+");
                }
                Run ok = Run.of("plan", cert.toString(), "--capacity", Long.toString(h), "--json");
                assertThat(ok.exit()).as(ok.err()).isZero();
                assertThat(ok.out()).contains("\"highWater\": " + h, "\"peakLive\": " + instance[1]);
                // one byte less does not hold it: the height is the placement's own
                Run below = Run.of("plan", cert.toString(), "--capacity", Long.toString(h - 1), "--json");
                assertThat(below.exit()).as(below.err()).isEqualTo(5);
                assertThat(below.out()).contains("\"category\": \"capacity-exceeded\"", "\"provablyInfeasible\": true",
                        "ends at " + h + ", past the " + (h - 1) + " bytes available").doesNotContain("--solver");
                // two rows live together moved onto each other: refused as input
                Path bad = dir.resolve(instance[0] + ".bad.csv");
                Files.write(bad, overlapping(rows));
                Run refused = Run.of("plan", bad.toString(), "--capacity", Long.toString(2 * h));
                assertThat(refused.exit()).as(refused.err()).isEqualTo(2);
                assertThat(refused.err()).contains("invalid-input", "overlaps");
            }));
        }
        return tests;
    }

    /**
     * J's certificate comes from the exact search on J with its times renumbered by rank
     * ({@code minimalloc-frontier/renumbered/J.csv}, its README): the same instance, since only the
     * order of the times matters, and one search at the limit 1,015,808 finds the placement in a
     * few thousand nodes. The file must be J renumbered, row for row, and the command must give
     * the certificate's offsets again.
     */
    @Test
    void jRenumberedByRankGivesJsCertificateAgain() throws IOException {
        List<String> original = Files.readAllLines(TestData.require("benchmarks/minimalloc/J.1048576.csv"));
        Path renumbered = TestData.require("benchmarks/minimalloc-frontier/renumbered/J.csv");
        List<String> rows = Files.readAllLines(renumbered);
        // the rank of a time among the instance's distinct lower and upper ends
        TreeSet<Long> times = new TreeSet<>();
        for (String row : original.subList(1, original.size())) {
            String[] c = row.split(",");
            times.add(Long.parseLong(c[1]));
            times.add(Long.parseLong(c[2]));
        }
        List<Long> sorted = new ArrayList<>(times);
        assertThat(rows).hasSameSizeAs(original);
        assertThat(rows.get(0)).isEqualTo(original.get(0));
        for (int i = 1; i < rows.size(); i++) {
            String[] c = original.get(i).split(",");
            String expected = c[0] + "," + Collections.binarySearch(sorted, Long.parseLong(c[1])) + ","
                    + Collections.binarySearch(sorted, Long.parseLong(c[2])) + "," + c[3];
            assertThat(rows.get(i)).as("row %d", i).isEqualTo(expected);
        }
        Path cert = certificate("J");
        long h = height(cert);
        assertThat(h).isEqualTo(1_015_808);
        Path out = dir.resolve("J.renumbered.csv");
        Run r = Run.of("plan", renumbered.toString(), "--capacity", Long.toString(h), "--solver", "exact",
                "--search-nodes", "100000", "--time-limit", "600", "-q", "-o", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).doesNotContain("time limit")
                .containsPattern("mem\\s+local\\s+" + h + "\\s+" + h + "\\s");
        List<String> placed = Files.readAllLines(out);
        List<String> certified = Files.readAllLines(cert);
        assertThat(placed).hasSameSizeAs(certified);
        for (int i = 1; i < placed.size(); i++) {
            assertThat(offset(placed.get(i))).as("row %d's offset", i).isEqualTo(offset(certified.get(i)));
        }
    }

    private static String offset(String row) {
        return row.substring(row.lastIndexOf(',') + 1);
    }

    /** The rows with the second row's offset set to the first's, where both share a step. */
    private static List<String> overlapping(List<String> rows) {
        List<String> out = new ArrayList<>(rows);
        String[] a = rows.get(1).split(",");
        for (int i = 2; i < rows.size(); i++) {
            String[] b = rows.get(i).split(",");
            boolean together = Long.parseLong(a[1]) < Long.parseLong(b[2]) && Long.parseLong(b[1]) < Long.parseLong(a[2]);
            if (together) {
                b[4] = a[4];
                out.set(i, String.join(",", b));
                return out;
            }
        }
        throw new AssertionError("no row shares a step with the first");
    }
}

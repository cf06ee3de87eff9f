package dev.berth.cli;

import dev.berth.TestData;
import org.junit.jupiter.api.Test;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code berth bench idealloc} on the instance of idealloc's suite where Berth's heuristics
 * alone are higher than idealloc (testdata/benchmarks/idealloc/README.md): {@code auto}'s
 * skyline dive, which it runs up to {@code WorkPolicy.SKYLINE_UP_TO} items, keeps the height
 * at or below idealloc's best.
 */
class IdeallocHeightTest {
    /** idealloc's best height on pangu_2.6B ({@code -l 100}), from the README's table. */
    private static final long IDEALLOC_BEST = 5_671_550_667L;

    private static long height(Run r, String instance) {
        // buffers, lower bound, height, height / lower bound, solver
        Matcher m = Pattern.compile(Pattern.quote(instance) + "\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+\\d\\.\\d{4}\\s+(\\S+)")
                .matcher(r.out());
        assertThat(m.find()).as(r.out()).isTrue();
        return Long.parseLong(m.group(3));
    }

    @Test
    void autoIsAtMostIdeallocsBestOnPangu26BWhereGreedyAndBestFitAreAbove() {
        String file = TestData.require("benchmarks/idealloc/somas/pangu_2.6B.csv").toString();
        Run auto = Run.of("bench", "idealloc", file);
        assertThat(auto.exit()).as(auto.err()).isZero();
        assertThat(auto.out()).containsPattern("pangu_2\\.6B\\.csv\\s+18692\\s+5530099775\\s+\\d+\\s+\\d\\.\\d{4}\\s+skyline");
        long h = height(auto, "pangu_2.6B.csv");
        assertThat(h).isLessThanOrEqualTo(IDEALLOC_BEST);
        for (String heuristic : new String[]{"greedy", "best-fit"}) {
            Run r = Run.of("bench", "idealloc", file, "--solver", heuristic);
            assertThat(r.exit()).as(r.err()).isZero();
            assertThat(height(r, "pangu_2.6B.csv")).as(heuristic).isGreaterThan(IDEALLOC_BEST);
        }
    }
}

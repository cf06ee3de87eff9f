package dev.berth.cli;

import dev.berth.TestData;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The best placement known of D comes from Berth's own search, and one command gives it again:
 * {@code plan D.1048576.csv --capacity 1000448 --solver exact --search-nodes 7000000 --time-limit 3000},
 * the exact search at the certificate's height with the node count of the probe that found it
 * (testdata/benchmarks/minimalloc-frontier/README.md), writes the certificate's bytes exactly (node
 * counts bound the search; the time limit is only a safety net, and the test fails if it stopped a
 * search). About a minute: {@code mvn -B -Pfrontier verify}, which {@code .ci/run} runs when its time
 * allows. (J's comes from one short search, which {@link FrontierTest} repeats in the default run.)
 */
@Tag("frontier")
class FrontierReproductionTest {
    @TempDir
    Path dir;

    @Test
    void oneSearchAtItsHeightGivesDsCertificateAgain() throws IOException {
        Path cert = FrontierTest.certificate("D");
        long h = FrontierTest.height(cert);
        Path out = dir.resolve("D.csv");
        Run r = Run.of("plan", TestData.require("benchmarks/minimalloc/D.1048576.csv").toString(),
                "--capacity", Long.toString(h), "--solver", "exact", "--search-nodes", "7000000",
                "--time-limit", "3000", "-q", "-o", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).doesNotContain("time limit")
                .containsPattern("mem\\s+local\\s+" + h + "\\s+" + h + "\\s");
        assertThat(Files.readString(out)).isEqualTo(Files.readString(cert));
    }
}

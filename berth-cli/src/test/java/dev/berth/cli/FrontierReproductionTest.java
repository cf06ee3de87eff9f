package dev.berth.cli;

import dev.berth.TestData;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The best placement known of D comes from Berth's own command, and it gives it again:
 * {@code plan D.1048576.csv --capacity 1048576 --minimize --search-nodes 100000000 --time-limit 7200}
 * writes the certificate's bytes exactly (node counts bound the search; the time limit is only a
 * safety net, and the test fails if it stopped a search). About ten minutes:
 * {@code mvn -B -Pfrontier verify}, which {@code .ci/run} runs when its time allows. (J's comes from
 * one short search, which {@link FrontierTest} repeats in the default run.)
 */
@Tag("frontier")
class FrontierReproductionTest {
    /** The search nodes D's certificate was found with (testdata/benchmarks/minimalloc-frontier/README.md). */
    static final String NODES = "100000000";

    @TempDir
    Path dir;

    @TestFactory
    List<DynamicTest> theCommandGivesTheCertificatesAgain() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String instance : List.of("D")) {
            tests.add(DynamicTest.dynamicTest(instance, () -> {
                Path cert = FrontierTest.certificate(instance);
                Path out = dir.resolve(instance + ".csv");
                Run r = Run.of("plan", TestData.require("benchmarks/minimalloc/" + instance + ".1048576.csv").toString(),
                        "--capacity", "1048576", "--minimize", "--search-nodes", NODES, "--time-limit", "7200", "-q",
                        "-o", out.toString());
                assertThat(r.exit()).as(r.err()).isZero();
                assertThat(r.out()).doesNotContain("time limit");
                assertThat(Files.readString(out)).isEqualTo(Files.readString(cert));
                assertThat(r.out()).containsPattern("mem\\s+local\\s+1048576\\s+" + FrontierTest.height(cert) + "\\s");
            }));
        }
        return tests;
    }
}

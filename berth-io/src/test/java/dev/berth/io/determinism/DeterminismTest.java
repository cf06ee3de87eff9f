package dev.berth.io.determinism;

import dev.berth.io.SharedData;
import dev.berth.plan.SolverChoice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same inputs and options give a byte-identical artifact (or the same error object): run
 * again in the same JVM, in another order, on 4 threads at once, and in a fresh JVM whose
 * identity hash codes are all equal (so an order that leaned on them would change). Berth's
 * solvers are single-threaded (no solver has a thread-count setting); planning from several
 * threads at once checks that no shared state leaks between plans. The cases are the shared
 * models (skipped without {@code ../shared}) with every solver, and seeded random workloads
 * on {@code npu-ref} with every solver. Searches are given 60 s and finish far below it; only
 * a search cut off by its time limit may depend on the machine (docs/reliability.md).
 */
class DeterminismTest {
    private static final long SEED = Long.getLong("berth.determinism.seed", 0x5EED_2026L);
    private static final int WORKLOADS = Integer.getInteger("berth.determinism.workloads", 60);

    static Stream<Arguments> models() {
        return Stream.of(
                Arguments.of("ch_PP-OCRv4_det_infer.onnx", List.of("x=1x3x640x640")),
                Arguments.of("ch_ppocr_mobile_v2.0_cls_infer.onnx", List.of("x=1x3x48x192")),
                Arguments.of("silero_vad_legacy.onnx", List.of("input=1x1536", "sr=16000")),
                Arguments.of("hello_deepa.onnx", List.of()));
    }

    @Test
    void randomWorkloadsGiveIdenticalBytesAgainInAnyOrderAndOnFourThreads() throws Exception {
        System.out.printf("determinism: seed %d (-Dberth.determinism.seed), %d workloads x %d solvers%n", SEED,
                WORKLOADS, SolverChoice.values().length);
        List<PlanDigests.Case> cases = PlanDigests.random(SEED, WORKLOADS);
        Map<String, String> first = PlanDigests.digests(cases);
        List<PlanDigests.Case> reversed = new ArrayList<>(cases);
        Collections.reverse(reversed);
        Map<String, String> again = PlanDigests.digests(reversed);
        assertThat(again).containsExactlyInAnyOrderEntriesOf(first);
        assertThat(concurrently(PlanDigests.random(SEED, WORKLOADS), 4)).containsExactlyEntriesOf(first);
        // the digests tell cases apart (a constant digest would prove nothing)
        assertThat(new java.util.HashSet<>(first.values())).hasSizeGreaterThan(cases.size() / 2);
    }

    @Test
    void aFreshJvmGivesTheSameBytesForRandomWorkloads() throws Exception {
        int n = Math.min(WORKLOADS, 20);
        Map<String, String> here = PlanDigests.digests(PlanDigests.random(SEED, n));
        assertThat(inFreshJvm("random", Long.toString(SEED), Integer.toString(n))).containsExactlyEntriesOf(here);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("models")
    void sharedModelsGiveIdenticalBytesWithEverySolver(String file, List<String> inputs) throws Exception {
        Path model = SharedData.require("models/" + file);
        List<PlanDigests.Case> cases = new ArrayList<>();
        for (SolverChoice s : SolverChoice.values()) {
            cases.add(PlanDigests.model(model, inputs, s));
        }
        Map<String, String> first = PlanDigests.digests(cases);
        List<PlanDigests.Case> reimported = new ArrayList<>();
        for (SolverChoice s : SolverChoice.values()) {
            reimported.add(PlanDigests.model(model, inputs, s));
        }
        assertThat(PlanDigests.digests(reimported)).containsExactlyEntriesOf(first);
        assertThat(concurrently(reimported, 4)).containsExactlyEntriesOf(first);
        List<String> args = new ArrayList<>(List.of("model", model.toString(), SolverChoice.AUTO.id()));
        args.addAll(inputs);
        String label = file + "/" + SolverChoice.AUTO.id();
        assertThat(inFreshJvm(args.toArray(String[]::new))).containsExactly(Map.entry(label, first.get(label)));
    }

    /** Digests of {@code cases} planned by {@code threads} threads at once. */
    private static Map<String, String> concurrently(List<PlanDigests.Case> cases, int threads) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<String>> futures = new ArrayList<>();
            for (PlanDigests.Case c : cases) {
                futures.add(pool.submit(() -> PlanDigests.digest(PlanDigests.outcome(c))));
            }
            Map<String, String> out = new LinkedHashMap<>();
            for (int i = 0; i < cases.size(); i++) {
                out.put(cases.get(i).label(), futures.get(i).get());
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Runs {@link PlanDigests#main} in a new JVM on this test's class path, every identity hash code 1. */
    private static Map<String, String> inFreshJvm(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UnlockExperimentalVMOptions", "-XX:hashCode=2", "-cp", System.getProperty("java.class.path"),
                PlanDigests.class.getName()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as("the fresh JVM's exit code; it printed:%n%s", out).isZero();
        Map<String, String> digests = new LinkedHashMap<>();
        out.lines().forEach(line -> {
            int sp = line.lastIndexOf(' ');
            digests.put(line.substring(0, sp), line.substring(sp + 1));
        });
        return digests;
    }
}

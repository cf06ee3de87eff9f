package dev.berth.io.tflite;

import dev.berth.TestData;
import dev.berth.io.TargetJson;
import dev.berth.plan.PlanResult;
import dev.berth.plan.Planner;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.verify.PlanValidator;
import dev.berth.verify.Verdict;
import dev.berth.workload.FixedRegion;
import dev.berth.workload.Lifetime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A model that already holds an offline plan: Berth keeps its offsets of custom operators' tensors
 * (fixed regions of the arena), plans the rest around them, and writes its own plan only when its
 * layout is valid and TFLM's head with it is no larger than with the file's; {@code --replace-plan}
 * plans every tensor anew.
 */
class TflmFilePlanTest {
    private static final Target TFLM = TargetJson.load("tflm");

    private static ImportedTflite load(Path file, boolean replace) {
        return TfliteImport.read(file, TFLM, TfliteImport.Options.of().withReplacePlan(replace));
    }

    private static TflmHeadPlan.Choice choose(ImportedTflite m) {
        PlanResult r = Planner.plan(m.target(), m.workload(), Planner.Options.defaults());
        return TflmHeadPlan.choose(m, r, Planner.Options.defaults());
    }

    /**
     * person_detect_vela: Vela's plan puts the Ethos-U operator's input, output and both scratch
     * tensors at offset 0 (head 74,464). Berth keeps all four, so its plan is Vela's, head 74,464,
     * and the written model holds Vela's words; with --replace-plan it is Berth's own, 158,160.
     */
    @Test
    void velasPlanOfTheEthosUTensorsIsKept() throws Exception {
        Path vela = TestData.require("models/tflite/person_detect_vela.tflite");
        ImportedTflite m = load(vela, false);
        assertThat(m.keepsFilePlan()).isTrue();
        assertThat(m.kept()).extracting(TflmView.Entry::label).containsExactly("t0", "t3", "t4", "t5");
        assertThat(m.workload().buffers()).noneMatch(b -> b.space().name().equals("arena"));
        assertThat(m.workload().fixed()).extracting(FixedRegion::offset, FixedRegion::size, FixedRegion::live)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0L, 74464L, new Lifetime(0, 1)));
        TflmHeadPlan.Choice c = choose(m);
        assertThat(c.chosen()).isEqualTo(TflmHeadPlan.Source.BERTH);
        assertThat(c.predictedHead().getAsLong()).isEqualTo(74464);
        assertThat(c.file().orElseThrow().predictedHead()).isEqualTo(74464);
        assertThat(c.file().orElseThrow().valid()).isTrue();
        assertThat(c.offline()).containsExactly(m.fileOffsets());
        assertThat(c.result().plan().metrics(TFLM.space("arena", "test")).highWater()).isEqualTo(74464);
        assertThat(PlanValidator.validate(c.result().plan())).isInstanceOf(Verdict.Valid.class);
        byte[] out = TflmOfflinePlan.write(vela, m.model(), c.offline());
        TfliteModel back = TfliteReader.read(ByteBuffer.wrap(out), "out.tflite");
        assertThat(back.offlinePlan().orElseThrow()).containsExactly(m.model().offlinePlan().orElseThrow());

        ImportedTflite own = load(vela, true);
        assertThat(own.keepsFilePlan()).isFalse();
        assertThat(own.kept()).isEmpty();
        assertThat(own.workload().fixed()).isEmpty();
        TflmHeadPlan.Choice replaced = choose(own);
        assertThat(replaced.candidates()).noneMatch(k -> k.source() == TflmHeadPlan.Source.FILE);
        assertThat(replaced.predictedHead().getAsLong()).isEqualTo(158160);
    }

    /**
     * A file plan that places two tensors TFLM's lifetimes have live together at common bytes (no
     * custom operator: Berth judges them) fails Berth's validator: Berth writes its own plan, which
     * for person_detect is no larger.
     */
    @Test
    void aFilePlanThatOverlapsTensorsBerthJudgesIsReplaced() throws Exception {
        ImportedTflite m = TflmGroundTruthTest.load("person_detect.tflite");
        int[] good = choose(m).offline();
        List<TflmView.Entry> entries = m.view().entries();
        int a = -1;
        int b = -1;
        for (int i = 0; i < entries.size() && a < 0; i++) {
            for (int j = i + 1; j < entries.size() && a < 0; j++) {
                TflmView.Entry x = entries.get(i);
                TflmView.Entry y = entries.get(j);
                if (good[i] >= 0 && good[j] >= 0 && good[i] != good[j] && x.firstUsed() <= y.lastUsed()
                        && y.firstUsed() <= x.lastUsed()) {
                    a = i;
                    b = j;
                }
            }
        }
        int[] bad = good.clone();
        bad[b] = bad[a];
        Path file = Files.createTempFile("berth-overlap", ".tflite");
        try {
            Files.write(file, TflmOfflinePlan.write(TestData.require("models/tflite/person_detect.tflite"), m.model(), bad));
            ImportedTflite planned = load(file, false);
            assertThat(planned.keepsFilePlan()).isTrue();
            assertThat(planned.kept()).isEmpty();
            TflmHeadPlan.Choice c = choose(planned);
            assertThat(c.file().orElseThrow().valid()).as("the file's layout").isFalse();
            assertThat(c.chosen()).isNotEqualTo(TflmHeadPlan.Source.FILE);
            assertThat(c.offline()).containsExactly(good);
        } finally {
            Files.delete(file);
        }
    }

    /** A model planned by Berth and planned again: its own plan, equal, is written again (no larger). */
    @Test
    void berthsOwnPlanInTheFileIsWrittenAgain() throws Exception {
        Path in = TestData.require("models/tflite/keyword_scrambled_8bit.tflite");
        ImportedTflite m = load(in, false);
        assertThat(m.keepsFilePlan()).as("no plan in the original").isFalse();
        TflmHeadPlan.Choice first = choose(m);
        Path file = Files.createTempFile("berth-planned", ".tflite");
        try {
            Files.write(file, TflmOfflinePlan.write(in, m.model(), first.offline()));
            ImportedTflite again = load(file, false);
            TflmHeadPlan.Choice c = choose(again);
            assertThat(c.file().orElseThrow().predictedHead()).isEqualTo(first.predictedHead().getAsLong());
            assertThat(c.chosen()).isEqualTo(TflmHeadPlan.Source.BERTH);
            assertThat(c.offline()).containsExactly(first.offline());
        } finally {
            Files.delete(file);
        }
    }

    private static TflmView.Entry entry(int index, long offset, long bytes, int first, int last) {
        return new TflmView.Entry(0, index, "k" + index, 9, new int[] {(int) bytes}, bytes, false, false, true, first,
                last, (int) offset);
    }

    /**
     * The kept tensors' fixed regions, on seeded random tensors (overlapping each other at will): no
     * two regions share a byte at a step, and at every step a byte is in a region exactly when a
     * kept tensor live there holds it (its bytes rounded up to 16).
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
    void keptRegionsCoverExactlyTheKeptTensorsAndNeverOverlap(long seed) {
        Random r = new Random(seed);
        List<TflmView.Entry> kept = new ArrayList<>();
        int n = 1 + r.nextInt(8);
        for (int i = 0; i < n; i++) {
            int first = r.nextInt(6);
            kept.add(entry(i, 16L * r.nextInt(8), 1 + r.nextInt(60), first, first + r.nextInt(4)));
        }
        Space arena = TFLM.space("arena", "test");
        List<FixedRegion> regions = TfliteImport.keptRegions(kept, arena, 0);
        for (int step = 0; step < 12; step++) {
            for (long byteAt = 0; byteAt < 16 * 12; byteAt++) {
                int s = step;
                long x = byteAt;
                boolean held = kept.stream().anyMatch(e -> e.firstUsed() <= s && s <= e.lastUsed()
                        && e.offlineOffset() <= x && x < e.offlineEnd());
                long covering = regions.stream().filter(f -> f.live().first() <= s && s <= f.live().last()
                        && f.offset() <= x && x < f.offset() + f.size()).count();
                assertThat(covering).as("seed " + seed + ", step " + s + ", byte " + x).isEqualTo(held ? 1 : 0);
            }
        }
        assertThat(regions).allSatisfy(f -> assertThat(f.space()).isEqualTo(arena));
    }
}

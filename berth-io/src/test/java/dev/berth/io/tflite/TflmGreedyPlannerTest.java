package dev.berth.io.tflite;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.TestData;
import dev.berth.io.TflmScratchJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Berth's reimplementation of TFLM's greedy planner gives, for every model of
 * {@code testdata/models/tflite}, exactly the offsets and the head that the real TFLM computed
 * ({@code expected/}): with the kernels' scratch buffers ({@code tflm_plan}), without them
 * ({@code tflm_allocator_only}), under Vela's offline plan, and under the offline plan of a first-fit
 * prototype, which TFLM ran with an 800-byte head (verify-in-tflm.md).
 */
class TflmGreedyPlannerTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static JsonNode expected(String file) throws Exception {
        return JSON.readTree(TestData.require("models/tflite/expected/" + TfliteImport.stem(file) + ".json").toFile());
    }

    /** The models TFLM ran with its kernels: those with a {@code tflm_plan} (all but Vela's). */
    static Stream<String> withKernels() throws Exception {
        List<String> out = new ArrayList<>();
        for (String f : TflmGroundTruthTest.models().toList()) {
            if (expected(f).path("tflm_plan").isObject()) {
                out.add(f);
            }
        }
        return out.stream();
    }

    static List<TflmScratch> scratch(String file) {
        Path p = TestData.require("tflm-scratch/" + TfliteImport.stem(file) + ".json");
        return TflmScratchJson.read(p);
    }

    @Test
    void sevenModelsRanWithKernels() throws Exception {
        assertThat(withKernels()).hasSize(7);
    }

    @ParameterizedTest
    @MethodSource("withKernels")
    void tensorsAndScratchBuffersGoWhereTflmPutThem(String file) throws Exception {
        JsonNode x = expected(file);
        TflmView view = TflmGroundTruthTest.load(file).view();
        List<TflmScratch> scratch = scratch(file);
        JsonNode xs = x.get("tflm_plan").get("scratch_buffers");
        assertThat(scratch).hasSize(xs.size());
        TflmGreedyPlanner.ModelPlan p = TflmGreedyPlanner.ofModel(view, null, scratch);
        long[] tensors = p.tensorOffset();
        for (int i = 0; i < tensors.length; i++) {
            JsonNode t = x.get("tensors").get(i);
            long want = t.get("tflm_offset").isNull() ? -1 : t.get("tflm_offset").asLong();
            assertThat(tensors[i]).as(file + " tensor " + i).isEqualTo(want);
        }
        long[] at = p.scratchOffset();
        for (int k = 0; k < at.length; k++) {
            assertThat(at[k]).as(file + " scratch " + k).isEqualTo(xs.get(k).get("offset").asLong());
        }
        assertThat(p.head()).isEqualTo(x.get("tflm_plan").get("head_bytes").asLong());
        assertThat(p.tensorHead(view)).isEqualTo(x.get("tflm_plan").get("tensor_head_bytes").asLong());
    }

    @ParameterizedTest
    @MethodSource("dev.berth.io.tflite.TflmGroundTruthTest#models")
    void tensorsAloneGoWhereTflmsAllocatorPutThem(String file) throws Exception {
        JsonNode only = expected(file).get("tflm_allocator_only");
        TflmView view = TflmGroundTruthTest.load(file).view();
        // TFLM's allocator applies an offline plan the file holds (Vela's), else plans every tensor online
        int[] offline = view.entries().stream().mapToInt(TflmView.Entry::offlineOffset).toArray();
        boolean inFile = TflmGroundTruthTest.load(file).model().offlinePlan().isPresent();
        TflmGreedyPlanner.ModelPlan p = TflmGreedyPlanner.ofModel(view, inFile ? offline : null, List.of());
        long[] tensors = p.tensorOffset();
        for (int i = 0; i < tensors.length; i++) {
            JsonNode o = only.get("offsets").get(i);
            assertThat(tensors[i]).as(file + " tensor " + i).isEqualTo(o.isNull() ? -1 : o.asLong());
        }
        assertThat(p.head()).isEqualTo(only.get("head_bytes").asLong());
        assertThat(p.tensorHead(view)).isEqualTo(only.get("tensor_head_bytes").asLong());
    }

    @Test
    void velasModelWithItsPlanIgnoredNeedsTflmsOnlineHead() throws Exception {
        JsonNode x = expected("person_detect_vela.tflite").get("tflm_allocator_only_ignoring_vela_plan");
        TflmView view = TflmGroundTruthTest.load("person_detect_vela.tflite").view();
        assertThat(TflmGreedyPlanner.ofModel(view, null, List.of()).head()).isEqualTo(x.get("head_bytes").asLong());
    }

    /**
     * verify-in-tflm.md: an offline plan of keyword_scrambled_8bit's tensors within 288 bytes (a
     * first-fit prototype's, which put the tensors where TFLM's allocator alone puts them) gave a head
     * of 800 bytes in TFLM, once TFLM had placed the kernels' scratch buffers around it.
     */
    @Test
    void keywordScrambledsTensorOnlyPlanEndsAt800BytesAsInTflm() throws Exception {
        String file = "keyword_scrambled_8bit.tflite";
        TflmView view = TflmGroundTruthTest.load(file).view();
        JsonNode offsets = expected(file).get("tflm_allocator_only").get("offsets");
        int[] offline = new int[offsets.size()];
        for (int i = 0; i < offline.length; i++) {
            offline[i] = offsets.get(i).isNull() ? -1 : offsets.get(i).asInt();
        }
        TflmGreedyPlanner.ModelPlan p = TflmGreedyPlanner.ofModel(view, offline, scratch(file));
        assertThat(p.tensorHead(view)).isEqualTo(288);
        assertThat(p.head()).isEqualTo(800);
        // the tensors stay where the plan put them
        long[] at = p.tensorOffset();
        for (int i = 0; i < offline.length; i++) {
            assertThat(at[i]).isEqualTo(offline[i]);
        }
    }

    private static TflmGreedyPlanner.Buffer online(long size, int first, int last) {
        return new TflmGreedyPlanner.Buffer(size, first, last, TflmGreedyPlanner.ONLINE);
    }

    @Test
    void largestFirstEqualSizesLastAddedFirstEachInTheLowestGap() {
        // two 256-byte buffers at the same step: the one added last goes first, to 0
        TflmGreedyPlanner.Result r = TflmGreedyPlanner.plan(List.of(online(256, 2, 2), online(256, 2, 2),
                online(64, 1, 1), online(512, 0, 3)));
        assertThat(r.offsets()).containsExactly(768, 512, 512, 0);
        assertThat(r.head()).isEqualTo(1024);
        // a buffer not live with the placed ones goes to 0; one that fits a gap between two live ones goes there
        r = TflmGreedyPlanner.plan(List.of(online(100, 0, 5), new TflmGreedyPlanner.Buffer(50, 0, 5, 200),
                online(100, 0, 1), online(60, 6, 6)));
        // order: the offline buffer (at 200), then the two of 100 bytes, the one added later first (to 0, below
        // the offline one), then the other into the gap [100, 200) between the two, then 60 bytes alone at step 6
        assertThat(r.offsets()).containsExactly(100, 200, 0, 0);
        assertThat(r.head()).isEqualTo(250);
    }

    @Test
    void offlineBuffersStayWhereTheyAreEvenOverlappingAndOnlineOnesGoAroundThem() {
        TflmGreedyPlanner.Result r = TflmGreedyPlanner.plan(List.of(new TflmGreedyPlanner.Buffer(64, 0, 2, 32),
                new TflmGreedyPlanner.Buffer(64, 1, 3, 64), online(32, 1, 1), online(16, 0, 0), online(48, 4, 4)));
        // 32: [0,32) is free below both; 16 at step 0 is live with the first offline one only: [0,16) too
        // (the 32-byte one is not live at step 0); 48 at step 4 is live with nothing
        assertThat(r.offsets()).containsExactly(32, 64, 0, 0, 0);
        assertThat(r.head()).isEqualTo(128);
        // a gap too small is skipped: [0, 32) cannot hold 48 bytes, so it goes after the highest end
        r = TflmGreedyPlanner.plan(List.of(new TflmGreedyPlanner.Buffer(64, 0, 2, 32), online(48, 1, 1)));
        assertThat(r.offsets()).containsExactly(32, 96);
        assertThat(TflmGreedyPlanner.plan(List.of()).head()).isZero();
    }
}

package dev.berth.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.admit.Admission;
import dev.berth.alloc.SpaceAllocator;
import dev.berth.arith.Checked;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.plan.PlanResult;
import dev.berth.plan.Planner;
import dev.berth.target.Target;
import dev.berth.target.Space;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.FixedRegion;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Origin;
import dev.berth.workload.Workload;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The seed's teaching cases on the bundled {@code teaching} target as Berth ships it, down to
 * the JSON error object of contract §7; and the logical space of {@code npu-ref} taking an
 * 11 KiB plan with no capacity anywhere.
 */
class TeachingTargetTest {
    private static final Target TEACHING = TargetJson.load("teaching");

    @Test
    void twentySevenAlignedToTenIsThirtyAndTheLimitTwentyNineRejectsIt() {
        assertThat(Checked.alignUp(27, 10)).isEqualTo(30);
        BerthException e = catchThrowableOfType(BerthException.class,
                () -> Admission.admit(TEACHING.spaces().get("global"), "t0", 27, 1, 1));
        assertThat(e.category()).isEqualTo(Category.ADDRESS_NOT_ENCODABLE);
        assertThat(e.failure().message()).contains("start 27 aligned up to a multiple of 10 needs 3 bytes of padding, "
                + "but only 2 remain below the largest encodable offset 29");
    }

    @Test
    void theAllocatorsCapacityFailureHasTheContractsFields() throws IOException {
        SpaceAllocator alloc = new SpaceAllocator(TEACHING.spaces().get("local"));
        alloc.reserveAt("abi", new Lifetime(0, 3), 0, 30, 1, Admission.Mode.EXACT, Origin.FIXED);
        BerthException e = catchThrowableOfType(BerthException.class,
                () -> alloc.reserve("t1", new Lifetime(1, 3), 21, 10, Origin.TENSOR));
        JsonNode error = new ObjectMapper().readTree(FailureJson.toJson(e.failure())).get("error");
        assertThat(fieldNames(error)).containsExactly("category", "message", "buffer", "space", "start", "requested",
                "reserved", "alignment", "limit", "limitSource", "provablyInfeasible");
        assertThat(error.get("category").asText()).isEqualTo("capacity-exceeded");
        assertThat(error.get("start").asLong()).isEqualTo(30);
        assertThat(error.get("requested").asLong()).isEqualTo(21);
        assertThat(error.get("reserved").asLong()).isEqualTo(30);
        assertThat(error.get("alignment").asLong()).isEqualTo(10);
        assertThat(error.get("limit").asLong()).isEqualTo(55);
        assertThat(error.get("limitSource").asText()).isEqualTo("space local: capacity 55");
        // the allocator alone cannot know that no placement fits: that is the planner's diagnosis
        assertThat(error.get("provablyInfeasible").asBoolean()).isFalse();
        assertThat(error.get("message").asText()).contains("21 bytes requested, 30 reserved").contains("only 25 bytes");
    }

    /** Contract §7's example: the planner's failure for the same workload, field for field. */
    @Test
    void thePlannersFailureIsTheContractsExample() throws IOException {
        Space local = TEACHING.space("local", "test");
        Workload w = new Workload("teaching",
                List.of(new BufferSpec("t1", 21, local, 10, new Lifetime(1, 3), Optional.empty())),
                List.of(new FixedRegion("abi", local, 0, 30, new Lifetime(0, 3))));
        BerthException e = catchThrowableOfType(BerthException.class,
                () -> Planner.plan(TEACHING, w, Planner.Options.defaults()));
        assertThat(e.category()).isEqualTo(Category.CAPACITY_EXCEEDED);
        assertThat(e.category().exitCode()).isEqualTo(5);
        JsonNode error = new ObjectMapper().readTree(FailureJson.toJson(e.failure())).get("error");
        assertThat(fieldNames(error)).containsExactly("category", "message", "buffer", "space", "start", "requested",
                "reserved", "alignment", "limit", "limitSource", "provablyInfeasible", "step");
        assertThat(error.get("category").asText()).isEqualTo("capacity-exceeded");
        assertThat(error.get("buffer").asText()).isEqualTo("t1");
        assertThat(error.get("space").asText()).isEqualTo("local");
        assertThat(error.get("start").asLong()).isEqualTo(30);
        assertThat(error.get("requested").asLong()).isEqualTo(21);
        assertThat(error.get("reserved").asLong()).isEqualTo(30);
        assertThat(error.get("alignment").asLong()).isEqualTo(10);
        assertThat(error.get("limit").asLong()).isEqualTo(55);
        assertThat(error.get("limitSource").asText()).isEqualTo("space local: capacity 55");
        assertThat(error.get("provablyInfeasible").asBoolean()).isTrue();
        assertThat(error.get("step").asInt()).isEqualTo(1);
        // checkable by hand: 21 -> 30, 25 free; at step 1 the live reservations need 60 of 55
        assertThat(error.get("message").asText()).contains("21 bytes requested, 30 reserved").contains("only 25 bytes")
                .contains("step 1").contains("60").contains("55").contains("5 bytes over");
    }

    /** A logical space has no capacity at plan time: 11 KiB in npu-ref's global, no capacity anywhere. */
    @Test
    void aLogicalSpaceAcceptsAnElevenKibPlan() {
        Target npu = TargetJson.load("npu-ref");
        assertThat(npu.spaces().get("global").capacity()).isEqualTo(OptionalLong.empty());
        List<BufferSpec> buffers = new ArrayList<>();
        for (int i = 0; i < 11; i++) {
            buffers.add(new BufferSpec("b" + i, 1024, npu.space("global", "test"), 1, new Lifetime(0, 1), Optional.empty()));
        }
        PlanResult r = Planner.plan(npu, new Workload("eleven", buffers, List.of()), Planner.Options.defaults());
        SpaceMetrics global = r.plan().spaces().get("global");
        // 11 KiB of buffers, then npu-ref's instruction stream above them: 16 bytes x 2 steps, reserved 64
        assertThat(global.highWater() - global.generationOverhead()).isEqualTo(11 * 1024);
        assertThat(global.generationOverhead()).isEqualTo(64);
        assertThat(global.peakLive()).isEqualTo(11 * 1024 + 64);
        assertThat(global.capacity()).isEqualTo(OptionalLong.empty());
        assertThat(PlanJson.toString(r.plan())).doesNotContainPattern("\"global\"\\s*:\\s*\\{[^}]*capacity");
    }

    private static List<String> fieldNames(JsonNode n) {
        List<String> names = new ArrayList<>();
        n.fieldNames().forEachRemaining(names::add);
        return names;
    }
}

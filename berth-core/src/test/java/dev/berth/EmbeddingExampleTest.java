package dev.berth;

import dev.berth.artifact.Plan;
import dev.berth.plan.Planner;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Workload;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The README's "embed the core" example, kept compiling and true. */
class EmbeddingExampleTest {
    @Test
    void theReadmeExample() {
        // --- README example begins
        AddressFormat dma32 = new AddressFormat("dma32", 0xFFFF_FFFFL, EndConvention.EXCLUSIVE);
        Target target = Target.of("mine", Map.of("dma32", dma32),
                Map.of("global", new Space.Logical("global", dma32, 64, 0)), Optional.empty());
        Workload workload = new Workload("eleven", List.of(
                new BufferSpec("a", 4096, "global", 1, new Lifetime(0, 1)),
                new BufferSpec("b", 4096, "global", 1, new Lifetime(0, 1)),
                new BufferSpec("c", 3072, "global", 1, new Lifetime(1, 1))), List.of());
        Plan plan = Planner.plan(target, workload, Planner.Options.defaults()).plan(); // validated, or BerthException
        plan.buffers().forEach(b -> System.out.println(b.name() + " @ " + b.offset() + " (+" + b.reserved() + ")"));
        System.out.println("highWater " + plan.spaces().get("global").highWater());
        // --- README example ends
        assertThat(plan.spaces().get("global").highWater()).isEqualTo(11 * 1024);
        assertThat(plan.buffers()).extracting(b -> b.offset()).containsExactlyInAnyOrder(0L, 4096L, 8192L);
    }
}

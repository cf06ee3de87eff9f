package dev.berth.deploy;

import dev.berth.artifact.Plan;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.failure.DeployInput;
import dev.berth.failure.Failure;
import dev.berth.plan.Planner;
import dev.berth.plan.SolverChoice;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Workload;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * {@code check-deploy} in the core: what each logical space needs and gets, and, for inputs that
 * do not match the plan, {@code invalid-input} carrying the facts ({@link DeployInput}) in a
 * message that names no command-line option.
 */
class DeployCheckTest {
    private static Plan plan() {
        AddressFormat f = new AddressFormat("dma32", 0xFFFF_FFFFL, EndConvention.EXCLUSIVE);
        Map<String, Space> s = new LinkedHashMap<>();
        s.put("global", new Space.Logical("global", f, 64, 0));
        s.put("sram", new Space.Local("sram", f, 32, 0, 4096));
        Target t = Target.of("t", Map.of("dma32", f), s, Optional.empty());
        Workload w = new Workload("w", List.of(new BufferSpec("a", 100, "global", 1, new Lifetime(0, 1)),
                new BufferSpec("b", 50, "global", 1, new Lifetime(1, 2)), new BufferSpec("c", 64, "sram", 1,
                        new Lifetime(0, 0))), List.of());
        return Planner.plan(t, w, Planner.Options.defaults()).plan();
    }

    private static DeployInput mismatch(Map<String, Long> provide, Map<String, Long> base) {
        BerthException e = catchThrowableOfType(BerthException.class, () -> DeployCheck.check(plan(), provide, base));
        assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
        Failure.InvalidInput in = (Failure.InvalidInput) e.failure();
        assertThat(in.message()).doesNotContain("--");
        DeployInput d = in.deployInput().orElseThrow();
        assertThat(in.path()).hasValue(d.input().id());
        return d;
    }

    @Test
    void eachLogicalSpaceNeedsItsHighWaterPlusItsReserve() {
        Map<String, DeployCheck.SpaceNeed> needs = DeployCheck.check(plan(), Map.of("global", 200L), Map.of());
        assertThat(needs.keySet()).containsExactly("global");
        DeployCheck.SpaceNeed g = needs.get("global");
        assertThat(g.needed()).isEqualTo(g.highWater() + g.runtimeReserve());
        assertThat(g.spare()).isEqualTo(200 - g.needed());
        BerthException low = catchThrowableOfType(BerthException.class,
                () -> DeployCheck.check(plan(), Map.of("global", g.needed() - 1), Map.of()));
        Failure.InsufficientDeploymentCapacity f = (Failure.InsufficientDeploymentCapacity) low.failure();
        assertThat(f.shortBy()).isEqualTo(1);
        assertThat(f.space()).isEqualTo("global");
    }

    @Test
    void aMissingCapacityIsAFactAboutTheSpace() {
        DeployInput d = mismatch(Map.of(), Map.of());
        assertThat(d).isEqualTo(new DeployInput(DeployInput.Input.PROVIDED_CAPACITY, "global",
                DeployInput.Mismatch.NOT_PROVIDED, Optional.empty(), List.of()));
    }

    @Test
    void anUnknownSpaceListsThePlansSpaces() {
        DeployInput d = mismatch(Map.of("global", 1L << 20), Map.of("dram", 0L));
        assertThat(d.input()).isEqualTo(DeployInput.Input.LOADER_BASE);
        assertThat(d.mismatch()).isEqualTo(DeployInput.Mismatch.NO_SUCH_SPACE);
        assertThat(d.space()).isEqualTo("dram");
        assertThat(d.planSpaces()).containsExactly("global", "sram");
    }

    @Test
    void aLocalSpaceIsNotGivenCapacityAtDeployment() {
        Map<String, Long> provide = new LinkedHashMap<>();
        provide.put("global", 1L << 20);
        provide.put("sram", 1024L);
        DeployInput d = mismatch(provide, Map.of());
        assertThat(d).isEqualTo(new DeployInput(DeployInput.Input.PROVIDED_CAPACITY, "sram",
                DeployInput.Mismatch.NOT_LOGICAL, Optional.of("local"), List.of()));
    }
}

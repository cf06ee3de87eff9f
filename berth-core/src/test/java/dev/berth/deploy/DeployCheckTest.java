package dev.berth.deploy;

import dev.berth.artifact.Plan;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.failure.DeployInput;
import dev.berth.failure.Failure;
import dev.berth.failure.InputDetail;
import dev.berth.plan.Planner;
import dev.berth.target.AddressFormat;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
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
        AddressFormat dma32 = AddressFormat.exclusive("dma32", 0xFFFF_FFFFL);
        Space global = Space.logical("global", dma32).alignment(64).build();
        Space sram = Space.local("sram", dma32).alignment(32).capacity(4096).build();
        Target t = Target.builder("t").space(global).space(sram).build();
        Workload w = Workload.builder("w")
                .buffer(BufferSpec.named("a").size(100).in(global).live(0, 1).build())
                .buffer(BufferSpec.named("b").size(50).in(global).live(1, 2).build())
                .buffer(BufferSpec.named("c").size(64).in(sram).live(0, 0).build())
                .build();
        return Planner.plan(t, w, Planner.Options.defaults()).plan();
    }

    private static DeployInput mismatch(Map<String, Long> provide, Map<String, Long> base) {
        BerthException e = catchThrowableOfType(BerthException.class, () -> DeployCheck.check(plan(), provide, base));
        assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
        Failure.InvalidInput in = (Failure.InvalidInput) e.failure();
        assertThat(in.message()).doesNotContain("--");
        assertThat(in.detail()).isInstanceOf(InputDetail.Deployment.class);
        InputDetail.Deployment detail = (InputDetail.Deployment) in.detail();
        DeployInput d = detail.input();
        assertThat(detail.path()).isEqualTo(d.input().id());
        assertThat(in.path()).hasValue(d.input().id());
        assertThat(in.text()).isEqualTo(d.mismatch() == DeployInput.Mismatch.NOT_PROVIDED ? Optional.empty()
                : Optional.of(d.space()));
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

    /** A plan of two logical spaces, one of them empty, with a runtime reserve of {@code reserve} bytes. */
    private static Plan withAnEmptySpace(long reserve) {
        AddressFormat dma32 = AddressFormat.exclusive("dma32", 0xFFFF_FFFFL);
        Space global = Space.logical("global", dma32).alignment(64).build();
        Space spare = Space.logical("spare", dma32).runtimeReserve(reserve).build();
        Target t = Target.builder("t").space(global).space(spare).build();
        Workload w = Workload.builder("w").buffer(BufferSpec.named("a").size(100).in(global).live(0, 1).build()).build();
        return Planner.plan(t, w, Planner.Options.defaults()).plan();
    }

    @Test
    void aLogicalSpaceThatNeedsNoByteNeedsNoCapacity() {
        Map<String, DeployCheck.SpaceNeed> needs = DeployCheck.check(withAnEmptySpace(0), Map.of("global", 128L), Map.of());
        assertThat(needs.keySet()).containsExactly("global", "spare");
        assertThat(needs.get("spare")).isEqualTo(new DeployCheck.SpaceNeed("spare", 0, 0, 0, 0));
        // and its loader base is still checked
        assertThat(DeployCheck.check(withAnEmptySpace(0), Map.of("global", 128L), Map.of("spare", 0x1000L)))
                .containsKey("spare");
        // a runtime reserve is bytes: the space needs them, so its capacity must be given
        BerthException e = catchThrowableOfType(BerthException.class,
                () -> DeployCheck.check(withAnEmptySpace(16), Map.of("global", 128L), Map.of()));
        assertThat(((InputDetail.Deployment) ((Failure.InvalidInput) e.failure()).detail()).input()).isEqualTo(new DeployInput(
                DeployInput.Input.PROVIDED_CAPACITY, "spare", DeployInput.Mismatch.NOT_PROVIDED, Optional.empty(),
                List.of()));
        assertThat(DeployCheck.check(withAnEmptySpace(16), Map.of("global", 128L, "spare", 16L), Map.of())
                .get("spare").spare()).isZero();
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

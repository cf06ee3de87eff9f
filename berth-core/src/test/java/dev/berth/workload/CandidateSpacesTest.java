package dev.berth.workload;

import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.failure.Failure;
import dev.berth.plan.PlanResult;
import dev.berth.plan.Planner;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Generation;
import dev.berth.target.Space;
import dev.berth.target.Target;
import org.assertj.core.api.ThrowableAssert;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Candidate spaces and accesses as the API takes them: what is invalid names the buffer. */
class CandidateSpacesTest {
    static final AddressFormat F = new AddressFormat("f", (1L << 32) - 1, EndConvention.EXCLUSIVE);
    static final Space GLOBAL = Space.logical("global", F).build();
    static final Space SRAM = Space.local("sram", F).capacity(1024).build();
    static final Target T = Target.builder("t").space(GLOBAL).space(SRAM).build();

    static void invalidNaming(ThrowableAssert.ThrowingCallable call, String buffer, String what) {
        BerthException e = catchThrowableOfType(call, BerthException.class);
        assertThat(e).as("invalid-input expected").isNotNull();
        assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
        assertThat(e.failure().message()).contains("'" + buffer + "'").contains(what);
    }

    @Test
    void anEmptyListADuplicateOrNegativeAccessesIsInvalidInputNamingTheBuffer() {
        invalidNaming(() -> BufferSpec.named("act").size(8).candidates(List.of()), "act", "empty");
        invalidNaming(() -> BufferSpec.named("act").size(8).in(SRAM).orIn(SRAM), "act", "already a candidate");
        invalidNaming(() -> BufferSpec.named("act").candidates(List.of(SRAM, GLOBAL, SRAM)), "act", "space[2]");
        invalidNaming(() -> BufferSpec.named("act").accesses(-1), "act", "accesses");
        invalidNaming(() -> new BufferSpec("act", 8, List.of(SRAM), -3, 1, Lifetime.of(0, 0), Optional.empty()), "act",
                "accesses");
        invalidNaming(() -> BufferSpec.named("act").size(8).orIn(SRAM), "act", "before in");
        invalidNaming(() -> BufferSpec.named("act").size(8).in(SRAM).orIn(GLOBAL).live(0, 0)
                .tile(new TileSpec(SRAM, 2, OptionalInt.empty())).build(), "act", "tiled");
    }

    @Test
    void aCandidateTheTargetDoesNotHaveIsInvalidInputNamingTheBuffer() {
        Space dram = Space.logical("dram", F).build();
        Workload w = Workload.builder("w")
                .buffer(BufferSpec.named("act").size(8).in(SRAM).orIn(dram).live(0, 0).build()).build();
        invalidNaming(() -> Planner.plan(T, w, Planner.Options.defaults()), "act", "unknown space 'dram'");
        BerthException e = catchThrowableOfType(() -> Planner.plan(T, w, Planner.Options.defaults()), BerthException.class);
        assertThat(((Failure.InvalidInput) e.failure()).path()).contains("buffers[0].space[1]");
    }

    @Test
    void aNegativeAccessCostIsInvalidInputNamingTheSpace() {
        assertThatThrownBy(() -> Space.local("sram", F).capacity(8).accessCost(-1))
                .isInstanceOf(BerthException.class).hasMessageContaining("spaces.sram.accessCost");
        assertThat(Space.local("sram", F).capacity(8).build().accessCost()).isZero();
        assertThat(GLOBAL.accessCost()).isEqualTo(1);
        assertThat(Space.external("w", F).build().accessCost()).isEqualTo(1);
    }

    @Test
    void aSingleSpaceBufferIsUnchangedAndItsPlanHasNoAssignment() {
        BufferSpec b = BufferSpec.named("x").size(8).in(SRAM).live(0, 1).build();
        assertThat(b).isEqualTo(new BufferSpec("x", 8, SRAM, 1, Lifetime.of(0, 1), Optional.empty()));
        assertThat(b.accesses()).isEqualTo(1);
        assertThat(b.hasChoice()).isFalse();
        PlanResult r = Planner.plan(T, Workload.builder("w").buffer(b).build(), Planner.Options.defaults());
        assertThat(r.assignment()).isEmpty();
    }

    @Test
    void aBufferWithCandidatesHasNoSpaceUntilOneIsChosen() {
        BufferSpec b = BufferSpec.named("x").size(8).in(SRAM).orIn(GLOBAL).live(0, 1).build();
        assertThat(b.candidates()).containsExactly(SRAM, GLOBAL);
        assertThatThrownBy(b::space).isInstanceOf(IllegalStateException.class).hasMessageContaining("'x'");
        assertThat(b.in(GLOBAL).space()).isEqualTo(GLOBAL);
        assertThatThrownBy(() -> b.in(Space.logical("other", F).build())).isInstanceOf(BerthException.class)
                .hasMessageContaining("chosen: space other is not a candidate of buffer 'x' (sram, global)");
    }

    @Test
    void aCandidateWithACapacityThatGenerationOrTilesNeedIsRefused() {
        Target gen = Target.builder("g").space(GLOBAL).space(SRAM).generation(new Generation(
                Optional.empty(), Optional.of(new Generation.Instruction("sram", 16, 16)))).build();
        Workload w = Workload.builder("w")
                .buffer(BufferSpec.named("act").size(8).in(SRAM).orIn(GLOBAL).live(0, 0).build()).build();
        invalidNaming(() -> Planner.plan(gen, w, Planner.Options.defaults()), "act", "placed after the choice");
    }

    @Test
    void theCostIsCheckedArithmetic() {
        Space dear = Space.logical("dear", F).accessCost(Long.MAX_VALUE / 2).build();
        Target t = Target.builder("t").space(dear).space(SRAM).build();
        Workload w = Workload.builder("w")
                .buffer(BufferSpec.named("big").size(4096).in(SRAM).orIn(dear).accesses(3).live(0, 0).build()).build();
        BerthException e = catchThrowableOfType(() -> Planner.plan(t, w, Planner.Options.defaults()), BerthException.class);
        assertThat(e.category()).isEqualTo(Category.ARITHMETIC_OVERFLOW);
        assertThat(e.failure().message()).contains("'big'");
    }
}

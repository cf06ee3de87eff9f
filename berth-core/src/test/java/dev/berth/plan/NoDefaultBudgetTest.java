package dev.berth.plan;

import dev.berth.solve.SolverChoice;
import dev.berth.artifact.Plan;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.target.AddressFormat;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.Workload;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Contract §1: a logical space has no compile-time capacity, no default budget, no hidden
 * ceiling. Shown by behaviour: a logical space takes every byte its address format can encode
 * (up to 2^63-1 with a 63-bit format), with every solver; one byte more is a format failure,
 * never a capacity failure; and a logical space cannot be given a capacity at all.
 */
class NoDefaultBudgetTest {
    private static Plan plan(Target t, Workload w, SolverChoice solver) {
        return Planner.plan(t, w, new Planner.Options(solver, 10)).plan();
    }

    /** Two buffers live at once (step 1): {@code a + b} bytes at the peak. */
    private static Workload twoLive(Space global, long a, long b) {
        return Workload.builder("huge")
                .buffer(BufferSpec.named("a").size(a).in(global).live(0, 1).build())
                .buffer(BufferSpec.named("b").size(b).in(global).live(1, 2).build())
                .build();
    }

    @ParameterizedTest
    @ValueSource(ints = {16, 32, 40, 48, 62, 63})
    void aLogicalSpaceHoldsAllItsFormatEncodes(int bits) {
        Space global = Space.logical("global", AddressFormat.bits("a" + bits, bits)).build();
        Target t = Target.builder("t").space(global).build();
        long max = global.format().maxAddress();   // 2^bits - 1, exclusive end: [0, max) is encodable
        long a = max / 2;
        for (SolverChoice solver : SolverChoice.values()) {
            Plan p = plan(t, twoLive(global, a, max - a), solver);
            assertThat(p.metrics(global).highWater()).as("%d bits, %s", bits, solver).isEqualTo(max);
            assertThat(p.metrics(global).capacity()).isEmpty();
        }
        // one byte more than the format encodes: address-not-encodable naming the format, never capacity;
        // at 63 bits the live bytes (a quantity the plan holds, peakLive) also pass 2^63-1, and host
        // arithmetic comes first (contract §1), whatever the solver
        for (SolverChoice solver : SolverChoice.values()) {
            assertThatThrownBy(() -> plan(t, twoLive(global, a, max - a + 1), solver))
                    .isInstanceOfSatisfying(BerthException.class, e -> {
                        if (bits == 63) {
                            assertThat(e.category()).as(e.getMessage()).isEqualTo(Category.ARITHMETIC_OVERFLOW);
                            assertThat(e.getMessage()).contains("space global", "pass 2^63-1");
                        } else {
                            assertThat(e.category()).as(e.getMessage()).isEqualTo(Category.ADDRESS_NOT_ENCODABLE);
                            assertThat(e.failure().facts().limitSource())
                                    .hasValueSatisfying(s -> assertThat(s).contains("a" + bits));
                        }
                    });
        }
    }

    @Test
    void aLogicalSpaceCannotBeGivenACapacity() {
        assertThatThrownBy(() -> Space.logical("global", AddressFormat.bits("a32", 32)).capacity(1 << 20))
                .isInstanceOfSatisfying(BerthException.class, e -> {
                    assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
                    assertThat(e.failure().fields()).containsEntry("path", "spaces.global.capacity");
                });
        assertThat(Space.Logical.class.getRecordComponents()).extracting(c -> c.getName())
                .containsExactly("name", "format", "alignment", "runtimeReserve", "accessCost");
        assertThat(Space.logical("global", AddressFormat.bits("a32", 32)).build().capacity()).isEmpty();
    }
}

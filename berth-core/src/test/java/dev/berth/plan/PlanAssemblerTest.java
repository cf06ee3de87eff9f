package dev.berth.plan;

import dev.berth.artifact.Optimality;
import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.measure.SpaceAssembler;
import dev.berth.solve.SolverChoice;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.FixedRegion;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Origin;
import dev.berth.workload.TileSpec;
import dev.berth.workload.Workload;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The planner's metrics are the one assembler's ({@link SpaceAssembler}) for the plan's own entries
 * of each space, generation-time allocations and tile buffers included, and what it proves is the
 * one rule's for what its search knew.
 */
class PlanAssemblerTest {
    private static List<PlannedBuffer> entries(Plan p, Space s) {
        return p.buffers().stream().filter(b -> b.space().equals(s.name())).toList();
    }

    @Test
    void everySpacesMetricsAreTheAssemblersForItsEntries() {
        Target t = Targets.npuRef();
        Space global = t.space("global", "test");
        Space sram = t.space("sram", "test");
        Workload w = new Workload("mixed", List.of(
                new BufferSpec("in", 300_000, global, 64, new Lifetime(0, 1), Optional.empty()),
                new BufferSpec("big", 1 << 20, global, 1, new Lifetime(1, 3),
                        Optional.of(new TileSpec(sram, 2, OptionalInt.empty()))),
                new BufferSpec("acc", 16 * 1024, sram, 32, new Lifetime(2, 2), Optional.empty()),
                new BufferSpec("out", 70_000, global, 16, new Lifetime(3, 4), Optional.empty())),
                List.of(new FixedRegion("rom", t.space("weights", "test"), 0x100, 4096, new Lifetime(0, 4))));
        Plan p = Planner.plan(t, w, new Planner.Options(SolverChoice.AUTO, 5)).plan();
        assertThat(p.buffers()).anyMatch(b -> b.origin() == Origin.INSTRUCTIONS)
                .anyMatch(b -> b.origin() == Origin.TILE);
        int checked = 0;
        for (Space s : t.spaces().values()) {
            SpaceMetrics planned = p.metrics(s);
            SpaceMetrics measured = SpaceAssembler.metrics(s, entries(p, s), Optional.empty());
            assertThat(planned.optimality()).isPresent();
            assertThat(new SpaceMetrics(planned.kind(), planned.capacity(), planned.highWater(), planned.peakLive(),
                    planned.peakStep(), planned.generationOverhead(), planned.runtimeReserve()))
                    .as(s.name()).isEqualTo(measured);
            // where nothing generation-time is carried, the bound the planner proved, given again as what
            // is known (the static one too when it proved by it), gives its proof back by the one rule
            Optimality o = planned.optimality().get();
            if (planned.generationOverhead() == 0) {
                SpaceAssembler.Known k = new SpaceAssembler.Known(o.solver(),
                        o.proof() == Optimality.Proof.LOWER_BOUND ? o.lowerBound() : 0, o.lowerBound(),
                        o.open().orElse(Optimality.Open.WORK_BUDGET), o.timeLimited());
                assertThat(SpaceAssembler.metrics(s, entries(p, s), Optional.of(k)).optimality())
                        .as(s.name()).contains(o);
                checked++;
            }
        }
        assertThat(checked).isEqualTo(2);
    }
}

package dev.berth.cli.report;

import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.io.TargetJson;
import dev.berth.plan.Planner;
import dev.berth.solve.SolverChoice;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.FixedRegion;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Origin;
import dev.berth.workload.Workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;

/** Plans for the report tests: made by the planner where it can, by hand where it cannot yet (tiles, generation). */
final class ReportPlans {
    /** A buffer name that breaks a report that forgets to escape (HTML, attribute or script). */
    static final String HOSTILE = "</script><b>&\"x'\u2028";

    private ReportPlans() {
    }

    /**
     * npu-ref without its {@code generation} section, so that the hand-checked numbers of the
     * tests do not move when the planner starts generating instruction streams.
     */
    static Target npuRefPlain() {
        Target t = TargetJson.load("npu-ref");
        return new Target(t.name(), t.formats(), t.spaces(), Optional.empty());
    }

    /**
     * A small plan on npu-ref (without generation) made by the planner. Global: abi.in fixed at [0, 1KiB) over steps
     * 0-5 and five tensors; sram: two tensors and one named to test escaping.
     */
    static Plan small() {
        Target t = npuRefPlain();
        Workload w = new Workload("small", List.of(
                new BufferSpec("input", 4096, t.space("global", "test"), 1, new Lifetime(0, 1), Optional.empty()),
                new BufferSpec("conv1", 3072, t.space("global", "test"), 1, new Lifetime(1, 2), Optional.empty()),
                new BufferSpec("pool1", 2048, t.space("global", "test"), 1, new Lifetime(2, 3), Optional.empty()),
                new BufferSpec("skip", 1024, t.space("global", "test"), 1, new Lifetime(1, 4), Optional.empty()),
                new BufferSpec("output", 1000, t.space("global", "test"), 1, new Lifetime(4, 5), Optional.empty()),
                new BufferSpec("acc", 48 * 1024, t.space("sram", "test"), 32, new Lifetime(1, 3), Optional.empty()),
                new BufferSpec(ReportPlans.HOSTILE, 100 * 1024, t.space("sram", "test"), 1, new Lifetime(2, 4), Optional.empty())),
                List.of(new FixedRegion("abi.in", t.space("global", "test"), 0, 1024, new Lifetime(0, 5))));
        return Planner.plan(t, w, new Planner.Options(SolverChoice.BEST_FIT, 10)).plan();
    }

    /**
     * {@code n} tensors in global with seeded random sizes (64 B to 256 KiB) and lifetimes of
     * at most {@code span} steps over {@code steps} steps, planned.
     */
    static Plan many(int n, int steps, int span, long seed) {
        Random r = new Random(seed);
        Target t = npuRefPlain();
        List<BufferSpec> bs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int first = r.nextInt(steps);
            int last = Math.min(steps - 1, first + r.nextInt(span));
            bs.add(new BufferSpec("/model/layer." + i + "/conv/Conv_output_0", 64 + r.nextInt(256 * 1024),
                    t.space("global", "test"), 1, new Lifetime(first, last), Optional.empty()));
        }
        return Planner.plan(t, new Workload("many" + n, bs, List.of()),
                new Planner.Options(SolverChoice.BEST_FIT, 60)).plan();
    }

    /**
     * A hand-made plan with every origin (the planner does not make tiles or generation-time
     * allocations yet), and a zero-byte tensor. Metrics are computed here from the buffers.
     */
    static Plan allOrigins() {
        Target t = TargetJson.load("npu-ref");
        List<PlannedBuffer> bs = List.of(
                new PlannedBuffer("abi.in", "global", 0, 1024, 1024, 1, new Lifetime(0, 3), Origin.FIXED, Optional.empty()),
                new PlannedBuffer("big", "global", 1024, 8192, 8192, 64, new Lifetime(0, 2), Origin.TENSOR, Optional.empty()),
                new PlannedBuffer("empty", "global", 9216, 0, 0, 64, new Lifetime(1, 1), Origin.TENSOR, Optional.empty()),
                new PlannedBuffer("big.desc", "global", 9216, 64, 64, 32, new Lifetime(0, 3), Origin.DESCRIPTOR_TABLE,
                        Optional.empty()),
                new PlannedBuffer("code", "global", 9280, 64, 64, 16, new Lifetime(0, 3), Origin.INSTRUCTIONS,
                        Optional.empty()),
                new PlannedBuffer("big.tile.0", "sram", 0, 4096, 4096, 32, new Lifetime(0, 2), Origin.TILE,
                        Optional.of("big")),
                new PlannedBuffer("big.tile.1", "sram", 4096, 4096, 4096, 32, new Lifetime(0, 2), Origin.TILE,
                        Optional.of("big")));
        Map<String, SpaceMetrics> m = new LinkedHashMap<>();
        m.put("global", new SpaceMetrics("logical", OptionalLong.empty(), 9344, 9344, 0, 128, 0));
        m.put("sram", new SpaceMetrics("local", OptionalLong.of(262144), 8192, 8192, 0, 0, 0));
        m.put("weights", new SpaceMetrics("external", OptionalLong.empty(), 0, 0, -1, 0, 0));
        return new Plan(t, "all-origins", SolverChoice.BEST_FIT, m, bs, List.of());
    }
}

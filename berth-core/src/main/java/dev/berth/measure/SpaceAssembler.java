package dev.berth.measure;

import dev.berth.arith.Checked;
import dev.berth.artifact.Optimality;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.failure.Require;
import dev.berth.solve.SolverKind;
import dev.berth.target.Space;
import dev.berth.workload.Origin;

import java.util.List;
import java.util.Optional;

/**
 * The one assembler of a space's metrics in a plan: its artifact entries measured the one way
 * ({@link SpaceUse}) and what is proved about its high-water mark by one rule ({@link #optimality}).
 * The planner assembles every space with it; a layout that moves a planned space's entries (the head
 * TFLM lays out) assembles that space again with it, from what the plan it came from proved; a
 * version 1 plan read back gets its peak step from it ({@link #withPeakStep}).
 */
public final class SpaceAssembler {
    private SpaceAssembler() {
    }

    /**
     * What is known about how low a space's high-water mark can be before its entries are measured.
     * Both bounds are of the space's reservations other than its generation-time allocations
     * (descriptor tables, instruction streams), which the rule carries them through:
     *
     * @param solver      the solver whose placement the entries hold
     * @param staticLower the bound every placement has (the peak of live bytes, the largest item, the
     *                    highest fixed end, as the problem gave them); 0 when nothing beyond the
     *                    entries' own peak of live bytes is known
     * @param provedLower the bound proved (a search's, or a plan's the entries were moved from); at
     *                    least {@code staticLower} where the two are of the same reservations
     * @param open        why the bracket stays open when the bounds do not reach the height
     * @param timeLimited whether the clock stopped a search in the space
     */
    public record Known(SolverKind solver, long staticLower, long provedLower, Optimality.Open open,
                        boolean timeLimited) {
        /** A null field is a NullPointerException naming it; a negative bound {@code invalid-input} naming it. */
        public Known {
            Require.nonNull(solver, "solver");
            Require.nonNull(open, "open");
            Require.nonNegative(staticLower, "staticLower");
            Require.nonNegative(provedLower, "provedLower");
        }
    }

    /**
     * The metrics of {@code space} holding {@code entries} (all of that space, as the plan lists
     * them): measured by {@link SpaceUse#of}, with what is proved about the high-water mark when
     * something is {@code known} ({@link #optimality}).
     */
    public static SpaceMetrics metrics(Space space, List<PlannedBuffer> entries, Optional<Known> known) {
        SpaceUse use = SpaceUse.of(entries);
        long high = use.highWater();
        long peak = use.peak().bytes();
        return new SpaceMetrics(space.kind(), space.capacity(), high, peak, use.peak().step(), use.generation(),
                space.runtimeReserve(), known.map(k -> optimality(k, entries, high, peak)));
    }

    /**
     * The one rule of what is proved about a high-water mark {@code high} whose entries have
     * {@code peak} bytes live at most: the known bounds, each carried through the generation-time
     * allocations among {@code entries} (each at the aligned top, as generation puts it), never
     * below {@code peak} nor above {@code high}. The proved bound reaching {@code high} proves it
     * the smallest: by {@link Optimality.Proof#LOWER_BOUND} when the static bound (or the peak)
     * reaches it too, else by {@link Optimality.Proof#SEARCH}. Otherwise the bracket [proved bound,
     * {@code high}] is open for the known reason, time-limited when the clock stopped a search or
     * left it open. So the lower bound lies between the peak of live bytes and the high-water mark,
     * and is the high-water mark exactly when a proof is claimed, as the plan validator checks.
     */
    public static Optimality optimality(Known k, List<PlannedBuffer> entries, long high, long peak) {
        long fromStatic = k.staticLower();
        long fromProof = k.provedLower();
        for (PlannedBuffer p : entries) {
            Origin origin = p.origin();
            if (origin == Origin.DESCRIPTOR_TABLE || origin == Origin.INSTRUCTIONS) {
                fromStatic = Checked.saturatingAdd(Checked.saturatingAlignUp(fromStatic, p.alignment()), p.reserved());
                fromProof = Checked.saturatingAdd(Checked.saturatingAlignUp(fromProof, p.alignment()), p.reserved());
            }
        }
        long lower = Math.min(high, Math.max(peak, fromProof));
        if (lower >= high) {
            boolean byBound = Math.max(peak, fromStatic) >= high;
            return new Optimality(k.solver(), high, byBound ? Optimality.Proof.LOWER_BOUND : Optimality.Proof.SEARCH,
                    Optional.empty(), k.timeLimited());
        }
        return new Optimality(k.solver(), lower, Optimality.Proof.OPEN, Optional.of(k.open()),
                k.timeLimited() || k.open() == Optimality.Open.TIME_LIMIT);
    }

    /**
     * {@code stated} (a version 1 plan's metrics of a space, which carry no peak step) with the
     * peak step of {@code entries} (all of that space), by {@link SpaceUse#livePeak}: their steps and
     * reserved bytes alone, nothing else of an entry measured before the plan validator sees it.
     * Bytes live at one step past 2^63-1 are {@code arithmetic-overflow}.
     */
    public static SpaceMetrics withPeakStep(SpaceMetrics stated, List<PlannedBuffer> entries) {
        return new SpaceMetrics(stated.kind(), stated.capacity(), stated.highWater(), stated.peakLive(),
                SpaceUse.livePeak(entries).step(), stated.generationOverhead(), stated.runtimeReserve(),
                stated.optimality());
    }
}

package dev.berth.measure;

import dev.berth.arith.Checked;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.failure.Require;
import dev.berth.sweep.LiveBytes;
import dev.berth.workload.Origin;

import java.util.List;

/**
 * What a space's reservations occupy, measured from the reservations themselves: the high-water
 * mark (the largest end), the bytes of the generation-time allocations (descriptor tables,
 * instruction streams) and the peak of reserved bytes live at one step. The one measure of a
 * planned space for the planner's metrics and every client that re-measures a layout (a TFLM
 * head, a report of some of a space's buffers); the plan validator checks the figures with its
 * own code.
 */
public record SpaceUse(long highWater, long generation, LiveBytes.Peak peak) {
    /**
     * A negative {@code highWater} or {@code generation} is {@code invalid-input} naming it; a null
     * {@code peak} a NullPointerException naming it.
     */
    public SpaceUse {
        Require.nonNegative(highWater, "highWater");
        Require.nonNegative(generation, "generation");
        Require.nonNull(peak, "peak");
    }

    /** Measures {@code buffers}, all of one space (the caller's selection); sums are checked. */
    public static SpaceUse of(List<PlannedBuffer> buffers) {
        long high = 0;
        long generation = 0;
        for (PlannedBuffer b : buffers) {
            high = Math.max(high, Checked.add(b.offset(), b.reserved()));
            if (b.origin() == Origin.DESCRIPTOR_TABLE || b.origin() == Origin.INSTRUCTIONS) {
                generation = Checked.add(generation, b.reserved());
            }
        }
        return new SpaceUse(high, generation, livePeak(buffers));
    }

    /**
     * The first step with the most reserved bytes live among {@code buffers} (all of one space), by
     * their steps and reserved bytes alone (nothing else of a buffer is read), except that a tensor
     * written over an input ({@link PlannedBuffer#sharesWith()}) counts from the step after its
     * first: at that step its bytes are the input's (contract §5.3). Bytes live at one step past
     * 2^63-1 are {@code arithmetic-overflow}.
     */
    public static LiveBytes.Peak livePeak(List<PlannedBuffer> buffers) {
        int n = buffers.size();
        int[] first = new int[n];
        int[] last = new int[n];
        long[] reserved = new long[n];
        for (int i = 0; i < n; i++) {
            PlannedBuffer b = buffers.get(i);
            first[i] = b.live().first();
            last[i] = b.live().last();
            reserved[i] = b.reserved();
            if (b.sharesWith().isPresent()) {
                if (first[i] < last[i]) {
                    first[i]++;
                } else {
                    reserved[i] = 0;
                }
            }
        }
        return LiveBytes.peak(first, last, reserved);
    }
}

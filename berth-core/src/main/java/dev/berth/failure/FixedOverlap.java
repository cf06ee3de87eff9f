package dev.berth.failure;

/**
 * Two fixed regions of a workload that share a byte at a common step, as facts: their indexes in
 * the workload's {@code fixed} list, so that a reader names its own records (a CSV's lines) without
 * reading the message.
 *
 * @param region   the later region, the one the failure's path names ({@code fixed[region]})
 * @param overlaps the earlier region it overlaps
 */
public record FixedOverlap(int region, int overlaps) {
    /** Indexes are {@code >= 0} and {@code overlaps < region}, else {@code invalid-input} naming the argument. */
    public FixedOverlap {
        if (overlaps < 0) {
            throw Require.invalid("overlaps", Integer.toString(overlaps), "an index of the fixed "
                    + "regions is 0..2^31-1, got " + overlaps);
        }
        if (region <= overlaps) {
            throw Require.invalid("region", Integer.toString(region), "the later region's index must be "
                    + "above the earlier one's, " + overlaps + ", got " + region);
        }
    }
}

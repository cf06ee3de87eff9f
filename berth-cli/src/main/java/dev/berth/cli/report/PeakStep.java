package dev.berth.cli.report;

import dev.berth.arith.Checked;
import dev.berth.artifact.PlannedBuffer;

import java.util.Arrays;
import java.util.List;

/** The most reserved bytes live at one step of a space, and the first step that has them. */
record PeakStep(long bytes, long step) {

    /** Sweeps the start and end events of the reservations {@code indices} of {@code buffers}. */
    static PeakStep of(List<PlannedBuffer> buffers, List<Integer> indices) {
        int n = indices.size();
        // events: (step, delta); ends at last + 1 sort before starts at the same step
        long[][] ev = new long[2 * n][];
        for (int k = 0; k < n; k++) {
            PlannedBuffer b = buffers.get(indices.get(k));
            ev[2 * k] = new long[]{b.live().first(), 1, b.reserved()};
            ev[2 * k + 1] = new long[]{(long) b.live().last() + 1, 0, b.reserved()};
        }
        Arrays.sort(ev, (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        long live = 0;
        long best = 0;
        long bestStep = 0;
        int i = 0;
        while (i < ev.length) {
            long step = ev[i][0];
            for (; i < ev.length && ev[i][0] == step; i++) {
                live = ev[i][1] == 1 ? Checked.add(live, ev[i][2]) : Checked.subtract(live, ev[i][2]);
            }
            if (live > best) {
                best = live;
                bestStep = step;
            }
        }
        return new PeakStep(best, bestStep);
    }
}

package dev.berth.solve.exact;

import dev.berth.solve.Outcome;
import dev.berth.solve.SpaceProblem;

import static org.assertj.core.api.Assertions.assertThat;

/** An independent check of a solver's placement: bounds, alignment, fixed offsets, overlaps, height. */
final class PlacementCheck {
    private PlacementCheck() {
    }

    static void assertValid(SpaceProblem p, Outcome.Solved s, String what) {
        long[] off = s.offsets();
        assertThat(off).as(what).hasSize(p.size());
        long height = 0;
        for (int i = 0; i < p.size(); i++) {
            long end = Math.addExact(off[i], p.reserved(i));
            assertThat(off[i]).as(what + ": offset of " + p.name(i)).isNotNegative();
            assertThat(end).as(what + ": end of " + p.name(i)).isLessThanOrEqualTo(p.limit());
            if (p.isFixed(i)) {
                assertThat(off[i]).as(what + ": fixed " + p.name(i)).isEqualTo(p.fixedOffset(i));
            } else {
                assertThat(off[i] % p.alignment(i)).as(what + ": alignment of " + p.name(i)).isZero();
            }
            height = Math.max(height, end);
            for (int j = 0; j < i; j++) {
                boolean time = p.first(i) <= p.last(j) && p.first(j) <= p.last(i);
                boolean bytes = p.reserved(i) > 0 && p.reserved(j) > 0
                        && off[i] < off[j] + p.reserved(j) && off[j] < off[i] + p.reserved(i);
                assertThat(time && bytes).as(what + ": " + p.name(i) + " overlaps " + p.name(j)).isFalse();
            }
        }
        assertThat(s.height()).as(what + ": height").isEqualTo(height);
    }
}

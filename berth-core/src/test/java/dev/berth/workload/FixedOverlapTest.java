package dev.berth.workload;

import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.failure.Failure;
import dev.berth.failure.FixedOverlap;
import dev.berth.failure.InputDetail;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Space;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A workload refuses fixed regions of one space that share a step and a byte (an earlier stage's
 * corrupt record), exactly when a pair does, on random regions over few steps and bytes in two
 * spaces (regions of different spaces never collide); the pair it names is a real one, the later
 * region first.
 */
class FixedOverlapTest {
    private static final AddressFormat F = new AddressFormat("f", 1 << 20, EndConvention.EXCLUSIVE);
    private static final Space A = new Space.Logical("a", F, 1, 0);
    private static final Space B = new Space.Logical("b", F, 1, 0);

    private static boolean collide(FixedRegion x, FixedRegion y) {
        return x.space().name().equals(y.space().name()) && x.size() > 0 && y.size() > 0
                && x.live().overlaps(y.live()) && x.offset() < y.offset() + y.size() && y.offset() < x.offset() + x.size();
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
    void refusedExactlyWhenTwoRegionsOfASpaceCollide(long seed) {
        Random rnd = new Random(seed);
        int refused = 0;
        for (int round = 0; round < 200; round++) {
            List<FixedRegion> fixed = new ArrayList<>();
            int n = rnd.nextInt(12);
            for (int i = 0; i < n; i++) {
                int first = rnd.nextInt(8);
                fixed.add(new FixedRegion("f" + i, rnd.nextBoolean() ? A : B, rnd.nextInt(48), rnd.nextInt(5) == 0 ? 0
                        : 1 + rnd.nextInt(16), new Lifetime(first, first + rnd.nextInt(3))));
            }
            boolean expected = false;
            for (int i = 0; i < n; i++) {
                for (int j = i + 1; j < n; j++) {
                    expected |= collide(fixed.get(i), fixed.get(j));
                }
            }
            BerthException e = catchThrowableOfType(BerthException.class, () -> new Workload("w", List.of(), fixed));
            String what = "seed " + seed + " round " + round + ": " + fixed;
            assertThat(e != null).as(what).isEqualTo(expected);
            if (e != null) {
                refused++;
                assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
                String m = e.failure().message();
                int later = Integer.parseInt(m.substring("fixed[".length(), m.indexOf(']')));
                String y = m.split("corrupt: ")[1].split(" ")[0];
                String x = m.split(" overlaps ")[1].split(" ")[0];
                assertThat(y).as(what).isEqualTo("f" + later);
                int earlier = Integer.parseInt(x.substring(1));
                assertThat(earlier).as(what).isLessThan(later);
                assertThat(collide(fixed.get(earlier), fixed.get(later))).as(what + ": " + m).isTrue();
                // the same pair as facts, for readers that name their own records
                assertThat(e.failure()).isInstanceOfSatisfying(Failure.InvalidInput.class, in -> assertThat(
                        in.detail()).as(what).isEqualTo(new InputDetail.Overlap("fixed[" + later + "]",
                        new FixedOverlap(later, earlier))));
            }
        }
        assertThat(refused).as("rounds refused of 200").isBetween(20, 180);
    }

    @Test
    void theFactsOfAnOverlapAreTwoIndexesTheLaterAboveTheEarlier() {
        assertThat(new FixedOverlap(3, 0).region()).isEqualTo(3);
        for (int[] bad : new int[][]{{1, -1}, {2, 2}, {1, 2}}) {
            BerthException e = catchThrowableOfType(BerthException.class,
                    () -> new FixedOverlap(bad[0], bad[1]));
            assertThat(e).as(Arrays.toString(bad)).isNotNull();
            assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
            assertThat(e.failure().fields()).containsEntry("path", bad[1] < 0 ? "overlaps" : "region");
        }
    }
}

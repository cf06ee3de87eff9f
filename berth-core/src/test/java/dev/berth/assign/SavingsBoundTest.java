package dev.berth.assign;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The per-step relaxation on cases small enough to solve by hand. */
class SavingsBoundTest {
    private static final int[] NONE = {};
    private static final long[] NO_BYTES = {};

    @Test
    void oneStepIsTheFractionalKnapsack() {
        // 60 bytes at 5, then 40 of the 50 at 4; the 30 at 1 get nothing
        long s = SavingsBound.savings(100, NONE, NONE, NO_BYTES, new int[]{0, 0, 0}, new int[]{0, 0, 0},
                new long[]{60, 50, 30}, new long[]{5, 4, 1});
        assertThat(s).isEqualTo(460);
    }

    @Test
    void aLongBufferWorthMoreThanTwoShortOnesTakesBothSteps() {
        // A [0,0] and B [1,1] save 100 each, C [0,1] saves 300 but needs the room of both steps
        long s = SavingsBound.savings(100, NONE, NONE, NO_BYTES, new int[]{0, 1, 0}, new int[]{0, 1, 1},
                new long[]{100, 100, 100}, new long[]{1, 1, 3});
        assertThat(s).isEqualTo(300);
        // worth 1 per byte instead, C loses to A and B
        s = SavingsBound.savings(100, NONE, NONE, NO_BYTES, new int[]{0, 1, 0}, new int[]{0, 1, 1},
                new long[]{100, 100, 100}, new long[]{1, 1, 1});
        assertThat(s).isEqualTo(200);
    }

    @Test
    void whatIsAlreadyThereTakesItsStepsRoom() {
        // 70 bytes held at step 1 only: C [0,1] gets 30 bytes, A [0,0] the other 70 of step 0
        long s = SavingsBound.savings(100, new int[]{1}, new int[]{1}, new long[]{70}, new int[]{0, 0},
                new int[]{0, 1}, new long[]{100, 100}, new long[]{1, 2});
        assertThat(s).isEqualTo(30 * 2 + 70);
    }

    /**
     * Three buffers of 100 bytes where one fits at a time (room 150, all live at step 3): the
     * best saves 300. The flow relaxation lets one and a half in and says 400; the Lagrangian
     * knapsacks come down to 300 (plus their safety margin of one unit per buffer).
     */
    @Test
    void theKnapsacksAreTightWhereOnlyWholeBuffersFit() {
        int[] first = {0, 2, 3};
        int[] last = {5, 3, 4};
        long[] bytes = {100, 100, 100};
        long[] weight = {3, 2, 2};
        assertThat(SavingsBound.savings(150, NONE, NONE, NO_BYTES, first, last, bytes, weight)).isEqualTo(400);
        long k = StepKnapsackBound.savings(150, NONE, NONE, NO_BYTES, first, last, bytes, weight, 300);
        assertThat(k).isBetween(300L, 305L);
    }
}

package dev.berth.solve.heuristic;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.Comparator;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** The size order of the heuristics against a boxed comparator sort, on both of its paths. */
class SortingTest {

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 5, 64, 65, 1000, 20000})
    void sortsByPrimaryThenSecondaryDescendingThenIndex(int n) {
        SplittableRandom rnd = new SplittableRandom(n);
        for (long range : new long[]{3, 1000, Long.MAX_VALUE / 2}) {
            long[] primary = new long[n];
            long[] secondary = new long[n];
            for (int i = 0; i < n; i++) {
                primary[i] = rnd.nextLong(range);
                secondary[i] = rnd.nextInt(4);
            }
            int[] a = new int[n];
            Integer[] ref = new Integer[n];
            for (int i = 0; i < n; i++) {
                a[i] = n - 1 - i;
                ref[i] = n - 1 - i;
            }
            Sorting.sortDescending(a, primary, secondary);
            Arrays.sort(ref, Comparator.comparingLong((Integer i) -> -primary[i])
                    .thenComparingLong(i -> -secondary[i]).thenComparingInt(i -> i));
            assertThat(a).as("n %d range %d", n, range).containsExactly(Arrays.stream(ref).mapToInt(Integer::intValue).toArray());
        }
    }
}

package dev.berth.solve;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class BudgetProgressTest {

    @Test
    void everyPollIsReportedWithTheElapsedTimeAndTheRootLimit() {
        List<double[]> heard = new ArrayList<>();
        Budget b = Budget.seconds(30, (elapsed, limit) -> heard.add(new double[]{elapsed, limit}));
        assertThat(heard).isEmpty();
        assertThat(b.exhausted()).isFalse();
        assertThat(b.exhausted()).isFalse();
        assertThat(heard).hasSize(2);
        assertThat(heard.get(0)[1]).isEqualTo(30.0);
        assertThat(heard.get(0)[0]).isGreaterThanOrEqualTo(0).isLessThanOrEqualTo(heard.get(1)[0]);
    }

    @Test
    void aChildReportsToTheSameListenerAgainstTheRootLimit() {
        List<Double> limits = new ArrayList<>();
        Budget root = Budget.seconds(8, (elapsed, limit) -> limits.add(limit));
        Budget child = root.child(2);
        child.exhausted();
        assertThat(limits).containsExactly(8.0);
        root.cancel();
        assertThat(child.exhausted()).isTrue();
        assertThat(limits).containsExactly(8.0, 8.0);
    }

    @Test
    void withoutAListenerNothingIsCalledAndTheBudgetBehavesAsBefore() {
        Budget b = Budget.seconds(10);
        assertThat(b.exhausted()).isFalse();
        b.cancel();
        assertThat(b.exhausted()).isTrue();
        assertThat(Budget.unlimited().remainingSeconds()).isInfinite();
    }
}

package dev.berth.solve;

import dev.berth.artifact.Optimality;
import dev.berth.artifact.Plan;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.plan.Effort;
import dev.berth.plan.PlanResult;
import dev.berth.plan.Planner;
import dev.berth.target.AddressFormat;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.verify.PlanValidator;
import dev.berth.verify.Verdict;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.Workload;
import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The caller's interrupt ({@link Progress#interrupted()}, what Ctrl-C sets on the command line):
 * every search stops at its next poll and keeps its best, the heuristics still place everything,
 * and each space a stop left open says {@code interrupted}; the plan is validated as always.
 */
class InterruptTest {
    /** A listener that interrupts once it has heard {@code polls} polls (0: from the first). */
    private static final class InterruptAfter implements Progress {
        private final int polls;
        private final AtomicInteger heard = new AtomicInteger();
        private final AtomicBoolean on = new AtomicBoolean();

        InterruptAfter(int polls) {
            this.polls = polls;
        }

        @Override
        public void searching(double elapsedSeconds, double limitSeconds) {
            if (heard.incrementAndGet() > polls) {
                on.set(true);
            }
        }

        @Override
        public boolean interrupted() {
            return on.get();
        }
    }

    @Test
    void anInterruptedBudgetIsExhaustedForSearchesButNotForTheHeuristicsAndTellsItsParents() {
        InterruptAfter listener = new InterruptAfter(0);
        Budget root = Budget.seconds(30, listener);
        Budget scope = root.scope();
        Budget child = scope.child(5);
        assertThat(child.expired()).isFalse(); // the heuristics' poll: not interrupted, not told
        assertThat(child.stoppedByInterrupt()).isFalse();
        assertThat(child.exhausted()).isTrue();
        assertThat(child.stoppedByInterrupt()).isTrue();
        assertThat(scope.stoppedByInterrupt()).isTrue();
        assertThat(root.stoppedByInterrupt()).isTrue();
        assertThat(root.stoppedByClock()).isFalse();
        // a sibling scope that never searched after it is not marked
        assertThat(root.scope().stoppedByInterrupt()).isFalse();
        // without a listener nothing is ever interrupted
        assertThat(Budget.seconds(30).exhausted()).isFalse();
    }

    /** Items whose heuristics miss the lower bound, in one logical space: the planner searches. */
    private static Workload hard(Space space, int n, long seed) {
        Random r = new Random(seed);
        Workload.Builder w = Workload.builder("hard-" + seed);
        for (int i = 0; i < n; i++) {
            int first = r.nextInt(40);
            w.buffer(BufferSpec.named("b" + i).size(64L * (1 + r.nextInt(64))).in(space)
                    .live(first, first + r.nextInt(12)).build());
        }
        return w.build();
    }

    @Test
    void anInterruptedPlanIsValidKeepsItsBracketAndSaysInterrupted() {
        Space global = Space.logical("global", AddressFormat.bits("dma32", 32)).build();
        Space easy = Space.logical("easy", AddressFormat.bits("dma32", 32)).build();
        Target target = Target.builder("t").space(global).space(easy).build();
        Planner.Options base = Planner.Options.defaults().withEffort(Effort.MINIMIZE).withThreads(1);
        int interrupted = 0;
        for (long seed = 1; seed <= 12; seed++) {
            Workload w = withEasy(hard(global, 120, seed), easy);
            PlanResult full = Planner.plan(target, w, base);
            PlanResult cut = Planner.plan(target, w, base.withProgress(new InterruptAfter(0)));
            Plan plan = cut.plan();
            assertThat(PlanValidator.validate(plan)).isInstanceOf(Verdict.Valid.class);
            SpaceMetrics m = plan.metrics(global);
            Optimality o = m.optimality().orElseThrow();
            if (o.proof() == Optimality.Proof.OPEN) {
                // the only reason a search of this space stopped is the interrupt (the work budget is large)
                assertThat(o.open()).as("seed %d", seed).contains(Optimality.Open.INTERRUPTED);
                assertThat(o.describe(m.highWater())).endsWith("] interrupted");
                interrupted++;
            }
            assertThat(o.timeLimited()).isFalse();
            assertThat(o.lowerBound()).isLessThanOrEqualTo(m.highWater());
            // never better than the same search run to its end, and the space nothing searched as it was
            assertThat(m.highWater()).isGreaterThanOrEqualTo(full.plan().metrics(global).highWater());
            assertThat(plan.metrics(easy)).isEqualTo(full.plan().metrics(easy));
            assertThat(plan.metrics(easy).optimality().orElseThrow().proof()).isEqualTo(Optimality.Proof.LOWER_BOUND);
        }
        assertThat(interrupted).as("seeds whose interrupted search left the bracket open").isPositive();
    }

    private static Workload withEasy(Workload w, Space easy) {
        Workload.Builder b = Workload.builder(w.name());
        w.buffers().forEach(b::buffer);
        b.buffer(BufferSpec.named("e").size(100).in(easy).live(0, 3).build());
        return b.build();
    }
}

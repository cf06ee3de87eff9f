package dev.berth.solve.exact;

import dev.berth.solve.Budget;
import dev.berth.solve.Outcome;
import dev.berth.solve.SpaceProblem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The exact search's set-up ({@link Instance}) against brute force on seeded random problems:
 * the same sections (each the set of items live at one step that no other step's set contains),
 * the same conflicting pairs, section totals, crossing counts and twins. And the set-up's
 * limits: it polls its stop condition while it works and stops when told, and refuses an
 * instance past {@link Instance#MAX_ENTRIES}; the exact solver reports both as unknown.
 */
class InstanceTest {

    /**
     * Up to 80 items over up to 40 steps: short and long lifetimes, about a tenth of zero size,
     * some fixed, some identical copies of an earlier item.
     */
    private static SpaceProblem random(SplittableRandom rnd) {
        int n = 1 + rnd.nextInt(80);
        int steps = 1 + rnd.nextInt(40);
        String[] names = new String[n];
        long[] reserved = new long[n];
        long[] align = new long[n];
        int[] first = new int[n];
        int[] last = new int[n];
        long[] fixed = new long[n];
        for (int i = 0; i < n; i++) {
            names[i] = "b" + i;
            if (i > 0 && rnd.nextInt(8) == 0) {
                int from = rnd.nextInt(i);
                reserved[i] = reserved[from];
                align[i] = align[from];
                first[i] = first[from];
                last[i] = last[from];
                fixed[i] = -1;
                continue;
            }
            first[i] = rnd.nextInt(steps);
            int room = steps - first[i];
            last[i] = first[i] + (rnd.nextInt(4) == 0 ? rnd.nextInt(room) : rnd.nextInt(Math.min(3, room)));
            reserved[i] = rnd.nextInt(10) == 0 ? 0 : 1 + rnd.nextInt(rnd.nextBoolean() ? 8 : 1000);
            align[i] = 1 + rnd.nextInt(4);
            fixed[i] = rnd.nextInt(12) == 0 ? rnd.nextInt(100) : -1;
        }
        return new SpaceProblem(null, names, reserved, align, first, last, fixed, 1L << 40);
    }

    private static Instance build(SpaceProblem p) throws Instance.Stopped {
        return Instance.build(p, () -> false);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
    void conflictsAndSectionsAreThoseOfBruteForce(int seed) throws Instance.Stopped {
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int round = 0; round < 40; round++) {
            SpaceProblem p = random(rnd);
            String what = "seed " + seed + " round " + round + ": " + RandomProblems.describe(p);
            Instance in = build(p);
            // the items with bytes, in order
            List<Integer> items = new ArrayList<>();
            for (int i = 0; i < p.size(); i++) {
                if (p.reserved(i) > 0) {
                    items.add(i);
                }
            }
            int n = items.size();
            assertThat(in.n).as(what).isEqualTo(n);
            for (int k = 0; k < n; k++) {
                assertThat(in.original[k]).as(what).isEqualTo(items.get(k));
                assertThat(in.size[k]).isEqualTo(p.reserved(items.get(k)));
            }
            // conflicts: every pair of items live at a common step, each once, in both lists
            long pairs = 0;
            for (int a = 0; a < n; a++) {
                BitSet expected = new BitSet();
                for (int b = 0; b < n; b++) {
                    if (b != a && p.overlapInTime(items.get(a), items.get(b))) {
                        expected.set(b);
                        if (b > a) {
                            pairs++;
                        }
                    }
                }
                int[] got = in.conflictsOf(a);
                BitSet seen = new BitSet();
                for (int b : got) {
                    assertThat(seen.get(b)).as(what + ": " + b + " listed twice for " + a).isFalse();
                    seen.set(b);
                    assertThat(in.overlap(a, b)).as(what).isTrue();
                }
                assertThat(seen).as(what + ": conflicts of " + a).isEqualTo(expected);
                assertThat(in.degree(a)).isEqualTo(got.length);
            }
            assertThat(in.conflicts).as(what).isEqualTo(pairs);
            // sections: the maximal sets of items live at one step, in time order
            List<BitSet> sections = bruteSections(p, items);
            assertThat(in.sections).as(what).isEqualTo(sections.size());
            long entries = 0;
            for (int s = 0; s < in.sections; s++) {
                int[] members = Arrays.copyOfRange(in.members, in.memberStart[s], in.memberStart[s + 1]);
                BitSet got = new BitSet();
                long total = 0;
                for (int x = 0; x < members.length; x++) {
                    got.set(members[x]);
                    total += in.size[members[x]];
                    if (x > 0) {
                        assertThat(members[x]).as(what + ": members of section " + s + " ascending").isGreaterThan(members[x - 1]);
                    }
                }
                assertThat(got).as(what + ": section " + s).isEqualTo(sections.get(s));
                assertThat(in.sectionTotal[s]).as(what).isEqualTo(total);
                entries += members.length;
                if (s + 1 < in.sections) {
                    BitSet both = (BitSet) sections.get(s).clone();
                    both.and(sections.get(s + 1));
                    assertThat(in.crossing[s]).as(what + ": crossing " + s).isEqualTo(both.cardinality());
                }
            }
            assertThat(in.members).hasSize((int) entries);
            for (int k = 0; k < n; k++) {
                for (int s = 0; s < in.sections; s++) {
                    assertThat(sections.get(s).get(k)).as(what)
                            .isEqualTo(in.secFirst[k] <= s && s <= in.secLast[k]);
                }
            }
            assertThat(Arrays.stream(in.sectionTotal).max().orElse(0)).as(what + ": the largest section total")
                    .isEqualTo(p.peakLive());
            // items by first section, then index
            assertThat(in.byFirst).hasSize(n);
            for (int q = 0; q < n; q++) {
                int k = in.byFirst[q];
                assertThat(q).isBetween(in.firstStart[in.secFirst[k]], in.firstStart[in.secFirst[k] + 1] - 1);
                if (q > 0) {
                    int prev = in.byFirst[q - 1];
                    assertThat(in.secFirst[prev] < in.secFirst[k] || (in.secFirst[prev] == in.secFirst[k] && prev < k))
                            .as(what).isTrue();
                }
            }
            // twins: the previous free item with the same size, alignment and steps
            for (int k = 0; k < n; k++) {
                int expected = -1;
                int i = items.get(k);
                for (int j = 0; j < k && !p.isFixed(i); j++) {
                    int o = items.get(j);
                    if (!p.isFixed(o) && p.reserved(o) == p.reserved(i) && p.alignment(o) == p.alignment(i)
                            && p.first(o) == p.first(i) && p.last(o) == p.last(i)) {
                        expected = j;
                    }
                }
                assertThat(in.twin[k]).as(what + ": twin of " + k).isEqualTo(expected);
            }
        }
    }

    /** The sets of items live at one step that no other step's set contains, in time order, once each. */
    private static List<BitSet> bruteSections(SpaceProblem p, List<Integer> items) {
        int steps = 0;
        for (int i = 0; i < p.size(); i++) {
            steps = Math.max(steps, p.last(i) + 1);
        }
        List<BitSet> live = new ArrayList<>();
        for (int t = 0; t < steps; t++) {
            BitSet b = new BitSet();
            for (int k = 0; k < items.size(); k++) {
                int i = items.get(k);
                if (p.first(i) <= t && t <= p.last(i)) {
                    b.set(k);
                }
            }
            live.add(b);
        }
        List<BitSet> out = new ArrayList<>();
        for (int t = 0; t < steps; t++) {
            BitSet b = live.get(t);
            boolean maximal = !b.isEmpty();
            for (int u = 0; u < steps && maximal; u++) {
                BitSet o = live.get(u);
                BitSet rest = (BitSet) b.clone();
                rest.andNot(o);
                if (rest.isEmpty() && !o.equals(b)) {
                    maximal = false;
                }
            }
            if (maximal && (out.isEmpty() || !out.get(out.size() - 1).equals(b))) {
                out.add(b);
            }
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void theLargestSectionTotalOfEachItemIsTheSameReadDirectlyOrFromTheTable(int seed) throws Instance.Stopped {
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int round = 0; round < 30; round++) {
            // every third problem has many long lifetimes: the table's case
            SpaceProblem p = round % 3 == 0 ? comb(20 + rnd.nextInt(40), 1 + rnd.nextInt(60)) : random(rnd);
            Instance in = build(p);
            long[] total = new long[in.sections];
            for (int s = 0; s < total.length; s++) {
                total[s] = rnd.nextInt(1000);
            }
            // a few items (read directly) and all of them (long lifetimes: through the table)
            int[] all = new int[in.n];
            for (int k = 0; k < in.n; k++) {
                all[k] = k;
            }
            for (int len : new int[]{Math.min(2, in.n), in.n}) {
                long[] got = ItemOrder.sectionMax(in, total, all, 0, len);
                for (int q = 0; q < len; q++) {
                    long expected = 0;
                    for (int s = in.secFirst[q]; s <= in.secLast[q]; s++) {
                        expected = Math.max(expected, total[s]);
                    }
                    assertThat(got[q]).as("seed " + seed + " round " + round + " item " + q).isEqualTo(expected);
                }
            }
        }
    }

    /**
     * {@code longs} items live over all the steps and {@code shorts} items of one step each, one
     * per step: {@code shorts} sections of {@code longs + 1} items each.
     */
    private static SpaceProblem comb(int longs, int shorts) {
        int n = longs + shorts;
        long[] size = new long[n];
        int[] first = new int[n];
        int[] last = new int[n];
        for (int i = 0; i < n; i++) {
            size[i] = 1 + i % 7;
            first[i] = i < longs ? 0 : i - longs;
            last[i] = i < longs ? shorts - 1 : i - longs;
        }
        return SpaceProblem.of(size, first, last, Long.MAX_VALUE);
    }

    @Test
    void theBuildPollsItsStopConditionAsItWorksAndStopsWhenItHolds() throws Instance.Stopped {
        // 2000 sections of 1001 items: about 2 * 10^6 entries, two chunks of work or more
        SpaceProblem p = comb(1000, 2000);
        AtomicInteger polls = new AtomicInteger();
        Instance in = Instance.build(p, () -> {
            polls.incrementAndGet();
            return false;
        });
        long entries = in.members.length;
        assertThat(entries).isEqualTo(2000L * 1001);
        assertThat(polls.get()).isGreaterThanOrEqualTo((int) (entries / Work.CHUNK));
        // stop at the first poll, then at the last: nothing is returned either way
        for (int stopAt : new int[]{1, polls.get()}) {
            AtomicInteger seen = new AtomicInteger();
            assertThatThrownBy(() -> Instance.build(p, () -> seen.incrementAndGet() >= stopAt))
                    .isInstanceOf(Instance.Stopped.class)
                    .hasMessageContaining("time limit ran out while setting up the exact search");
            assertThat(seen.get()).isEqualTo(stopAt);
        }
    }

    @Test
    void aSmallBuildNeverPolls() throws Instance.Stopped {
        Instance in = Instance.build(comb(3, 4), () -> {
            throw new AssertionError("polled");
        });
        assertThat(in.sections).isEqualTo(4);
    }

    /** 8000 items over 1000 steps, most of them long-lived: about 2 * 10^6 section entries. */
    private static SpaceProblem wide() {
        SplittableRandom rnd = new SplittableRandom(99);
        int n = 8000;
        long[] size = new long[n];
        int[] first = new int[n];
        int[] last = new int[n];
        for (int i = 0; i < n; i++) {
            first[i] = rnd.nextInt(1000);
            last[i] = Math.min(999, first[i] + (rnd.nextInt(4) == 0 ? rnd.nextInt(10) : rnd.nextInt(1000)));
            size[i] = 1 + rnd.nextInt(1000);
        }
        return SpaceProblem.of(size, first, last, Long.MAX_VALUE);
    }

    @Test
    void anExhaustedBudgetStopsTheSetUpAndTheSolverSaysSo() throws Instance.Stopped {
        SpaceProblem p = wide();
        assertThat((long) build(p).members.length).isGreaterThan(Work.CHUNK);
        long peak = p.lowerBound();
        Budget cancelled = Budget.seconds(60);
        cancelled.cancel();
        for (Budget b : new Budget[]{Budget.seconds(0), cancelled}) {
            for (ExactSolver.Settings settings : List.of(ExactSolver.Settings.defaults(),
                    ExactSolver.Settings.defaults().searchOnly())) {
                Outcome o = new ExactSolver(settings).solve(p.withLimit(peak), b);
                assertThat(o).isInstanceOf(Outcome.Unknown.class);
                assertThat(((Outcome.Unknown) o).reason()).contains("time limit ran out while setting up the exact search");
            }
            // the minimisation has the heuristics' placement, and nothing to probe with
            Minimizer.Result r = Minimizer.minimize(p, b, ExactSolver.Settings.defaults(), s -> { });
            assertThat(r.offsets()).isPresent();
            assertThat(r.optimal()).isFalse();
            assertThat(r.lower()).isEqualTo(peak);
            assertThat(r.upper()).isGreaterThan(peak);
            assertThat(r.steps().get(r.steps().size() - 1).event()).contains("time limit ran out while setting up");
        }
    }

    @Test
    void anInstanceWithTooManySectionEntriesIsNotSetUp() {
        // 16,400 sections of 16,401 items: 2.69 * 10^8 entries, past the limit of 2^28
        SpaceProblem p = comb(16_400, 16_400);
        Instance.Sections sec = Instance.sections(p);
        assertThat(sec.entries()).isGreaterThan(Instance.MAX_ENTRIES);
        assertThatThrownBy(() -> Instance.build(sec, () -> false)).isInstanceOf(Instance.Stopped.class)
                .hasMessageContaining("was not set up").hasMessageContaining(Long.toString(Instance.MAX_ENTRIES));
        Outcome o = new ExactSolver().solve(p.withLimit(p.peakLive()), Budget.unlimited());
        assertThat(o).isInstanceOf(Outcome.Unknown.class);
        assertThat(((Outcome.Unknown) o).reason()).contains("was not set up");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void aProbeOnAnInstanceSetUpOnceAnswersAsOneSetUpForIt(int seed) throws Instance.Stopped {
        SplittableRandom rnd = new SplittableRandom(seed);
        ExactSolver.Settings settings = ExactSolver.Settings.defaults().searchOnly().withThreads(1);
        for (int round = 0; round < 30; round++) {
            SpaceProblem p = random(rnd);
            Instance once = build(p);
            long lb = p.lowerBound();
            for (long limit : new long[]{lb, lb + 3, lb + lb / 10}) {
                SpaceProblem q = p.withLimit(limit);
                ExactSolver a = new ExactSolver(settings);
                ExactSolver b = new ExactSolver(settings);
                Outcome fresh = a.solve(q, Budget.unlimited(), 2000);
                Outcome shared = b.solve(q, Budget.unlimited(), 2000, once);
                String what = "seed " + seed + " round " + round + " limit " + limit;
                assertThat(shared.getClass()).as(what).isEqualTo(fresh.getClass());
                assertThat(b.lastNodes()).as(what).isEqualTo(a.lastNodes());
                if (fresh instanceof Outcome.Solved s) {
                    assertThat(((Outcome.Solved) shared).offsets()).as(what).isEqualTo(s.offsets());
                    PlacementCheck.assertValid(q, s, what);
                }
            }
        }
    }
}

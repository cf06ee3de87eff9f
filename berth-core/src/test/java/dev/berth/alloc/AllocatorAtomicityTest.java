package dev.berth.alloc;

import dev.berth.admit.Admission;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Space;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Origin;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Contract §8, failure leaves no trace: seeded random sequences of reserve, reserveAt,
 * release, checkpoint and rollback on three small spaces (so that format, capacity and
 * conflict failures are frequent), against a reference model written here. After every
 * failed request the allocator's state equals its state before; after every successful one
 * it equals the model's; after a rollback it equals the state at the checkpoint; a rollback to
 * a checkpoint that an earlier rollback went past is refused and changes nothing.
 */
class AllocatorAtomicityTest {
    private static final int OPERATIONS = 100_000;
    private static final int STEPS = 8;
    private static final long[] ALIGNMENTS = {1, 2, 3, 4, 5, 8, 10, 12};

    /** One reservation as the model holds it. */
    record Row(String name, int first, int last, long offset, long requested, long reserved, long alignment,
               Origin origin) {
        long end() {
            return offset + reserved;
        }

        static Row of(Allocation a) {
            return new Row(a.name(), a.live().first(), a.live().last(), a.placement().offset(),
                    a.placement().requested(), a.placement().reserved(), a.placement().alignment(), a.origin());
        }
    }

    /** The model of one space: its limits in plain longs (the numbers are small) and its held rows. */
    static final class Model {
        final String label;
        final long maxAddress;
        final boolean exclusive;
        final long spaceAlignment;
        final long base;
        final OptionalLong usable;
        List<Row> rows = new ArrayList<>();
        /** The successful mutations of the current history: what a checkpoint's position means. */
        int history;

        Model(String label, long maxAddress, boolean exclusive, long spaceAlignment, long base, OptionalLong usable) {
            this.label = label;
            this.maxAddress = maxAddress;
            this.exclusive = exclusive;
            this.spaceAlignment = spaceAlignment;
            this.base = base;
            this.usable = usable;
        }

        static long gcd(long a, long b) {
            return b == 0 ? a : gcd(b, a % b);
        }

        long effective(long alignment) {
            return spaceAlignment / gcd(spaceAlignment, alignment) * alignment;
        }

        static long roundUp(long v, long m) {
            return (v + m - 1) / m * m;
        }

        /** The category the contract gives a placement at {@code start} of {@code reserved} bytes, or empty. */
        Optional<Category> limits(long start, long reserved) {
            long s = base + start;
            if (s > maxAddress || (exclusive ? reserved > maxAddress - s : reserved > 0 && reserved - 1 > maxAddress - s)) {
                return Optional.of(Category.ADDRESS_NOT_ENCODABLE);
            }
            if (usable.isPresent() && (start > usable.getAsLong() || reserved > usable.getAsLong() - start)) {
                return Optional.of(Category.CAPACITY_EXCEEDED);
            }
            return Optional.empty();
        }

        boolean conflicts(int first, int last, long start, long reserved) {
            for (Row r : rows) {
                if (first <= r.last() && r.first() <= last && reserved > 0 && r.reserved() > 0
                        && start < r.end() && r.offset() < start + reserved) {
                    return true;
                }
            }
            return false;
        }

        boolean holds(String name) {
            return rows.stream().anyMatch(r -> r.name().equals(name));
        }

        long highWater() {
            return rows.stream().mapToLong(Row::end).max().orElse(0);
        }

        List<Row> sorted() {
            List<Row> l = new ArrayList<>(rows);
            l.sort(Comparator.comparing(Row::name));
            return l;
        }
    }

    /** An allocator, its model, and the checkpoints taken on them. */
    static final class Subject {
        final SpaceAllocator alloc;
        final Model model;
        final List<Mark> marks = new ArrayList<>();
        final List<Mark> stale = new ArrayList<>();

        Subject(Space space, Model model) {
            this.alloc = new SpaceAllocator(space);
            this.model = model;
        }
    }

    record Mark(SpaceAllocator.Checkpoint checkpoint, List<Row> rows, int history, SpaceAllocator.State state) {
    }

    static List<Subject> subjects() {
        return List.of(
                // a local space: capacity 96 - 8, alignment 4, a format wider than the capacity
                new Subject(new Space.Local("sram", new AddressFormat("w", 200, EndConvention.EXCLUSIVE), 4, 8, 96),
                        new Model("local", 200, true, 4, 0, OptionalLong.of(88))),
                // a logical space: only its format (63, last byte) limits it
                new Subject(new Space.Logical("global", new AddressFormat("n", 63, EndConvention.LAST_BYTE), 1, 0),
                        new Model("logical", 63, false, 1, 0, OptionalLong.empty())),
                // an external space at base 40 under a format of 127, with a capacity of 70: both limits bite
                new Subject(new Space.External("weights", new AddressFormat("x", 127, EndConvention.EXCLUSIVE), 6, 0,
                        40, OptionalLong.of(70)), new Model("external", 127, true, 6, 40, OptionalLong.of(70))));
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {20240601L, 987654321L})
    void failedRequestsLeaveNoTraceAndRollbacksRestore(long seed) {
        run(seed, OPERATIONS);
    }

    /**
     * The campaign ({@code -Pcampaigns}): {@code berth.campaign.allocatorOps} operations (default
     * 10^6) from a fresh seed, printed; {@code -Dberth.campaign.seed=S} replays it.
     */
    @Test
    @Tag("campaign")
    void campaign() {
        long seed = Long.getLong("berth.campaign.seed", System.nanoTime());
        int operations = Integer.getInteger("berth.campaign.allocatorOps", 1_000_000);
        System.out.println("allocator campaign: seed " + seed + " (replay: -Dberth.campaign.seed=" + seed + "), "
                + operations + " operations");
        run(seed, operations);
    }

    private void run(long seed, int operations) {
        Random rnd = new Random(seed);
        List<Subject> subjects = subjects();
        Map<Category, Integer> failures = new EnumMap<>(Category.class);
        // reserve ok, reserveAt ok, release, checkpoint, rollback, stale rollback, duplicate, failed, reserveAt conflict
        int[] counts = new int[9];
        int nameCounter = 0;
        for (int op = 0; op < operations; op++) {
            Subject sub = subjects.get(rnd.nextInt(subjects.size()));
            SpaceAllocator alloc = sub.alloc;
            Model m = sub.model;
            int kind = rnd.nextInt(100);
            int opNo = op;
            Supplier<String> where = () -> "seed " + seed + " op " + opNo + " on " + m.label;
            if (kind < 40 || kind >= 92) {
                // reserve (or, for 92..99, a request under a name already held)
                boolean duplicate = kind >= 92 && !m.rows.isEmpty();
                String name = duplicate ? m.rows.get(rnd.nextInt(m.rows.size())).name() : "b" + nameCounter++;
                int first = rnd.nextInt(STEPS);
                int last = first + rnd.nextInt(STEPS - first);
                long requested = rnd.nextInt(10) == 0 ? 0 : 1 + rnd.nextInt(rnd.nextBoolean() ? 12 : 40);
                long alignment = ALIGNMENTS[rnd.nextInt(ALIGNMENTS.length)];
                Origin origin = Origin.values()[rnd.nextInt(Origin.values().length)];
                Optional<Category> expectFail;
                Row expected = null;
                if (duplicate) {
                    expectFail = Optional.of(Category.INVALID_INPUT);
                    counts[6]++;
                } else {
                    long eff = m.effective(alignment);
                    long reserved = Model.roundUp(requested, eff);
                    long start = 0;
                    // the lowest aligned offset free of conflicts, by plain search
                    while (reserved > 0 && m.conflicts(first, last, start, reserved)) {
                        start += eff;
                    }
                    expectFail = m.limits(start, reserved);
                    expected = new Row(name, first, last, start, requested, reserved, eff, origin);
                }
                Row exp = expected;
                check(sub, () -> where.get() + " reserve " + name, expectFail, exp, failures, counts, 0,
                        () -> alloc.reserve(name, new Lifetime(first, last), requested, alignment, origin));
            } else if (kind < 60) {
                // reserveAt, aligned or exact
                String name = "b" + nameCounter++;
                int first = rnd.nextInt(STEPS);
                int last = first + rnd.nextInt(STEPS - first);
                long candidate = rnd.nextInt(120);
                long requested = rnd.nextInt(10) == 0 ? 0 : 1 + rnd.nextInt(30);
                long alignment = ALIGNMENTS[rnd.nextInt(ALIGNMENTS.length)];
                Admission.Mode mode = rnd.nextBoolean() ? Admission.Mode.EXACT : Admission.Mode.ALIGNED;
                long eff = mode == Admission.Mode.EXACT ? 1 : m.effective(alignment);
                long start = mode == Admission.Mode.EXACT ? candidate : Model.roundUp(candidate, eff);
                long reserved = mode == Admission.Mode.EXACT ? requested : Model.roundUp(requested, eff);
                // the admission check first (format, capacity), then a conflict with a held reservation
                Optional<Category> expectFail = m.limits(start, reserved);
                if (expectFail.isEmpty() && m.conflicts(first, last, start, reserved)) {
                    expectFail = Optional.of(Category.INVALID_INPUT);
                    counts[8]++;
                }
                Row expected = new Row(name, first, last, start, requested, reserved, eff, Origin.FIXED);
                check(sub, () -> where.get() + " reserveAt " + name, expectFail, expected, failures, counts, 1,
                        () -> alloc.reserveAt(name, new Lifetime(first, last), candidate, requested, alignment, mode,
                                Origin.FIXED));
            } else if (kind < 78) {
                if (m.rows.isEmpty()) {
                    continue;
                }
                Row r = m.rows.get(rnd.nextInt(m.rows.size()));
                alloc.release(r.name());
                m.rows.remove(r);
                m.history++;
                counts[2]++;
                assertMatches(sub, () -> where.get() + " release " + r.name());
            } else if (kind < 85) {
                sub.marks.add(new Mark(alloc.checkpoint(), List.copyOf(m.rows), m.history, alloc.state()));
                counts[3]++;
            } else {
                if (!sub.stale.isEmpty() && rnd.nextInt(4) == 0) {
                    // a checkpoint that an earlier rollback went past: refused, nothing changes
                    Mark s = sub.stale.get(rnd.nextInt(sub.stale.size()));
                    SpaceAllocator.State before = alloc.state();
                    try {
                        alloc.rollback(s.checkpoint());
                        fail(where.get() + ": rollback to a checkpoint rolled back past was accepted");
                    } catch (IllegalStateException expected) {
                        counts[5]++;
                    }
                    same(alloc.state(), before, () -> where.get() + " after a refused rollback");
                    continue;
                }
                if (sub.marks.isEmpty()) {
                    continue;
                }
                int i = rnd.nextInt(sub.marks.size());
                Mark mark = sub.marks.get(i);
                alloc.rollback(mark.checkpoint());
                counts[4]++;
                same(alloc.state(), mark.state(), () -> where.get() + " rollback to checkpoint " + i);
                m.rows = new ArrayList<>(mark.rows());
                m.history = mark.history();
                // checkpoints taken later in the history are gone; one at the same point is still good
                for (int k = sub.marks.size() - 1; k > i; k--) {
                    Mark later = sub.marks.remove(k);
                    if (later.history() > mark.history()) {
                        sub.stale.add(later);
                    }
                }
                assertMatches(sub, () -> where.get() + " rollback");
            }
        }
        int total = counts[0] + counts[1] + counts[2] + counts[3] + counts[4] + counts[5] + counts[7];
        System.out.println("AllocatorAtomicityTest seed " + seed + ": " + operations + " operations drawn, " + total
                + " run: " + counts[0] + " reserves and " + counts[1] + " reserveAts succeeded, " + counts[7]
                + " requests failed " + failures + " (" + counts[6] + " duplicate names, " + counts[8]
                + " reserveAt conflicts), " + counts[2] + " releases, "
                + counts[3] + " checkpoints, " + counts[4] + " rollbacks, " + counts[5] + " stale rollbacks refused");
        assertThat(total).isGreaterThanOrEqualTo(operations * 9 / 10);
        assertThat(failures.keySet()).as("every kind of failure must occur")
                .contains(Category.ADDRESS_NOT_ENCODABLE, Category.CAPACITY_EXCEEDED, Category.INVALID_INPUT);
        assertThat(counts[0]).isPositive();
        assertThat(counts[1]).isPositive();
        assertThat(counts[4]).isPositive();
        assertThat(counts[5]).isPositive();
        assertThat(counts[8]).as("reserveAt conflicts").isPositive();
        for (Subject s : subjects) {
            assertThat(s.alloc.checkInvariants()).isTrue();
        }
    }

    private static void check(Subject sub, Supplier<String> what, Optional<Category> expectFail, Row expected,
                              Map<Category, Integer> failures, int[] counts, int okCounter, Attempt attempt) {
        SpaceAllocator.State before = sub.alloc.state();
        Allocation got;
        try {
            got = attempt.run();
        } catch (BerthException e) {
            if (!expectFail.equals(Optional.of(e.category()))) {
                fail(what.get() + ": threw " + e.getMessage() + ", model expected "
                        + expectFail.map(c -> "a failure " + c).orElse("success " + expected));
            }
            same(sub.alloc.state(), before, () -> what.get() + ": state after a failed request");
            failures.merge(e.category(), 1, Integer::sum);
            counts[7]++;
            assertMatches(sub, what);
            return;
        }
        if (expectFail.isPresent()) {
            fail(what.get() + ": succeeded with " + got + ", model expected " + expectFail.get());
        }
        same(Row.of(got), expected, what);
        sub.model.rows.add(expected);
        sub.model.history++;
        counts[okCounter]++;
        assertMatches(sub, what);
    }

    private static void assertMatches(Subject sub, Supplier<String> what) {
        SpaceAllocator.State s = sub.alloc.state();
        List<Row> rows = s.allocations().stream().map(Row::of).toList();
        same(rows, sub.model.sorted(), () -> what.get() + ": allocations");
        same(s.highWater(), sub.model.highWater(), () -> what.get() + ": high-water");
        same(sub.alloc.highWater(), s.highWater(), () -> what.get() + ": highWater() and state()");
    }

    /** Equality checked cheaply; AssertJ's message (with its diff) only when it fails. */
    private static void same(Object actual, Object expected, Supplier<String> what) {
        if (!actual.equals(expected)) {
            assertThat(actual).as(what.get()).isEqualTo(expected);
        }
    }

    @FunctionalInterface
    interface Attempt {
        Allocation run();
    }
}

package dev.berth.alloc;

import dev.berth.admit.Admission;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.sweep.OverlapSweep;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Space;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Origin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * {@link SpaceAllocator#reserveAllAt} and its sweep ({@link OverlapSweep}): on random batches, the
 * same allocations as {@link SpaceAllocator#reserveAt} one request after the other when that
 * succeeds; when it fails, a refusal too (invalid-input here, where every failure is a conflict or a
 * name), naming the later request of a pair that really conflicts, and nothing changed.
 */
class ReserveAllAtTest {
    private static final Space SPACE = new Space.Logical("g", new AddressFormat("f", 1 << 20, EndConvention.EXCLUSIVE), 1, 0);

    /** Random requests over few steps and few bytes, so that many share both (when {@code dense}). */
    private static List<SpaceAllocator.At> requests(Random rnd, int n, boolean dense, String prefix) {
        List<SpaceAllocator.At> out = new ArrayList<>();
        int steps = dense ? 6 : 40;
        int bytes = dense ? 64 : 4096;
        for (int i = 0; i < n; i++) {
            // now and then near the largest step, where the sweep's packed keys must still order them
            int first = rnd.nextInt(8) == 0 ? Integer.MAX_VALUE - 3 - rnd.nextInt(3) : rnd.nextInt(steps);
            int last = first + rnd.nextInt(4);
            long size = rnd.nextInt(6) == 0 ? 0 : 1 + rnd.nextInt(16);
            long offset = rnd.nextInt(bytes);
            Admission.Mode mode = rnd.nextBoolean() ? Admission.Mode.EXACT : Admission.Mode.ALIGNED;
            long align = mode == Admission.Mode.EXACT ? 1 : 1L << rnd.nextInt(4);
            out.add(new SpaceAllocator.At(prefix + i, new Lifetime(first, last), offset, size, align, mode, Origin.TENSOR));
        }
        return out;
    }

    /** Sequential {@code reserveAt}: the allocations, or the failure's message. */
    private static Object oneByOne(SpaceAllocator a, List<SpaceAllocator.At> rs) {
        List<Allocation> out = new ArrayList<>();
        for (SpaceAllocator.At r : rs) {
            try {
                out.add(a.reserveAt(r.name(), r.live(), r.candidate(), r.requested(), r.alignment(), r.mode(), r.origin()));
            } catch (BerthException e) {
                return e.category() + ": " + e.failure().message();
            }
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
    void aBatchIsWhatOneRequestAfterAnotherGives(long seed) {
        Random rnd = new Random(seed);
        for (int round = 0; round < 50; round++) {
            boolean dense = rnd.nextBoolean();
            List<SpaceAllocator.At> held = requests(rnd, rnd.nextInt(4), dense, "h");
            List<SpaceAllocator.At> batch = requests(rnd, rnd.nextInt(dense ? 8 : 60), dense, "r");
            SpaceAllocator seq = new SpaceAllocator(SPACE);
            SpaceAllocator all = new SpaceAllocator(SPACE);
            if (!(oneByOne(seq, held) instanceof List) || !(oneByOne(all, held) instanceof List)) {
                continue; // the held ones collide among themselves: not a starting state
            }
            SpaceAllocator.State before = all.state();
            Object expected = oneByOne(seq, batch);
            String what = "seed " + seed + " round " + round;
            if (expected instanceof List<?> allocations) {
                assertThat(all.reserveAllAt(batch)).as(what).isEqualTo(allocations);
                assertThat(all.state()).as(what).isEqualTo(seq.state());
                assertThat(all.checkInvariants()).isTrue();
            } else {
                BerthException e = catchThrowableOfType(BerthException.class, () -> all.reserveAllAt(batch));
                assertThat(e).as(what + ": expected " + expected).isNotNull();
                assertThat(e.category()).as(what).isEqualTo(Category.INVALID_INPUT);
                assertThat(all.state()).as(what).isEqualTo(before);
                // the sweep finds a conflict where one exists, and the one it names is real
                assertThat(e.failure().message()).as(what).contains(" overlaps ");
                String named = e.failure().message().substring(0, e.failure().message().indexOf(' '));
                String other = e.failure().message().split(" overlaps ")[1].split(" ")[0];
                assertThat(named).as(what).startsWith("r");
                Allocation a = find(batch, named);
                Allocation o = other.startsWith("h") ? find(held, other) : find(batch, other);
                assertThat(a.conflicts(o)).as(what + ": " + e.getMessage()).isTrue();
                if (other.startsWith("r")) {
                    assertThat(index(batch, other)).as(what).isLessThan(index(batch, named));
                }
            }
        }
    }

    private static int index(List<SpaceAllocator.At> rs, String name) {
        for (int i = 0; i < rs.size(); i++) {
            if (rs.get(i).name().equals(name)) {
                return i;
            }
        }
        throw new AssertionError(name);
    }

    private static Allocation find(List<SpaceAllocator.At> rs, String name) {
        SpaceAllocator.At r = rs.get(index(rs, name));
        SpaceAllocator one = new SpaceAllocator(SPACE);
        return one.reserveAt(r.name(), r.live(), r.candidate(), r.requested(), r.alignment(), r.mode(), r.origin());
    }

    @Test
    void stepsAndBytesMeetAtTheirEnds() {
        SpaceAllocator a = new SpaceAllocator(SPACE);
        a.reserveAllAt(List.of(
                at("a", 0, 3, 0, 10),
                at("b", 4, 6, 0, 10),   // after a's last step
                at("c", 0, 6, 10, 5),   // above a and b, touching
                at("d", 3, 3, 15, 1),   // touching c
                at("z", 0, 6, 3, 0)));  // no bytes: inside a, b and c's steps
        assertThat(a.allocations()).hasSize(5);
        assertThat(a.highWater()).isEqualTo(16);
        // a step in common (inclusive lifetimes) and a byte in common collide, from either side
        assertThat(refusal(a, List.of(at("e", 6, 9, 14, 1)))).contains("e at [14, 15)", "overlaps c at [10, 15)");
        assertThat(refusal(a, List.of(at("f", 3, 3, 9, 2)))).contains("f at [9, 11)", "overlaps ");
        assertThat(refusal(a, List.of(at("g", 7, 8, 0, 4), at("h", 8, 9, 2, 4))))
                .contains("h at [2, 6)", "overlaps g at [0, 4)");
        assertThat(refusal(a, List.of(at("i", 7, 7, 0, 4), at("j", 7, 7, 0, 4)))).contains("j at [0, 4)",
                "overlaps i at [0, 4)");
        assertThat(a.allocations()).hasSize(5);
    }

    @Test
    void namesAndAdmissionAreCheckedFirstAndChangeNothing() {
        SpaceAllocator a = new SpaceAllocator(SPACE);
        a.reserveAllAt(List.of(at("a", 0, 0, 0, 4)));
        SpaceAllocator.State before = a.state();
        assertThat(refusal(a, List.of(at("b", 1, 1, 0, 4), at("a", 1, 1, 8, 4)))).contains("a reservation named a is "
                + "already held");
        assertThat(refusal(a, List.of(at("b", 1, 1, 0, 4), at("b", 2, 2, 0, 4)))).contains("b is requested twice");
        assertThat(refusal(a, List.of(at("b", 1, 1, 0, 4), at("c", 1, 1, -1, 4)))).contains("negative");
        BerthException past = catchThrowableOfType(BerthException.class,
                () -> a.reserveAllAt(List.of(at("b", 1, 1, 0, 4), at("c", 1, 1, (1 << 20) - 2, 4))));
        assertThat(past.category()).isEqualTo(Category.ADDRESS_NOT_ENCODABLE);
        assertThat(a.state()).isEqualTo(before);
        // a checkpoint before a batch rolls the whole batch back
        SpaceAllocator.Checkpoint c = a.checkpoint();
        assertThat(a.reserveAllAt(List.of(at("b", 1, 1, 0, 4), at("c", 1, 1, 4, 4)))).hasSize(2);
        a.rollback(c);
        assertThat(a.state()).isEqualTo(before);
        assertThat(a.reserveAllAt(List.of())).isEmpty();
    }

    @Test
    void theSweepTakesArraysOfOneLength() {
        assertThat(catchThrowableOfType(IllegalArgumentException.class,
                () -> OverlapSweep.firstConflict(new long[1], new long[1], new int[1], new int[0]))).isNotNull();
        assertThat(catchThrowableOfType(IllegalArgumentException.class,
                () -> OverlapSweep.firstConflict(new long[1], new long[0], new int[1], new int[1]))).isNotNull();
        assertThat(catchThrowableOfType(IllegalArgumentException.class,
                () -> OverlapSweep.firstConflict(new long[1], new long[1], new int[0], new int[1]))).isNotNull();
        assertThat(OverlapSweep.firstConflict(new long[0], new long[0], new int[0], new int[0])).isEmpty();
    }

    private static SpaceAllocator.At at(String name, int first, int last, long offset, long size) {
        return new SpaceAllocator.At(name, new Lifetime(first, last), offset, size, 1, Admission.Mode.EXACT, Origin.FIXED);
    }

    private static String refusal(SpaceAllocator a, List<SpaceAllocator.At> rs) {
        SpaceAllocator.State before = a.state();
        BerthException e = catchThrowableOfType(BerthException.class, () -> a.reserveAllAt(rs));
        assertThat(e).isNotNull();
        assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
        assertThat(a.state()).isEqualTo(before);
        return e.getMessage();
    }
}

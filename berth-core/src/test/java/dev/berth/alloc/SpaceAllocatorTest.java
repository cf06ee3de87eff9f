package dev.berth.alloc;

import dev.berth.admit.Admission;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Space;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Origin;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Deterministic cases of the allocator: the limits at the offset a request really takes, and the top of the range. */
class SpaceAllocatorTest {
    private static final Lifetime STEP0 = new Lifetime(0, 0);

    private static BerthException failure(Runnable r) {
        return catchThrowableOfType(BerthException.class, r::run);
    }

    /**
     * Held [0,10) and [10,40); 30 bytes at alignment 25 reserve 50. Offset 25 is occupied, so the
     * request takes 50, where the format (maxAddress 90) fails before the capacity (60) is looked at.
     */
    @Test
    void aRequestIsJudgedAtTheFreeOffsetItWouldTake() {
        Space s = new Space.Local("sram", new AddressFormat("f", 90, EndConvention.EXCLUSIVE), 1, 0, 60);
        SpaceAllocator a = new SpaceAllocator(s);
        a.reserveAt("a", STEP0, 0, 10, 1, Admission.Mode.EXACT, Origin.FIXED);
        a.reserveAt("b", STEP0, 10, 30, 1, Admission.Mode.EXACT, Origin.FIXED);
        SpaceAllocator.State before = a.state();
        BerthException e = failure(() -> a.reserve("t", STEP0, 30, 25, Origin.TENSOR));
        assertThat(e.category()).isEqualTo(Category.ADDRESS_NOT_ENCODABLE);
        assertThat(e.failure().facts().start()).hasValue(50);
        assertThat(e.failure().facts().reserved()).hasValue(50);
        assertThat(a.state()).isEqualTo(before);
        // at another step offset 0 is free, and there the capacity is the limit that holds
        assertThat(a.reserve("u", new Lifetime(1, 1), 30, 25, Origin.TENSOR).placement().offset()).isZero();
    }

    @Test
    void theTopOfTheRangeIsAFormatFailureNeverAWrap() {
        Space g = new Space.Logical("g", new AddressFormat("f", Long.MAX_VALUE, EndConvention.LAST_BYTE), 1, 0);
        SpaceAllocator a = new SpaceAllocator(g);
        a.reserve("big", STEP0, Long.MAX_VALUE - 3, 1, Origin.TENSOR);
        SpaceAllocator.State before = a.state();
        // the next free offset is 2^63-4; 16-byte alignment would take it past 2^63-1
        BerthException aligned = failure(() -> a.reserve("x", STEP0, 1, 16, Origin.TENSOR));
        assertThat(aligned.category()).isEqualTo(Category.ADDRESS_NOT_ENCODABLE);
        // 4 bytes fit exactly (last byte 2^63-1), 5 do not
        BerthException five = failure(() -> a.reserve("y", STEP0, 5, 1, Origin.TENSOR));
        assertThat(five.category()).isEqualTo(Category.ADDRESS_NOT_ENCODABLE);
        assertThat(a.state()).isEqualTo(before);
        assertThat(a.reserve("z", STEP0, 3, 1, Origin.TENSOR).placement().offset()).isEqualTo(Long.MAX_VALUE - 3);
        assertThat(a.highWater()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void inputAndArithmeticComeFirstAndChangeNothing() {
        Space g = new Space.Logical("g", new AddressFormat("f", 100, EndConvention.EXCLUSIVE), 10, 0);
        SpaceAllocator a = new SpaceAllocator(g);
        a.reserve("held", STEP0, 95, 1, Origin.TENSOR);
        SpaceAllocator.State before = a.state();
        assertThat(failure(() -> a.reserve("n", STEP0, -1, 1, Origin.TENSOR)).category())
                .isEqualTo(Category.INVALID_INPUT);
        assertThat(failure(() -> a.reserve("n", STEP0, 1, 0, Origin.TENSOR)).category())
                .isEqualTo(Category.INVALID_INPUT);
        assertThat(failure(() -> a.reserve("held", STEP0, 1, 1, Origin.TENSOR)).category())
                .isEqualTo(Category.INVALID_INPUT);
        // a reserved size past 2^63-1 outranks the format failure it would also be
        assertThat(failure(() -> a.reserve("n", STEP0, Long.MAX_VALUE - 1, 1, Origin.TENSOR)).category())
                .isEqualTo(Category.ARITHMETIC_OVERFLOW);
        assertThat(failure(() -> a.reserve("n", STEP0, 1, (1L << 62) + 1, Origin.TENSOR)).category())
                .isEqualTo(Category.ARITHMETIC_OVERFLOW);
        assertThat(a.state()).isEqualTo(before);
    }

    @Test
    void zeroBytesOverlapNothing() {
        Space g = new Space.Logical("g", new AddressFormat("f", 100, EndConvention.EXCLUSIVE), 1, 0);
        SpaceAllocator a = new SpaceAllocator(g);
        a.reserve("a", STEP0, 50, 1, Origin.TENSOR);
        assertThat(a.reserve("empty", STEP0, 0, 8, Origin.TENSOR).placement().offset()).isZero();
        assertThat(a.reserveAt("empty2", STEP0, 10, 0, 1, Admission.Mode.EXACT, Origin.FIXED).placement().offset())
                .isEqualTo(10);
        assertThat(a.reserve("b", STEP0, 10, 1, Origin.TENSOR).placement().offset()).isEqualTo(50);
    }

    @Test
    void rollbackRestoresAndRefusesACheckpointRolledBackPast() {
        Space g = new Space.Logical("g", new AddressFormat("f", 1000, EndConvention.EXCLUSIVE), 1, 0);
        SpaceAllocator a = new SpaceAllocator(g);
        SpaceAllocator.Checkpoint c0 = a.checkpoint();
        a.reserve("a", STEP0, 10, 1, Origin.TENSOR);
        SpaceAllocator.Checkpoint c1 = a.checkpoint();
        SpaceAllocator.State atC1 = a.state();
        a.release("a");
        a.reserve("b", STEP0, 20, 1, Origin.TENSOR);
        a.rollback(c1);
        assertThat(a.state()).isEqualTo(atC1);
        a.rollback(c0);
        assertThat(a.allocations()).isEmpty();
        assertThat(a.highWater()).isZero();
        a.reserve("c", STEP0, 30, 1, Origin.TENSOR);
        SpaceAllocator.State withC = a.state();
        // c1 was taken in a history that c0's rollback undid: refused, nothing changes
        assertThatThrownBy(() -> a.rollback(c1)).isInstanceOf(IllegalStateException.class);
        assertThat(a.state()).isEqualTo(withC);
        a.rollback(c0);
        assertThat(a.allocations()).isEmpty();
    }
}

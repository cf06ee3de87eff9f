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

import java.util.List;

/**
 * The allocator's edges, one case each: the order in which held reservations are searched,
 * touching ranges, zero-byte reservations, equal ends, names, checkpoints taken last, and
 * conflicts between allocations at their boundaries.
 */
class SpaceAllocatorDetailTest {
    private static final Space G = new Space.Logical("g", new AddressFormat("f", 999, EndConvention.EXCLUSIVE), 1, 0);
    private static final Lifetime ALL = new Lifetime(0, 9);

    private static SpaceAllocator allocator() {
        return new SpaceAllocator(G);
    }

    private static Allocation at(SpaceAllocator a, String name, long offset, long size, Lifetime live) {
        return a.reserveAt(name, live, offset, size, 1, Admission.Mode.EXACT, Origin.FIXED);
    }

    @Test
    void anAdmissionFailureNamesAFixedRegionByItsOriginNotByItsMode() {
        // Mode.EXACT also re-admits placed buffers: only the origin says it is a fixed region
        assertThatThrownBy(() -> allocator().reserveAt("abi", ALL, 995, 10, 1, Admission.Mode.EXACT, Origin.FIXED))
                .isInstanceOf(BerthException.class).hasMessageStartingWith("address-not-encodable: fixed region abi "
                        + "in space g: ");
        assertThatThrownBy(() -> allocator().reserveAt("t", ALL, 995, 10, 1, Admission.Mode.EXACT, Origin.TENSOR))
                .isInstanceOf(BerthException.class).hasMessageStartingWith("address-not-encodable: buffer t in space g: ");
        assertThatThrownBy(() -> allocator().reserveAllAt(List.of(
                new SpaceAllocator.At("abi", ALL, 1000, 1, 1, Admission.Mode.EXACT, Origin.FIXED))))
                .isInstanceOf(BerthException.class).hasMessageStartingWith("address-not-encodable: fixed region abi "
                        + "in space g: start 1000 is past");
    }

    @Test
    void theGapSearchFollowsOffsetsNotTheOrderOfRequests() {
        SpaceAllocator a = allocator();
        at(a, "high", 20, 10, ALL);
        at(a, "low", 0, 10, ALL);
        assertThat(a.reserve("x", ALL, 10, 1, Origin.TENSOR).placement().offset()).isEqualTo(10);
        assertThat(a.reserve("y", ALL, 1, 1, Origin.TENSOR).placement().offset()).isEqualTo(30);
    }

    @Test
    void aRangeEndingWhereAnotherStartsFitsBeforeIt() {
        SpaceAllocator a = allocator();
        at(a, "next", 10, 10, ALL);
        assertThat(a.reserve("x", ALL, 10, 1, Origin.TENSOR).placement().offset()).isZero();
        assertThat(a.reserve("y", ALL, 5, 1, Origin.TENSOR).placement().offset()).isEqualTo(20);
    }

    @Test
    void zeroByteReservationsNeitherMoveNorAreMoved() {
        SpaceAllocator a = allocator();
        at(a, "z", 5, 0, ALL);
        assertThat(a.reserve("x", ALL, 10, 1, Origin.TENSOR).placement().offset()).isZero();
        assertThat(a.reserve("empty", ALL, 0, 1, Origin.TENSOR).placement().offset()).isZero();
        assertThat(a.highWater()).isEqualTo(10);
    }

    @Test
    void requestsAtOtherStepsShareAddresses() {
        SpaceAllocator a = allocator();
        at(a, "early", 0, 10, new Lifetime(0, 2));
        assertThat(a.reserve("late", new Lifetime(3, 5), 10, 1, Origin.TENSOR).placement().offset()).isZero();
        assertThat(a.reserve("both", new Lifetime(2, 3), 10, 1, Origin.TENSOR).placement().offset()).isEqualTo(10);
    }

    @Test
    void equalEndsAreCountedSoTheHighWaterMarkFallsOnlyWithTheLast() {
        SpaceAllocator a = allocator();
        at(a, "a", 0, 10, new Lifetime(0, 0));
        at(a, "b", 5, 5, new Lifetime(1, 1));
        at(a, "c", 0, 3, new Lifetime(1, 1));
        assertThat(a.highWater()).isEqualTo(10);
        a.release("a");
        assertThat(a.highWater()).isEqualTo(10);
        a.release("b");
        assertThat(a.highWater()).isEqualTo(3);
        a.release("c");
        assertThat(a.highWater()).isZero();
    }

    @Test
    void namesAreUniqueOnEveryPathAndReleasingAnUnknownNameIsABug() {
        SpaceAllocator a = allocator();
        at(a, "a", 0, 10, ALL);
        assertThatThrownBy(() -> at(a, "a", 50, 1, ALL)).isInstanceOfSatisfying(BerthException.class,
                e -> assertThat(e.category()).isEqualTo(Category.INVALID_INPUT));
        assertThatThrownBy(() -> a.reserve("a", ALL, 1, 1, Origin.TENSOR)).isInstanceOf(BerthException.class);
        assertThatThrownBy(() -> a.release("nope")).isInstanceOf(IllegalArgumentException.class);
        assertThat(a.allocations()).extracting(Allocation::name).containsExactly("a");
    }

    @Test
    void stateAndAllocationsListWhatIsHeld() {
        SpaceAllocator a = allocator();
        assertThat(a.space()).isSameAs(G);
        at(a, "m", 0, 4, ALL);
        at(a, "b", 4, 4, ALL);
        at(a, "z", 8, 4, ALL);
        assertThat(a.allocations()).extracting(Allocation::name).containsExactly("m", "b", "z");
        SpaceAllocator.State s = a.state();
        assertThat(s.allocations()).extracting(Allocation::name).containsExactly("b", "m", "z");
        assertThat(s.highWater()).isEqualTo(12);
    }

    @Test
    void aCheckpointTakenLastRollsBackToItselfAndRollbacksRestoreSeveralHolds() {
        SpaceAllocator a = allocator();
        at(a, "a", 0, 4, ALL);
        at(a, "b", 4, 4, ALL);
        SpaceAllocator.Checkpoint now = a.checkpoint();
        a.rollback(now);
        assertThat(a.allocations()).hasSize(2);
        at(a, "c", 8, 4, ALL);
        a.release("a");
        SpaceAllocator.State before = a.state();
        SpaceAllocator.Checkpoint c = a.checkpoint();
        a.reserve("d", ALL, 4, 1, Origin.TENSOR);
        a.release("b");
        a.rollback(c);
        assertThat(a.state()).isEqualTo(before);
        assertThat(a.checkInvariants()).isTrue();
    }

    @Test
    void allocationsConflictOnlyWhenTheyShareAStepAndAByte() {
        Allocation base = at(allocator(), "base", 10, 10, new Lifetime(2, 4));
        Allocation touchingBelow = at(allocator(), "below", 0, 10, new Lifetime(2, 4));
        Allocation touchingAbove = at(allocator(), "above", 20, 5, new Lifetime(2, 4));
        Allocation firstByte = at(allocator(), "first", 0, 11, new Lifetime(4, 6));
        Allocation lastByte = at(allocator(), "last", 19, 1, new Lifetime(0, 2));
        Allocation laterStep = at(allocator(), "later", 10, 10, new Lifetime(5, 6));
        Allocation empty = at(allocator(), "empty", 15, 0, new Lifetime(2, 4));
        assertThat(base.conflicts(touchingBelow)).isFalse();
        assertThat(touchingBelow.conflicts(base)).isFalse();
        assertThat(base.conflicts(touchingAbove)).isFalse();
        assertThat(touchingAbove.conflicts(base)).isFalse();
        assertThat(base.conflicts(firstByte)).isTrue();
        assertThat(firstByte.conflicts(base)).isTrue();
        assertThat(base.conflicts(lastByte)).isTrue();
        assertThat(lastByte.conflicts(base)).isTrue();
        assertThat(base.conflicts(laterStep)).isFalse();
        assertThat(base.conflicts(empty)).isFalse();
        assertThat(empty.conflicts(base)).isFalse();
        assertThat(base.conflicts(base)).isTrue();
    }
}

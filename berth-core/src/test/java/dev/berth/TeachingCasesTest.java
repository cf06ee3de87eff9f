package dev.berth;

import dev.berth.admit.Admission;
import dev.berth.alloc.SpaceAllocator;
import dev.berth.arith.Checked;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.failure.Facts;
import dev.berth.failure.Failure;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Space;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Origin;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The seed's teaching cases (contract §3 and §7) on the spaces of the bundled {@code teaching}
 * target, built here by hand: {@code global} is logical with maxAddress 29 and alignment 10,
 * {@code local} is local with maxAddress 1023, alignment 10 and capacity 55.
 */
class TeachingCasesTest {
    static final Space GLOBAL = new Space.Logical("global",
            new AddressFormat("teach", 29, EndConvention.EXCLUSIVE), 10, 0);
    static final Space LOCAL = new Space.Local("local",
            new AddressFormat("wide", 1023, EndConvention.EXCLUSIVE), 10, 0, 55);

    @Test
    void alignmentTenAndValueTwentySevenGiveThirty() {
        assertThat(Checked.padding(27, 10)).isEqualTo(3);
        assertThat(Checked.alignUp(27, 10)).isEqualTo(30);
        assertThat(Checked.alignUp(30, 10)).isEqualTo(30);
    }

    @Test
    void limitTwentyNineRejectsTwentySevenAlignedToTenAndShowsThePadding() {
        for (long requested : new long[] {0, 1, 21}) {
            BerthException e = catchThrowableOfType(BerthException.class,
                    () -> Admission.admit(GLOBAL, "t", 27, requested, 1));
            assertThat(e.category()).isEqualTo(Category.ADDRESS_NOT_ENCODABLE);
            assertThat(e.failure().message())
                    .contains("start 27 aligned up to a multiple of 10 needs 3 bytes of padding")
                    .contains("only 2 remain")
                    .contains("29")
                    .contains("format teach");
            Facts f = e.failure().facts();
            assertThat(f.start()).hasValue(27); // the candidate: 30 was never formed
            assertThat(f.alignment()).hasValue(10);
            assertThat(f.limit()).hasValue(29);
        }
        // start 20 is encodable, but 9 bytes reserve 10 and the exclusive end 30 is not
        assertThat(Admission.admit(GLOBAL, "t", 11, 0, 1).offset()).isEqualTo(20);
        assertThat(Admission.admit(GLOBAL, "t", 1, 9, 1).end()).isEqualTo(20);
        BerthException end = catchThrowableOfType(BerthException.class, () -> Admission.admit(GLOBAL, "t", 11, 9, 1));
        assertThat(end.category()).isEqualTo(Category.ADDRESS_NOT_ENCODABLE);
        assertThat(end.failure().message()).contains("9 bytes requested, 10 reserved").contains("at start 20")
                .contains("only 9 bytes from there can be encodable");
    }

    /**
     * The same rule where forming the aligned value would overflow: 2^63-7 aligned to 10 would
     * be 2^63+3. The request is rejected by subtraction, as address-not-encodable (the start is
     * past the format), without ever forming that value.
     */
    @Test
    void theRejectionNeverFormsTheAlignedValue() {
        long candidate = Long.MAX_VALUE - 6; // ...801
        Space top = new Space.Logical("top", new AddressFormat("top", Long.MAX_VALUE - 1, EndConvention.EXCLUSIVE),
                10, 0);
        BerthException e = catchThrowableOfType(BerthException.class, () -> Admission.admit(top, "t", candidate, 0, 1));
        assertThat(e.category()).isEqualTo(Category.ADDRESS_NOT_ENCODABLE);
        assertThat(e.failure().message()).contains("needs 9 bytes of padding, but only 5 remain");
    }

    @Test
    void twentyOneBytesReserveThirtySoTwentyFiveFreeBytesAreNotEnough() {
        SpaceAllocator alloc = new SpaceAllocator(LOCAL);
        alloc.reserveAt("abi", new Lifetime(0, 3), 0, 30, 1, Admission.Mode.EXACT, Origin.FIXED);
        SpaceAllocator.State before = alloc.state();
        BerthException e = catchThrowableOfType(BerthException.class,
                () -> alloc.reserve("t1", new Lifetime(1, 3), 21, 10, Origin.TENSOR));
        assertThat(e.category()).isEqualTo(Category.CAPACITY_EXCEEDED);
        Failure f = e.failure();
        Facts facts = f.facts();
        assertThat(facts.buffer()).hasValue("t1");
        assertThat(facts.space()).hasValue("local");
        assertThat(facts.start()).hasValue(30);
        assertThat(facts.requested()).hasValue(21);
        assertThat(facts.reserved()).hasValue(30);
        assertThat(facts.alignment()).hasValue(10);
        assertThat(facts.limit()).hasValue(55);
        assertThat(facts.limitSource()).hasValue("space local: capacity 55");
        // a person can check it by hand: 21 -> 30 reserved, from 30 only 25 of 55 are free
        assertThat(f.message())
                .contains("t1")
                .contains("21 bytes requested, 30 reserved")
                .contains("alignment 10")
                .contains("start 30")
                .contains("only 25 bytes are free")
                .contains("space local: capacity 55");
        assertThat(alloc.state()).isEqualTo(before);
        // and the JSON fields of contract §7, in its order
        Map<String, Object> fields = f.fields();
        assertThat(fields.keySet()).containsExactly("category", "message", "buffer", "space", "start", "requested",
                "reserved", "alignment", "limit", "limitSource", "provablyInfeasible");
        assertThat(fields).containsEntry("category", "capacity-exceeded").containsEntry("start", 30L)
                .containsEntry("requested", 21L).containsEntry("reserved", 30L).containsEntry("limit", 55L)
                .containsEntry("provablyInfeasible", false);
    }

    @Test
    void withoutTheFixedRegionTwentyOneBytesFitAtZero() {
        SpaceAllocator alloc = new SpaceAllocator(LOCAL);
        assertThat(alloc.reserve("t1", new Lifetime(1, 3), 21, 10, Origin.TENSOR).placement().reserved()).isEqualTo(30);
        // two of them need 60 > 55
        BerthException e = catchThrowableOfType(BerthException.class,
                () -> alloc.reserve("t2", new Lifetime(1, 3), 21, 1, Origin.TENSOR));
        assertThat(e.category()).isEqualTo(Category.CAPACITY_EXCEEDED);
        // at another step the same bytes are free again
        assertThat(alloc.reserve("t3", new Lifetime(4, 4), 21, 1, Origin.TENSOR).placement().offset()).isZero();
    }

    /** A logical space has no compile-time capacity: 11 KiB, or nearly 4 GiB, fit; only the format limits it. */
    @Test
    void aLogicalSpaceAcceptsElevenKibWithNoCapacityAnywhere() {
        Space global = new Space.Logical("global", new AddressFormat("dma32", 0xFFFF_FFFFL, EndConvention.EXCLUSIVE),
                64, 0);
        assertThat(global.capacity()).isEqualTo(OptionalLong.empty());
        assertThat(global.usableCapacity()).isEqualTo(OptionalLong.empty());
        SpaceAllocator alloc = new SpaceAllocator(global);
        for (int i = 0; i < 11; i++) {
            alloc.reserve("b" + i, new Lifetime(0, 1), 1024, 1, Origin.TENSOR);
        }
        assertThat(alloc.highWater()).isEqualTo(11 * 1024);
        // up to the format's reach (the exclusive end must be encodable: the last multiple of 64 <= 2^32-1)
        alloc.reserve("big", new Lifetime(0, 1), 0xFFFF_FFC0L - 11 * 1024, 1, Origin.TENSOR);
        assertThat(alloc.highWater()).isEqualTo(0xFFFF_FFC0L);
        BerthException e = catchThrowableOfType(BerthException.class,
                () -> alloc.reserve("one-more", new Lifetime(1, 1), 1, 1, Origin.TENSOR));
        assertThat(e.category()).isEqualTo(Category.ADDRESS_NOT_ENCODABLE);
        assertThat(e.failure().facts().limitSource()).hasValueSatisfying(s -> assertThat(s).contains("dma32"));
        assertThat(e.failure().facts().limit()).hasValue(0xFFFF_FFFFL);
    }
}

package dev.berth.admit;

import dev.berth.admit.ContractModel.SpaceSpec;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.failure.Facts;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Space;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The admission check in detail, fast enough to run once per mutant (the mutation profile):
 * a small grid of every space kind against {@link ContractModel} (verdict, placement and the
 * facts of every rejection), {@link Admission#encodable} and {@link Admission#encodableAt}
 * against a BigInteger restatement, and the exact numbers of every message.
 */
class AdmissionDetailTest {
    private static final AddressFormat EX29 = new AddressFormat("teach", 29, EndConvention.EXCLUSIVE);
    private static final AddressFormat LB29 = new AddressFormat("lb", 29, EndConvention.LAST_BYTE);

    private static List<SpaceSpec> spaces() {
        List<SpaceSpec> s = new ArrayList<>();
        for (boolean ex : new boolean[]{true, false}) {
            s.add(SpaceSpec.logical(0, ex, 1));
            s.add(SpaceSpec.logical(13, ex, 3));
            s.add(SpaceSpec.local(20, ex, 2, 11, 0));
            s.add(SpaceSpec.local(40, ex, 4, 17, 3));
            s.add(SpaceSpec.local(9, ex, 1, 30, 0));
            s.add(SpaceSpec.external(25, ex, 1, 7, Optional.empty(), 0));
            s.add(SpaceSpec.external(25, ex, 2, 25, Optional.empty(), 0));
            s.add(SpaceSpec.external(25, ex, 1, 26, Optional.empty(), 0));
            s.add(SpaceSpec.external(30, ex, 5, 3, Optional.of(14L), 2));
        }
        return s;
    }

    @Test
    void aSmallGridAgreesWithTheContractModelInEveryFieldAndFact() {
        int accepted = 0;
        int rejected = 0;
        for (SpaceSpec spec : spaces()) {
            Space space = spec.toSpace("s");
            for (long candidate = 0; candidate <= 16; candidate++) {
                for (long requested = 0; requested <= 16; requested++) {
                    for (long alignment = 1; alignment <= 6; alignment++) {
                        ContractModel.Outcome want = ContractModel.admit(spec, BigInteger.valueOf(candidate),
                                BigInteger.valueOf(requested), BigInteger.valueOf(alignment));
                        String where = spec + " candidate " + candidate + " requested " + requested + " alignment "
                                + alignment;
                        check(space, where, want, candidate, requested, alignment, Admission.Mode.ALIGNED);
                        ContractModel.Outcome exact = ContractModel.admitExact(spec, BigInteger.valueOf(candidate),
                                BigInteger.valueOf(requested));
                        check(space, where + " exact", exact, candidate, requested, alignment, Admission.Mode.EXACT);
                        if (want.verdict() == ContractModel.Verdict.ACCEPT) {
                            accepted++;
                        } else {
                            rejected++;
                        }
                    }
                }
            }
        }
        assertThat(accepted).isPositive();
        assertThat(rejected).isPositive();
    }

    private static void check(Space space, String where, ContractModel.Outcome want, long candidate, long requested,
                              long alignment, Admission.Mode mode) {
        try {
            Placement p = Admission.admit(space, "b", candidate, requested, alignment, mode);
            assertThat(want.verdict()).as(where).isEqualTo(ContractModel.Verdict.ACCEPT);
            assertThat(p.offset()).as(where).isEqualTo(want.start().longValueExact());
            assertThat(p.reserved()).as(where).isEqualTo(want.reserved().longValueExact());
            assertThat(p.alignment()).as(where).isEqualTo(want.effectiveAlignment().longValueExact());
            assertThat(p.address()).as(where).isEqualTo(want.address().longValueExact());
            assertThat(p.end()).as(where).isEqualTo(p.offset() + p.reserved());
            assertThat(p.requested()).as(where).isEqualTo(requested);
            assertThat(p.space()).as(where).isSameAs(space);
            assertThat(p.buffer()).as(where).isEqualTo("b");
        } catch (BerthException e) {
            Category c = switch (want.verdict()) {
                case ACCEPT -> null;
                case INVALID_INPUT -> Category.INVALID_INPUT;
                case ARITHMETIC_OVERFLOW -> Category.ARITHMETIC_OVERFLOW;
                case NOT_ENCODABLE -> Category.ADDRESS_NOT_ENCODABLE;
                case CAPACITY_EXCEEDED -> Category.CAPACITY_EXCEEDED;
            };
            assertThat(e.category()).as(where + ": " + e.getMessage()).isEqualTo(c);
            Facts f = e.failure().facts();
            assertThat(f.buffer()).as(where).contains("b");
            assertThat(f.space()).as(where).contains("s");
            assertThat(f.requested()).as(where).hasValue(requested);
            assertThat(f.reserved()).as(where).hasValue(want.reserved().longValueExact());
            assertThat(f.alignment()).as(where).hasValue(want.effectiveAlignment().longValueExact());
            if (c == Category.CAPACITY_EXCEEDED) {
                long usable = space.capacity().getAsLong() - space.runtimeReserve();
                assertThat(f.start()).as(where).hasValue(want.start().longValueExact());
                assertThat(f.limit()).as(where).hasValue(usable);
                assertThat(f.limitSource()).as(where).contains(Admission.capacitySource(space));
            } else {
                assertThat(f.limit()).as(where).hasValue(space.format().maxAddress());
                assertThat(f.limitSource()).as(where).hasValue(space.format().describe() + " of space s"
                        + (space.base() != 0 ? " (base " + space.base() + ")" : ""));
            }
        }
    }

    @Test
    void encodableAndEncodableAtAgreeWithTheirBigIntegerStatement() {
        for (EndConvention end : EndConvention.values()) {
            for (long m = 0; m <= 9; m++) {
                AddressFormat f = new AddressFormat("f", m, end);
                for (long base = 0; base <= 11; base++) {
                    for (long offset = 0; offset <= 11; offset++) {
                        for (long n = 0; n <= 12; n++) {
                            long b0 = base;
                            long off = offset;
                            long bytes = n;
                            long mm = m;
                            long s = base + offset;
                            boolean ok = s <= m && (end == EndConvention.EXCLUSIVE ? s + bytes <= m
                                    : bytes == 0 || s + bytes - 1 <= m);
                            String where = f.describe() + " base " + base + " offset " + offset + " bytes " + bytes;
                            if (ok) {
                                assertThat(Admission.encodableAt(f, "d", "g", base, offset, bytes)).as(where).isEqualTo(s);
                                assertThat(Admission.encodable(f, "d", "g", s, bytes)).as(where).isEqualTo(s);
                            } else {
                                assertThatThrownBy(() -> Admission.encodableAt(f, "d", "g", b0, off, bytes)).as(where)
                                        .isInstanceOfSatisfying(BerthException.class, e -> {
                                            assertThat(e.category()).isEqualTo(Category.ADDRESS_NOT_ENCODABLE);
                                            assertThat(e.failure().facts().limit()).hasValue(mm);
                                            assertThat(e.failure().facts().requested()).hasValue(bytes);
                                            // a start past the format is reported as base + offset, an end as the address
                                            assertThat(e.failure().facts().start()).hasValue(s > mm ? off : s);
                                            assertThat(e.failure().message()).contains(s > mm
                                                    ? "base " + b0 + " + offset " + off + " is past maxAddress " + mm
                                                    : bytes + " bytes from " + s + " end past maxAddress " + mm);
                                        });
                                assertThatThrownBy(() -> Admission.encodable(f, "d", "g", s, bytes)).as(where)
                                        .isInstanceOfSatisfying(BerthException.class, e -> {
                                            assertThat(e.category()).isEqualTo(Category.ADDRESS_NOT_ENCODABLE);
                                            assertThat(e.failure().facts().start()).hasValue(s);
                                        });
                            }
                        }
                    }
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {-1, Long.MIN_VALUE})
    void negativeNumbersAreInvalidInputEverywhere(long negative) {
        Space s = new Space.Logical("g", EX29, 1, 0);
        for (Runnable r : List.<Runnable>of(
                () -> Admission.admit(s, "b", negative, 1, 1),
                () -> Admission.admit(s, "b", 0, negative, 1),
                () -> Admission.admit(s, "b", 0, 1, negative),
                () -> Admission.admit(s, "b", 0, 1, 0),
                () -> Admission.effectiveAlignment(s, "b", 1, 0),
                () -> Admission.encodable(EX29, "d", "g", negative, 1),
                () -> Admission.encodable(EX29, "d", "g", 1, negative),
                () -> Admission.encodableAt(EX29, "d", "g", negative, 1, 1),
                () -> Admission.encodableAt(EX29, "d", "g", 1, negative, 1),
                () -> Admission.encodableAt(EX29, "d", "g", 1, 1, negative))) {
            assertThatThrownBy(r::run).isInstanceOfSatisfying(BerthException.class,
                    e -> assertThat(e.category()).isEqualTo(Category.INVALID_INPUT));
        }
    }

    private static String message(Space s, long candidate, long requested, long alignment) {
        BerthException e = (BerthException) org.assertj.core.api.Assertions.catchThrowable(
                () -> Admission.admit(s, "t1", candidate, requested, alignment));
        assertThat(e).as("rejected").isNotNull();
        return e.failure().message();
    }

    @Test
    void startMessagesGiveTheNumbersOfEachCase() {
        // the teaching case: 27 aligned to 10 needs 3 bytes of padding, 2 remain below 29
        assertThat(message(new Space.Logical("global", EX29, 10, 0), 27, 1, 1)).isEqualTo(
                "buffer t1 in space global: start 27 aligned up to a multiple of 10 needs 3 bytes of padding, but only 2"
                        + " remain below the largest encodable offset 29; limit from format teach (maxAddress 29, exclusive end)"
                        + " of space global");
        // a start exactly at the limit that still needs padding
        assertThat(message(new Space.Logical("global", EX29, 10, 0), 29, 1, 1)).contains(
                "start 29 aligned up to a multiple of 10 needs 1 bytes of padding, but only 0 remain");
        // a base exactly at the limit: room 0, start 1 is past it (not "the base is past")
        Space atLimit = new Space.External("w", EX29, 1, 0, 29, OptionalLong.empty());
        assertThat(message(atLimit, 1, 1, 1)).isEqualTo("buffer t1 in space w: start 1 (absolute 30) is past the largest"
                + " encodable offset 0; limit from format teach (maxAddress 29, exclusive end) of space w (base 29)");
        Space past = new Space.External("w", EX29, 1, 0, 30, OptionalLong.empty());
        assertThat(message(past, 0, 1, 1)).contains("the space's base 30 is itself past maxAddress 29");
        assertThat(message(new Space.Logical("g", EX29, 1, 0), 31, 1, 1)).contains("start 31 is past the largest "
                + "encodable offset 29").doesNotContain("absolute");
    }

    @Test
    void endMessagesCountTheBytesThatFitUnderEachConvention() {
        assertThat(message(new Space.Logical("g", EX29, 1, 0), 25, 10, 1)).isEqualTo("buffer t1 in space g: 10 bytes "
                + "requested, 10 reserved (alignment 1) at start 25, but only 4 bytes from there can be encodable (exclusive"
                + " end); limit from format teach (maxAddress 29, exclusive end) of space g");
        assertThat(message(new Space.Logical("g", LB29, 1, 0), 25, 10, 1)).contains("but only 5 bytes from there can "
                + "be encodable (last-byte end)");
        assertThat(message(new Space.Logical("g", EX29, 1, 0), 29, 1, 1)).contains("but only 0 bytes from there");
        assertThat(message(new Space.External("w", LB29, 2, 0, 20, OptionalLong.empty()), 3, 9, 1))
                .contains("9 bytes requested, 10 reserved (alignment 2) at start 4, but only 6 bytes")
                .endsWith("of space w (base 20)");
        AddressFormat wide = new AddressFormat("wide", Long.MAX_VALUE, EndConvention.LAST_BYTE);
        BerthException e = (BerthException) org.assertj.core.api.Assertions.catchThrowable(() -> Admission.admit(
                new Space.Logical("g", wide, 1, 0), "t1", 0, Long.MAX_VALUE, 1));
        assertThat(e).as("2^63-1 bytes fit a last-byte format of 2^63-1").isNull();
    }

    @Test
    void encodableMessagesSayWhichEndIsPastTheFormat() {
        assertThat(catchMessage(() -> Admission.encodable(EX29, "d.tile.0", "global", 30, 1)))
                .isEqualTo("d.tile.0 in space global: address 30 is past maxAddress 29; limit from format teach "
                        + "(maxAddress 29, exclusive end)");
        assertThat(catchMessage(() -> Admission.encodable(EX29, "d", "g", 29, 1)))
                .contains("1 bytes from 29 end past maxAddress 29 (only 0 bytes are encodable from there)");
        assertThat(catchMessage(() -> Admission.encodable(EX29, "d", "g", 25, 10)))
                .contains("10 bytes from 25 end past maxAddress 29 (only 4 bytes are encodable from there)");
        assertThat(catchMessage(() -> Admission.encodable(LB29, "d", "g", 25, 10)))
                .contains("10 bytes from 25 end past maxAddress 29 (only 5 bytes are encodable from there)");
    }

    private static String catchMessage(Runnable r) {
        BerthException e = (BerthException) org.assertj.core.api.Assertions.catchThrowable(r::run);
        assertThat(e).as("rejected").isNotNull();
        return e.failure().message();
    }

    @Test
    void capacityMessagesAndSources() {
        Space local = new Space.Local("local", new AddressFormat("wide", 1023, EndConvention.EXCLUSIVE), 10, 0, 55);
        assertThat(message(local, 30, 21, 1)).isEqualTo("buffer t1 in space local: 21 bytes requested, 30 reserved "
                + "(alignment 10) at start 30, but only 25 bytes are free from there; limit from space local: capacity 55");
        Space reserved = new Space.Local("sram", new AddressFormat("wide", 1023, EndConvention.EXCLUSIVE), 1, 7, 50);
        assertThat(Admission.capacitySource(reserved)).isEqualTo("space sram: capacity 50 - runtimeReserve 7 = 43");
        assertThat(Admission.capacitySource(local)).isEqualTo("space local: capacity 55");
        assertThat(message(reserved, 44, 0, 1)).isEqualTo("buffer t1 in space sram: start 44 is past the usable "
                + "capacity 43; limit from space sram: capacity 50 - runtimeReserve 7 = 43");
        assertThat(message(reserved, 43, 1, 1)).contains("but only 0 bytes are free from there");
        BerthException e = (BerthException) org.assertj.core.api.Assertions.catchThrowable(
                () -> Admission.admit(reserved, "t1", 43, 0, 1));
        assertThat(e).as("zero bytes at the usable capacity fit").isNull();
    }

    @Test
    void theLimitIsTheLargestEndTheFormatAndCapacityAllow() {
        AddressFormat top = new AddressFormat("top", Long.MAX_VALUE, EndConvention.LAST_BYTE);
        List<Space> spaces = List.of(new Space.Logical("a", EX29, 1, 0), new Space.Logical("b", LB29, 1, 0),
                new Space.External("c", EX29, 1, 0, 25, OptionalLong.empty()),
                new Space.External("d", LB29, 1, 0, 29, OptionalLong.empty()),
                new Space.External("e", EX29, 1, 0, 29, OptionalLong.empty()),
                new Space.External("f", LB29, 1, 0, 30, OptionalLong.empty()),
                new Space.Local("g", EX29, 1, 0, 11), new Space.Local("h", LB29, 1, 3, 40),
                new Space.Logical("i", top, 1, 0));
        // exclusive 29, last byte 30; from base 25: 4; last byte from base 29: 1, exclusive 0; base past it: 0;
        // capacity 11 under 29; capacity 40 - 3 over 30; the last byte 2^63-1 makes an end past 2^63-1: saturated
        assertThat(spaces.stream().map(Admission::limit).toList())
                .containsExactly(29L, 30L, 4L, 1L, 0L, 0L, 11L, 30L, Long.MAX_VALUE);
        for (Space s : spaces.subList(0, 8)) {
            long limit = Admission.limit(s);
            // one byte ending at the limit is admitted, one past it is not
            if (limit > 0) {
                assertThat(catchThrowable(() -> Admission.admit(s, "t1", limit - 1, 1, 1))).as(s.name()).isNull();
            }
            assertThat(catchThrowable(() -> Admission.admit(s, "t1", limit, 1, 1))).as(s.name())
                    .isInstanceOf(BerthException.class);
        }
    }

    @Test
    void placementsAreValuesNamedByBufferSpaceAndNumbers() {
        Space w = new Space.External("w", EX29, 2, 0, 10, OptionalLong.empty());
        Placement a = Admission.admit(w, "a", 3, 5, 1);
        Placement same = Admission.admit(w, "a", 4, 5, 1);
        assertThat(a).isEqualTo(same).hasSameHashCodeAs(same);
        assertThat(a.hashCode()).isEqualTo("a".hashCode() * 31 + Long.hashCode(4));
        assertThat(a.toString()).isEqualTo("a@w[4, +6)");
        assertThat(a.address()).isEqualTo(14);
        assertThat(a.alignment()).isEqualTo(2);
        assertThat(a.requested()).isEqualTo(5);
        assertThat(a.space()).isSameAs(w);
        assertThat(a).isNotEqualTo(Admission.admit(w, "b", 4, 5, 1))
                .isNotEqualTo(Admission.admit(new Space.External("v", EX29, 2, 0, 10, OptionalLong.empty()), "a", 4, 5, 1))
                .isNotEqualTo(Admission.admit(w, "a", 6, 5, 1))
                .isNotEqualTo(Admission.admit(w, "a", 4, 6, 1))
                .isNotEqualTo(Admission.admit(w, "a", 4, 5, 3))
                .isNotEqualTo(Admission.admit(w, "a", 4, 6, 1, Admission.Mode.EXACT))
                .isNotEqualTo("a@w[4, +6)");
        Space g = new Space.Logical("g", EX29, 1, 0);
        // equal but for the effective alignment, or but for the requested size
        assertThat(Admission.admit(g, "a", 0, 6, 2)).isNotEqualTo(Admission.admit(g, "a", 0, 6, 3));
        assertThat(Admission.admit(g, "a", 0, 5, 2)).isNotEqualTo(Admission.admit(g, "a", 0, 6, 2));
        assertThat(Admission.admit(w, "a", 4, 5, 1, Admission.Mode.EXACT)).isNotEqualTo(a);
    }

    /**
     * An exact admission (which places at the offset given and never rounds, so never computes the
     * effective alignment) still refuses an alignment below 1 first, as invalid-input at the buffer's
     * alignment: the input check, not the alignment arithmetic, is what catches it there.
     */
    @Test
    void anExactAdmissionRefusesAnAlignmentBelowOne() {
        Space s = new Space.Logical("g", EX29, 1, 0);
        for (long bad : new long[]{0, -8}) {
            assertThatThrownBy(() -> Admission.admit(s, "x", 0, 8, bad, Admission.Mode.EXACT))
                    .isInstanceOf(BerthException.class)
                    .satisfies(e -> assertThat(((BerthException) e).category())
                            .isEqualTo(Category.INVALID_INPUT))
                    .hasMessageContaining("alignment");
        }
        assertThat(Admission.admit(s, "x", 3, 8, 4, Admission.Mode.EXACT).offset()).isEqualTo(3);
    }
}

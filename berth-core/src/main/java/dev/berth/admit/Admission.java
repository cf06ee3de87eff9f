package dev.berth.admit;

import dev.berth.arith.Checked;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.failure.Facts;
import dev.berth.failure.Failure;
import dev.berth.failure.Require;
import dev.berth.failure.Shortfall;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Space;

import java.util.OptionalLong;

/**
 * THE admission check (contract §3). Every allocation path (workload buffers, fixed regions,
 * tile buffers, descriptor tables, instruction streams) and every descriptor address passes
 * through here; {@link Placement}s cannot be made anywhere else.
 *
 * <p>Order of checks, as in contract §1: input, host arithmetic, address format, capacity.
 * Limits are compared by subtraction; {@code s + r} is never formed before it is known to be
 * at most the limit.
 */
public final class Admission {

    /** How the request's start and size are rounded. */
    public enum Mode {
        /** Align the start up and round the size up to {@code lcm(space alignment, alignment)}. */
        ALIGNED,
        /** Exactly {@code requested} bytes at exactly {@code offset}: fixed regions of an earlier stage. */
        EXACT
    }

    private Admission() {
    }

    /**
     * Admits {@code requested} bytes for {@code buffer} in {@code space} at the least aligned
     * offset at or above {@code candidate}, or throws a typed {@link BerthException}.
     */
    public static Placement admit(Space space, String buffer, long candidate, long requested, long alignment) {
        return admit(space, buffer, candidate, requested, alignment, Mode.ALIGNED);
    }

    /**
     * Admits {@code requested} bytes for {@code buffer} in {@code space} at {@code candidate},
     * rounded as {@code mode} says; its failures name it a buffer.
     */
    public static Placement admit(Space space, String buffer, long candidate, long requested, long alignment,
                                  Mode mode) {
        return admit(space, buffer, candidate, requested, alignment, mode, false);
    }

    /**
     * As {@link #admit(Space, String, long, long, long, Mode)}; a {@code fixedRegion} (a region of
     * an earlier stage, which only its caller knows: {@link Mode#EXACT} also re-admits placed
     * buffers) is called a fixed region in the failures' messages, anything else a buffer.
     */
    public static Placement admit(Space space, String buffer, long candidate, long requested, long alignment,
                                  Mode mode, boolean fixedRegion) {
        // 1. input (the noun of the messages is made only on failure: admission runs in every search's inner loop)
        checkInput(fixedRegion, buffer, candidate, requested, alignment);
        // 2. host arithmetic
        long eff = mode == Mode.EXACT ? 1 : effectiveAlignment(space, buffer, requested, alignment);
        long reserved = mode == Mode.EXACT ? requested : reservedSize(space, buffer, requested, eff);
        // 3. address format, on the absolute start s = base + offset, by subtraction
        AddressFormat fmt = space.format();
        long base = space.base();
        long room = fmt.maxAddress() - base; // largest encodable offset; negative when the base itself is past M
        long pad = Checked.padding(candidate, eff);
        if (room < 0 || candidate > room || pad > room - candidate) {
            throw startNotEncodable(space, fixedRegion, buffer, candidate, requested, reserved, eff, pad, room);
        }
        long start = candidate + pad;
        boolean endOk = fmt.end() == EndConvention.EXCLUSIVE
                ? reserved <= room - start
                : reserved == 0 || reserved - 1 <= room - start;
        if (!endOk) {
            throw endNotEncodable(space, fixedRegion, buffer, start, requested, reserved, eff, room);
        }
        // 4. capacity (local spaces, and external ones that give one)
        OptionalLong usable = space.usableCapacity();
        if (usable.isPresent()) {
            long c = usable.getAsLong();
            if (start > c || reserved > c - start) {
                throw capacityExceeded(space, fixedRegion, buffer, candidate, start, requested, reserved, eff, c);
            }
        }
        return new Placement(buffer, space, start, requested, reserved, eff);
    }

    /**
     * The input checks of {@link #admit}, first in the contract's precedence: a negative offset
     * or size, or a zero or negative alignment, is {@code invalid-input}.
     */
    public static void checkInput(String buffer, long candidate, long requested, long alignment) {
        checkInput(false, buffer, candidate, requested, alignment);
    }

    /** {@link #checkInput(String, long, long, long)}, the messages naming a {@code fixedRegion} so ("fixed region x"), else "buffer x". */
    private static void checkInput(boolean fixedRegion, String buffer, long candidate, long requested, long alignment) {
        if (candidate < 0) {
            throw BerthException.invalid(buffer, Long.toString(candidate), noun(fixedRegion, buffer) + ": offset " + candidate + " is negative");
        }
        if (requested < 0) {
            throw BerthException.invalid(buffer, Long.toString(requested), noun(fixedRegion, buffer) + ": size " + requested + " is negative");
        }
        Checked.requireAlignment(alignment, buffer, ".alignment");
    }

    /** How messages name the reservation: {@code fixed region NAME} or {@code buffer NAME}. */
    private static String noun(boolean fixedRegion, String name) {
        return (fixedRegion ? "fixed region " : "buffer ") + name;
    }

    /**
     * {@code lcm(space alignment, alignment)}, or {@code arithmetic-overflow} naming the buffer.
     */
    public static long effectiveAlignment(Space space, String buffer, long requested, long alignment) {
        Checked.requireAlignment(alignment, buffer, ".alignment");
        try {
            return Checked.lcm(space.alignment(), alignment);
        } catch (BerthException e) {
            throw overflow(space, buffer, requested, alignment, e);
        }
    }

    /**
     * {@code requested} rounded up to a multiple of the effective alignment {@code eff}, or
     * {@code arithmetic-overflow} naming the buffer.
     */
    public static long reservedSize(Space space, String buffer, long requested, long eff) {
        try {
            return Checked.alignUp(requested, eff);
        } catch (BerthException e) {
            throw overflow(space, buffer, requested, eff, e);
        }
    }

    private static BerthException overflow(Space space, String buffer, long requested, long alignment,
                                           BerthException e) {
        Facts f = Facts.NONE.withBuffer(buffer).withSpace(space.name()).withRequested(requested).withAlignment(alignment);
        return new BerthException(new Failure.ArithmeticOverflow("buffer " + buffer + " in space " + space.name()
                + ": " + e.failure().message(), ((Failure.ArithmeticOverflow) e.failure()).operation(), f));
    }

    /**
     * Checks that the byte range {@code [address, address + bytes)} is encodable in {@code fmt}
     * (a descriptor address against its own, possibly narrower, field format). Returns the
     * address or throws {@code address-not-encodable} naming {@code what}.
     */
    public static long encodable(AddressFormat fmt, String what, String space, long address, long bytes) {
        if (address < 0 || bytes < 0) {
            throw Require.invalid(what, "negative address or size");
        }
        long m = fmt.maxAddress();
        boolean ok = address <= m && (fmt.end() == EndConvention.EXCLUSIVE
                ? bytes <= m - address
                : bytes == 0 || bytes - 1 <= m - address);
        if (!ok) {
            Facts f = Facts.NONE.withBuffer(what).withSpace(space).withStart(address).withRequested(bytes)
                    .withReserved(bytes).withLimit(m, fmt.describe());
            String why = address > m
                    ? "address " + address + " is past maxAddress " + m
                    : bytes + " bytes from " + address + " end past maxAddress " + m + " (only "
                    + (m - address + (fmt.end() == EndConvention.EXCLUSIVE ? 0 : 1)) + " bytes are encodable from there)";
            throw new BerthException(new Failure.AddressNotEncodable(what + " in space " + space + ": " + why
                    + "; limit from " + fmt.describe(), f));
        }
        return address;
    }

    /**
     * Checks {@code [base + offset, base + offset + bytes)} against {@code fmt} without forming
     * {@code base + offset} before it is known to be encodable (a loader's base at deployment,
     * a tensor's base for a descriptor). Returns the absolute address.
     */
    public static long encodableAt(AddressFormat fmt, String what, String space, long base, long offset, long bytes) {
        if (base < 0 || offset < 0 || bytes < 0) {
            throw Require.invalid(what, "negative base, offset or size");
        }
        long m = fmt.maxAddress();
        if (base > m || offset > m - base) {
            Facts f = Facts.NONE.withBuffer(what).withSpace(space).withStart(offset).withRequested(bytes)
                    .withReserved(bytes).withLimit(m, fmt.describe());
            throw new BerthException(new Failure.AddressNotEncodable(what + " in space " + space + ": base " + base
                    + " + offset " + offset + " is past maxAddress " + m + "; limit from " + fmt.describe(), f));
        }
        return encodable(fmt, what, space, base + offset, bytes);
    }

    /**
     * The largest exclusive end offset the space's format and capacity allow: what every
     * placement in the space stays within.
     */
    public static long limit(Space s) {
        long room = s.format().maxAddress() - s.base();
        long byFormat = room < 0 ? 0
                : s.format().end() == EndConvention.EXCLUSIVE ? room : Checked.saturatingAdd(room, 1);
        return s.usableCapacity().isPresent() ? Math.min(byFormat, s.usableCapacity().getAsLong()) : byFormat;
    }

    /** {@code space S: capacity C} or {@code space S: capacity C - runtimeReserve R = C'}. */
    public static String capacitySource(Space space) {
        long c = space.capacity().orElseThrow();
        return space.runtimeReserve() == 0
                ? "space " + space.name() + ": capacity " + c
                : "space " + space.name() + ": capacity " + c + " - runtimeReserve " + space.runtimeReserve() + " = "
                + (c - space.runtimeReserve());
    }

    private static String formatSource(Space space) {
        return space.format().describe() + " of space " + space.name()
                + (space.base() != 0 ? " (base " + space.base() + ")" : "");
    }

    private static Facts facts(Space space, String buffer, long start, long requested, long alignment) {
        return Facts.NONE.withBuffer(buffer).withSpace(space.name()).withStart(start).withRequested(requested)
                .withAlignment(alignment);
    }

    private static BerthException startNotEncodable(Space space, boolean fixedRegion, String buffer, long candidate,
                                                    long requested, long reserved, long eff, long pad, long room) {
        // described lazily: a search that catches this pays for no message
        return new BerthException(Category.ADDRESS_NOT_ENCODABLE, () -> {
            String why;
            if (room < 0) {
                why = "the space's base " + space.base() + " is itself past maxAddress " + space.format().maxAddress();
            } else if (candidate > room) {
                // base + candidate may pass 2^63-1 but never 2^64-1: print it unsigned, for the message only
                why = "start " + candidate
                        + (space.base() != 0 ? " (absolute " + Long.toUnsignedString(space.base() + candidate) + ")" : "")
                        + " is past the largest encodable offset " + room;
            } else {
                why = "start " + candidate + " aligned up to a multiple of " + eff + " needs " + pad
                        + " bytes of padding, but only " + (room - candidate) + " remain below the largest encodable offset "
                        + room;
            }
            Facts f = facts(space, buffer, candidate, requested, eff).withReserved(reserved)
                    .withLimit(space.format().maxAddress(), formatSource(space));
            return new Failure.AddressNotEncodable(
                    noun(fixedRegion, buffer) + " in space " + space.name() + ": " + why + "; limit from " + formatSource(space), f);
        });
    }

    private static BerthException endNotEncodable(Space space, boolean fixedRegion, String buffer, long start,
                                                  long requested, long reserved, long eff, long room) {
        // described lazily: a search that catches this pays for no message
        return new BerthException(Category.ADDRESS_NOT_ENCODABLE, () -> {
            long fits = space.format().end() == EndConvention.EXCLUSIVE ? room - start : room - start + 1;
            String why = requested + " bytes requested, " + reserved + " reserved (alignment " + eff + ") at start " + start
                    + ", but only " + (fits < 0 ? Long.MAX_VALUE : fits) + " bytes from there can be encodable ("
                    + space.format().end().id() + " end)";
            Facts f = facts(space, buffer, start, requested, eff).withReserved(reserved)
                    .withLimit(space.format().maxAddress(), formatSource(space));
            return new Failure.AddressNotEncodable(
                    noun(fixedRegion, buffer) + " in space " + space.name() + ": " + why + "; limit from " + formatSource(space), f);
        });
    }

    private static BerthException capacityExceeded(Space space, boolean fixedRegion, String buffer, long candidate,
                                                   long start, long requested, long reserved, long eff, long usable) {
        // described lazily: a search that catches this pays for no message
        return new BerthException(Category.CAPACITY_EXCEEDED, () -> {
            String why = start > usable
                    ? "start " + start + " is past the usable capacity " + usable
                    : requested + " bytes requested, " + reserved + " reserved (alignment " + eff + ") at start " + start
                    + ", but only " + (usable - start) + " bytes are free from there";
            Facts f = facts(space, buffer, start, requested, eff).withReserved(reserved)
                    .withLimit(usable, capacitySource(space));
            return new Failure.CapacityExceeded(
                    noun(fixedRegion, buffer) + " in space " + space.name() + ": " + why + "; limit from " + capacitySource(space),
                    f, Shortfall.UNDIAGNOSED);
        });
    }
}

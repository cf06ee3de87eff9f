package dev.berth.target;

import java.util.OptionalLong;

/**
 * An address space of a target. The kinds form a closed set: a {@link Logical} space has no
 * compile-time capacity (only its address format limits it), a {@link Local} space is finite
 * storage, an {@link External} space sits at a fixed base and may have a capacity.
 */
public sealed interface Space permits Space.Logical, Space.Local, Space.External {

    String name();

    AddressFormat format();

    /** The space's own alignment (any positive integer). */
    long alignment();

    /** Bytes the runtime keeps for itself. */
    long runtimeReserve();

    /** The capacity the target gives, if any: never present for a logical space. */
    OptionalLong capacity();

    /** The base address added to offsets to form absolute addresses: 0 but for external spaces. */
    default long base() {
        return 0;
    }

    /** {@code logical}, {@code local} or {@code external}. */
    String kind();

    /**
     * Bytes usable at plan time, {@code capacity - runtimeReserve}, when the space has a
     * capacity. A logical space's runtime reserve is added to the need at deployment instead.
     */
    default OptionalLong usableCapacity() {
        OptionalLong c = capacity();
        return c.isPresent() ? OptionalLong.of(c.getAsLong() - runtimeReserve()) : OptionalLong.empty();
    }

    private static void check(String name, long alignment, long runtimeReserve, OptionalLong capacity) {
        if (alignment <= 0) {
            throw new IllegalArgumentException("space " + name + ": alignment must be positive");
        }
        if (runtimeReserve < 0) {
            throw new IllegalArgumentException("space " + name + ": runtimeReserve is negative");
        }
        if (capacity.isPresent() && capacity.getAsLong() < runtimeReserve) {
            throw new IllegalArgumentException("space " + name + ": runtimeReserve exceeds capacity");
        }
    }

    /** The global, logical space: no capacity at compile time, ever. */
    record Logical(String name, AddressFormat format, long alignment, long runtimeReserve) implements Space {
        public Logical {
            check(name, alignment, runtimeReserve, OptionalLong.empty());
        }

        public OptionalLong capacity() {
            return OptionalLong.empty();
        }

        public String kind() {
            return "logical";
        }
    }

    /** A finite local memory such as an SRAM. */
    record Local(String name, AddressFormat format, long alignment, long runtimeReserve, long capacityBytes)
            implements Space {
        public Local {
            check(name, alignment, runtimeReserve, OptionalLong.of(capacityBytes));
        }

        public OptionalLong capacity() {
            return OptionalLong.of(capacityBytes);
        }

        public String kind() {
            return "local";
        }
    }

    /** A space at a fixed absolute base, such as a weights region; offsets are relative to the base. */
    record External(String name, AddressFormat format, long alignment, long runtimeReserve, long base,
                    OptionalLong capacity) implements Space {
        public External {
            check(name, alignment, runtimeReserve, capacity);
            if (base < 0) {
                throw new IllegalArgumentException("space " + name + ": base is negative");
            }
        }

        public String kind() {
            return "external";
        }
    }
}

package dev.berth.target;

import dev.berth.failure.Require;

import java.util.OptionalLong;

/**
 * An address space of a target. The kinds form a closed set: a {@link Logical} space has no
 * compile-time capacity (only its address format limits it), a {@link Local} space is finite
 * storage, an {@link External} space sits at a fixed base and may have a capacity. Build one
 * with {@link #logical}, {@link #local} or {@link #external}; every value is checked at the
 * call that receives it.
 *
 * <p>A space name is any non-empty text that a deployment input can write as
 * {@code SPACE=SIZE}: no {@code '='}, no control character, no whitespace at either end
 * ({@link Require#spaceName}); any other name is {@code invalid-input} at {@code space.name}.
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
     * What one byte read or written here costs, a non-negative integer (contract §4
     * {@code accessCost}): by default 0 for a local space and 1 for the others, so that the
     * traffic cost of a workload whose buffers have candidate spaces is its traffic to slow memory.
     */
    long accessCost();

    /** True when the access cost is its kind's default (0 for local, 1 otherwise): files then leave it out. */
    default boolean hasDefaultAccessCost() {
        return accessCost() == defaultAccessCost(kind());
    }

    /** The access cost a space of {@code kind} has when its target gives none: 0 for local, 1 otherwise. */
    private static long defaultAccessCost(String kind) {
        return kind.equals("local") ? 0 : 1;
    }

    /**
     * Bytes usable at plan time, {@code capacity - runtimeReserve}, when the space has a
     * capacity. A logical space's runtime reserve is added to the need at deployment instead.
     */
    default OptionalLong usableCapacity() {
        OptionalLong c = capacity();
        return c.isPresent() ? OptionalLong.of(c.getAsLong() - runtimeReserve()) : OptionalLong.empty();
    }

    /**
     * For messages: {@code local space sram (capacity 262144, alignment 32, runtimeReserve 0,
     * format sram20 (maxAddress 1048575, last-byte end))}.
     */
    default String describe() {
        StringBuilder sb = new StringBuilder(kind()).append(" space ").append(name()).append(" (");
        capacity().ifPresent(c -> sb.append("capacity ").append(c).append(", "));
        if (base() != 0) {
            sb.append("base ").append(base()).append(", ");
        }
        sb.append("alignment ").append(alignment()).append(", runtimeReserve ").append(runtimeReserve());
        if (!hasDefaultAccessCost()) {
            sb.append(", accessCost ").append(accessCost());
        }
        return sb.append(", ").append(format().describe()).append(')').toString();
    }

    /** A logical space: no capacity at compile time, only {@code format} limits it. */
    static Builder logical(String name, AddressFormat format) {
        return new Builder("logical", name, format);
    }

    /** A finite local memory such as an SRAM; {@link Builder#capacity} is required. */
    static Builder local(String name, AddressFormat format) {
        return new Builder("local", name, format);
    }

    /** A space at a fixed absolute base (set by {@link Builder#base}, default 0), capacity optional. */
    static Builder external(String name, AddressFormat format) {
        return new Builder("external", name, format);
    }

    private static void check(String name, AddressFormat format, long alignment, long runtimeReserve,
                              OptionalLong capacity, long accessCost) {
        Require.spaceName(name, "space.name");
        requireCost(name, accessCost);
        Require.nonNull(format, "spaces." + name + ".format");
        Require.positive(alignment, "spaces." + name + ".alignment");
        Require.nonNegative(runtimeReserve, "spaces." + name + ".runtimeReserve");
        Require.nonNull(capacity, "spaces." + name + ".capacity");
        if (capacity.isPresent()) {
            Require.nonNegative(capacity.getAsLong(), "spaces." + name + ".capacity");
            if (capacity.getAsLong() < runtimeReserve) {
                throw Require.invalid("spaces." + name + ".runtimeReserve", Long.toString(runtimeReserve),
                        runtimeReserve + " exceeds the capacity "
                                + capacity.getAsLong());
            }
        }
    }

    private static long requireCost(String name, long accessCost) {
        if (accessCost < 0) {
            throw Require.invalid("spaces." + name + ".accessCost", Long.toString(accessCost),
                    "must be a whole number in 0..2^63-1 (the cost of one byte accessed), got " + accessCost);
        }
        return accessCost;
    }

    /** The global, logical space: no capacity at compile time, ever. */
    record Logical(String name, AddressFormat format, long alignment, long runtimeReserve, long accessCost)
            implements Space {
        public Logical {
            check(name, format, alignment, runtimeReserve, OptionalLong.empty(), accessCost);
        }

        /** With the default access cost, 1. */
        public Logical(String name, AddressFormat format, long alignment, long runtimeReserve) {
            this(name, format, alignment, runtimeReserve, defaultAccessCost("logical"));
        }

        public OptionalLong capacity() {
            return OptionalLong.empty();
        }

        public String kind() {
            return "logical";
        }
    }

    /** A finite local memory such as an SRAM. */
    record Local(String name, AddressFormat format, long alignment, long runtimeReserve, long capacityBytes,
                 long accessCost) implements Space {
        public Local {
            check(name, format, alignment, runtimeReserve, OptionalLong.of(capacityBytes), accessCost);
        }

        /** With the default access cost, 0. */
        public Local(String name, AddressFormat format, long alignment, long runtimeReserve, long capacityBytes) {
            this(name, format, alignment, runtimeReserve, capacityBytes, defaultAccessCost("local"));
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
                    OptionalLong capacity, long accessCost) implements Space {
        public External {
            check(name, format, alignment, runtimeReserve, capacity, accessCost);
            Require.nonNegative(base, "spaces." + name + ".base");
        }

        /** With the default access cost, 1. */
        public External(String name, AddressFormat format, long alignment, long runtimeReserve, long base,
                        OptionalLong capacity) {
            this(name, format, alignment, runtimeReserve, base, capacity, defaultAccessCost("external"));
        }

        public String kind() {
            return "external";
        }
    }

    /** Named steps for a space; the optional ones default to alignment 1, no runtime reserve, base 0. */
    final class Builder {
        private final String kind;
        private final String name;
        private final AddressFormat format;
        private long alignment = 1;
        private long runtimeReserve;
        private long base;
        private OptionalLong capacity = OptionalLong.empty();
        private long accessCost;

        private Builder(String kind, String name, AddressFormat format) {
            this.kind = kind;
            this.accessCost = defaultAccessCost(kind);
            this.name = Require.spaceName(name, "space.name");
            this.format = Require.nonNull(format, "format");
        }

        /** Every offset in the space is a multiple of {@code bytes} (1..2^63-1). */
        public Builder alignment(long bytes) {
            this.alignment = Require.positive(bytes, "spaces." + name + ".alignment");
            return this;
        }

        /** Bytes the runtime keeps for itself (taken from the capacity, or added to the need at deployment). */
        public Builder runtimeReserve(long bytes) {
            this.runtimeReserve = Require.nonNegative(bytes, "spaces." + name + ".runtimeReserve");
            return this;
        }

        /** The bytes the space holds; not for a logical space, whose capacity is known only at deployment. */
        public Builder capacity(long bytes) {
            if (kind.equals("logical")) {
                throw Require.invalid("spaces." + name + ".capacity", Long.toString(bytes),
                        "a logical space has no compile-time capacity; check what the runtime provides "
                        + "with the deployment check, or make the space local");
            }
            this.capacity = OptionalLong.of(Require.nonNegative(bytes, "spaces." + name + ".capacity"));
            return this;
        }

        /** The absolute address of offset 0; only for an external space. */
        public Builder base(long address) {
            if (!kind.equals("external")) {
                throw Require.invalid("spaces." + name + ".base", Long.toString(address),
                        "only an external space has a base; a " + kind + " space starts at 0");
            }
            this.base = Require.nonNegative(address, "spaces." + name + ".base");
            return this;
        }

        /** What one byte read or written in the space costs (0..2^63-1; default 0 for local, 1 otherwise). */
        public Builder accessCost(long cost) {
            this.accessCost = requireCost(name, cost);
            return this;
        }

        public Space build() {
            return switch (kind) {
                case "logical" -> new Logical(name, format, alignment, runtimeReserve, accessCost);
                case "local" -> {
                    if (capacity.isEmpty()) {
                        throw Require.invalid("spaces." + name + ".capacity",
                                "a local space needs a capacity (no capacity(...) was given)");
                    }
                    yield new Local(name, format, alignment, runtimeReserve, capacity.getAsLong(), accessCost);
                }
                default -> new External(name, format, alignment, runtimeReserve, base, capacity, accessCost);
            };
        }
    }
}

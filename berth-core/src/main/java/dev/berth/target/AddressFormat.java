package dev.berth.target;

import dev.berth.failure.Require;

/**
 * An address format: the largest address {@code maxAddress} an instruction field, descriptor
 * or runtime field can encode, and which end of a range must be encodable.
 */
public record AddressFormat(String name, long maxAddress, EndConvention end) {
    public AddressFormat {
        Require.name(name, "format.name");
        Require.nonNegative(maxAddress, "formats." + name + ".maxAddress");
        Require.nonNull(end, "formats." + name + ".end");
    }

    /** A format whose exclusive end {@code start + size} must be at most {@code maxAddress}. */
    public static AddressFormat exclusive(String name, long maxAddress) {
        return new AddressFormat(name, maxAddress, EndConvention.EXCLUSIVE);
    }

    /** A format whose last byte {@code start + size - 1} must be at most {@code maxAddress}. */
    public static AddressFormat lastByte(String name, long maxAddress) {
        return new AddressFormat(name, maxAddress, EndConvention.LAST_BYTE);
    }

    /** A format of {@code bits}-bit addresses (1..63): {@code maxAddress = 2^bits - 1}, exclusive end. */
    public static AddressFormat bits(String name, int bits) {
        if (bits < 1 || bits > 63) {
            throw Require.invalid("formats." + name + ".bits", Integer.toString(bits),
                    "must be 1..63 (Berth's addresses are 0..2^63-1), got " + bits);
        }
        return exclusive(name, bits == 63 ? Long.MAX_VALUE : (1L << bits) - 1);
    }

    /**
     * The most bytes a space of this format can hold from offset 0: {@code maxAddress} with an
     * exclusive end, {@code maxAddress + 1} with a last-byte end (2^63-1 at most: Berth's sizes
     * stop there).
     */
    public long addressableBytes() {
        return end == EndConvention.LAST_BYTE && maxAddress < Long.MAX_VALUE ? maxAddress + 1 : maxAddress;
    }

    /** For messages: {@code format dma32 (maxAddress 4294967295, exclusive end)}. */
    public String describe() {
        return "format " + name + " (maxAddress " + maxAddress + ", " + end.id() + " end)";
    }
}

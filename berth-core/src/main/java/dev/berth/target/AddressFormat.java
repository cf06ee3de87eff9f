package dev.berth.target;

/**
 * An address format: the largest address {@code maxAddress} an instruction field, descriptor
 * or runtime field can encode, and which end of a range must be encodable.
 */
public record AddressFormat(String name, long maxAddress, EndConvention end) {
    public AddressFormat {
        if (maxAddress < 0) {
            throw new IllegalArgumentException("maxAddress is negative: " + maxAddress);
        }
    }

    /** For messages: {@code format dma32 (maxAddress 4294967295, exclusive end)}. */
    public String describe() {
        return "format " + name + " (maxAddress " + maxAddress + ", " + end.id() + " end)";
    }
}

package dev.berth.artifact;

/** One tile transfer's descriptor (contract §6 {@code descriptors[]}). */
public record DescriptorEntry(String name, int tile, String of, long address, long transferBytes, String space,
                              String addressFormat) {
}

package dev.berth.artifact;

import dev.berth.failure.Require;

/** One tile transfer's descriptor (contract §6 {@code descriptors[]}). */
public record DescriptorEntry(String name, int tile, String of, long address, long transferBytes, String space,
                              String addressFormat) {
    public DescriptorEntry {
        Require.name(name, "descriptors.name");
        Require.name(of, "descriptors.of");
        Require.name(space, "descriptors.space");
        Require.name(addressFormat, "descriptors.addressFormat");
    }
}

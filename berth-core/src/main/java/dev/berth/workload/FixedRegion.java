package dev.berth.workload;

/** A region an earlier stage already placed: exactly {@code size} bytes at exactly {@code offset}. */
public record FixedRegion(String name, String space, long offset, long size, Lifetime live) {
}

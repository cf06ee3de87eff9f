package dev.berth.admit;

import dev.berth.target.Space;

/**
 * A reservation the admission check accepted: its aligned start (offset in the space), its
 * reserved size, its effective alignment and its absolute address. Only {@link Admission} can
 * make one: the constructor is package-private, so no path can place bytes without the check.
 */
public final class Placement {
    private final String buffer;
    private final Space space;
    private final long offset;
    private final long requested;
    private final long reserved;
    private final long alignment;

    Placement(String buffer, Space space, long offset, long requested, long reserved, long alignment) {
        this.buffer = buffer;
        this.space = space;
        this.offset = offset;
        this.requested = requested;
        this.reserved = reserved;
        this.alignment = alignment;
    }

    public String buffer() {
        return buffer;
    }

    public Space space() {
        return space;
    }

    /** The aligned start, relative to the space. */
    public long offset() {
        return offset;
    }

    public long requested() {
        return requested;
    }

    public long reserved() {
        return reserved;
    }

    /** The effective alignment: lcm of the space's and the request's (1 for exact regions). */
    public long alignment() {
        return alignment;
    }

    /** The exclusive end offset, {@code offset + reserved}; admission proved it cannot overflow. */
    public long end() {
        return offset + reserved;
    }

    /** {@code base + offset}; admission proved it is encodable. */
    public long address() {
        return space.base() + offset;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Placement p && p.buffer.equals(buffer) && p.space.equals(space) && p.offset == offset
                && p.requested == requested && p.reserved == reserved && p.alignment == alignment;
    }

    @Override
    public int hashCode() {
        return buffer.hashCode() * 31 + Long.hashCode(offset);
    }

    @Override
    public String toString() {
        return buffer + "@" + space.name() + "[" + offset + ", +" + reserved + ")";
    }
}

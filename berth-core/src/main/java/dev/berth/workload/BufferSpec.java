package dev.berth.workload;

import dev.berth.failure.BerthException;
import dev.berth.failure.Require;
import dev.berth.target.Space;

import java.util.Optional;

/**
 * A buffer to place: {@code size} bytes in {@code space}, at a multiple of {@code alignment},
 * live over {@code live}, tiled through a local space if {@code tile} is present. Build one
 * with {@link #named}; every value is checked at the call that receives it.
 */
public record BufferSpec(String name, long size, Space space, long alignment, Lifetime live,
                         Optional<TileSpec> tile) {
    public BufferSpec {
        Require.name(name, "buffer.name");
        // each field's name is made only for its failure: a workload of a million buffers makes none
        if (size < 0) {
            Require.nonNegative(size, "buffer '" + name + "'.size");
        }
        if (space == null) {
            Require.nonNull(space, "buffer '" + name + "'.space");
        }
        if (alignment < 1) {
            Require.positive(alignment, "buffer '" + name + "'.alignment");
        }
        if (live == null) {
            Require.nonNull(live, "buffer '" + name + "'.live");
        }
        if (tile == null) {
            Require.nonNull(tile, "buffer '" + name + "'.tile");
        }
    }

    /** The first step of building a buffer: its name. */
    public static Builder named(String name) {
        return new Builder(Require.name(name, "buffer.name"));
    }

    /**
     * Named steps for a {@link BufferSpec}: {@code size}, {@code in} and {@code live} are
     * required, {@code alignment} (default 1) and {@code tile} are optional.
     */
    public static final class Builder {
        private final String name;
        private long size = -1;
        private Space space;
        private long alignment = 1;
        private Lifetime live;
        private Optional<TileSpec> tile = Optional.empty();

        private Builder(String name) {
            this.name = name;
        }

        /** The bytes the buffer holds (0..2^63-1). */
        public Builder size(long bytes) {
            this.size = Require.nonNegative(bytes, "buffer '" + name + "'.size");
            return this;
        }

        /** The space the buffer lives in: a space of the target it will be planned on. */
        public Builder in(Space space) {
            this.space = Require.nonNull(space, "space");
            return this;
        }

        /** Its offset must be a multiple of {@code bytes} (1..2^63-1; the space's own alignment applies too). */
        public Builder alignment(long bytes) {
            this.alignment = Require.positive(bytes, "buffer '" + name + "'.alignment");
            return this;
        }

        /** Live from step {@code first} to step {@code last}, both included. */
        public Builder live(int first, int last) {
            try {
                this.live = new Lifetime(first, last);
            } catch (BerthException e) {
                throw BerthException.invalid("buffer '" + name + "'.live", "[" + first + ", " + last + "]",
                        "buffer '" + name + "'." + e.failure().message());
            }
            return this;
        }

        /** Live over {@code live}. */
        public Builder live(Lifetime live) {
            this.live = Require.nonNull(live, "live");
            return this;
        }

        /** Processed tile by tile through a local space. */
        public Builder tile(TileSpec tile) {
            this.tile = Optional.of(Require.nonNull(tile, "tile"));
            return this;
        }

        /** The buffer; {@code invalid-input} naming the first required step not taken. */
        public BufferSpec build() {
            if (size < 0) {
                throw missing("size");
            }
            if (space == null) {
                throw missing("in");
            }
            if (live == null) {
                throw missing("live");
            }
            return new BufferSpec(name, size, space, alignment, live, tile);
        }

        private BerthException missing(String step) {
            return BerthException.invalid("buffer '" + name + "'." + step, "buffer '" + name + "': no " + step
                    + "(...) was given; size, in and live are required");
        }
    }
}

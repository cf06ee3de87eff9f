package dev.berth.workload;

import dev.berth.failure.BerthException;
import dev.berth.failure.Require;
import dev.berth.target.Space;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A buffer to place: {@code size} bytes in one of its {@code candidates} spaces (fastest first;
 * one space for a buffer whose space is given), at a multiple of {@code alignment}, live over
 * {@code live}, read or written {@code accesses} times (the traffic cost's factor), tiled through
 * a local space if {@code tile} is present. Build one with {@link #named}; every value is checked
 * at the call that receives it.
 *
 * <p>A buffer with several candidates has no space until the planner's assignment chooses one
 * ({@link #in}): {@link #space()} answers only for a buffer with one.
 */
public record BufferSpec(String name, long size, List<Space> candidates, long accesses, long alignment,
                         Lifetime live, Optional<TileSpec> tile) {
    public BufferSpec {
        Require.name(name, "buffer.name");
        // each field's name is made only for its failure: a workload of a million buffers makes none
        if (size < 0) {
            Require.nonNegative(size, "buffer '" + name + "'.size");
        }
        candidates = checkCandidates(name, candidates);
        if (accesses < 0) {
            requireAccesses(name, accesses);
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
        if (tile.isPresent() && candidates.size() > 1) {
            throw BerthException.invalid("buffer '" + name + "'.tile", "buffer '" + name + "': a tiled buffer has one "
                    + "space, not candidates (" + names(candidates) + ")");
        }
    }

    /** A buffer in one space, accessed once: what a buffer was before candidate spaces. */
    public BufferSpec(String name, long size, Space space, long alignment, Lifetime live, Optional<TileSpec> tile) {
        this(name, size, List.of(space == null ? Require.nonNull(space, "buffer '" + name + "'.space") : space), 1,
                alignment, live, tile);
    }

    /** The first step of building a buffer: its name. */
    public static Builder named(String name) {
        return new Builder(Require.name(name, "buffer.name"));
    }

    /**
     * The space of a buffer with one candidate. A buffer with several has none until the
     * planner chooses ({@link #hasChoice()}); asking it is a programming error.
     */
    public Space space() {
        if (candidates.size() != 1) {
            throw new IllegalStateException("buffer '" + name + "' has candidate spaces " + names(candidates)
                    + " and no space until the planner chooses one; read candidates()");
        }
        return candidates.get(0);
    }

    /** True when the buffer has more than one candidate space. */
    public boolean hasChoice() {
        return candidates.size() > 1;
    }

    /**
     * This buffer in {@code chosen}, one of its candidates, with its other values unchanged. A
     * space that is not one of its candidates is {@code invalid-input} at {@code chosen}.
     */
    public BufferSpec in(Space chosen) {
        Require.nonNull(chosen, "chosen");
        if (!candidates.contains(chosen)) {
            throw Require.invalid("chosen", chosen.name(), "space " + chosen.name()
                    + " is not a candidate of buffer '" + name + "' (" + names(candidates) + ")");
        }
        return new BufferSpec(name, size, List.of(chosen), accesses, alignment, live, tile);
    }

    /** The names of {@code spaces}, comma-separated, for messages. */
    static String names(List<Space> spaces) {
        List<String> n = new ArrayList<>();
        for (Space s : spaces) {
            n.add(s.name());
        }
        return String.join(", ", n);
    }

    private static List<Space> checkCandidates(String name, List<Space> candidates) {
        if (candidates != null && candidates.size() == 1 && candidates.get(0) != null) {
            // the common case, one space: no set, no copy when it is already immutable
            return candidates.getClass() == List.of(candidates.get(0)).getClass() ? candidates
                    : List.of(candidates.get(0));
        }
        Require.nonNull(candidates, "buffer '" + name + "'.space");
        if (candidates.isEmpty()) {
            throw Require.invalid("buffer '" + name + "'.space", "[]", "the list "
                    + "of candidate spaces is empty; give at least one space");
        }
        Set<String> seen = new HashSet<>();
        for (int j = 0; j < candidates.size(); j++) {
            Space s = Require.nonNull(candidates.get(j), "buffer '" + name + "'.space[" + j + "]");
            if (!seen.add(s.name())) {
                throw Require.invalid("buffer '" + name + "'.space[" + j + "]", s.name(), "space '" + s.name()
                        + "' is already a candidate; each space is listed once");
            }
        }
        return List.copyOf(candidates);
    }

    private static long requireAccesses(String name, long accesses) {
        if (accesses < 0) {
            throw Require.invalid("buffer '" + name + "'.accesses", Long.toString(accesses),
                    "must be a whole number of accesses in 0..2^63-1, got " + accesses);
        }
        return accesses;
    }

    /**
     * Named steps for a {@link BufferSpec}: {@code size}, {@code in} and {@code live} are
     * required; {@code orIn} (further candidate spaces, slower ones later), {@code accesses}
     * (default 1), {@code alignment} (default 1) and {@code tile} are optional.
     */
    public static final class Builder {
        private final String name;
        private long size = -1;
        private final List<Space> candidates = new ArrayList<>();
        private long accesses = 1;
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

        /** The space the buffer lives in (its first candidate): a space of the target it will be planned on. */
        public Builder in(Space space) {
            Require.nonNull(space, "space");
            candidates.clear();
            candidates.add(space);
            return this;
        }

        /**
         * A further candidate space, after those given (candidates go fastest first): the planner
         * chooses one. Only after {@link #in}; a space listed twice is {@code invalid-input}.
         */
        public Builder orIn(Space space) {
            Require.nonNull(space, "space");
            if (candidates.isEmpty()) {
                throw BerthException.invalid("buffer '" + name + "'.space", "buffer '" + name + "': orIn(" + space.name()
                        + ") before in(...); in names the first candidate");
            }
            List<Space> next = new ArrayList<>(candidates);
            next.add(space);
            checkCandidates(name, next);
            candidates.add(space);
            return this;
        }

        /** The candidate spaces, fastest first, replacing any given: a non-empty list without repeats. */
        public Builder candidates(List<Space> spaces) {
            List<Space> checked = checkCandidates(name, spaces);
            candidates.clear();
            candidates.addAll(checked);
            return this;
        }

        /** How many times the buffer's bytes are read or written (0..2^63-1; default 1). */
        public Builder accesses(long n) {
            this.accesses = requireAccesses(name, n);
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
            if (candidates.isEmpty()) {
                throw missing("in");
            }
            if (live == null) {
                throw missing("live");
            }
            return new BufferSpec(name, size, candidates, accesses, alignment, live, tile);
        }

        private BerthException missing(String step) {
            return BerthException.invalid("buffer '" + name + "'." + step, "buffer '" + name + "': no " + step
                    + "(...) was given; size, in and live are required");
        }
    }
}

package dev.berth.workload;

import dev.berth.failure.Require;
import dev.berth.target.Space;

import java.util.OptionalInt;

/**
 * A tensor processed through local space {@code through} in {@code buffers}-deep tile buffers,
 * in {@code count} tiles if given (else Berth chooses the fewest that fit).
 */
public record TileSpec(Space through, int buffers, OptionalInt count) {
    public TileSpec {
        Require.nonNull(through, "tile.through");
        Require.positive(buffers, "tile.buffers");
        Require.nonNull(count, "tile.count");
        if (count.isPresent()) {
            Require.positive(count.getAsInt(), "tile.count");
        }
    }

    /** Tiles through {@code through}, {@code buffers} deep, as many as needed. */
    public static TileSpec through(Space through, int buffers) {
        return new TileSpec(through, buffers, OptionalInt.empty());
    }

    /** The same tiling in exactly {@code count} tiles. */
    public TileSpec count(int count) {
        return new TileSpec(through, buffers, OptionalInt.of(count));
    }
}

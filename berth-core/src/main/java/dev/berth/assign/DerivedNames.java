package dev.berth.assign;

/**
 * The names of the reservations the planner derives, in one place: generation's two (contract
 * §6) and a tile buffer's ({@code TENSOR.tilebuf.N}). The planner names what it derives with
 * them; {@link WorkloadCheck} refuses a workload buffer that takes one.
 */
public final class DerivedNames {
    /** The descriptor table generation places. */
    public static final String DESCRIPTOR_TABLE = "descriptor-table";
    /** The instruction stream generation places. */
    public static final String INSTRUCTIONS = "instructions";
    /** The part of a tile buffer's name between its tensor's name and its index. */
    public static final String TILE_BUFFER = ".tilebuf.";

    private DerivedNames() {
    }

    /** The name of tile buffer {@code index} of {@code tensor}. */
    public static String tileBuffer(String tensor, int index) {
        return tensor + TILE_BUFFER + index;
    }
}

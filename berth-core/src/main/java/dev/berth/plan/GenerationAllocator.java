package dev.berth.plan;

import dev.berth.admit.Admission;
import dev.berth.admit.Placement;
import dev.berth.arith.Checked;
import dev.berth.failure.BerthException;
import dev.berth.failure.Failure;
import dev.berth.target.Generation;
import dev.berth.target.Space;
import dev.berth.target.Target;

import java.util.Map;

/**
 * Generation-time allocations (contract §4 {@code generation}, §5): after every buffer, tile
 * and fixed region is placed, the descriptor table ({@code bytes} per descriptor) and the
 * instruction stream ({@code bytesPerStep × steps}) are placed above everything else in
 * their spaces, live over every step, through the same admission check. Growth past a
 * format fails here, naming what was being generated.
 */
final class GenerationAllocator {
    static final String DESCRIPTOR_TABLE = "descriptor-table";
    static final String INSTRUCTIONS = "instructions";

    private GenerationAllocator() {
    }

    /** The descriptor table for {@code descriptors} descriptors, placed above {@code placed} in its space. */
    static Placement descriptorTable(Target target, Generation.Descriptor spec, long descriptors,
                                     Map<String, SpaceState> spaces) {
        Space s = target.spaces().get(spec.space());
        long bytes = product(s, DESCRIPTOR_TABLE, descriptors, spec.bytes(), "descriptors × bytes per descriptor");
        return Admission.admit(s, DESCRIPTOR_TABLE, spaces.get(s.name()).top(), bytes, spec.alignment());
    }

    /** The instruction stream for {@code steps} steps, placed above {@code placed} in its space. */
    static Placement instructions(Target target, Generation.Instruction spec, long steps,
                                  Map<String, SpaceState> spaces) {
        Space s = target.spaces().get(spec.space());
        long bytes = product(s, INSTRUCTIONS, spec.bytesPerStep(), steps, "bytesPerStep × steps");
        return Admission.admit(s, INSTRUCTIONS, spaces.get(s.name()).top(), bytes, spec.alignment());
    }

    private static long product(Space s, String what, long a, long b, String formula) {
        try {
            return Checked.multiply(a, b);
        } catch (BerthException e) {
            throw new BerthException(new Failure.ArithmeticOverflow("generating the " + what + " in space " + s.name()
                    + ": " + formula + " = " + a + " × " + b + " is past 2^63-1", "multiply",
                    dev.berth.failure.Facts.NONE.withBuffer(what).withSpace(s.name())));
        }
    }
}

package dev.berth.plan;

import static dev.berth.assign.DerivedNames.DESCRIPTOR_TABLE;
import static dev.berth.assign.DerivedNames.INSTRUCTIONS;

import dev.berth.admit.Admission;
import dev.berth.admit.Placement;
import dev.berth.arith.Checked;
import dev.berth.failure.BerthException;
import dev.berth.failure.Facts;
import dev.berth.failure.Failure;
import dev.berth.target.Generation;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Origin;
import dev.berth.workload.Workload;

import java.util.Optional;

/**
 * Generation-time allocations (contract §4 {@code generation}, §5): after every buffer, tile
 * and fixed region is placed, the descriptor table ({@code bytes} per descriptor) and the
 * instruction stream ({@code bytesPerStep × steps}) are placed above everything else in
 * their spaces, live over every step, through the same admission check. Growth past a
 * format fails here, naming what was being generated.
 */
final class GenerationAllocator {
    private GenerationAllocator() {
    }

    /**
     * The generate phase: the descriptor table for {@code descriptors} descriptors (when there are
     * any), then the instruction stream for the workload's steps (when it has any), each added to
     * its space's plan, live over every step.
     */
    static void generate(Target target, Workload workload, long descriptors, SpacePlans spaces) {
        if (target.generation().isEmpty()) {
            return;
        }
        Generation g = target.generation().get();
        long steps = workload.steps();
        // the last step of a lifetime, so at most 2^31-1
        Lifetime all = new Lifetime(0, (int) Checked.narrow(Math.max(0, steps - 1), 31));
        if (descriptors > 0 && g.descriptor().isPresent()) {
            SpacePlan sp = spaces.of(g.descriptor().get().space());
            sp.add(descriptorTable(sp, g.descriptor().get(), descriptors), all, Origin.DESCRIPTOR_TABLE, Optional.empty());
        }
        if (steps > 0 && g.instruction().isPresent()) {
            SpacePlan sp = spaces.of(g.instruction().get().space());
            sp.add(instructions(sp, g.instruction().get(), steps), all, Origin.INSTRUCTIONS, Optional.empty());
        }
    }

    /** The descriptor table for {@code descriptors} descriptors, placed above everything in its space. */
    private static Placement descriptorTable(SpacePlan sp, Generation.Descriptor spec, long descriptors) {
        Space s = sp.space();
        long bytes = product(s, DESCRIPTOR_TABLE, descriptors, spec.bytes(), "descriptors × bytes per descriptor");
        return Admission.admit(s, DESCRIPTOR_TABLE, sp.top(), bytes, spec.alignment());
    }

    /** The instruction stream for {@code steps} steps, placed above everything in its space. */
    private static Placement instructions(SpacePlan sp, Generation.Instruction spec, long steps) {
        Space s = sp.space();
        long bytes = product(s, INSTRUCTIONS, spec.bytesPerStep(), steps, "bytesPerStep × steps");
        return Admission.admit(s, INSTRUCTIONS, sp.top(), bytes, spec.alignment());
    }

    private static long product(Space s, String what, long a, long b, String formula) {
        try {
            return Checked.multiply(a, b);
        } catch (BerthException e) {
            throw new BerthException(new Failure.ArithmeticOverflow("generating the " + what + " in space " + s.name()
                    + ": " + formula + " = " + a + " × " + b + " is past 2^63-1", "multiply",
                    Facts.NONE.withBuffer(what).withSpace(s.name())));
        }
    }
}

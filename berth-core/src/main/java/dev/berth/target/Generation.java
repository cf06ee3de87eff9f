package dev.berth.target;

import dev.berth.failure.Require;

import java.util.Optional;

/**
 * What the code generator allocates after placement (contract §4 {@code generation}). Spaces
 * and formats are named; the {@link Target} that holds a generation checks that they exist.
 */
public record Generation(Optional<Descriptor> descriptor, Optional<Instruction> instruction) {
    public Generation {
        Require.nonNull(descriptor, "generation.descriptor");
        Require.nonNull(instruction, "generation.instruction");
    }

    /** One descriptor of {@code bytes} per tile transfer; its address must satisfy {@code addressFormat}. */
    public record Descriptor(String space, long bytes, long alignment, Optional<String> addressFormat) {
        public Descriptor {
            Require.name(space, "generation.descriptor.space");
            Require.nonNegative(bytes, "generation.descriptor.bytes");
            Require.positive(alignment, "generation.descriptor.alignment");
            Require.nonNull(addressFormat, "generation.descriptor.addressFormat");
            addressFormat.ifPresent(f -> Require.name(f, "generation.descriptor.addressFormat"));
        }
    }

    /** An instruction stream of {@code bytesPerStep × steps} bytes. */
    public record Instruction(String space, long bytesPerStep, long alignment) {
        public Instruction {
            Require.name(space, "generation.instruction.space");
            Require.nonNegative(bytesPerStep, "generation.instruction.bytesPerStep");
            Require.positive(alignment, "generation.instruction.alignment");
        }
    }
}

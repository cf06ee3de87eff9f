package dev.berth.target;

import java.util.Optional;

/** What the code generator allocates after placement (contract §4 {@code generation}). */
public record Generation(Optional<Descriptor> descriptor, Optional<Instruction> instruction) {

    /** One descriptor of {@code bytes} per tile transfer; its address must satisfy {@code addressFormat}. */
    public record Descriptor(String space, long bytes, long alignment, Optional<String> addressFormat) {
    }

    /** An instruction stream of {@code bytesPerStep × steps} bytes. */
    public record Instruction(String space, long bytesPerStep, long alignment) {
    }
}

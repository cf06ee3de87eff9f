package dev.berth.io.model;

import dev.berth.failure.BerthException;
import dev.berth.target.Space;
import dev.berth.target.Target;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Where an imported model's buffers go on a target, the one rule of the ONNX and the TFLite
 * import, each with its own space names to look for first.
 */
public final class ModelSpaces {
    private ModelSpaces() {
    }

    /**
     * The space of the activations: the {@code --activation-space} given ({@code invalid-input} at
     * that option when the target has no such space), else the first of {@code names} the target
     * has, else its only logical space; with none or several, {@code invalid-input} at
     * {@code --activation-space} asking for the space of {@code whose} ("activations'", "tensors'").
     */
    public static String activations(Target t, Optional<String> chosen, List<String> names, String whose) {
        Optional<String> named = named(t, chosen, "--activation-space", names);
        if (named.isPresent()) {
            return named.get();
        }
        List<Space> logical = t.spaces().values().stream().filter(s -> s instanceof Space.Logical).toList();
        if (logical.size() == 1) {
            return logical.get(0).name();
        }
        throw BerthException.invalid("--activation-space", "target " + t.name() + " has no space "
                + names.stream().map(n -> "'" + n + "'").collect(Collectors.joining(" or ")) + " and "
                + logical.size() + " logical spaces; choose the " + whose + " space with --activation-space SPACE");
    }

    /**
     * The space of the constant data: the {@code --weight-space} given ({@code invalid-input} at
     * that option when the target has no such space), else the first of {@code names} the target
     * has, else its only external space, else {@code activation}.
     */
    public static String constants(Target t, Optional<String> chosen, List<String> names, String activation) {
        return named(t, chosen, "--weight-space", names).orElseGet(() -> {
            List<Space> external = t.spaces().values().stream().filter(s -> s instanceof Space.External).toList();
            return external.size() == 1 ? external.get(0).name() : activation;
        });
    }

    /**
     * The space {@code chosen} by {@code option} ({@code invalid-input} at that option when the
     * target has no such space), else the first of {@code names} the target has, else none: the
     * part both choices share before each falls back to a space of its own kind.
     */
    private static Optional<String> named(Target t, Optional<String> chosen, String option, List<String> names) {
        if (chosen.isPresent()) {
            return Optional.of(t.space(chosen.get(), option).name());
        }
        return names.stream().filter(t.spaces()::containsKey).findFirst();
    }
}

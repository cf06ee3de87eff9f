package dev.berth.target;

import dev.berth.failure.BerthException;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A target: named address formats, named spaces and what generation allocates. Built only
 * through {@link #of}, which checks every cross-reference and reports {@code invalid-input}
 * with the path of the offending key.
 */
public record Target(String name, Map<String, AddressFormat> formats, Map<String, Space> spaces,
                     Optional<Generation> generation) {

    public Target {
        formats = Collections.unmodifiableMap(new LinkedHashMap<>(formats));
        spaces = Collections.unmodifiableMap(new LinkedHashMap<>(spaces));
    }

    /** Checks a target's cross-references (space formats, generation spaces and formats). */
    public static Target of(String name, Map<String, AddressFormat> formats, Map<String, Space> spaces,
                            Optional<Generation> generation) {
        for (Space s : spaces.values()) {
            if (!formats.containsKey(s.format().name())) {
                throw BerthException.invalid("spaces." + s.name() + ".format", s.format().name(),
                        "spaces." + s.name() + ".format: no format named '" + s.format().name() + "' in formats");
            }
        }
        generation.ifPresent(g -> {
            g.descriptor().ifPresent(d -> {
                requireSpace(spaces, d.space(), "generation.descriptor.space");
                d.addressFormat().ifPresent(f -> {
                    if (!formats.containsKey(f)) {
                        throw BerthException.invalid("generation.descriptor.addressFormat", f,
                                "generation.descriptor.addressFormat: no format named '" + f + "' in formats");
                    }
                });
            });
            g.instruction().ifPresent(i -> requireSpace(spaces, i.space(), "generation.instruction.space"));
        });
        return new Target(name, formats, spaces, generation);
    }

    private static void requireSpace(Map<String, Space> spaces, String name, String path) {
        if (!spaces.containsKey(name)) {
            throw BerthException.invalid(path, name, path + ": no space named '" + name + "' in spaces");
        }
    }

    /** The space of that name, or {@code invalid-input} naming {@code path}. */
    public Space space(String spaceName, String path) {
        Space s = spaces.get(spaceName);
        if (s == null) {
            throw BerthException.invalid(path, spaceName, path + ": unknown space '" + spaceName + "'; target "
                    + name + " has " + String.join(", ", spaces.keySet()));
        }
        return s;
    }
}

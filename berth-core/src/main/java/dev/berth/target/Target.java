package dev.berth.target;

import dev.berth.failure.Require;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A target: named address formats, named spaces and what generation allocates. Every
 * construction checks every cross-reference (a map key is its value's name, a space's format
 * is the target's format of that name, generation names spaces and formats the target has)
 * and reports {@code invalid-input} with the path of the offending key. A target has at least
 * one space: one without is {@code invalid-input} at {@code spaces}. {@link #builder} is
 * the short way: it collects the spaces' formats itself.
 */
public record Target(String name, Map<String, AddressFormat> formats, Map<String, Space> spaces,
                     Optional<Generation> generation) {

    public Target {
        Require.name(name, "target");
        formats = Collections.unmodifiableMap(new LinkedHashMap<>(Require.nonNull(formats, "formats")));
        spaces = Collections.unmodifiableMap(new LinkedHashMap<>(Require.nonNull(spaces, "spaces")));
        Require.nonNull(generation, "generation");
        if (spaces.isEmpty()) {
            throw Require.invalid("spaces", "target " + name + " has no space; a target needs at least "
                    + "one space (every buffer, fixed region and generated allocation is placed in one)");
        }
        for (Map.Entry<String, AddressFormat> e : formats.entrySet()) {
            Require.nonNull(e.getKey(), "formats key");
            Require.nonNull(e.getValue(), "formats." + e.getKey());
            if (!e.getValue().name().equals(e.getKey())) {
                throw Require.invalid("formats." + e.getKey(), e.getValue().name(), "the key names format '"
                        + e.getValue().name() + "'; a format is keyed by its own name");
            }
        }
        for (Map.Entry<String, Space> e : spaces.entrySet()) {
            Require.nonNull(e.getKey(), "spaces key");
            Space s = Require.nonNull(e.getValue(), "spaces." + e.getKey());
            if (!s.name().equals(e.getKey())) {
                throw Require.invalid("spaces." + e.getKey(), s.name(), "the key names space '" + s.name()
                        + "'; a space is keyed by its own name");
            }
            AddressFormat f = formats.get(s.format().name());
            if (f == null) {
                throw Require.invalid("spaces." + s.name() + ".format", s.format().name(),
                        "no format named '" + s.format().name() + "' in formats");
            }
            if (!f.equals(s.format())) {
                throw Require.invalid("spaces." + s.name() + ".format", s.format().name(), s.format().describe()
                        + " is not the target's " + f.describe());
            }
        }
        if (generation.isPresent()) {
            Generation g = generation.get();
            if (g.descriptor().isPresent()) {
                Generation.Descriptor d = g.descriptor().get();
                requireSpace(spaces, d.space(), "generation.descriptor.space");
                if (d.addressFormat().isPresent() && !formats.containsKey(d.addressFormat().get())) {
                    String f = d.addressFormat().get();
                    throw Require.invalid("generation.descriptor.addressFormat", f,
                            "no format named '" + f + "' in formats");
                }
            }
            if (g.instruction().isPresent()) {
                requireSpace(spaces, g.instruction().get().space(), "generation.instruction.space");
            }
        }
    }

    /** The first step of building a target: its name. */
    public static Builder builder(String name) {
        return new Builder(Require.name(name, "target"));
    }

    private static void requireSpace(Map<String, Space> spaces, String name, String path) {
        if (!spaces.containsKey(name)) {
            throw Require.invalid(path, name, "no space named '" + name + "' in spaces");
        }
    }

    /**
     * The space of that name, or {@code invalid-input} at {@code path} (the field that named it,
     * for the message); a null {@code spaceName} or {@code path} is a NullPointerException naming it.
     */
    public Space space(String spaceName, String path) {
        Require.nonNull(path, "path");
        Space s = spaces.get(Require.nonNull(spaceName, "spaceName"));
        if (s == null) {
            throw Require.invalid(path, spaceName, "unknown space '" + spaceName + "'; target "
                    + name + " has " + String.join(", ", spaces.keySet()));
        }
        return s;
    }

    /** The space of that name, if the target has one. */
    public Optional<Space> findSpace(String spaceName) {
        return Optional.ofNullable(spaces.get(Require.nonNull(spaceName, "spaceName")));
    }

    /** Spaces in order, their formats collected; {@link #build} checks the whole. */
    public static final class Builder {
        private final String name;
        private final Map<String, AddressFormat> formats = new LinkedHashMap<>();
        private final Map<String, Space> spaces = new LinkedHashMap<>();
        private Optional<Generation> generation = Optional.empty();

        private Builder(String name) {
            this.name = name;
        }

        /** A format no space uses (for example a descriptor's narrower format). */
        public Builder format(AddressFormat format) {
            addFormat(Require.nonNull(format, "format"), "formats." + format.name());
            return this;
        }

        /** A space, with its format; names are unique. */
        public Builder space(Space space) {
            Require.nonNull(space, "space");
            if (spaces.containsKey(space.name())) {
                throw Require.invalid("spaces." + space.name(), space.name(), "duplicate space name '" + space.name()
                        + "'");
            }
            addFormat(space.format(), "spaces." + space.name() + ".format");
            spaces.put(space.name(), space);
            return this;
        }

        public Builder generation(Generation generation) {
            this.generation = Optional.of(Require.nonNull(generation, "generation"));
            return this;
        }

        public Target build() {
            return new Target(name, formats, spaces, generation);
        }

        private void addFormat(AddressFormat f, String path) {
            AddressFormat had = formats.putIfAbsent(f.name(), f);
            if (had != null && !had.equals(f)) {
                throw Require.invalid(path, f.name(), "two formats named '" + f.name() + "': "
                        + had.describe() + " and " + f.describe());
            }
        }
    }
}
